#include "runtime/linux/supervise/limits.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/confine/rlimits.h"
#include "runtime/linux/state/sandbox_record.h"
#include "runtime/linux/pid_identity.h"
#include "runtime/linux/supervise/resources_tuning.h"

const char *
sbx_limits_mechanism_name (enum sbx_limits_mechanism m)
{
  static const char *const names[] = {
    [SBX_LIMITS_NONE] = "none",
    [SBX_LIMITS_QUOTA] = "quota",
    [SBX_LIMITS_MONITOR] = "monitor",
  };
  return names[m];
}

/* A run's own cgroup is named "<id>+run.<pidns>.<pid>.<start>": the
   run's pid namespace, pid and start time.  No container id holds a "+"
   (sbx_state_check_id), so no create's cgroup is ever taken for one, and
   two runs of one id never share a cgroup.  A run killed by SIGKILL cannot
   remove its cgroup: the next run with a quota does (sweep_dead_runs).  */
#define RUN_MARK "+run."

static unsigned long long
own_pidns (void)
{
  struct stat st;
  return stat ("/proc/self/ns/pid", &st) == 0 ? (unsigned long long) st.st_ino
                                              : 0;
}

/* Whether NAME is a run's cgroup whose run is gone: one of our own pid
   namespace (a pid elsewhere cannot be checked) whose pid no longer is
   the process that started at the recorded time.  */
static bool
dead_run (const char *name, void *pidns)
{
  const char *mark = strrchr (name, '+');
  unsigned long long ns, start;
  int pid, end = 0;
  if (mark == NULL || strncmp (mark, RUN_MARK, strlen (RUN_MARK)) != 0
      || sscanf (mark + strlen (RUN_MARK), "%llu.%d.%llu%n", &ns, &pid, &start,
                 &end)
             != 3
      || mark[strlen (RUN_MARK) + end] != '\0'
      || ns != *(unsigned long long *) pidns)
    return false;
  return !sbx_pid_alive_since (pid, start);
}

/* The cgroup's name: the container's id, or a run's own.  */
static void
cgroup_name (const struct sbx_limits_request *req, char *name, size_t size,
             unsigned long long pidns)
{
  if (req->container_dir)
    {
      snprintf (name, size, "%s", req->id);
      return;
    }
  pid_t self = getpid ();
  snprintf (name, size, "%s" RUN_MARK "%llu.%d.%llu", req->id, pidns,
            (int) self, sbx_pid_start_time (self));
}

/* A container's cgroup is recorded in its directory before it is made
   (runtime/linux/state/sandbox_record.h): a create killed while making it
   leaves its name for delete --force.  One that could not be made (it
   existed: someone else's) is struck off again at once.  A run's cgroup
   needs no record: the next run sweeps it (dead_run).  */
static int
make_cgroup (struct sbx_limits *lim, const struct sbx_cgroup_layout *layout,
             const struct sbx_limits_request *req, const char *cgroups_path,
             struct sbx_error *err)
{
  struct sbx_cgroup_limits want = { lim->memory_limit, lim->pids_limit };
  cleanup_free struct sbx_cgroup_device *devices = NULL;
  if (sbx_tuning_to_cgroup (req->tuning, &want, &devices) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  unsigned long long pidns = own_pidns ();
  char name[600];
  cgroup_name (req, name, sizeof name, pidns);
  int r = 0;
  if (req->container_dir)
    {
      cleanup_strv struct strv planned = { 0 };
      r = sbx_cgroup_paths (layout, cgroups_path, name, &want, &planned, err);
      r = r ?: sbx_record_cgroup (req->container_dir, &planned, err);
    }
  else if (cgroups_path == NULL || cgroups_path[0] == '\0')
    sbx_cgroup_sweep (layout, dead_run, &pidns);
  r = r
          ?: sbx_cgroup_create (layout, cgroups_path, name, &want,
                                &lim->cgroup, err);
  if (r < 0 && req->container_dir)
    {
      struct sbx_error ignored = { 0 };
      sbx_record_append (req->container_dir, "nocgroup", &ignored);
    }
  if (r == 0 && (lim->memory_limit > 0 || lim->pids_limit > 0))
    lim->mechanism = SBX_LIMITS_QUOTA;
  return r;
}

/* Once, however many times the set-up is made (setup_retry.h).  */
static void
add_reason (struct sbx_limits *lim, const char *reason)
{
  if (lim->reasons && !strv_contains (lim->reasons, reason))
    (void) strv_push (lim->reasons, reason);
}

int
sbx_limits_setup (struct sbx_limits *lim, const struct sbx_plan *plan,
                  const struct sbx_limits_request *req, struct sbx_error *err)
{
  *lim = (struct sbx_limits){ .memory_limit = plan->memory_limit,
                              .pids_limit = plan->pids_limit,
                              .nproc_rlimit_holds = plan->nproc_rlimit_holds,
                              .reasons = req->reasons,
                              .interval_ms = plan->sample_interval_ms,
                              .wall_clock_ms = plan->wall_clock_ms };
  bool limited = lim->memory_limit > 0 || lim->pids_limit > 0;
  const char *cgroups_path = req->cgroups_path;
  bool named = cgroups_path && cgroups_path[0];
  /* In a pid namespace joined by path, what the sandbox daemonizes is
     re-parented to that namespace's init, out of its first process's
     tree: only a cgroup of its own still holds it, for the end.  */
  bool joined = plan->join[SBX_NS_PID] != NULL;
  if (!limited && !named && !joined && !req->systemd
      && !sbx_tuning_asked (req->tuning))
    return 0;
  cleanup_free char *systemd_path = NULL;
  /* Under a ceiling the config may only narrow: its limits must not take
     the sandbox out of the limits the operator runs under, so the
     default name goes inside the caller's own cgroup, --systemd-cgroup
     or not.  A cgroupsPath there is the operator's approval
     ("cgroups-path") and goes where it says.  */
  bool nest = plan->under_ceiling && !named;
  if (req->systemd && !nest)
    {
      int r = sbx_cgroup_systemd_path (cgroups_path, req->id, &systemd_path,
                                       err);
      if (r < 0)
        return r == -ENOMEM ? sbx_fail (err, r, "out of memory") : r;
      cgroups_path = systemd_path;
    }
  struct sbx_cgroup_layout layout;
  int r = sbx_cgroup_detect (&layout, err);
  if (r < 0)
    return r;
  if (nest && sbx_cgroup_layout_nest (&layout) < 0)
    {
      sbx_cgroup_layout_free (&layout);
      return sbx_fail (err, -ENOMEM, "out of memory");
    }
  const char *unheld
      = req->tuning ? sbx_tuning_cgroup_only (req->tuning) : NULL;
  /* Device rules need no cgroup where a user namespace stops mknod, not
     for root in the host's (an approved CAP_MKNOD would pass them).  */
  if (!unheld && layout.privileged && req->tuning && req->tuning->n_devices)
    unheld = FIELD_RESOURCES ("devices");
  if (layout.version != SBX_CGROUP_NONE)
    r = make_cgroup (lim, &layout, req, cgroups_path, err);
  else if (unheld)
    r = sbx_refuse (err, -EOPNOTSUPP, unheld,
                    "only a cgroup holds it, and none can be made: %s",
                    layout.reason);
  else if (limited)
    lim->mechanism = SBX_LIMITS_MONITOR;
  if (lim->mechanism == SBX_LIMITS_MONITOR && lim->pids_limit > 0
      && !lim->nproc_rlimit_holds)
    add_reason (lim, "pids.limit: RLIMIT_NPROC may not hold the sandbox "
                     "(the kernel exempts host uid 0, which it may run as, "
                     "and the host's CAP_SYS_RESOURCE, which root's "
                     "container may keep), and no cgroup can be made: the "
                     "limit is only sampled");
  sbx_cgroup_layout_free (&layout);
  return r;
}

bool
sbx_limits_wants_nproc (const struct sbx_limits *lim)
{
  return lim->mechanism == SBX_LIMITS_MONITOR && lim->pids_limit > 0
         && lim->nproc_rlimit_holds;
}

void
sbx_limits_hold_nproc (struct sbx_limits *lim, pid_t runner, pid_t first)
{
  if (!sbx_limits_wants_nproc (lim))
    return;
  struct sbx_error err = { 0 };
  uint64_t limit = (uint64_t) lim->pids_limit;
  int r = runner > 0 ? sbx_rlimit_sandbox_nproc (runner, limit, &err)
                     : sbx_rlimit_set_nproc (first, limit, &err);
  lim->nproc_rlimit = r == 0;
  char reason[sizeof err.msg + 64];
  snprintf (reason, sizeof reason, "%s: the limit is only sampled", err.msg);
  if (r < 0)
    add_reason (lim, reason);
}

/* Sample sooner while memory grows towards the limit: half the time the
   current rate needs to reach it, at least 1 ms.  */
static uint64_t
next_interval (struct sbx_limits *lim, uint64_t rss, uint64_t now_ms)
{
  uint64_t next = lim->interval_ms;
  if (lim->memory_limit > 0 && lim->last_ms && now_ms > lim->last_ms
      && rss > lim->last_rss)
    {
      uint64_t rate = (rss - lim->last_rss) / (now_ms - lim->last_ms);
      uint64_t left = (uint64_t) lim->memory_limit - rss;
      uint64_t eta = rate ? left / rate : next;
      if (eta / 2 < next)
        next = eta / 2 ? eta / 2 : 1;
    }
  lim->last_rss = rss;
  lim->last_ms = now_ms;
  return next;
}

enum sbx_limit_kind
sbx_limits_tick (struct sbx_limits *lim, pid_t sandbox_pid, uint64_t now_ms,
                 uint64_t *next_ms)
{
  *next_ms = lim->interval_ms;
  struct sbx_sample s;
  if (lim->mechanism != SBX_LIMITS_MONITOR || sandbox_pid <= 0)
    return SBX_LIMIT_NONE;
  if (!lim->sampling)
    {
      sbx_sampler_init (&lim->sampler);
      lim->sampling = true;
    }
  if (sbx_sampler_take (&lim->sampler, sandbox_pid, &s) < 0)
    return SBX_LIMIT_NONE;
  if (s.rss_bytes > lim->peak_rss)
    lim->peak_rss = s.rss_bytes;
  if (s.processes > lim->peak_processes)
    lim->peak_processes = s.processes;
  if (lim->memory_limit > 0 && s.rss_bytes > (uint64_t) lim->memory_limit)
    return SBX_LIMIT_MEMORY;
  if (lim->pids_limit > 0 && s.processes > (uint64_t) lim->pids_limit)
    return SBX_LIMIT_PIDS;
  *next_ms = next_interval (lim, s.rss_bytes, now_ms);
  return SBX_LIMIT_NONE;
}

/* A run's cgroup, a quota or one made for tuning alone.  An OOM kill
   inside the quota is the memory limit at work: the outcome
   says so unless the command still ended well or bwrap exited 1 before
   it (outcome.set_up_failed: its own set-up failure, or its child's
   death before exec); a bwrap the OOM killer took while the command
   ran is the limit too.  Refused forks (pids.max
   hits) are reported, not turned into a breach: the command may have
   coped with them.  */
static int
finish_cgroup (struct sbx_limits *lim, struct sbx_outcome *out,
               struct sbx_error *err)
{
  struct sbx_cgroup_usage u;
  int r = sbx_cgroup_usage (lim->cgroup, &u, err);
  if (r == 0)
    {
      out->peak_memory = u.memory_peak > 0 ? (uint64_t) u.memory_peak : 0;
      out->peak_pids = u.pids_peak > 0 ? (uint64_t) u.pids_peak : 0;
      out->pids_limit_hits
          = u.pids_max_hits > 0 ? (uint64_t) u.pids_max_hits : 0;
      bool ended_well = out->kind == SBX_OUTCOME_EXITED && out->exit_code == 0;
      if (lim->memory_limit > 0 && u.oom_kills > 0
          && out->limit == SBX_LIMIT_NONE && !ended_well
          && !out->set_up_failed)
        {
          out->kind = SBX_OUTCOME_LIMIT;
          out->limit = SBX_LIMIT_MEMORY;
          out->signal = SIGKILL;
          snprintf (out->reason, sizeof out->reason,
                    "the memory limit was reached: the kernel killed %lld "
                    "process(es) of the sandbox",
                    (long long) u.oom_kills);
        }
    }
  /* The PID namespace is gone by now; whatever is left is a straggler.  */
  struct sbx_error kerr = { 0 };
  sbx_cgroup_kill (lim->cgroup, SIGKILL, &kerr);
  int d = sbx_cgroup_destroy (lim->cgroup, r < 0 ? &kerr : err);
  return r < 0 ? r : d;
}

int
sbx_limits_finish (struct sbx_limits *lim, struct sbx_outcome *out,
                   struct sbx_error *err)
{
  out->limits_mechanism = sbx_limits_mechanism_name (lim->mechanism);
  bool quota = lim->mechanism == SBX_LIMITS_QUOTA;
  if (lim->memory_limit > 0 && lim->mechanism != SBX_LIMITS_NONE)
    out->memory_held_by = quota ? "quota" : "sampled";
  if (lim->pids_limit > 0 && lim->mechanism != SBX_LIMITS_NONE)
    out->pids_held_by = quota               ? "quota"
                        : lim->nproc_rlimit ? "rlimit"
                                            : "sampled";
  if (lim->cgroup)
    return finish_cgroup (lim, out, err);
  if (lim->mechanism == SBX_LIMITS_MONITOR)
    {
      out->peak_memory = lim->peak_rss;
      out->peak_pids = lim->peak_processes;
    }
  return 0;
}

void
sbx_limits_release (struct sbx_limits *lim)
{
  if (lim->cgroup)
    sbx_cgroup_free (lim->cgroup);
  lim->cgroup = NULL;
  if (lim->sampling)
    sbx_sampler_free (&lim->sampler);
  lim->sampling = false;
}
