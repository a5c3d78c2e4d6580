/* cgroup v2: one directory carries every controller.  */
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const v2_controllers[SBX_CG_N]
    = { "memory", "pids", NULL,      "cpu", "cpuset",
        NULL,     "io",   "hugetlb", NULL,  NULL };

/* Enable in DIR's cgroup.subtree_control the controllers of WANT that are
   not enabled yet.  They must be offered by DIR's cgroup.controllers.  */
static int
enable_in (const char *dir, unsigned want, struct sbx_error *err)
{
  for (int c = 0; c < SBX_CG_N; c++)
    {
      const char *name = v2_controllers[c];
      if (!(want & SBX_CG_BIT (c)) || name == NULL
          || cgfs_file_has_word (dir, "cgroup.subtree_control", name))
        continue;
      if (!cgfs_file_has_word (dir, "cgroup.controllers", name))
        return sbx_fail (err, -EOPNOTSUPP,
                         "%s/cgroup.controllers: the %s controller is not "
                         "offered; enable it in the parent cgroup",
                         dir, name);
      char op[16];
      snprintf (op, sizeof op, "+%s", name);
      int r = cgfs_write (dir, "cgroup.subtree_control", op);
      if (r == -EBUSY)
        return sbx_fail (err, r,
                         "%s/cgroup.subtree_control: cannot enable "
                         "%s in a cgroup that has processes; use a "
                         "cgroupsPath outside it",
                         dir, name);
      if (r < 0)
        return sbx_fail_errno (err, r,
                               "%s/cgroup.subtree_control: "
                               "enabling %s",
                               dir, name);
    }
  return 0;
}

/* Make every ancestor of MOUNT/PATH hand WANT down to it: find the
   ancestors that lack a controller (stopping at the first that has them
   all, or at the root), then enable top-down.  */
static int
enable_controllers (const char *mount, const char *path, unsigned want,
                    struct sbx_error *err)
{
  cleanup_strv struct strv chain = { 0 };
  cleanup_free char *rel = strdup (path);
  if (rel == NULL)
    return -ENOMEM;
  for (;;)
    {
      char *slash = strrchr (rel, '/');
      if (rel[0] == '\0')
        break;
      if (slash)
        *slash = '\0';
      else
        rel[0] = '\0';
      cleanup_free char *dir = cgfs_join (mount, rel);
      if (dir == NULL)
        return -ENOMEM;
      bool has_all = true;
      for (int c = 0; c < SBX_CG_N; c++)
        if ((want & SBX_CG_BIT (c)) && v2_controllers[c]
            && !cgfs_file_has_word (dir, "cgroup.subtree_control",
                                    v2_controllers[c]))
          has_all = false;
      if (has_all)
        break;
      if (strv_push (&chain, dir) < 0)
        return -ENOMEM;
    }
  for (size_t i = chain.n; i-- > 0;)
    {
      int r = enable_in (chain.v[i], want, err);
      if (r < 0)
        return r;
    }
  return 0;
}

static int
write_limits (const char *dir, const struct sbx_cgroup_limits *limits,
              struct sbx_error *err)
{
  char num[32];
  int r = 0;
  const char *file = "memory.max";
  if (limits->memory_limit > 0)
    {
      snprintf (num, sizeof num, "%" PRId64, limits->memory_limit);
      r = cgfs_write (dir, file, num);
    }
  if (r == 0 && limits->pids_limit > 0)
    {
      snprintf (num, sizeof num, "%" PRId64, limits->pids_limit);
      r = cgfs_write (dir, file = "pids.max", num);
    }
  if (r < 0)
    return sbx_fail_errno (err, r, "%s/%s: writing the limit", dir, file);
  return cg2_write_resources (dir, limits, err);
}

/* The controllers the cgroup needs: memory and pids always (the layout's),
   cpu, cpuset, io and hugetlb only when asked, so a host or a delegated
   subtree that lacks them still runs containers that do not ask.  */
static unsigned
wanted (const struct sbx_cgroup_layout *layout,
        const struct sbx_cgroup_limits *limits)
{
  unsigned want = layout->controllers;
  for (int c = SBX_CG_CPU; c < SBX_CG_N; c++)
    if (v2_controllers[c] && sbx_cgroup_wants (limits, c))
      want |= SBX_CG_BIT (c);
  return want;
}

int
cg2_create (const struct sbx_cgroup_layout *layout, const char *path,
            const struct sbx_cgroup_limits *limits, struct sbx_cgroup *cg,
            struct sbx_error *err)
{
  const char *mount = layout->unified.mount;
  int r = cgfs_mkdir_path (mount, path, &cg->made);
  if (r < 0)
    {
      cgfs_rmdir_made (&cg->made);
      if (r == -EEXIST)
        return sbx_fail (err, r,
                         "%s/%s: cgroup already exists; pick "
                         "another container id or cgroupsPath",
                         mount, path);
      return sbx_fail_errno (err, r, "%s/%s: making the cgroup", mount, path);
    }
  cg->unified = cgfs_join (mount, path);
  if (cg->unified == NULL)
    r = -ENOMEM;
  if (r == 0)
    r = enable_controllers (mount, path, wanted (layout, limits), err);
  if (r == 0)
    r = write_limits (cg->unified, limits, err);
  /* Not for an unprivileged caller: it cannot load the program, and it
     can make no device node a rule would stop (mknod of a device needs
     CAP_MKNOD in the host's user namespace), as rootless runc and crun
     skip it.  */
  if (r == 0 && limits->n_devices && layout->privileged)
    r = cg2_write_devices (cg->unified, limits, err);
  if (r < 0)
    {
      cgfs_rmdir_tree (cg->unified);
      cgfs_rmdir_made (&cg->made);
      return sbx_fail_errno (err, r, "%s/%s: making the cgroup", mount, path);
    }
  return 0;
}

int
cg2_usage (struct sbx_cgroup *cg, struct sbx_cgroup_usage *out)
{
  const char *d = cg->unified;
  if (!cgfs_has_file (d, "cgroup.procs"))
    return -ENOENT;
  cgfs_read_int (d, "memory.current", &out->memory_current);
  cgfs_read_int (d, "memory.peak", &out->memory_peak);
  cgfs_read_key (d, "memory.events", "oom_kill", &out->oom_kills);
  cgfs_read_key (d, "memory.events", "max", &out->memory_max_hits);
  cgfs_read_int (d, "pids.current", &out->pids_current);
  cgfs_read_int (d, "pids.peak", &out->pids_peak);
  cgfs_read_key (d, "pids.events", "max", &out->pids_max_hits);
  return 0;
}

static bool
wait_frozen (const char *dir)
{
  for (int waited = 0; waited < 2000; waited += 5)
    {
      int64_t frozen = 0;
      if (cgfs_read_key (dir, "cgroup.events", "frozen", &frozen) == 0
          && frozen == 1)
        return true;
      nanosleep (&(struct timespec){ .tv_nsec = 5 * 1000 * 1000 }, NULL);
    }
  return false;
}

int
cg2_kill (struct sbx_cgroup *cg, int sig, struct sbx_error *err)
{
  const char *d = cg->unified;
  int r;
  /* cgroup.kill (5.14) kills the whole subtree atomically, forks in
     flight included: nothing to race with.  */
  if (sig == SIGKILL && cgfs_has_file (d, "cgroup.kill"))
    {
      r = cgfs_write (d, "cgroup.kill", "1");
      return r < 0 ? sbx_fail_errno (err, r, "%s/cgroup.kill", d) : 0;
    }
  /* Frozen members cannot fork, so one pass over cgroup.procs reaches
     them all; signals are delivered when thawed.  */
  bool frozen = cgfs_write (d, "cgroup.freeze", "1") == 0;
  if (frozen && !wait_frozen (d))
    {
      cgfs_write (d, "cgroup.freeze", "0");
      return sbx_fail (err, -ETIMEDOUT,
                       "%s/cgroup.events: the cgroup did "
                       "not freeze within 2 s",
                       d);
    }
  size_t sent = 0;
  r = frozen ? cgfs_signal_members (d, sig, &sent)
             : cgfs_signal_unfrozen (d, sig);
  int t = frozen ? cgfs_write (d, "cgroup.freeze", "0") : 0;
  /* Not there: never made (a create killed before it), so no member.  */
  if (r < 0 && !(r == -ENOENT && !frozen))
    return sbx_fail_errno (err, r, "%s: signalling members", d);
  if (t < 0)
    return sbx_fail_errno (err, t, "%s/cgroup.freeze: thawing", d);
  return 0;
}
