/* Limits on the create/start path (DESIGN.md, "Process model").  `create`
   chooses the mechanism as `run` does (runtime/linux/supervise/limits.h): a
   cgroup quota the runner enters before it execs, or, where no cgroup can be
   had, a watcher: a small process of its own session, started by a double fork
   so it is never the sandbox's parent (after `create` returns it is
   re-parented to the caller's subreaper, conmon or a shim, or to init;
   those reap it like any orphan and never mistake it for the sandbox,
   whose pid is the one in --pid-file).  The watcher holds a pidfd of the
   sandbox's pid 1, samples its tree, ends the sandbox on a breach through
   sbx_terminate and writes what it saw to LIMITS_REPORT in the
   container's directory.  A wall clock needs the watcher too, whatever
   holds memory and processes: it counts from `start` (the started mark)
   and ends the sandbox when it runs out.  state.json keeps the record: the
   mechanism, the limits, the cgroup's strings, the watcher's pid and start
   time.  */
#ifndef SBX_CONTAINER_LIMITS_H
#define SBX_CONTAINER_LIMITS_H

#include <stdbool.h>
#include <yajl/yajl_gen.h>

#include "runtime/linux/supervise/limits.h"

#define SBX_LIMITS_REPORT "limits.json"
/* The hidden command the watcher runs as: sbx-oci's own binary,
   exec'd afresh so it carries none of create's memory.  */
#define SBX_WATCHER_COMMAND "limits-watcher"

struct sbx_container_limits
{
  enum sbx_limits_mechanism mechanism;
  int64_t memory_limit, pids_limit; /* <= 0: none */
  uint32_t interval_ms;
  uint64_t wall_clock_ms;    /* 0: none */
  struct sbx_cgroup *cgroup; /* a quota, or a cgroupsPath without limits */
  bool nproc_rlimit;         /* MONITOR: RLIMIT_NPROC holds pids_limit too */
  pid_t watcher;             /* MONITOR or a wall clock: 0 until it runs */
  unsigned long long watcher_start;
};

/* Before the runner is spawned: detect the host's cgroups and make the
   sandbox's cgroup when limits are asked or CGROUPS_PATH is set.  Named
   from CGROUPS_PATH, default "sbx-oci/<ID>".  SYSTEMD (--systemd-cgroup):
   CGROUPS_PATH must be "slice:prefix:name" (mapped to the cgroupfs path
   systemd would use, see cgroups/cgroup.h), default ":sbx-oci:<ID>".
   Without usable cgroups, limits fall to the watcher and a bare
   CGROUPS_PATH is ignored (as rootless runc does).  The cgroup is put in
   the container directory DIR's second record before it is made
   (runtime/linux/state/sandbox_record.h), the watcher as soon as it runs.  */
int sbx_container_limits_setup (struct sbx_container_limits *lim,
                                const struct sbx_plan *plan,
                                const char *cgroups_path, bool systemd,
                                const char *id, const char *dir,
                                struct sbx_error *err);

/* MONITOR with a pids limit: set RLIMIT_NPROC on the held sandbox's first
   process PID (runtime/linux/confine/rlimits.h), so that the kernel holds
   the limit as it does for `run`.  Where it cannot, the watcher's samples
   alone hold it, and the state says so.  */
void sbx_container_limits_hold_nproc (struct sbx_container_limits *lim,
                                      pid_t pid);

/* MONITOR or a wall clock: start the watcher for the sandbox PID (started
   at START, field 22 of its /proc stat), reporting into the container
   directory DIR.  */
int sbx_container_limits_watch (struct sbx_container_limits *lim,
                                const char *dir, pid_t pid,
                                unsigned long long start,
                                struct sbx_error *err);

/* The record, as the value of the state's "org.sbx-oci"."limits".  */
int sbx_container_limits_record (yajl_gen g,
                                 const struct sbx_container_limits *lim);

/* `create` failed: stop the watcher, remove the cgroup.  */
void sbx_container_limits_undo (struct sbx_container_limits *lim);

void sbx_container_limits_release (struct sbx_container_limits *lim);

#endif
