/* One limits subsystem for `run` and `create` (docs/design.md, "Limits").
   Which mechanism holds a sandbox's memory and process limits is chosen
   once, here, for both: a kernel quota (a cgroup, see cgroups/cgroup.h)
   when the host lets sbx create one, the runner entering it before it
   execs so the whole sandbox is inside; otherwise the monitor, which
   samples the sandbox's process tree (runtime/linux/supervise/
   process_sample.h) and ends the sandbox on a breach.  Under the monitor
   RLIMIT_NPROC also holds the pids limit where it can be set.

   What differs between the two on purpose is in the request:
   - `run` samples in its own supervision loop (supervise.h) and finishes
     the limits when the sandbox has ended (sbx_limits_finish): its cgroup
     never outlives it, and is named per run;
   - `create` leaves no sbx process behind but a watcher of the
     sandbox's own (sbx_limits_watch, started by a double fork so it is
     never the sandbox's parent), which samples and keeps the wall clock;
     its cgroup is named after the container and recorded in the
     container's directory before it is made (runtime/linux/state/
     sandbox_record.h), and the state keeps the record (sbx_limits_record)
     that `state`, `kill` and `delete` read back (limits_report.h).  */
#ifndef SBX_LIMITS_H
#define SBX_LIMITS_H

#include <stdbool.h>
#include <yajl/yajl_gen.h>

#include "cgroups/cgroup.h"
#include "common/strv.h"
#include "runtime/linux/supervise/process_sample.h"
#include "runtime/outcome.h"
#include "spec/spec.h"

/* What the watcher writes in the container's directory: its breach and
   peaks.  */
#define SBX_LIMITS_REPORT "limits.json"
/* The hidden command the watcher runs as: sbx-oci's own binary,
   exec'd afresh so it carries none of create's memory.  */
#define SBX_WATCHER_COMMAND "limits-watcher"

enum sbx_limits_mechanism
{
  SBX_LIMITS_NONE, /* the plan has no memory or pids limit */
  SBX_LIMITS_QUOTA,
  SBX_LIMITS_MONITOR,
};

/* "none", "quota" or "monitor": the name the state and outcome use.  */
const char *sbx_limits_mechanism_name (enum sbx_limits_mechanism m);

/* Where the limits are for, and the cgroup's placement.  */
struct sbx_limits_request
{
  const char *id;
  const char *cgroups_path; /* linux.cgroupsPath, or NULL */
  bool systemd;             /* --systemd-cgroup: CGROUPS_PATH is
                               "slice:prefix:name" */
  /* linux.resources' cpu, memory and device settings, or NULL: a cgroup
     carries them where one can be had; no watcher can hold a cpu share,
     so without one they are dropped.  */
  const struct sbx_resources_tuning *tuning;
  /* `create`: the container's directory, where the cgroup is recorded
     before it is made and the watcher reports.  NULL for `run`.  */
  const char *container_dir;
  /* Where a limit held by less than asked is said (the plan's
     enforcement reasons for `run`), or NULL.  */
  struct strv *reasons;
};

struct sbx_limits
{
  enum sbx_limits_mechanism mechanism;
  int64_t memory_limit, pids_limit; /* <= 0: none */
  uint32_t interval_ms;             /* the plan's sampling interval */
  uint64_t wall_clock_ms;           /* 0: none (`create`'s watcher) */
  /* A quota, or a cgroup made for a cgroupsPath or tuning alone.  */
  struct sbx_cgroup *cgroup;
  bool nproc_rlimit;       /* MONITOR: RLIMIT_NPROC holds pids_limit */
  bool nproc_rlimit_holds; /* the plan's: it can */
  struct strv *reasons;    /* the request's */
  /* Whoever samples (run's loop, the watcher): set up at the first tick. */
  bool sampling;
  struct sbx_sampler sampler;
  uint64_t peak_rss, peak_processes;
  uint64_t last_rss, last_ms; /* the previous sample, for the rate */
  pid_t watcher;              /* `create`: 0 until it runs */
  unsigned long long watcher_start;
};

/* Choose the mechanism for PLAN and make the cgroup when limits or
   tuning are asked, or a cgroupsPath is set.  Named from CGROUPS_PATH;
   default "sbx-oci/<ID>" for a container,
   "sbx-oci/<ID>+run.<pidns>.<pid>.<start>" for a run (after removing
   the ones of runs that were killed, see limits.c).  A host that offers
   cgroups but refuses to make one is an error, not a silent downgrade;
   without usable cgroups the limits fall to the monitor and a bare
   cgroupsPath is ignored (as rootless runc does).  */
int sbx_limits_setup (struct sbx_limits *lim, const struct sbx_plan *plan,
                      const struct sbx_limits_request *req,
                      struct sbx_error *err);

/* Whether RLIMIT_NPROC should hold the pids limit (MONITOR with one: no
   quota to hold it).  `run` then starts its runner held so it can be set
   in the sandbox.  */
bool sbx_limits_wants_nproc (const struct sbx_limits *lim);

/* Set RLIMIT_NPROC in the held sandbox (runtime/linux/confine/rlimits.h):
   through RUNNER, bwrap, whose one child is the sandbox's first process
   (`run`), or on that process itself when RUNNER is 0 and FIRST is it
   (`create`).  On failure the pids limit stays sampled, and the request's
   reasons say why.  */
void sbx_limits_hold_nproc (struct sbx_limits *lim, pid_t runner, pid_t first);

/* MONITOR: sample the tree under SANDBOX_PID (<= 0: not known yet).
   Returns the breached limit, or SBX_LIMIT_NONE; *NEXT_MS is when to
   sample again: the plan's interval, shortened while memory grows
   towards the limit so a fast allocator is caught near it.  */
enum sbx_limit_kind sbx_limits_tick (struct sbx_limits *lim, pid_t sandbox_pid,
                                     uint64_t now_ms, uint64_t *next_ms);

/* `run`, after the end: the mechanism and peaks into OUT, a quota's
   breach (an OOM kill) as a LIMIT outcome; the cgroup is emptied and
   removed.  */
int sbx_limits_finish (struct sbx_limits *lim, struct sbx_outcome *out,
                       struct sbx_error *err);

/* `create`, MONITOR or a wall clock: start the watcher for the sandbox
   PID (started at START, field 22 of its /proc stat), reporting into the
   request's container directory DIR, and record it there.  */
int sbx_limits_watch (struct sbx_limits *lim, const char *dir, pid_t pid,
                      unsigned long long start, struct sbx_error *err);

/* `create`: the record, as the value of the state's
   "org.sbx-oci"."limits".  */
int sbx_limits_record (yajl_gen g, const struct sbx_limits *lim);

/* `create` failed: stop the watcher, empty and remove the cgroup.  */
void sbx_limits_undo (struct sbx_limits *lim);

void sbx_limits_release (struct sbx_limits *lim);

#endif
