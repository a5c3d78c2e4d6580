/* When a failed set-up is made again (runtime/linux/bwrap/setup_retry.h):
   only after the mount table changed or a covered host socket went away,
   and never past the last attempt.  The mounts are made in a mount
   namespace of the test's own.  */
#include "runtime/linux/bwrap/setup_retry.h"
#include "runtime/linux/container/sandbox.h"
#include "tests/unit/in_child.h"
#include "tests/unit/tap.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>

enum
{
  AT_REST_NOT_AGAIN = 1,
  CHANGED_AGAIN = 2,
  NEXT_AT_REST_NOT_AGAIN = 4,
  LAST_NOT_AGAIN = 8,
  NO_WATCH_NOT_AGAIN = 16,
  SOCKET_GONE_AGAIN = 32,
  SOCKET_GONE_LAST_NOT_AGAIN = 64,
};

/* Warnings as text on stderr.  */
static const struct sbx_context stderr_log = { 0 };

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
  if (!sbx_setup_again (&stderr_log, &w, 1, 0))
    got |= AT_REST_NOT_AGAIN;
  if (change_mounts () == 0 && sbx_setup_again (&stderr_log, &w, 1, 0))
    got |= CHANGED_AGAIN;
  if (w >= 0 && !sbx_setup_again (&stderr_log, &w, 2, 0))
    got |= NEXT_AT_REST_NOT_AGAIN;
  if (change_mounts () == 0
      && !sbx_setup_again (&stderr_log, &w, SBX_SETUP_ATTEMPTS, 0))
    got |= LAST_NOT_AGAIN;
  int none = -1;
  if (change_mounts () == 0 && !sbx_setup_again (&stderr_log, &none, 1, 0))
    got |= NO_WATCH_NOT_AGAIN;
  /* A fresh watch: the one above saw the last mount made.  */
  close (w);
  w = sbx_mounts_watch ();
  if (w >= 0 && sbx_setup_again (&stderr_log, &w, 1, 1))
    got |= SOCKET_GONE_AGAIN;
  if (w >= 0 && !sbx_setup_again (&stderr_log, &w, SBX_SETUP_ATTEMPTS, 1))
    got |= SOCKET_GONE_LAST_NOT_AGAIN;
  return got;
}

/* DIR/NAME, made a socket (bound, never listened on: only the file
   matters here) or, with PLAIN, a plain file.  */
static char *
make_file (const char *dir, const char *name, bool plain)
{
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  char *p = NULL;
  if (asprintf (&p, "%s/%s", dir, name) < 0 || strlen (p) >= sizeof a.sun_path)
    abort ();
  strcpy (a.sun_path, p);
  int fd = plain ? open (p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)
                 : socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || (!plain && bind (fd, (struct sockaddr *) &a, sizeof a) < 0))
    abort ();
  close (fd);
  return p;
}

/* Only the covers of sockets that are gone leave the plan, in order; one
   made anew is counted and keeps its cover; a cover of a plain file is
   never counted or left out.  */
static void
test_sockets_changed (void)
{
  char dir[] = "/tmp/sbx-test-sockets.XXXXXX";
  if (mkdtemp (dir) == NULL)
    abort ();
  char *gone = make_file (dir, "gone.sock", false);
  char *anew = make_file (dir, "anew.sock", false);
  char *still = make_file (dir, "still.sock", false);
  char *plain = make_file (dir, "plain", true);
  struct
  {
    enum sbx_plan_op op;
    enum sbx_plan_why why;
    const char *dest;
  } given[] = {
    { SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, gone },
    { SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, anew },
    { SBX_PLAN_HIDE_FILE, SBX_WHY_CREDENTIAL, "/nonexistent/sbx-key" },
    { SBX_PLAN_BIND_RO, SBX_WHY_SOCKET, "/nonexistent/sbx-protected" },
    { SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, plain },
    { SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, still },
  };
  size_t n = sizeof given / sizeof *given;
  struct sbx_plan plan = { .mounts = calloc (n, sizeof *plan.mounts) };
  for (size_t i = 0; i < n; i++)
    plan.mounts[plan.n_mounts++] = (struct sbx_plan_mount){
      .op = given[i].op, .why = given[i].why, .dest = strdup (given[i].dest)
    };
  struct sbx_sandbox sb = { .plan = &plan };
  struct sbx_error err = { 0 };
  tap_ok (sbx_sandbox_note_sockets (&sb, &err) == 0 && sb.n_socket_files == 3,
          "the three socket covers' files are noted, not the plain file's");
  tap_ok (sbx_sandbox_sockets_changed (&sb) == 0,
          "nothing changed: nothing counted");
  /* Made anew while the first is still open: another inode for sure.  */
  int held = open (anew, O_PATH | O_CLOEXEC);
  unlink (gone);
  unlink (anew);
  unlink (plain);
  free (make_file (dir, "anew.sock", false));
  tap_ok (sbx_sandbox_sockets_changed (&sb) == 2,
          "a socket gone and one made anew are counted, a plain file gone "
          "is not");
  bool kept
      = plan.n_mounts == 5 && strcmp (plan.mounts[0].dest, anew) == 0
        && strcmp (plan.mounts[1].dest, "/nonexistent/sbx-key") == 0
        && strcmp (plan.mounts[2].dest, "/nonexistent/sbx-protected") == 0
        && strcmp (plan.mounts[3].dest, plain) == 0
        && strcmp (plan.mounts[4].dest, still) == 0;
  tap_ok (kept, "only the gone socket's cover is left out: the one made "
                "anew, a credential store, a protected path and a plain "
                "file's cover stay, in order");
  tap_ok (sbx_sandbox_sockets_changed (&sb) == 0,
          "the one made anew is the one noted from then on");
  close (held);
  for (size_t i = 0; i < plan.n_mounts; i++)
    free (plan.mounts[i].dest);
  free (plan.mounts);
  free (sb.socket_files);
  unlink (anew);
  unlink (still);
  rmdir (dir);
  free (gone);
  free (anew);
  free (still);
  free (plain);
}

int
main (void)
{
  char out[256];
  test_sockets_changed ();
  int got = in_child (watch_cases, out, sizeof out);
  if (got == 100)
    {
      tap_ok (true, "# SKIP %s", out);
      return tap_done ();
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
  tap_ok (got >= 0 && (got & SOCKET_GONE_AGAIN),
          "a covered socket gone, mounts at rest: the set-up is made again");
  tap_ok (got >= 0 && (got & SOCKET_GONE_LAST_NOT_AGAIN),
          "a covered socket gone at the last attempt: not again");
  return tap_done ();
}
