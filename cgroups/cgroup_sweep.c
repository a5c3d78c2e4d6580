/* Removing cgroups nobody will remove any more: the ones a killed `run`
   left under the default parent ("sbx-oci" under the base).  */
#include "cgroups/cgroup.h"
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The default parent's directory in hierarchy H ("sbx-oci" under the
   base), malloc'd.  */
static char *
parent_dir (const struct sbx_cgroup_hierarchy *h, const char *parent_rel)
{
  cleanup_free char *rel = cgfs_join (h->base, parent_rel);
  return rel ? cgfs_join (h->mount, rel) : NULL;
}

/* Kill what is in the cgroup NAME under the default parent, in every
   hierarchy, and remove it.  */
static void
remove_named (const struct sbx_cgroup_layout *layout, const char *name)
{
  cleanup_strv struct strv paths = { 0 };
  struct sbx_error ignored = { 0 };
  struct sbx_cgroup *cg = NULL;
  if (sbx_cgroup_paths (layout, NULL, name, NULL, &paths, &ignored) < 0
      || sbx_cgroup_open (paths.v, &cg, &ignored) < 0)
    return;
  sbx_cgroup_kill (cg, SIGKILL, &ignored);
  sbx_cgroup_destroy (cg, &ignored);
  sbx_cgroup_free (cg);
}

static void
sweep_dir (const struct sbx_cgroup_layout *layout, const char *dir,
           bool (*stale) (const char *name, void *arg), void *arg)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  while (d && (e = readdir (d)) != NULL)
    if (e->d_type == DT_DIR && e->d_name[0] != '.' && stale (e->d_name, arg))
      remove_named (layout, e->d_name);
  if (d)
    closedir (d);
}

void
sbx_cgroup_sweep (const struct sbx_cgroup_layout *layout,
                  bool (*stale) (const char *name, void *arg), void *arg)
{
  enum sbx_cgroup_anchor anchor;
  cleanup_free char *rel = NULL;
  struct sbx_error ignored = { 0 };
  if (layout->version == SBX_CGROUP_NONE
      || sbx_cgroup_name (NULL, "x", &anchor, &rel, &ignored) < 0)
    return;
  *strrchr (rel, '/') = '\0'; /* "sbx-oci/x": its parent */
  if (layout->version == SBX_CGROUP_V2)
    {
      cleanup_free char *dir = parent_dir (&layout->unified, rel);
      if (dir)
        sweep_dir (layout, dir, stale, arg);
      return;
    }
  for (int c = 0; c < SBX_CG_N; c++)
    if (layout->controllers & SBX_CG_BIT (c))
      {
        cleanup_free char *dir = parent_dir (&layout->v1[c], rel);
        if (dir)
          sweep_dir (layout, dir, stale, arg);
      }
}
