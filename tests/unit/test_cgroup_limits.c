/* Real quotas on this host's layout (v1 here, v2 where it has memory and
   pids): pids limit, memory OOM, kill, destroy, serialize/reopen, and the
   clean refusal for an unprivileged caller without a delegated subtree.
   Needs a usable layout (root, or a delegated v2 subtree); otherwise the
   tests skip.  Every cgroup made is removed, also on failure.  */
#include "cgroups/cgroup.h"
#include "tests/unit/cgroup_child.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024 * 1024)

static struct sbx_cgroup_layout layout;
static struct sbx_cgroup *current; /* removed by cleanup () */

static void
cleanup (void)
{
  struct sbx_error err = { 0 };
  if (current == NULL)
    return;
  sbx_cgroup_kill (current, SIGKILL, &err);
  if (sbx_cgroup_destroy (current, &err) < 0)
    printf ("# cleanup: %s\n", err.msg);
  sbx_cgroup_free (current);
  current = NULL;
}

static void
on_alarm (int sig)
{
  (void) sig;
  printf ("not ok - timed out\n");
  cleanup ();
  _exit (1);
}

static struct sbx_cgroup *
make (const char *id, int64_t memory, int64_t pids)
{
  char full[64];
  snprintf (full, sizeof full, "test-%d-%s", (int) getpid (), id);
  struct sbx_cgroup_limits limits = { memory, pids };
  struct sbx_error err = { 0 };
  int r = sbx_cgroup_create (&layout, NULL, full, &limits, &current, &err);
  if (!tap_ok (r == 0, "%s: create", id))
    printf ("# %s\n", err.msg);
  alarm (8);
  return r == 0 ? current : NULL;
}

/* Fork a child that waits until it is in the cgroup, then runs FN.  */
static int
fork_40 (void)
{
  int refused = 0;
  for (int i = 0; i < 40; i++)
    {
      pid_t p = fork ();
      if (p == 0)
        {
          pause ();
          _exit (0);
        }
      if (p < 0 && errno == EAGAIN)
        refused++;
    }
  return refused;
}

static int
touch_256_mib (void)
{
  size_t size = 256 * (size_t) MiB;
  char *p = mmap (NULL, size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return 2;
  for (size_t i = 0; i < size; i += 4096)
    p[i] = 1;
  return 0; /* the limit did not hold */
}

/* Double fork: the member that stays is a setsid()'d orphan.  */
static int
daemonize_sleep (void)
{
  if (fork () == 0)
    {
      setsid ();
      if (fork () == 0)
        pause ();
      _exit (0);
    }
  return 0;
}

static size_t
count_members (struct sbx_cgroup *cg)
{
  pid_t *pids = NULL;
  size_t n = 0;
  struct sbx_error err = { 0 };
  sbx_cgroup_pids (cg, &pids, &n, &err);
  free (pids);
  return n;
}

static bool
wait_members (struct sbx_cgroup *cg, size_t want)
{
  for (int i = 0; i < 200; i++)
    {
      if (count_members (cg) == want)
        return true;
      nanosleep (&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
    }
  return false;
}

static void
test_pids_limit (void)
{
  struct sbx_cgroup *cg = make ("pids", -1, 16);
  if (cg == NULL)
    return;
  pid_t child = spawn_inside (cg, fork_40);
  int status = 0;
  waitpid (child, &status, 0);
  int refused = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
  tap_ok (refused >= 25, "pids.max 16: %d of 40 forks failed with EAGAIN",
          refused);
  struct sbx_cgroup_usage u;
  struct sbx_error err = { 0 };
  int r = sbx_cgroup_usage (cg, &u, &err);
  printf ("# pids current=%lld peak=%lld max_hits=%lld\n",
          (long long) u.pids_current, (long long) u.pids_peak,
          (long long) u.pids_max_hits);
  tap_ok (r == 0 && u.pids_max_hits >= 1, "pids.events max counts the hits");
  tap_ok (u.pids_current == 15 && u.pids_peak >= 15 && u.pids_peak <= 16,
          "pids current and peak");
  cleanup ();
}

static void
test_memory_limit (void)
{
  struct sbx_cgroup *cg = make ("memory", 64 * MiB, -1);
  if (cg == NULL)
    return;
  pid_t child = spawn_inside (cg, touch_256_mib);
  int status = 0;
  waitpid (child, &status, 0);
  tap_ok (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL,
          "memory 64 MiB: a child touching 256 MiB is killed (status %#x)",
          status);
  struct sbx_cgroup_usage u;
  struct sbx_error err = { 0 };
  int r = sbx_cgroup_usage (cg, &u, &err);
  printf ("# memory current=%lld peak=%lld oom_kills=%lld max_hits=%lld\n",
          (long long) u.memory_current, (long long) u.memory_peak,
          (long long) u.oom_kills, (long long) u.memory_max_hits);
  tap_ok (r == 0 && u.oom_kills >= 1, "usage reports the oom kill");
  tap_ok (u.memory_peak >= 56 * MiB && u.memory_peak <= 65 * MiB,
          "memory peak is close to the limit");
  cleanup ();
}

static bool
paths_gone (char **paths)
{
  for (size_t i = 0; paths[i]; i++)
    {
      const char *path = strchr (paths[i], '=') + 1;
      bool made = strncmp (paths[i], "made=", 5) == 0;
      /* A made parent may stay: another sandbox may live in it now.  */
      if (access (path, F_OK) == 0 && (!made || rmdir (path) == 0))
        return false;
    }
  return true;
}

static void
test_kill_and_destroy (void)
{
  struct sbx_cgroup *cg = make ("kill", -1, -1);
  if (cg == NULL)
    return;
  int (*fns[]) (void) = { sleep_forever, sleep_forever, sleep_forever,
                          setsid_sleep, daemonize_sleep };
  pid_t pids[5];
  for (int i = 0; i < 5; i++)
    pids[i] = spawn_inside (cg, fns[i]);
  waitpid (pids[4], NULL, 0);
  tap_ok (wait_members (cg, 5), "5 sleeping members (one setsid, one "
                                "double-forked)");
  struct sbx_error err = { 0 };
  tap_ok (sbx_cgroup_kill (cg, SIGKILL, &err) == 0, "kill SIGKILL (%s)",
          err.msg);
  tap_ok (wait_members (cg, 0), "kill leaves no member");
  int killed = 0;
  for (int i = 0; i < 4; i++)
    {
      int status = 0;
      waitpid (pids[i], &status, 0);
      killed += WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL;
    }
  tap_ok (killed == 4, "the direct children died of SIGKILL");
  struct strv paths = { 0 };
  sbx_cgroup_to_strv (cg, &paths);
  tap_ok (sbx_cgroup_destroy (cg, &err) == 0, "destroy (%s)", err.msg);
  tap_ok (paths_gone (paths.v), "destroy removed the directories");
  tap_ok (sbx_cgroup_destroy (cg, &err) == 0, "destroy again is fine");
  strv_free (&paths);
  sbx_cgroup_free (cg);
  current = NULL;
}

static void
test_other_signal (void)
{
  struct sbx_cgroup *cg = make ("term", -1, -1);
  if (cg == NULL)
    return;
  pid_t a = spawn_inside (cg, sleep_forever);
  pid_t b = spawn_inside (cg, setsid_sleep);
  wait_members (cg, 2);
  struct sbx_error err = { 0 };
  tap_ok (sbx_cgroup_kill (cg, SIGTERM, &err) == 0, "kill SIGTERM (%s)",
          err.msg);
  int sa = 0, sb = 0;
  waitpid (a, &sa, 0);
  waitpid (b, &sb, 0);
  tap_ok (WIFSIGNALED (sa) && WTERMSIG (sa) == SIGTERM && WIFSIGNALED (sb)
              && WTERMSIG (sb) == SIGTERM,
          "SIGTERM reached every member and the cgroup was thawed");
  pid_t c = spawn_inside (cg, sleep_forever);
  wait_members (cg, 1);
  tap_ok (sbx_cgroup_destroy (cg, &err) == -EBUSY
              && strstr (err.msg, "still has processes"),
          "destroy refuses a cgroup with processes");
  cleanup ();
  waitpid (c, NULL, 0);
}

/* A create killed while making its cgroup leaves some of the directories
   recorded and not made (on v1, one per controller): kill and destroy
   through the record still succeed, and remove what was made.  */
static void
test_half_made (void)
{
  struct sbx_cgroup *cg = make ("half", 32 * MiB, 8);
  if (cg == NULL)
    return;
  struct strv paths = { 0 };
  struct sbx_error err = { 0 };
  sbx_cgroup_to_strv (cg, &paths);
  /* The freezer's directory (v1: kill freezes through it), else the
     last one, as if never made.  */
  const char *last = NULL;
  for (size_t i = 0; i < paths.n; i++)
    if (strncmp (paths.v[i], "freezer=", 8) == 0)
      last = paths.v[i] + 8;
    else if (strncmp (paths.v[i], "made=", 5) != 0 && strchr (paths.v[i], '=')
             && (last == NULL || strstr (last, "/freezer/") == NULL))
      last = strchr (paths.v[i], '=') + 1;
  tap_ok (last && rmdir (last) == 0, "remove %s", last ? last : "(none)");
  struct sbx_cgroup *reopened = NULL;
  int r = sbx_cgroup_open (paths.v, &reopened, &err);
  tap_ok (r == 0, "reopen the half-made cgroup (%s)", err.msg);
  if (r == 0)
    {
      tap_ok (sbx_cgroup_kill (reopened, SIGKILL, &err) == 0,
              "kill through it (%s)", err.msg);
      sbx_error_clear (&err);
      tap_ok (sbx_cgroup_destroy (reopened, &err) == 0 && paths_gone (paths.v),
              "destroy removes what was made (%s)", err.msg);
      sbx_cgroup_free (reopened);
    }
  sbx_cgroup_free (cg);
  current = NULL;
  strv_free (&paths);
  cleanup ();
}

static void
test_serialize_reopen (void)
{
  struct sbx_cgroup *cg = make ("state", 32 * MiB, 8);
  if (cg == NULL)
    return;
  struct strv paths = { 0 }, again = { 0 };
  struct sbx_error err = { 0 };
  sbx_cgroup_to_strv (cg, &paths);
  for (size_t i = 0; i < paths.n; i++)
    printf ("# %s\n", paths.v[i]);
  struct sbx_cgroup *reopened = NULL;
  int r = sbx_cgroup_open (paths.v, &reopened, &err);
  tap_ok (r == 0, "reopen from strings (%s)", err.msg);
  if (r == 0)
    {
      sbx_cgroup_to_strv (reopened, &again);
      bool same = again.n == paths.n;
      for (size_t i = 0; same && i < paths.n; i++)
        same = strcmp (again.v[i], paths.v[i]) == 0;
      tap_ok (same, "reopened handle serializes the same");
      pid_t child = spawn_inside (reopened, sleep_forever);
      tap_ok (count_members (cg) == 1, "enter through the reopened handle");
      sbx_cgroup_kill (reopened, SIGKILL, &err);
      waitpid (child, NULL, 0);
      tap_ok (sbx_cgroup_destroy (reopened, &err) == 0 && paths_gone (paths.v),
              "destroy through the reopened handle (%s)", err.msg);
      sbx_cgroup_free (reopened);
      sbx_cgroup_free (cg);
      current = NULL;
    }
  cleanup ();
  char *bad[][3] = { { "v2=/tmp", NULL },
                     { "v2=/sys/fs/cgroup/../../etc", NULL },
                     { "memory=/sys/fs/cgroup/memory/x", NULL },
                     { "v2=/sys/fs/cgroup/x", "made=/sys/fs/cgroup/y", NULL },
                     { "v2", NULL },
                     { NULL } };
  for (int i = 0; i < 6; i++)
    {
      sbx_error_clear (&err);
      reopened = NULL;
      r = sbx_cgroup_open (bad[i], &reopened, &err);
      tap_ok (r == -EINVAL && reopened == NULL
                  && strstr (err.msg, "cgroup state"),
              "open refuses \"%s\"", bad[i][0] ? bad[i][0] : "(nothing)");
    }
  strv_free (&paths);
  strv_free (&again);
}

/* With no cgroup to be had, create fails with the reason, never crashes. */
static int
expect_refusal (void)
{
  struct sbx_cgroup_layout l;
  struct sbx_error err = { 0 };
  if (sbx_cgroup_detect (&l, &err) < 0)
    return 1;
  struct sbx_cgroup_limits limits = { 64 * MiB, 16 };
  struct sbx_cgroup *cg = NULL;
  int r = sbx_cgroup_create (&l, NULL, "refused", &limits, &cg, &err);
  if (l.version != SBX_CGROUP_NONE)
    {
      /* A delegated subtree exists for this user: that works too.  */
      if (r == 0)
        {
          sbx_cgroup_destroy (cg, &err);
          sbx_cgroup_free (cg);
        }
      return r == 0 ? 0 : 3;
    }
  printf ("# uid %d: %s\n", (int) geteuid (), err.msg);
  sbx_cgroup_layout_free (&l);
  return r == -EOPNOTSUPP && cg == NULL
                 && strncmp (err.msg, "no cgroup can be made: ", 23) == 0
                 && strlen (err.msg) > 23
             ? 0
             : 2;
}

static void
test_unprivileged (void)
{
  if (geteuid () != 0)
    {
      tap_ok (expect_refusal () == 0,
              "unprivileged: create refused with "
              "the reason, or works in a delegated subtree");
      return;
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (setgroups (0, NULL) < 0 || setgid (65534) < 0 || setuid (65534) < 0)
        _exit (4);
      _exit (expect_refusal ());
    }
  int status = 0;
  waitpid (pid, &status, 0);
  tap_ok (WIFEXITED (status) && WEXITSTATUS (status) == 0,
          "as uid 65534: create refused with the reason (status %#x)", status);
}

int
main (void)
{
  struct sbx_error err = { 0 };
  setvbuf (stdout, NULL, _IONBF, 0);
  signal (SIGALRM, on_alarm);
  if (sbx_cgroup_detect (&layout, &err) < 0)
    {
      printf ("Bail out! %s\n", err.msg);
      return 1;
    }
  printf ("# layout %s, controllers %#x %s\n",
          sbx_cgroup_version_name (layout.version), layout.controllers,
          layout.reason);
  test_unprivileged ();
  if (layout.version == SBX_CGROUP_NONE)
    {
      printf ("ok %d # SKIP no cgroup for this user: %s\n", ++tap_count,
              layout.reason);
      return tap_done ();
    }
  test_pids_limit ();
  test_memory_limit ();
  test_half_made ();
  test_kill_and_destroy ();
  test_other_signal ();
  test_serialize_reopen ();
  alarm (0);
  sbx_cgroup_layout_free (&layout);
  return tap_done ();
}
