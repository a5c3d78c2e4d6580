#include "runtime/linux/supervise/container_limits.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/json_gen.h"
#include "runtime/linux/confine/fd_scrub.h"
#include "runtime/linux/confine/rlimits.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/state/sandbox_record.h"
#include "runtime/linux/state/state_store.h"
#include "runtime/linux/supervise/detach.h"
#include "runtime/linux/supervise/resources_tuning.h"

/* The cgroup is recorded in the container's directory DIR before it is
   made (runtime/linux/state/sandbox_record.h): a create killed while making it
   leaves its name for delete --force.  One that could not be made (it
   existed: someone else's) is struck off again at once.  */
static int
make_cgroup (struct sbx_container_limits *lim,
             const struct sbx_cgroup_layout *layout,
             const struct sbx_resources_tuning *tuning,
             const char *cgroups_path, const char *id, const char *dir,
             struct sbx_error *err)
{
  struct sbx_cgroup_limits want = { lim->memory_limit, lim->pids_limit };
  cleanup_free struct sbx_cgroup_device *devices = NULL;
  if (sbx_tuning_to_cgroup (tuning, &want, &devices) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_strv struct strv planned = { 0 };
  int r = sbx_cgroup_paths (layout, cgroups_path, id, &planned, err);
  r = r ?: sbx_record_cgroup (dir, &planned, err);
  if (r < 0)
    return r;
  r = sbx_cgroup_create (layout, cgroups_path, id, &want, &lim->cgroup, err);
  if (r < 0)
    {
      struct sbx_error ignored = { 0 };
      sbx_record_append (dir, "nocgroup", &ignored);
      return r;
    }
  if (lim->memory_limit > 0 || lim->pids_limit > 0)
    lim->mechanism = SBX_LIMITS_QUOTA;
  return 0;
}

int
sbx_container_limits_setup (struct sbx_container_limits *lim,
                            const struct sbx_plan *plan,
                            const struct sbx_resources_tuning *tuning,
                            const char *cgroups_path, bool systemd,
                            const char *id, const char *dir,
                            struct sbx_error *err)
{
  *lim = (struct sbx_container_limits){
    .memory_limit = plan->memory_limit,
    .pids_limit = plan->pids_limit,
    .interval_ms = plan->sample_interval_ms,
    .wall_clock_ms = plan->wall_clock_ms,
  };
  bool limited = lim->memory_limit > 0 || lim->pids_limit > 0;
  bool named = cgroups_path && cgroups_path[0];
  if (!limited && !named && !systemd && !sbx_tuning_asked (tuning))
    return 0;
  cleanup_free char *path = NULL;
  if (systemd)
    {
      int r = sbx_cgroup_systemd_path (cgroups_path, id, &path, err);
      if (r < 0)
        return r;
      cgroups_path = path;
    }
  struct sbx_cgroup_layout layout;
  int r = sbx_cgroup_detect (&layout, err);
  if (r < 0)
    return r;
  if (layout.version != SBX_CGROUP_NONE)
    r = make_cgroup (lim, &layout, tuning, cgroups_path, id, dir, err);
  else if (limited)
    lim->mechanism = SBX_LIMITS_MONITOR;
  sbx_cgroup_layout_free (&layout);
  return r;
}

/* The grandchild: none of the caller's descriptors (its stdio may be
   conmon's pipes, whose EOF conmon waits for), then the watcher.  */
static __attribute__ ((noreturn)) void
exec_watcher (char **argv)
{
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  int null = open ("/dev/null", O_RDWR);
  for (int fd = 0; null >= 0 && fd < 3; fd++)
    dup2 (null, fd);
  sbx_close_fds_from (3);
  /* Nothing of the caller's environment either: it needs none.  */
  char *no_env[] = { NULL };
  if (chdir ("/") == 0)
    execve ("/proc/self/exe", argv, no_env);
  _exit (127);
}

static void
watcher_main (const void *argv)
{
  exec_watcher ((char **) argv);
}

int
sbx_container_limits_watch (struct sbx_container_limits *lim, const char *dir,
                            pid_t pid, unsigned long long start,
                            struct sbx_error *err)
{
  bool sample = lim->mechanism == SBX_LIMITS_MONITOR;
  if (!sample && lim->wall_clock_ms == 0)
    return 0;
  cleanup_free char *abs_dir = realpath (dir, NULL);
  if (abs_dir == NULL)
    return sbx_fail_errno (err, -errno, "cannot resolve %s", dir);
  /* Under a quota the kernel holds memory and processes: the watcher
     keeps the clock only.  No limit is 0 to the watcher, which takes no
     sign.  */
  char s_pid[24], s_start[24], s_mem[24], s_pids[24], s_ms[24], s_wall[24];
  snprintf (s_pid, sizeof s_pid, "%d", (int) pid);
  snprintf (s_start, sizeof s_start, "%llu", start);
  snprintf (s_mem, sizeof s_mem, "%lld",
            sample && lim->memory_limit > 0 ? (long long) lim->memory_limit
                                            : 0LL);
  snprintf (s_pids, sizeof s_pids, "%lld",
            sample && lim->pids_limit > 0 ? (long long) lim->pids_limit : 0LL);
  snprintf (s_ms, sizeof s_ms, "%u", lim->interval_ms);
  snprintf (s_wall, sizeof s_wall, "%llu",
            (unsigned long long) lim->wall_clock_ms);
  char *argv[] = { "sbx-oci", SBX_WATCHER_COMMAND,
                   abs_dir,   s_pid,
                   s_start,   s_mem,
                   s_pids,    s_ms,
                   s_wall,    NULL };
  int r = sbx_fork_detached (watcher_main, argv, &lim->watcher);
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot start the limits watcher");
  lim->watcher_start = sbx_pid_start_time (lim->watcher);
  if (lim->watcher_start == 0)
    return sbx_fail (err, -ESRCH, "the limits watcher ended at once");
  return sbx_record_pid (dir, "watcher", lim->watcher, lim->watcher_start,
                         err);
}

void
sbx_container_limits_hold_nproc (struct sbx_container_limits *lim, pid_t pid)
{
  struct sbx_error ignored = { 0 };
  if (lim->mechanism == SBX_LIMITS_MONITOR && lim->pids_limit > 0)
    lim->nproc_rlimit
        = sbx_rlimit_set_nproc (pid, (uint64_t) lim->pids_limit, &ignored)
          == 0;
}

int
sbx_container_limits_record (yajl_gen g,
                             const struct sbx_container_limits *lim)
{
  int r = sbx_json_open (g, false);
  r = r
          ?: sbx_json_key_str (g, "mechanism",
                               sbx_limits_mechanism_name (lim->mechanism));
  if (lim->memory_limit > 0)
    r = r ?: sbx_json_key_int (g, "memoryLimit", lim->memory_limit);
  if (lim->pids_limit > 0)
    r = r ?: sbx_json_key_int (g, "pidsLimit", lim->pids_limit);
  if (lim->nproc_rlimit)
    r = r ?: sbx_json_key_bool (g, "pidsRlimit", true);
  if (lim->wall_clock_ms > 0)
    r = r
            ?: sbx_json_key_int (g, "wallClockMs",
                                 (long long) lim->wall_clock_ms);
  if (lim->cgroup)
    {
      cleanup_strv struct strv cg = { 0 };
      r = r ?: sbx_cgroup_to_strv (lim->cgroup, &cg);
      r = r ?: sbx_json_key_strv (g, "cgroup", &cg);
    }
  if (lim->watcher > 0)
    {
      r = r ?: sbx_json_key_int (g, "watcherPid", lim->watcher);
      r = r
              ?: sbx_json_key_int (g, "watcherStartTime",
                                   (long long) lim->watcher_start);
    }
  return r ?: sbx_json_close (g, false);
}

void
sbx_container_limits_undo (struct sbx_container_limits *lim)
{
  struct sbx_error ignored = { 0 };
  if (lim->watcher > 0)
    sbx_stop_pid (lim->watcher, lim->watcher_start);
  lim->watcher = 0;
  if (lim->cgroup)
    {
      sbx_cgroup_kill (lim->cgroup, SIGKILL, &ignored);
      sbx_cgroup_destroy (lim->cgroup, &ignored);
    }
}

void
sbx_container_limits_release (struct sbx_container_limits *lim)
{
  if (lim->cgroup)
    sbx_cgroup_free (lim->cgroup);
  lim->cgroup = NULL;
}
