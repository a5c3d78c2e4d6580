/* Where a sandbox's cgroup goes, from OCI linux.cgroupsPath.  Pure.  */
#include "cgroups/cgroup.h"
#include "common/cleanup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy PATH without empty and "." components; refuse "..".  */
static int
normalize (const char *path, char **out, struct sbx_error *err)
{
  cleanup_free char *copy = strdup (path);
  cleanup_free char *buf = calloc (1, strlen (path) + 1);
  if (copy == NULL || buf == NULL)
    return -ENOMEM;
  char *save = NULL;
  for (char *c = strtok_r (copy, "/", &save); c;
       c = strtok_r (NULL, "/", &save))
    {
      if (strcmp (c, ".") == 0)
        continue;
      if (strcmp (c, "..") == 0)
        return sbx_fail (err, -EINVAL,
                         "linux.cgroupsPath: \"%s\": \"..\" is "
                         "not allowed",
                         path);
      if (buf[0])
        strcat (buf, "/");
      strcat (buf, c);
    }
  if (buf[0] == '\0')
    return sbx_fail (err, -EINVAL,
                     "linux.cgroupsPath: \"%s\" names no "
                     "cgroup below its anchor",
                     path);
  *out = steal_pointer (&buf);
  return 0;
}

/* "a-b-c.slice" -> "a.slice/a-b.slice/a-b-c.slice", as systemd lays out
   nested slices; "" and "-.slice" (the root slice) -> "".  */
static int
expand_slice (const char *slice, char **out, struct sbx_error *err)
{
  size_t len = strlen (slice);
  if (len == 0 || strcmp (slice, "-.slice") == 0)
    return (*out = strdup ("")) ? 0 : -ENOMEM;
  if (len <= 6 || strcmp (slice + len - 6, ".slice") != 0 || slice[0] == '-'
      || strstr (slice, "--") || slice[len - 7] == '-')
    return sbx_fail (err, -EINVAL,
                     "linux.cgroupsPath: \"%s\" is not a "
                     "systemd slice name (like \"machine.slice\")",
                     slice);
  size_t stem = len - 6;
  cleanup_free char *buf = malloc (len * (len + 1) + 1);
  if (buf == NULL)
    return -ENOMEM;
  buf[0] = '\0';
  for (size_t i = 0; i <= stem; i++)
    if (i == stem || slice[i] == '-')
      {
        if (buf[0])
          strcat (buf, "/");
        strncat (buf, slice, i);
        strcat (buf, ".slice");
      }
  *out = steal_pointer (&buf);
  return 0;
}

static int
systemd_name (const char *cgroups_path, char **rel, struct sbx_error *err)
{
  cleanup_free char *copy = strdup (cgroups_path);
  if (copy == NULL)
    return -ENOMEM;
  char *prefix = strchr (copy, ':');
  char *name = strchr (prefix + 1, ':');
  if (name == NULL || strchr (name + 1, ':') || name[1] == '\0')
    return sbx_fail (err, -EINVAL,
                     "linux.cgroupsPath: \"%s\": expected "
                     "\"slice:prefix:name\" or a path",
                     cgroups_path);
  *prefix++ = '\0';
  *name++ = '\0';
  cleanup_free char *slice = NULL;
  int r = expand_slice (copy[0] ? copy : "system.slice", &slice, err);
  if (r < 0)
    return r;
  if (asprintf (rel, "%s%s%s%s%s.scope", slice, slice[0] ? "/" : "", prefix,
                prefix[0] ? "-" : "", name)
      < 0)
    return -ENOMEM;
  return 0;
}

int
sbx_cgroup_name (const char *cgroups_path, const char *id,
                 enum sbx_cgroup_anchor *anchor, char **rel,
                 struct sbx_error *err)
{
  if (id == NULL || id[0] == '\0' || strchr (id, '/') || strcmp (id, ".") == 0
      || strcmp (id, "..") == 0)
    return sbx_fail (err, -EINVAL,
                     "container id \"%s\" cannot name a "
                     "cgroup",
                     id ? id : "");
  if (cgroups_path == NULL || cgroups_path[0] == '\0')
    {
      *anchor = SBX_CGROUP_AT_BASE;
      return asprintf (rel, SBX_CGROUP_PARENT "/%s", id) < 0 ? -ENOMEM : 0;
    }
  if (cgroups_path[0] == '/')
    {
      *anchor = SBX_CGROUP_AT_ROOT;
      return normalize (cgroups_path, rel, err);
    }
  if (strchr (cgroups_path, ':') && !strchr (cgroups_path, '/'))
    {
      *anchor = SBX_CGROUP_AT_BASE;
      return systemd_name (cgroups_path, rel, err);
    }
  *anchor = SBX_CGROUP_AT_OWN;
  return normalize (cgroups_path, rel, err);
}

/* --systemd-cgroup: only the systemd form means anything; a path would be
   silently taken as cgroupfs, which is not what the caller asked for.  */
int
sbx_cgroup_systemd_path (const char *cgroups_path, const char *id, char **out,
                         struct sbx_error *err)
{
  if (cgroups_path == NULL || cgroups_path[0] == '\0')
    return asprintf (out, ":sbx-oci:%s", id) < 0 ? -ENOMEM : 0;
  if (strchr (cgroups_path, '/') || !strchr (cgroups_path, ':'))
    return sbx_fail (err, -EINVAL,
                     "linux.cgroupsPath: \"%s\" is a path, but "
                     "--systemd-cgroup expects \"slice:prefix:name\"; drop "
                     "--systemd-cgroup or use the systemd form",
                     cgroups_path);
  return (*out = strdup (cgroups_path)) ? 0 : -ENOMEM;
}
