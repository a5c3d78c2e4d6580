/* The cgroup verbs: resolve the name, dispatch to v1 or v2, and the parts
   both share (enter, list, destroy).  */
#include "cgroups/cgroup.h"
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The cgroup directories of CG, each once (co-mounted v1 controllers
   share one).  Returns how many were put in DIRS.  */
static int
handle_dirs (const struct sbx_cgroup *cg, const char *dirs[SBX_CG_N])
{
  int n = 0;
  if (cg->version == SBX_CGROUP_V2)
    {
      dirs[n++] = cg->unified;
      return n;
    }
  for (int c = 0; c < SBX_CG_N; c++)
    {
      bool seen = cg->v1[c] == NULL;
      for (int i = 0; i < n && !seen; i++)
        seen = strcmp (dirs[i], cg->v1[c]) == 0;
      if (!seen)
        dirs[n++] = cg->v1[c];
    }
  return n;
}

static const char *
anchor_of (const struct sbx_cgroup_hierarchy *h, enum sbx_cgroup_anchor a)
{
  return a == SBX_CGROUP_AT_ROOT  ? ""
         : a == SBX_CGROUP_AT_OWN ? h->own
                                  : h->base;
}

/* Whether a v1 cgroup is made in controller C's hierarchy: in each one
   LAYOUT has, but those of blkio and after only when LIMITS (NULL: any)
   asks for them: in the others the workload stays in the caller's
   cgroup, under whatever limits the caller is under.  */
static bool
v1_makes (const struct sbx_cgroup_layout *layout,
          const struct sbx_cgroup_limits *limits, int c)
{
  return (layout->controllers & SBX_CG_BIT (c))
         && (c < SBX_CG_BLKIO || limits == NULL
             || sbx_cgroup_wants (limits, c));
}

static int
create_v1 (const struct sbx_cgroup_layout *layout,
           enum sbx_cgroup_anchor anchor, const char *rel,
           const struct sbx_cgroup_limits *limits, struct sbx_cgroup *cg,
           struct sbx_error *err)
{
  char *paths[SBX_CG_N] = { NULL };
  int r = 0;
  for (int c = 0; r == 0 && c < SBX_CG_N; c++)
    if (v1_makes (layout, limits, c))
      {
        paths[c] = cgfs_join (anchor_of (&layout->v1[c], anchor), rel);
        r = paths[c] ? 0 : -ENOMEM;
      }
  if (r == 0)
    r = cg1_create (layout, paths, limits, cg, err);
  for (int c = 0; c < SBX_CG_N; c++)
    free (paths[c]);
  return r;
}

bool
sbx_cgroup_wants (const struct sbx_cgroup_limits *limits, int c)
{
  switch (c)
    {
    case SBX_CG_CPU:
      return limits->cpu_shares || limits->cpu_quota || limits->cpu_period;
    case SBX_CG_CPUSET:
      return limits->cpus || limits->mems;
    case SBX_CG_DEVICES:
      return limits->n_devices > 0;
    case SBX_CG_BLKIO:
      return limits->block_io && sbx_block_io_asked (limits->block_io);
    case SBX_CG_HUGETLB:
      return limits->n_hugepage_limits > 0;
    case SBX_CG_NET_CLS:
      return limits->network && limits->network->has_class_id;
    case SBX_CG_NET_PRIO:
      return limits->network && limits->network->n_priorities > 0;
    default:
      return false;
    }
}

int
cg_put (const char *field, const char *dir, const char *file,
        const char *value, struct sbx_error *err)
{
  int r = cgfs_write (dir, file, value);
  /* The cgroup was just made: a file it lacks is a setting this kernel
     (or the device's I/O scheduler) does not have, which nothing else can
     hold either, refused as a missing controller is.  */
  if (r == -ENOENT)
    return sbx_refuse (err, r, field, "this host cannot hold it (no %s/%s)",
                       dir, file);
  if (r < 0)
    return sbx_fail_errno (err, r, "%s: %s/%s: writing %s", field, dir, file,
                           value);
  return 0;
}

/* hugetlb.SIZE.LIMIT_FILE for each hugepageLimits entry, and its
   reservation twin hugetlb.SIZE.rsvd.LIMIT_FILE where the kernel has one
   (5.7 on): without it, pages reserved by mmap and not yet touched escape
   the limit.  LIMIT_FILE is "limit_in_bytes" on v1, "max" on v2.  */
int
cg_put_hugetlb (const char *dir, const struct sbx_cgroup_limits *l,
                const char *limit_file, struct sbx_error *err)
{
  int r = 0;
  for (size_t i = 0; r == 0 && i < l->n_hugepage_limits; i++)
    {
      const struct sbx_hugepage_limit *h = &l->hugepage_limits[i];
      char file[64], rsvd[64], v[32];
      snprintf (file, sizeof file, "hugetlb.%s.%s", h->page_size, limit_file);
      snprintf (rsvd, sizeof rsvd, "hugetlb.%s.rsvd.%s", h->page_size,
                limit_file);
      snprintf (v, sizeof v, "%" PRIu64, h->limit);
      if (!cgfs_has_file (dir, file))
        return sbx_refuse (err, -EOPNOTSUPP,
                           FIELD_RESOURCES ("hugepageLimits"),
                           "this host has no %s huge pages (no %s/%s)",
                           h->page_size, dir, file);
      r = cg_put (FIELD_RESOURCES ("hugepageLimits"), dir, file, v, err);
      if (r == 0 && cgfs_has_file (dir, rsvd))
        r = cg_put (FIELD_RESOURCES ("hugepageLimits"), dir, rsvd, v, err);
    }
  return r;
}

int
cg_put_throttles (const char *dir, const struct sbx_block_io *b,
                  const char *const files[SBX_BLKIO_THROTTLE_N],
                  const char *const keys[SBX_BLKIO_THROTTLE_N],
                  struct sbx_error *err)
{
  int r = 0;
  for (int t = 0; r == 0 && t < SBX_BLKIO_THROTTLE_N; t++)
    {
      char field[64];
      snprintf (field, sizeof field, FIELD_RESOURCES ("blockIO.%s"),
                sbx_blkio_throttle_keys[t]);
      for (size_t i = 0; r == 0 && i < b->n_throttle[t]; i++)
        {
          const struct sbx_blkio_rate_device *d = &b->throttle[t][i];
          char v[96];
          if (d->rate == 0)
            continue; /* no throttle, as a new cgroup has */
          snprintf (v, sizeof v, "%" PRIu32 ":%" PRIu32 " %s%s%" PRIu64,
                    d->major, d->minor, keys ? keys[t] : "", keys ? "=" : "",
                    d->rate);
          r = cg_put (field, dir, files[t], v, err);
        }
    }
  return r;
}

const char *const cg1_names[SBX_CG_N] = {
  "memory",  "pids",  "freezer", "cpu",     "cpuset",
  "devices", "blkio", "hugetlb", "net_cls", "net_prio",
};

/* The field of linux.resources that asks for the optional controller C. */
static const char *
field_of (int c)
{
  static const char *const fields[SBX_CG_N] = {
    [SBX_CG_CPU] = FIELD_RESOURCES ("cpu"),
    [SBX_CG_CPUSET] = FIELD_RESOURCES ("cpu.cpus/mems"),
    [SBX_CG_DEVICES] = FIELD_RESOURCES ("devices"),
    [SBX_CG_BLKIO] = FIELD_RESOURCES ("blockIO"),
    [SBX_CG_HUGETLB] = FIELD_RESOURCES ("hugepageLimits"),
    [SBX_CG_NET_CLS] = FIELD_RESOURCES ("network.classID"),
    [SBX_CG_NET_PRIO] = FIELD_RESOURCES ("network.priorities"),
  };
  return fields[c];
}

/* The optional controller LIMITS asks for that LAYOUT cannot give, or -1:
   on v1 one whose hierarchy is not mounted writable; on v2, where
   net_cls and net_prio do not exist, those two.  */
static int
missing_controller (const struct sbx_cgroup_layout *layout,
                    const struct sbx_cgroup_limits *limits)
{
  for (int c = SBX_CG_CPU; c < SBX_CG_N; c++)
    {
      bool v1_only = c == SBX_CG_NET_CLS || c == SBX_CG_NET_PRIO;
      bool have = layout->version == SBX_CGROUP_V1
                      ? layout->controllers & SBX_CG_BIT (c)
                      : !v1_only;
      if (c != SBX_CG_FREEZER && !have && sbx_cgroup_wants (limits, c))
        return c;
    }
  return -1;
}

/* Fail, before anything is made, when LAYOUT cannot hold a setting of
   LIMITS: its controller is missing, or the version has no such file.  */
static int
refuse_unheld (const struct sbx_cgroup_layout *layout,
               const struct sbx_cgroup_limits *limits, struct sbx_error *err)
{
  if ((limits->memory_limit > 0
       && !(layout->controllers & SBX_CG_BIT (SBX_CG_MEMORY)))
      || (limits->pids_limit > 0
          && !(layout->controllers & SBX_CG_BIT (SBX_CG_PIDS))))
    return sbx_fail (err, -EOPNOTSUPP,
                     "linux.resources: a limit is set but "
                     "its cgroup controller is not available");
  int missing = missing_controller (layout, limits);
  const char *field = missing >= 0 ? field_of (missing) : NULL;
  if (missing >= 0 && layout->version == SBX_CGROUP_V2)
    return sbx_refuse (err, -EOPNOTSUPP, field,
                       "cgroup v2 has no %s controller", cg1_names[missing]);
  if (missing >= 0)
    return sbx_refuse (err, -EOPNOTSUPP, field,
                       "asked for, but no writable cgroup v1 %s hierarchy "
                       "is mounted",
                       cg1_names[missing]);
  return layout->version == SBX_CGROUP_V2 ? cg2_refuse_unheld (limits, err)
                                          : 0;
}

int
sbx_cgroup_create (const struct sbx_cgroup_layout *layout,
                   const char *cgroups_path, const char *id,
                   const struct sbx_cgroup_limits *limits,
                   struct sbx_cgroup **out, struct sbx_error *err)
{
  if (layout->version == SBX_CGROUP_NONE)
    return sbx_fail (err, -EOPNOTSUPP, "no cgroup can be made: %s",
                     layout->reason);
  int r = refuse_unheld (layout, limits, err);
  if (r < 0)
    return r;
  enum sbx_cgroup_anchor anchor;
  cleanup_free char *rel = NULL;
  r = sbx_cgroup_name (cgroups_path, id, &anchor, &rel, err);
  if (r < 0)
    return r;
  struct sbx_cgroup *cg = calloc (1, sizeof *cg);
  if (cg == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cg->version = layout->version;
  cg->memory_peak_seen = cg->pids_peak_seen = -1;
  if (layout->version == SBX_CGROUP_V2)
    {
      cleanup_free char *path
          = cgfs_join (anchor_of (&layout->unified, anchor), rel);
      r = path ? cg2_create (layout, path, limits, cg, err) : -ENOMEM;
    }
  else
    r = create_v1 (layout, anchor, rel, limits, cg, err);
  if (r < 0)
    {
      sbx_cgroup_free (cg);
      return sbx_fail (err, r, "out of memory");
    }
  *out = cg;
  return 0;
}

int
sbx_cgroup_paths (const struct sbx_cgroup_layout *layout,
                  const char *cgroups_path, const char *id,
                  const struct sbx_cgroup_limits *limits, struct strv *out,
                  struct sbx_error *err)
{
  if (layout->version == SBX_CGROUP_NONE)
    return sbx_fail (err, -EOPNOTSUPP, "no cgroup can be made: %s",
                     layout->reason);
  enum sbx_cgroup_anchor anchor;
  cleanup_free char *rel = NULL;
  int r = sbx_cgroup_name (cgroups_path, id, &anchor, &rel, err);
  if (r < 0)
    return r;
  struct sbx_cgroup cg = { .version = layout->version };
  if (layout->version == SBX_CGROUP_V2)
    {
      cleanup_free char *p
          = cgfs_join (anchor_of (&layout->unified, anchor), rel);
      cg.unified = p ? cgfs_join (layout->unified.mount, p) : NULL;
      r = cg.unified ? 0 : -ENOMEM;
    }
  for (int c = 0; r == 0 && c < SBX_CG_N; c++)
    if (layout->version == SBX_CGROUP_V1 && v1_makes (layout, limits, c))
      {
        cleanup_free char *p
            = cgfs_join (anchor_of (&layout->v1[c], anchor), rel);
        cg.v1[c] = p ? cgfs_join (layout->v1[c].mount, p) : NULL;
        r = cg.v1[c] ? 0 : -ENOMEM;
      }
  if (r == 0)
    r = sbx_cgroup_to_strv (&cg, out);
  free (cg.unified);
  for (int c = 0; c < SBX_CG_N; c++)
    free (cg.v1[c]);
  return r < 0 ? sbx_fail (err, r, "out of memory") : 0;
}

int
sbx_cgroup_enter (struct sbx_cgroup *cg, pid_t pid, struct sbx_error *err)
{
  const char *dirs[SBX_CG_N];
  int n = handle_dirs (cg, dirs);
  char num[24];
  snprintf (num, sizeof num, "%d", (int) pid);
  for (int i = 0; i < n; i++)
    {
      int r = cgfs_write (dirs[i], "cgroup.procs", num);
      if (r < 0)
        return sbx_fail_errno (err, r, "%s/cgroup.procs: moving pid %d",
                               dirs[i], (int) pid);
    }
  return 0;
}

int
sbx_cgroup_usage (struct sbx_cgroup *cg, struct sbx_cgroup_usage *out,
                  struct sbx_error *err)
{
  *out = (struct sbx_cgroup_usage){ -1, -1, -1, -1, -1, -1, -1 };
  int r = cg->version == SBX_CGROUP_V2 ? cg2_usage (cg, out)
                                       : cg1_usage (cg, out);
  if (r < 0)
    {
      const char *dirs[SBX_CG_N];
      handle_dirs (cg, dirs);
      return sbx_fail_errno (err, r, "%s: reading cgroup usage", dirs[0]);
    }
  /* Old kernels keep no peak: the best sbx can say is what it sampled.  */
  if (out->memory_current > cg->memory_peak_seen)
    cg->memory_peak_seen = out->memory_current;
  if (out->pids_current > cg->pids_peak_seen)
    cg->pids_peak_seen = out->pids_current;
  if (out->memory_peak < 0)
    out->memory_peak = cg->memory_peak_seen;
  if (out->pids_peak < 0)
    out->pids_peak = cg->pids_peak_seen;
  return 0;
}

int
sbx_cgroup_pids (struct sbx_cgroup *cg, pid_t **pids, size_t *n,
                 struct sbx_error *err)
{
  const char *dirs[SBX_CG_N];
  handle_dirs (cg, dirs);
  int r = cgfs_list_pids (dirs[0], true, pids, n);
  if (r < 0)
    return sbx_fail_errno (err, r, "%s/cgroup.procs: listing processes",
                           dirs[0]);
  return 0;
}

bool
sbx_cgroup_holds (struct sbx_cgroup *cg, pid_t pid)
{
  const char *dirs[SBX_CG_N];
  int n = handle_dirs (cg, dirs);
  for (int i = 0; i < n; i++)
    {
      pid_t *pids = NULL;
      size_t count = 0;
      bool found = false;
      if (cgfs_list_pids (dirs[i], true, &pids, &count) == 0)
        for (size_t k = 0; k < count && !found; k++)
          found = pids[k] == pid;
      free (pids);
      if (!found)
        return false;
    }
  return n > 0;
}

int
sbx_cgroup_kill (struct sbx_cgroup *cg, int sig, struct sbx_error *err)
{
  if (sig <= 0 || sig >= NSIG)
    return sbx_fail (err, -EINVAL, "signal %d is not valid", sig);
  return cg->version == SBX_CGROUP_V2 ? cg2_kill (cg, sig, err)
                                      : cg1_kill (cg, sig, err);
}

/* rmdir fails with EBUSY for a moment after the last process left, while
   the kernel finishes its exit; retry briefly.  */
static int
remove_tree (const char *dir)
{
  int r = 0;
  for (int tries = 0; tries < 50; tries++)
    {
      r = cgfs_rmdir_tree (dir);
      if (r != -EBUSY)
        break;
      nanosleep (&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
    }
  return r;
}

/* The default names' shared parent goes with its last cgroup, whoever
   made it: a run that swept a killed run's cgroup, or the later of two at
   once, did not make it, and left it behind (under a ceiling, inside the
   caller's own cgroup).  One in use is not empty: rmdir refuses; a create
   that meets it gone makes it again (cgfs_mkdir_path).  */
static void
remove_empty_parent (const char *dir)
{
  const char *slash = strrchr (dir, '/');
  size_t len = slash ? (size_t) (slash - dir) : 0;
  size_t plen = strlen (SBX_CGROUP_PARENT);
  if (len > plen && dir[len - plen - 1] == '/'
      && strncmp (dir + len - plen, SBX_CGROUP_PARENT, plen) == 0)
    {
      cleanup_free char *parent = strndup (dir, len);
      if (parent)
        (void) rmdir (parent);
    }
}

int
sbx_cgroup_destroy (struct sbx_cgroup *cg, struct sbx_error *err)
{
  const char *dirs[SBX_CG_N];
  int n = handle_dirs (cg, dirs);
  for (int i = 0; i < n; i++)
    if (!cgfs_wait_empty (dirs[i], i == 0 ? 1000 : 200))
      return sbx_fail (err, -EBUSY,
                       "%s: cgroup still has processes; kill "
                       "them first",
                       dirs[i]);
  for (int i = 0; i < n; i++)
    {
      int r = remove_tree (dirs[i]);
      if (r < 0)
        return sbx_fail_errno (err, r, "%s: removing the cgroup", dirs[i]);
    }
  cgfs_rmdir_made (&cg->made);
  for (int i = 0; i < n; i++)
    remove_empty_parent (dirs[i]);
  return 0;
}

void
sbx_cgroup_free (struct sbx_cgroup *cg)
{
  if (cg == NULL)
    return;
  free (cg->unified);
  for (int c = 0; c < SBX_CG_N; c++)
    free (cg->v1[c]);
  strv_free (&cg->made);
  free (cg);
}

enum sbx_cgroup_version
sbx_cgroup_handle_version (const struct sbx_cgroup *cg)
{
  return cg->version;
}
