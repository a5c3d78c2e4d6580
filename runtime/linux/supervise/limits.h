/* Which mechanism holds a run's memory and process limits, and the glue
   around it.  A kernel quota (a cgroup, see cgroups/cgroup.h) when the
   host lets sbx create one: the runner enters it before it execs, so the
   whole sandbox is inside.  Otherwise the monitor: the supervision loop
   samples the sandbox's process tree
   (runtime/linux/supervise/process_sample.h) and tears the sandbox down on a
   breach.  */
#ifndef SBX_LIMITS_H
#define SBX_LIMITS_H

#include "cgroups/cgroup.h"
#include "runtime/linux/supervise/process_sample.h"
#include "runtime/outcome.h"

enum sbx_limits_mechanism
{
  SBX_LIMITS_NONE, /* the plan has no memory or pids limit */
  SBX_LIMITS_QUOTA,
  SBX_LIMITS_MONITOR,
};

/* "none", "quota" or "monitor": the name the state and outcome use.  */
const char *sbx_limits_mechanism_name (enum sbx_limits_mechanism m);

struct sbx_limits
{
  enum sbx_limits_mechanism mechanism;
  int64_t memory_limit, pids_limit; /* <= 0: none */
  uint32_t interval_ms;             /* the plan's sampling interval */
  struct sbx_cgroup *cgroup;        /* QUOTA */
  struct sbx_sampler sampler;       /* MONITOR, initialised only then */
  bool nproc_rlimit; /* MONITOR: RLIMIT_NPROC holds pids_limit */
  uint64_t peak_rss, peak_processes;
  uint64_t last_rss, last_ms; /* the previous sample, for the rate */
};

/* Choose the mechanism for PLAN and, for a quota, create the cgroup
   (named from CGROUPS_PATH, or "sbx-oci/<ID>+run.<pidns>.<pid>.<start>",
   after removing the ones of runs that were killed, see limits.c).  A host
   that offers cgroups but refuses to make one is an error, not a silent
   downgrade.  */
int sbx_limits_setup (struct sbx_limits *lim, const struct sbx_plan *plan,
                      const char *cgroups_path, const char *id,
                      struct sbx_error *err);

/* Whether the runner should start held so that RLIMIT_NPROC can be set
   in the sandbox (MONITOR with a pids limit: no quota to hold it).  */
bool sbx_limits_wants_nproc (const struct sbx_limits *lim);

/* With the runner RUNNER held: set RLIMIT_NPROC in the sandbox
   (runtime/linux/confine/rlimits.h).  On failure the pids limit stays sampled,
   and REASONS says why.  */
void sbx_limits_hold_nproc (struct sbx_limits *lim, pid_t runner,
                            struct strv *reasons);

/* MONITOR: sample the tree under SANDBOX_PID (<= 0: not known yet).
   Returns the breached limit, or SBX_LIMIT_NONE; *NEXT_MS is when to
   sample again: the plan's interval, shortened while memory grows
   towards the limit so a fast allocator is caught near it.  */
enum sbx_limit_kind sbx_limits_tick (struct sbx_limits *lim, pid_t sandbox_pid,
                                     uint64_t now_ms, uint64_t *next_ms);

/* After the end: the mechanism and peaks into OUT, a quota's breach (an
   OOM kill) as a LIMIT outcome; the cgroup is emptied and removed.  */
int sbx_limits_finish (struct sbx_limits *lim, struct sbx_outcome *out,
                       struct sbx_error *err);

void sbx_limits_release (struct sbx_limits *lim);

#endif
