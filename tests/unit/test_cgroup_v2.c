/* cgroup v2 mechanics that need no controller: create, enter, list,
   cgroup.kill, freeze-signal-thaw, destroy.  Runs on any writable cgroup2
   mount (on a hybrid host: /sys/fs/cgroup/unified, which has no memory
   or pids), so the v2 code is exercised even where v1 holds the quotas.
   Root only; each cgroup made is removed, also on failure.  */
#include "cgroups/cgroup.h"
#include "tests/unit/cgroup_child.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <sys/sysmacros.h>
#include <string.h>
#include <stdio.h>
#include <fcntl.h>
#include <grp.h>
#include <mntent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct sbx_cgroup_layout layout;
static struct sbx_cgroup *current;

static void
cleanup (void)
{
  struct sbx_error err = { 0 };
  if (current == NULL)
    return;
  sbx_cgroup_kill (current, SIGKILL, &err);
  sbx_cgroup_destroy (current, &err);
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

static char *
cgroup2_mount (void)
{
  FILE *f = setmntent ("/proc/self/mounts", "re");
  struct mntent *m;
  char *found = NULL;
  while (f && !found && (m = getmntent (f)))
    if (strcmp (m->mnt_type, "cgroup2") == 0)
      found = strdup (m->mnt_dir);
  if (f)
    endmntent (f);
  return found;
}

static size_t
members (void)
{
  pid_t *pids = NULL;
  size_t n = 0;
  struct sbx_error err = { 0 };
  sbx_cgroup_pids (current, &pids, &n, &err);
  free (pids);
  return n;
}

static void
run (const char *what, int sig)
{
  char path[128];
  snprintf (path, sizeof path, "/sbx-oci-test-%d/%s", (int) getpid (), what);
  struct sbx_cgroup_limits none = { -1, -1 };
  struct sbx_error err = { 0 };
  int r = sbx_cgroup_create (&layout, path, "unused", &none, &current, &err);
  if (!tap_ok (r == 0, "%s: create %s (%s)", what, path, err.msg))
    return;
  alarm (8);
  pid_t pids[3] = { spawn_inside (current, sleep_forever),
                    spawn_inside (current, sleep_forever),
                    spawn_inside (current, setsid_sleep) };
  tap_ok (members () == 3, "%s: 3 members listed", what);
  tap_ok (sbx_cgroup_kill (current, sig, &err) == 0, "%s: kill %d (%s)", what,
          sig, err.msg);
  int died = 0;
  for (int i = 0; i < 3; i++)
    {
      int status = 0;
      waitpid (pids[i], &status, 0);
      died += WIFSIGNALED (status) && WTERMSIG (status) == sig;
    }
  tap_ok (died == 3, "%s: all 3 died of signal %d", what, sig);
  struct strv paths = { 0 };
  sbx_cgroup_to_strv (current, &paths);
  tap_ok (paths.n == 2 && strncmp (paths.v[0], "v2=", 3) == 0
              && strncmp (paths.v[1], "made=", 5) == 0,
          "%s: serialized as v2= and made=", what);
  tap_ok (sbx_cgroup_destroy (current, &err) == 0, "%s: destroy (%s)", what,
          err.msg);
  bool gone = true;
  for (size_t i = 0; i < paths.n; i++)
    gone = gone && access (strchr (paths.v[i], '=') + 1, F_OK) < 0;
  tap_ok (gone, "%s: the cgroup and the parent sbx made are gone", what);
  strv_free (&paths);
  sbx_cgroup_free (current);
  current = NULL;
}

/* What a member may do with device nodes: bit 0 /dev/null opened rw,
   1 /dev/kmsg opened for reading, 2 for writing, 3 mknod of kmsg's
   numbers (c 1:11) in a fresh directory.  */
static int
device_access (void)
{
  char dir[] = "/tmp/sbx-devtest.XXXXXX", node[64];
  int bits = 0, fd;
  if ((fd = open ("/dev/null", O_RDWR)) >= 0 && close (fd) == 0)
    bits |= 1;
  if ((fd = open ("/dev/kmsg", O_RDONLY | O_NONBLOCK)) >= 0 && close (fd) == 0)
    bits |= 2;
  if ((fd = open ("/dev/kmsg", O_WRONLY)) >= 0 && close (fd) == 0)
    bits |= 4;
  if (mkdtemp (dir) == NULL)
    return 64;
  snprintf (node, sizeof node, "%s/kmsg", dir);
  if (mknod (node, S_IFCHR | 0600, makedev (1, 11)) == 0)
    bits |= 8;
  unlink (node);
  rmdir (dir);
  return bits;
}

/* linux.resources.devices as a BPF device program: RULES applied to a
   member gives WANT (device_access's bits).  */
static void
run_devices (const char *what, const struct sbx_cgroup_device *rules, size_t n,
             int want)
{
  char path[128];
  snprintf (path, sizeof path, "/sbx-oci-test-%d/dev", (int) getpid ());
  struct sbx_cgroup_limits limits = { -1, -1 };
  limits.devices = rules;
  limits.n_devices = n;
  struct sbx_error err = { 0 };
  int r = sbx_cgroup_create (&layout, path, "unused", &limits, &current, &err);
  if (!tap_ok (r == 0, "devices, %s: create (%s)", what, err.msg))
    return;
  int status = 0;
  waitpid (spawn_inside (current, device_access), &status, 0);
  tap_ok (WIFEXITED (status) && WEXITSTATUS (status) == want,
          "devices, %s: a member may do %#x, wanted %#x", what,
          WIFEXITED (status) ? WEXITSTATUS (status) : -1, want);
  cleanup ();
}

static void
devices_cases (void)
{
  const struct sbx_cgroup_device deny_all[]
      = { { false, 'a', -1, -1, "rwm" } };
  /* podman's shape: deny all, the defaults allowed by the runtime.  */
  run_devices ("deny all", deny_all, 1, 1);
  const struct sbx_cgroup_device read_kmsg[] = { { false, 'a', -1, -1, "rwm" },
                                                 { true, 'c', 1, 11, "rw" },
                                                 { false, 'c', 1, 11, "w" } };
  /* v1's reduction: the later deny takes w from the earlier allow.  */
  run_devices ("allow rw then deny w", read_kmsg, 3, 1 | 2);
  const struct sbx_cgroup_device no_write[] = { { false, 'c', 1, -1, "wm" } };
  /* Default allow, one deny: any access it names is refused.  */
  run_devices ("deny c 1:* wm", no_write, 1, 2);
  /* 4294967295 is "any", as v1's kernel reads it.  */
  const struct sbx_cgroup_device any_major[]
      = { { false, 'c', 4294967295, -1, "wm" } };
  run_devices ("deny c 4294967295:* wm", any_major, 1, 2);
  const struct sbx_cgroup_device all_again[]
      = { { false, 'a', -1, -1, "rwm" }, { true, 'a', -1, -1, "rwm" } };
  run_devices ("deny all, then allow all", all_again, 2, 1 | 2 | 4 | 8);
}

static int
step_failed (int code, const struct sbx_error *err)
{
  printf ("# %s\n", err->msg);
  return code;
}

/* systemd-style user delegation: DELEG and DELEG/inner belong to uid
   65534, the caller sits in inner, and sbx makes DELEG/sbx-oci/ID.  */
static int
delegated_child (const char *mount, const char *deleg)
{
  char own[256];
  snprintf (own, sizeof own, "%s/inner", deleg + strlen (mount) + 1);
  char procs[512], pid[16];
  snprintf (procs, sizeof procs, "%s/inner/cgroup.procs", deleg);
  snprintf (pid, sizeof pid, "%d", (int) getpid ());
  FILE *f = fopen (procs, "w");
  if (f == NULL || fputs (pid, f) < 0 || fclose (f) != 0)
    return 10;
  if (setgroups (0, NULL) < 0 || setgid (65534) < 0 || setuid (65534) < 0)
    return 11;
  layout.privileged = false;
  free (layout.unified.own);
  free (layout.unified.base);
  layout.unified.own = strdup (own);
  layout.unified.base = strdup (deleg + strlen (mount) + 1);
  struct sbx_cgroup_limits none = { -1, -1 };
  struct sbx_error err = { 0 };
  if (sbx_cgroup_create (&layout, NULL, "u1", &none, &current, &err) < 0)
    return step_failed (12, &err);
  pid_t member = spawn_inside (current, setsid_sleep);
  int status = 0;
  if (members () != 1 || sbx_cgroup_kill (current, SIGKILL, &err) < 0)
    return step_failed (13, &err);
  waitpid (member, &status, 0);
  if (sbx_cgroup_destroy (current, &err) < 0)
    return step_failed (14, &err);
  return WIFSIGNALED (status) ? 0 : 15;
}

static void
run_delegated (const char *mount)
{
  char deleg[256], path[512];
  snprintf (deleg, sizeof deleg, "%s/sbx-oci-test-%d-deleg", mount,
            (int) getpid ());
  snprintf (path, sizeof path, "%s/inner", deleg);
  const char *files[]
      = { "", "/cgroup.procs", "/cgroup.subtree_control", "/cgroup.threads" };
  if (mkdir (deleg, 0755) < 0 || mkdir (path, 0755) < 0)
    printf ("# mkdir %s failed\n", path);
  for (int i = 0; i < 4; i++)
    for (int inner = 0; inner < 2; inner++)
      {
        snprintf (path, sizeof path, "%s%s%s", deleg, inner ? "/inner" : "",
                  files[i]);
        if (chown (path, 65534, 65534) < 0)
          printf ("# chown %s failed\n", path);
      }
  pid_t pid = fork ();
  if (pid == 0)
    _exit (delegated_child (mount, deleg));
  int status = 0;
  waitpid (pid, &status, 0);
  tap_ok (WIFEXITED (status) && WEXITSTATUS (status) == 0,
          "uid 65534 in a delegated subtree: create, enter, kill, destroy "
          "(status %#x)",
          status);
  snprintf (path, sizeof path, "%s/inner", deleg);
  tap_ok (rmdir (path) == 0 && rmdir (deleg) == 0,
          "the delegated subtree holds nothing of sbx afterwards");
}

int
main (void)
{
  setvbuf (stdout, NULL, _IONBF, 0);
  char *mount = cgroup2_mount ();
  char probe[4200];
  snprintf (probe, sizeof probe, "%s/cgroup.procs", mount ? mount : "/");
  if (geteuid () != 0 || mount == NULL || access (probe, W_OK) < 0)
    {
      printf ("ok 1 # SKIP needs root and a writable cgroup2 mount\n1..1\n");
      free (mount);
      return 0;
    }
  signal (SIGALRM, on_alarm);
  layout = (struct sbx_cgroup_layout){
    .version = SBX_CGROUP_V2,
    .privileged = true,
    .unified = { .mount = mount, .own = strdup (""), .base = strdup ("") },
  };
  struct sbx_cgroup_limits pids = { -1, 16 };
  struct sbx_error err = { 0 };
  tap_ok (sbx_cgroup_create (&layout, NULL, "x", &pids, &current, &err)
              == -EOPNOTSUPP,
          "a limit without its controller is refused");
  devices_cases ();
  run ("sigkill", SIGKILL);
  run ("sigterm", SIGTERM);
  run_delegated (mount);
  sbx_cgroup_layout_free (&layout);
  return tap_done ();
}
