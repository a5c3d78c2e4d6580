/* Small queries and the names of the extension's enums, as written in
   config.json (so messages and `state` use the user's vocabulary).  */
#include <string.h>

#include "spec/spec.h"

const char *
sbx_mode_name (enum sbx_mode mode)
{
  switch (mode)
    {
    case SBX_MODE_READ_ONLY:
      return "read-only";
    case SBX_MODE_WORKSPACE_WRITE:
      return "workspace-write";
    case SBX_MODE_DANGER_FULL_ACCESS:
      return "danger-full-access";
    case SBX_MODE_UNSET:
      break;
    }
  return "unset";
}

const char *
sbx_net_name (enum sbx_net net)
{
  switch (net)
    {
    case SBX_NET_DENY:
      return "deny";
    case SBX_NET_LOOPBACK:
      return "loopback";
    case SBX_NET_ALLOW:
      return "allow";
    case SBX_NET_UNSET:
      break;
    }
  return "unset";
}

const char *
sbx_level_name (enum sbx_level level)
{
  switch (level)
    {
    case SBX_LEVEL_PARTIAL:
      return "partial";
    case SBX_LEVEL_FULL:
      return "full";
    case SBX_LEVEL_NONE:
      break;
    }
  return "none";
}

bool
sbx_spec_is_agent (const struct sbx_spec *spec)
{
  return spec->root_path != NULL && strcmp (spec->root_path, "/") == 0;
}

const struct sbx_namespace *
sbx_spec_namespace (const struct sbx_spec *spec, enum sbx_ns_type type)
{
  for (size_t i = 0; i < spec->linux_.n_namespaces; i++)
    if (spec->linux_.namespaces[i].type == type)
      return &spec->linux_.namespaces[i];
  return NULL;
}

bool
sbx_mount_is_bind (const struct sbx_mount *m)
{
  return (m->type && strcmp (m->type, "bind") == 0)
         || strv_contains (&m->options, "bind")
         || strv_contains (&m->options, "rbind");
}

bool
sbx_mount_is_writable_bind (const struct sbx_mount *m)
{
  return sbx_mount_is_bind (m) && !strv_contains (&m->options, "ro");
}
