#include "common/file_io.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/sbx-test-file-io-XXXXXX";

static void
path_in_dir (char *path, size_t size, const char *name)
{
  snprintf (path, size, "%s/%s", dir, name);
}

static void
put_file (char *path, size_t size, const char *name, const char *data,
          size_t len)
{
  struct sbx_error err = { 0 };
  path_in_dir (path, size, name);
  if (sbx_write_file_atomic (path, data, len, 0600, &err) < 0)
    printf ("# %s\n", err.msg);
}

static void
test_write_control_file (void)
{
  char path[256];
  put_file (path, sizeof path, "knob", "", 0);
  struct sbx_error err = { 0 };
  int r = sbx_write_control_file (path, "42");
  char *text = NULL;
  sbx_read_file (path, 4096, &text, NULL, &err);
  tap_ok (r == 0, "a control file is written (%d)", r);
  tap_streq (text, "42", "  with the whole value");
  free (text);

  path_in_dir (path, sizeof path, "missing");
  r = sbx_write_control_file (path, "1");
  tap_ok (r == -ENOENT, "a missing control file: -ENOENT (%d)", r);
  tap_ok (access (path, F_OK) < 0 && errno == ENOENT, "  and is not made");
}

/* Without O_NONBLOCK the open waits for a writer that never comes, and
   without the file-type check the read takes the FIFO's EOF for an empty
   config: the alarm turns the first into a failure, not a hang.  */
static void
test_regular_refuses_fifo (void)
{
  char path[256], want[300];
  path_in_dir (path, sizeof path, "fifo");
  if (!tap_ok (mkfifo (path, 0600) == 0, "a FIFO"))
    return;
  struct sbx_error err = { 0 };
  char *text = NULL;
  alarm (5);
  int r = sbx_read_regular_file (path, 4096, &text, NULL, &err);
  alarm (0);
  snprintf (want, sizeof want, "%s: not a regular file", path);
  tap_ok (r == -EINVAL && text == NULL, "a FIFO is refused, not waited on");
  tap_streq (err.msg, want, "  message names it");
  unlink (path);

  sbx_error_clear (&err);
  r = sbx_read_regular_file ("/dev/zero", 4096, &text, NULL, &err);
  tap_ok (r == -EINVAL && text == NULL, "a device is refused, not read");
}

static void
test_regular_reads (void)
{
  char path[256];
  put_file (path, sizeof path, "config", "{}\n", 3);
  struct sbx_error err = { 0 };
  char *text = NULL;
  size_t len = 0;
  int r = sbx_read_regular_file (path, 4096, &text, &len, &err);
  tap_ok (r == 0 && len == 3, "a regular file is read (%s)", err.msg);
  tap_streq (text, "{}\n", "  whole");
  free (text);

  r = sbx_read_regular_file (path, 2, &text, &len, &err);
  tap_ok (r == -EFBIG, "over the cap: -EFBIG");
  tap_ok (strstr (err.msg, "/config: larger than 2 bytes") != NULL,
          "  message: %s", err.msg);

  char below[300];
  snprintf (below, sizeof below, "%s/x", path);
  sbx_error_clear (&err);
  r = sbx_read_regular_file (below, 4096, &text, &len, &err);
  tap_ok (r == -ENOENT && err.code == 0,
          "a path through a file is absent, for the caller to name");
  unlink (path);
}

/* procfs says 0 bytes: the read goes on to EOF, past the first 4 KiB
   buffer (smaps runs to tens of KiB: a block per mapping).  */
static void
test_reads_procfs (void)
{
  struct sbx_error err = { 0 };
  char *text = NULL;
  size_t len = 0;
  int r = sbx_read_file ("/proc/self/smaps", 1 << 22, &text, &len, &err);
  tap_ok (r == 0 && len > 4096 && text[len - 1] == '\n'
              && strstr (text + len - 200, "VmFlags:") != NULL,
          "procfs read to its end, past the first buffer (%zu bytes) %s", len,
          err.msg);
  free (text);

  char path[256];
  static char big[10000];
  memset (big, 'x', sizeof big);
  put_file (path, sizeof path, "big", big, sizeof big);
  r = sbx_read_file (path, 1 << 20, &text, &len, &err);
  tap_ok (r == 0 && len == sizeof big && text[len] == '\0',
          "a file bigger than the first buffer is read whole");
  free (text);
  unlink (path);
}

/* The temporary name of old was PATH.tmp.PID: a symlink planted there by
   someone who can write the directory redirected the write.  */
static void
test_atomic_not_redirected (void)
{
  char path[256], planted[300], victim[256];
  put_file (victim, sizeof victim, "victim", "sentinel", 8);
  path_in_dir (path, sizeof path, "out.json");
  snprintf (planted, sizeof planted, "%s.tmp.%d", path, (int) getpid ());
  if (!tap_ok (symlink (victim, planted) == 0, "a symlink at PATH.tmp.PID"))
    return;
  struct sbx_error err = { 0 };
  int r = sbx_write_file_atomic (path, "{}", 2, 0600, &err);
  char *text = NULL;
  sbx_read_file (victim, 4096, &text, NULL, &err);
  tap_ok (r == 0, "the atomic write succeeds (%s)", err.msg);
  tap_streq (text, "sentinel", "  the symlink's target is untouched");
  free (text);
  text = NULL;
  sbx_read_file (path, 4096, &text, NULL, &err);
  tap_streq (text, "{}", "  the file is written where it was asked");
  free (text);
  unlink (planted);

  /* A symlink at PATH itself is replaced, not followed.  */
  unlink (path);
  tap_ok (symlink (victim, path) == 0, "a symlink at PATH");
  r = sbx_write_file_atomic (path, "new", 3, 0600, &err);
  text = NULL;
  sbx_read_file (victim, 4096, &text, NULL, &err);
  struct stat st;
  tap_ok (r == 0 && lstat (path, &st) == 0 && S_ISREG (st.st_mode),
          "  is replaced by the file");
  tap_streq (text, "sentinel", "  its target is untouched");
  free (text);
  unlink (path);
  unlink (victim);

  char missing[300];
  snprintf (missing, sizeof missing, "%s/no-such-dir/out.json", dir);
  sbx_error_clear (&err);
  r = sbx_write_file_atomic (missing, "x", 1, 0600, &err);
  tap_ok (r == -ENOENT && strstr (err.msg, missing) != NULL,
          "a missing directory fails naming the path: %s", err.msg);
}

int
main (void)
{
  if (!tap_ok (mkdtemp (dir) != NULL, "temporary directory"))
    return tap_done ();
  test_write_control_file ();
  test_regular_refuses_fifo ();
  test_regular_reads ();
  test_reads_procfs ();
  test_atomic_not_redirected ();
  char path[256];
  path_in_dir (path, sizeof path, "knob");
  unlink (path);
  rmdir (dir);
  return tap_done ();
}
