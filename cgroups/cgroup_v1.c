/* cgroup v1: one directory per controller hierarchy (memory, pids and,
   when mounted, freezer, cpu, cpuset and devices), each entered and
   removed separately.  */
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"
#include "common/signal_hold.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
undo_create (struct sbx_cgroup *cg)
{
  for (int c = SBX_CG_N; c-- > 0;)
    if (cg->v1[c])
      cgfs_rmdir_tree (cg->v1[c]);
  cgfs_rmdir_made (&cg->made);
}

/* Make the cgroup in controller C's hierarchy, or share the directory of
   an earlier controller mounted together with it (e.g. "memory,pids").  */
static int
make_one (const struct sbx_cgroup_layout *layout, char *const paths[], int c,
          struct sbx_cgroup *cg, struct sbx_error *err)
{
  const char *mount = layout->v1[c].mount;
  for (int e = 0; e < c; e++)
    if (cg->v1[e] && strcmp (layout->v1[e].mount, mount) == 0
        && strcmp (paths[e], paths[c]) == 0)
      {
        cg->v1[c] = strdup (cg->v1[e]);
        return cg->v1[c] ? 0 : -ENOMEM;
      }
  int r = cgfs_mkdir_path (mount, paths[c], &cg->made);
  if (r == -EEXIST)
    return sbx_fail (err, r,
                     "%s/%s: cgroup already exists; pick another "
                     "container id or cgroupsPath",
                     mount, paths[c]);
  if (r < 0)
    return sbx_fail_errno (err, r, "%s/%s: making the cgroup", mount,
                           paths[c]);
  cg->v1[c] = cgfs_join (mount, paths[c]);
  if (cg->v1[c] == NULL)
    return -ENOMEM;
  r = c == SBX_CG_CPUSET ? cg1_cpuset_inherit (mount, paths[c]) : 0;
  if (r < 0)
    return sbx_fail_errno (err, r, "%s/%s: copying the parent's cpuset", mount,
                           paths[c]);
  return 0;
}

static int
write_limits (struct sbx_cgroup *cg, const struct sbx_cgroup_limits *limits,
              struct sbx_error *err)
{
  int r = cg1_write_resources (cg, limits, err);
  if (r == 0 && limits->pids_limit > 0)
    {
      char num[32];
      snprintf (num, sizeof num, "%" PRId64, limits->pids_limit);
      const char *pids = cg->v1[SBX_CG_PIDS];
      r = cgfs_write (pids, "pids.max", num);
      if (r < 0)
        return sbx_fail_errno (err, r, "%s/pids.max: writing the limit", pids);
    }
  return r;
}

int
cg1_create (const struct sbx_cgroup_layout *layout,
            char *const paths[SBX_CG_N],
            const struct sbx_cgroup_limits *limits, struct sbx_cgroup *cg,
            struct sbx_error *err)
{
  int r = 0;
  for (int c = 0; r == 0 && c < SBX_CG_N; c++)
    if (paths[c])
      r = make_one (layout, paths, c, cg, err);
  if (r == 0)
    r = write_limits (cg, limits, err);
  if (r < 0)
    {
      undo_create (cg);
      return sbx_fail_errno (err, r, "making the cgroup");
    }
  return 0;
}

int
cg1_usage (struct sbx_cgroup *cg, struct sbx_cgroup_usage *out)
{
  const char *mem = cg->v1[SBX_CG_MEMORY], *pids = cg->v1[SBX_CG_PIDS];
  if (mem && !cgfs_has_file (mem, "cgroup.procs"))
    return -ENOENT;
  if (mem)
    {
      cgfs_read_int (mem, "memory.usage_in_bytes", &out->memory_current);
      cgfs_read_int (mem, "memory.max_usage_in_bytes", &out->memory_peak);
      cgfs_read_key (mem, "memory.oom_control", "oom_kill", &out->oom_kills);
      /* With swap accounting the memsw limit may be the one that is hit
         (it equals limit_in_bytes unless swap was asked).  */
      int64_t memsw_hits = -1;
      cgfs_read_int (mem, "memory.failcnt", &out->memory_max_hits);
      cgfs_read_int (mem, "memory.memsw.failcnt", &memsw_hits);
      if (memsw_hits > out->memory_max_hits)
        out->memory_max_hits = memsw_hits;
    }
  if (pids)
    {
      cgfs_read_int (pids, "pids.current", &out->pids_current);
      cgfs_read_int (pids, "pids.peak", &out->pids_peak);
      cgfs_read_key (pids, "pids.events", "max", &out->pids_max_hits);
    }
  return 0;
}

static int
wait_frozen (const char *dir)
{
  for (int waited = 0; waited < 2000; waited += 5)
    {
      cleanup_free char *state = NULL;
      int r = cgfs_read (dir, "freezer.state", &state);
      if (r < 0)
        return r;
      if (strcmp (state, "FROZEN") == 0)
        return 0;
      nanosleep (&(struct timespec){ .tv_nsec = 5 * 1000 * 1000 }, NULL);
    }
  return -ETIMEDOUT;
}

int
cg1_kill (struct sbx_cgroup *cg, int sig, struct sbx_error *err)
{
  const char *fz = cg->v1[SBX_CG_FREEZER];
  /* A freezer directory that is not there was never made (a create
     killed while making its directories, each hierarchy's in turn): the
     runner enters only once all are, so no process is in any of them.  */
  sigset_t old;
  sbx_signals_hold (&old);
  int r = fz ? cgfs_write (fz, "freezer.state", "FROZEN") : -ENOENT;
  if (r == -ENOENT)
    {
      sbx_signals_release (&old);
      const char *pids = cg->v1[SBX_CG_PIDS];
      r = pids ? cgfs_signal_unfrozen (pids, sig) : 0;
      return r < 0 && r != -ENOENT
                 ? sbx_fail_errno (err, r, "%s: signalling members", pids)
                 : 0;
    }
  /* Frozen members cannot fork, so one pass reaches them all.  A v1
     frozen task acts on the signal (even SIGKILL) once thawed.  Held
     from the freeze to the thaw: a cgroup left frozen by a signal
     meanwhile holds its members, unkillable, for good.  */
  if (r == 0)
    r = wait_frozen (fz);
  size_t sent = 0;
  if (r == 0)
    r = cgfs_signal_members (fz, sig, &sent);
  int t = cgfs_write (fz, "freezer.state", "THAWED");
  sbx_signals_release (&old);
  if (r < 0)
    return sbx_fail_errno (err, r, "%s: freezing and signalling members", fz);
  if (t < 0)
    return sbx_fail_errno (err, t, "%s/freezer.state: thawing", fz);
  return 0;
}
