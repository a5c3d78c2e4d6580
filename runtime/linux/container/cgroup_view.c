#include "runtime/linux/container/cgroup_view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"

static bool
is_cgroup_bind (const struct sbx_plan_mount *m)
{
  return m->why == SBX_WHY_OCI_MOUNT && m->op == SBX_PLAN_BIND_RO && m->source
         && strcmp (m->source, "/sys/fs/cgroup") == 0;
}

static int
append (struct sbx_plan_mount **v, size_t *n, enum sbx_plan_op op,
        const char *source, const char *dest)
{
  struct sbx_plan_mount *nv = realloc (*v, (*n + 1) * sizeof *nv);
  if (nv == NULL)
    return -ENOMEM;
  *v = nv;
  nv[*n]
      = (struct sbx_plan_mount){ .op = op,
                                 .why = SBX_WHY_OCI_MOUNT,
                                 .perms = op == SBX_PLAN_TMPFS ? 0755 : -1 };
  nv[*n].dest = strdup (dest);
  nv[*n].source = source ? strdup (source) : NULL;
  if (nv[*n].dest == NULL || (source && nv[*n].source == NULL))
    {
      free (nv[*n].dest);
      free (nv[*n].source);
      return -ENOMEM;
    }
  (*n)++;
  return 0;
}

/* The mounts that stand for one cgroup bind at DEST.  */
static int
replace (struct sbx_plan_mount **v, size_t *n, struct strv *seals,
         char *const *dirs, const char *dest)
{
  bool v1 = true;
  for (size_t i = 0; dirs[i]; i++)
    if (strncmp (dirs[i], "v2=", 3) == 0)
      {
        v1 = false;
        int r = append (v, n, SBX_PLAN_BIND_RO, dirs[i] + 3, dest);
        if (r < 0)
          return r;
      }
  if (!v1)
    return 0;
  int r = append (v, n, SBX_PLAN_TMPFS, NULL, dest);
  for (size_t i = 0; r == 0 && dirs[i]; i++)
    {
      char *eq = strchr (dirs[i], '=');
      if (eq == NULL || strncmp (dirs[i], "made=", 5) == 0)
        continue;
      *eq = '\0';
      cleanup_free char *at = sbx_path_join (dest, dirs[i]);
      *eq = '=';
      r = at ? append (v, n, SBX_PLAN_BIND_RO, eq + 1, at) : -ENOMEM;
    }
  return r ?: strv_push (seals, dest);
}

int
sbx_cgroup_view (struct sbx_plan *plan, const struct sbx_cgroup *cg)
{
  if (cg == NULL || !plan->unshare[SBX_NS_CGROUP])
    return 0;
  cleanup_strv struct strv dirs = { 0 }, seals = { 0 };
  int r = sbx_cgroup_to_strv (cg, &dirs);
  if (r < 0 || dirs.n == 0)
    return r;
  struct sbx_plan_mount *v = NULL;
  size_t n = 0;
  for (size_t i = 0; r == 0 && i < plan->n_mounts; i++)
    {
      struct sbx_plan_mount *m = &plan->mounts[i];
      if (!is_cgroup_bind (m))
        {
          struct sbx_plan_mount *nv = realloc (v, (n + 1) * sizeof *nv);
          if (nv == NULL)
            {
              r = -ENOMEM;
              break;
            }
          v = nv;
          v[n++] = *m;
          *m = (struct sbx_plan_mount){ 0 };
          continue;
        }
      r = replace (&v, &n, &seals, dirs.v, m->dest);
    }
  /* Seals come after every grant (policy.h).  */
  for (size_t i = 0; r == 0 && i < seals.n; i++)
    r = append (&v, &n, SBX_PLAN_REMOUNT_RO, NULL, seals.v[i]);
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      free (plan->mounts[i].source);
      free (plan->mounts[i].dest);
    }
  free (plan->mounts);
  plan->mounts = v;
  plan->n_mounts = n;
  return r;
}
