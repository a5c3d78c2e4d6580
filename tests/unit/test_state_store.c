/* The state store without a sandbox: id rules, claims, corrupt state, and
   a status computed from a pid and its start time.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_io.h"
#include "runtime/state_store.h"
#include "tap.h"

static bool
id_ok (const char *id)
{
  struct sbx_error err = { 0 };
  return sbx_state_check_id (id, &err) == 0;
}

static void
test_ids (void)
{
  char long_id[1026];
  memset (long_id, 'a', sizeof long_id - 1);
  long_id[1025] = '\0';
  tap_ok (id_ok ("web-1_a.b"), "letters, digits, _ . - are allowed");
  tap_ok (!id_ok (""), "an empty id is refused");
  tap_ok (!id_ok (".") && !id_ok (".."), ". and .. are refused");
  tap_ok (!id_ok ("a/b") && !id_ok ("a b"), "/ and spaces are refused");
  tap_ok (!id_ok (long_id), "1025 characters are refused");
  long_id[1024] = '\0';
  tap_ok (id_ok (long_id), "1024 characters are allowed");
}

static void
write_state (const char *root, const char *id, const char *text)
{
  char path[512];
  struct sbx_error err = { 0 };
  snprintf (path, sizeof path, "%s/%s/state.json", root, id);
  sbx_write_file_atomic (path, text, strlen (text), 0600, &err);
}

static void
test_store (const char *root)
{
  struct sbx_container c;
  struct sbx_error err = { 0 };
  tap_ok (sbx_state_claim (root, "one", &c, &err) == 0, "claim a new id");
  sbx_state_close (&c);
  sbx_error_clear (&err);
  tap_ok (sbx_state_claim (root, "one", &c, &err) == -EEXIST
              && strcmp (err.msg, "container \"one\" already exists") == 0,
          "a second claim: %s", err.msg);
  sbx_state_close (&c);

  /* Our own pid and start time: alive, and created until marked.  */
  char text[256];
  snprintf (text, sizeof text,
            "{\"ociVersion\":\"1.2.0\",\"id\":\"one\",\"pid\":%d,"
            "\"bundle\":\"/b\",\"org.sbx-oci\":{\"startTime\":%llu}}",
            (int) getpid (), sbx_pid_start_time (getpid ()));
  write_state (root, "one", text);
  sbx_error_clear (&err);
  int r = sbx_state_open (root, "one", true, &c, &err);
  tap_ok (r == 0 && sbx_state_status (&c) == SBX_STATUS_CREATED,
          "a live pid with its start time and no start: created");
  sbx_state_close (&c);

  /* The same pid with another start time is a recycled pid.  */
  snprintf (text, sizeof text,
            "{\"pid\":%d,\"bundle\":\"/b\",\"org.sbx-oci\":{\"startTime\":1}}",
            (int) getpid ());
  write_state (root, "one", text);
  r = sbx_state_open (root, "one", false, &c, &err);
  tap_ok (r == 0 && sbx_state_status (&c) == SBX_STATUS_STOPPED,
          "a recycled pid (other start time): stopped");
  sbx_state_close (&c);

  write_state (root, "one", "{\"pid\": 1, \"bun");
  sbx_error_clear (&err);
  r = sbx_state_open (root, "one", false, &c, &err);
  tap_ok (r == -EINVAL && strstr (err.msg, "one/state.json: corrupt state"),
          "truncated JSON names the file: %s", err.msg);
  char pts[512];
  snprintf (pts, sizeof pts, "%s/one/pts", root);
  mkdir (pts, 0755); /* what a create killed with a terminal leaves */
  tap_ok (c.dir != NULL && sbx_state_remove (&c, &err) == 0
              && access (c.dir, F_OK) < 0,
          "a corrupt container, pts directory and all, can still be "
          "removed");
  sbx_state_close (&c);

  sbx_error_clear (&err);
  r = sbx_state_open (root, "one", false, &c, &err);
  tap_ok (r == -ENOENT
              && strcmp (err.msg, "container \"one\" does not exist") == 0,
          "after removal: %s", err.msg);
  sbx_state_close (&c);
}

/* A --root that is a file is named as such, not as a missing container. */
static void
test_root_is_file (const char *root)
{
  char file[512];
  snprintf (file, sizeof file, "%s/plain", root);
  struct sbx_error err = { 0 };
  sbx_write_file_atomic (file, "", 0, 0600, &err);
  struct sbx_container c;
  int r = sbx_state_open (file, "one", false, &c, &err);
  tap_ok (r == -ENOTDIR && strstr (err.msg, "cannot open ")
              && strstr (err.msg, "/plain/one"),
          "a root that is a file: %s", err.msg);
  sbx_state_close (&c);
  unlink (file);
}

int
main (void)
{
  char root[] = "/tmp/sbx-state-store-XXXXXX";
  if (mkdtemp (root) == NULL)
    return 1;
  test_ids ();
  test_store (root);
  test_root_is_file (root);
  rmdir (root);
  return tap_done ();
}
