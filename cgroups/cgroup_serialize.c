/* A handle as a few "key=path" strings for state.json, and back.  */
#include "cgroups/cgroup.h"
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

int
sbx_cgroup_to_strv (const struct sbx_cgroup *cg, struct strv *out)
{
  int r = 0;
  if (cg->version == SBX_CGROUP_V2)
    r = strv_pushf (out, "v2=%s", cg->unified);
  for (int c = 0; r == 0 && c < SBX_CG_N; c++)
    if (cg->version == SBX_CGROUP_V1 && cg->v1[c])
      r = strv_pushf (out, "%s=%s", cg1_names[c], cg->v1[c]);
  for (size_t i = 0; r == 0 && i < cg->made.n; i++)
    r = strv_pushf (out, "made=%s", cg->made.v[i]);
  return r;
}

/* A state file is data: a path in it must be absolute, plain, and on a
   cgroup file system (the nearest existing ancestor is checked, since the
   cgroup may already be gone), or destroy could rmdir anything.  */
static bool
plain_cgroup_path (const char *path)
{
  if (path[0] != '/' || strstr (path, "/../") || strstr (path, "/./")
      || strstr (path, "//"))
    return false;
  size_t len = strlen (path);
  if ((len >= 3 && strcmp (path + len - 3, "/..") == 0)
      || (len >= 2 && strcmp (path + len - 2, "/.") == 0))
    return false;
  cleanup_free char *probe = strdup (path);
  struct statfs fs;
  while (probe && statfs (probe, &fs) < 0)
    {
      char *slash = strrchr (probe, '/');
      if (errno != ENOENT || slash == NULL || slash == probe)
        return false;
      *slash = '\0';
    }
  return probe
         && (fs.f_type == CGROUP2_SUPER_MAGIC
             || fs.f_type == CGROUP_SUPER_MAGIC);
}

static bool
is_ancestor (const char *above, const char *below)
{
  size_t len = strlen (above);
  return strncmp (above, below, len) == 0 && below[len] == '/';
}

static int
take_entry (struct sbx_cgroup *cg, const char *key, const char *path)
{
  if (strcmp (key, "made") == 0)
    return strv_push (&cg->made, path);
  char **slot = NULL;
  if (strcmp (key, "v2") == 0 && cg->version != SBX_CGROUP_V1)
    {
      cg->version = SBX_CGROUP_V2;
      slot = &cg->unified;
    }
  for (int c = 0; slot == NULL && c < SBX_CG_N; c++)
    if (strcmp (key, cg1_names[c]) == 0 && cg->version != SBX_CGROUP_V2)
      {
        cg->version = SBX_CGROUP_V1;
        slot = &cg->v1[c];
      }
  if (slot == NULL || *slot != NULL)
    return -EINVAL;
  *slot = strdup (path);
  return *slot ? 0 : -ENOMEM;
}

/* Every "made" directory must lie above one of the cgroups.  */
static bool
made_paths_ok (const struct sbx_cgroup *cg)
{
  for (size_t i = 0; i < cg->made.n; i++)
    {
      bool above = cg->unified && is_ancestor (cg->made.v[i], cg->unified);
      for (int c = 0; !above && c < SBX_CG_N; c++)
        above = cg->v1[c] && is_ancestor (cg->made.v[i], cg->v1[c]);
      if (!above)
        return false;
    }
  return true;
}

int
sbx_cgroup_open (char *const *strings, struct sbx_cgroup **out,
                 struct sbx_error *err)
{
  struct sbx_cgroup *cg = calloc (1, sizeof *cg);
  if (cg == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cg->memory_peak_seen = cg->pids_peak_seen = -1;
  int r = 0;
  const char *bad = NULL;
  for (size_t i = 0; r == 0 && strings && strings[i]; i++)
    {
      cleanup_free char *key = strdup (strings[i]);
      char *path = key ? strchr (key, '=') : NULL;
      if (path)
        *path++ = '\0';
      if (path == NULL || !plain_cgroup_path (path)
          || take_entry (cg, key, path) < 0)
        {
          bad = strings[i];
          r = -EINVAL;
        }
    }
  if (r == 0 && (cg->version == SBX_CGROUP_NONE || !made_paths_ok (cg)))
    r = -EINVAL;
  if (r == 0 && cg->version == SBX_CGROUP_V1
      && (cg->v1[SBX_CG_PIDS] == NULL || cg->v1[SBX_CG_MEMORY] == NULL))
    r = -EINVAL;
  if (r < 0)
    {
      sbx_cgroup_free (cg);
      return sbx_fail (err, r,
                       "cgroup state: \"%s\" is not a cgroup of "
                       "this host; the state file was edited or is stale",
                       bad ? bad : "(the set of entries)");
    }
  *out = cg;
  return 0;
}
