/* When a failed set-up is made again (runtime/linux/bwrap/setup_retry.h):
   only after the mount table changed, and never past the last attempt.
   The mounts are made in a mount namespace of the test's own.  */
#include "runtime/linux/bwrap/setup_retry.h"
#include "tests/unit/in_child.h"
#include "tests/unit/tap.h"

#include <sched.h>
#include <sys/mount.h>

enum
{
  AT_REST_NOT_AGAIN = 1,
  CHANGED_AGAIN = 2,
  NEXT_AT_REST_NOT_AGAIN = 4,
  LAST_NOT_AGAIN = 8,
  NO_WATCH_NOT_AGAIN = 16,
};

static int
change_mounts (void)
{
  return mount ("sbx-test", "/tmp", "tmpfs", 0, NULL);
}

static int
watch_cases (char *out, size_t len)
{
  int flags = geteuid () == 0 ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS;
  if (unshare (flags) < 0
      || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
    {
      snprintf (out, len, "no mount namespace of its own: %m");
      return 100;
    }
  int got = 0, w = sbx_mounts_watch ();
  if (!sbx_setup_again (&w, 1))
    got |= AT_REST_NOT_AGAIN;
  if (change_mounts () == 0 && sbx_setup_again (&w, 1))
    got |= CHANGED_AGAIN;
  if (w >= 0 && !sbx_setup_again (&w, 2))
    got |= NEXT_AT_REST_NOT_AGAIN;
  if (change_mounts () == 0 && !sbx_setup_again (&w, SBX_SETUP_ATTEMPTS))
    got |= LAST_NOT_AGAIN;
  int none = -1;
  if (change_mounts () == 0 && !sbx_setup_again (&none, 1))
    got |= NO_WATCH_NOT_AGAIN;
  return got;
}

int
main (void)
{
  char out[256];
  int got = in_child (watch_cases, out, sizeof out);
  if (got == 100)
    {
      printf ("1..0 # SKIP %s\n", out);
      return 0;
    }
  tap_ok (got >= 0 && (got & AT_REST_NOT_AGAIN),
          "mounts at rest: a failed set-up is not made again");
  tap_ok (got >= 0 && (got & CHANGED_AGAIN),
          "a mount made during the attempt: the set-up is made again");
  tap_ok (got >= 0 && (got & NEXT_AT_REST_NOT_AGAIN),
          "the next attempt is watched afresh: at rest, not again");
  tap_ok (got >= 0 && (got & LAST_NOT_AGAIN),
          "the last attempt is not made again, whatever changed");
  tap_ok (got >= 0 && (got & NO_WATCH_NOT_AGAIN),
          "without a watch, nothing is made again");
  return tap_done ();
}
