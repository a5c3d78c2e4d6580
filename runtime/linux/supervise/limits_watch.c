/* `create`'s side of the limits (limits.h): the watcher, and the record
   the state keeps.  */
#include "runtime/linux/supervise/limits.h"

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
#include "runtime/linux/pidfd.h"
#include "runtime/linux/state/sandbox_record.h"
#include "runtime/linux/pid_identity.h"
#include "runtime/linux/supervise/detach.h"

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
sbx_limits_watch (struct sbx_limits *lim, const char *dir, pid_t pid,
                  unsigned long long start, struct sbx_error *err)
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

int
sbx_limits_record (yajl_gen g, const struct sbx_limits *lim)
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
sbx_limits_undo (struct sbx_limits *lim)
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
