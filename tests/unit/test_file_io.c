#include "common/file_io.h"
#include "tests/unit/tap.h"

#include <errno.h>
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
test_write_control_file (void)
{
  char path[256];
  path_in_dir (path, sizeof path, "knob");
  struct sbx_error err = { 0 };
  sbx_write_file_atomic (path, "", 0, 0600, &err);
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

int
main (void)
{
  if (!tap_ok (mkdtemp (dir) != NULL, "temporary directory"))
    return tap_done ();
  test_write_control_file ();
  char cmd[300];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system (cmd) != 0)
    printf ("# cannot remove %s\n", dir);
  return tap_done ();
}
