/* The vocabulary of config.json's enums, one table each (read by the
   parser, written by messages and `state` in the user's words), and small
   queries of the model.  */
#include <string.h>

#include "spec/parse_json.h"
#include "spec/parse_sections.h"
#include "spec/spec.h"

const struct jenum sbx_mode_jenum[SBX_MODE_JENUM_N] = {
  { "read-only", SBX_MODE_READ_ONLY },
  { "workspace-write", SBX_MODE_WORKSPACE_WRITE },
  { "danger-full-access", SBX_MODE_DANGER_FULL_ACCESS },
};

const struct jenum sbx_net_jenum[SBX_NET_JENUM_N] = {
  { "deny", SBX_NET_DENY },
  { "loopback", SBX_NET_LOOPBACK },
  { "allow", SBX_NET_ALLOW },
};

const struct jenum sbx_env_mode_jenum[SBX_ENV_MODE_JENUM_N] = {
  { "allow-list", SBX_ENV_ALLOW_LIST },
  { "inherit", SBX_ENV_INHERIT },
};

const struct jenum sbx_level_jenum[SBX_LEVEL_JENUM_N] = {
  { "none", SBX_LEVEL_NONE },
  { "partial", SBX_LEVEL_PARTIAL },
  { "full", SBX_LEVEL_FULL },
};

static const char *
name_in (const struct jenum *table, size_t n, int value, const char *other)
{
  for (size_t i = 0; i < n; i++)
    if (table[i].value == value)
      return table[i].name;
  return other;
}

const char *
sbx_mode_name (enum sbx_mode mode)
{
  return name_in (sbx_mode_jenum, SBX_MODE_JENUM_N, (int) mode, "unset");
}

const char *
sbx_net_name (enum sbx_net net)
{
  return name_in (sbx_net_jenum, SBX_NET_JENUM_N, (int) net, "unset");
}

const char *
sbx_level_name (enum sbx_level level)
{
  return name_in (sbx_level_jenum, SBX_LEVEL_JENUM_N, (int) level, "none");
}

const char *
sbx_hook_phase_name (enum sbx_hook_phase phase)
{
  static const char *const names[SBX_HOOK_PHASE_N] = {
    [SBX_HOOK_PRESTART] = "prestart",
    [SBX_HOOK_CREATE_RUNTIME] = "createRuntime",
    [SBX_HOOK_CREATE_CONTAINER] = "createContainer",
    [SBX_HOOK_START_CONTAINER] = "startContainer",
    [SBX_HOOK_POSTSTART] = "poststart",
    [SBX_HOOK_POSTSTOP] = "poststop",
  };
  return names[phase];
}

bool
sbx_spec_is_agent (const struct sbx_spec *spec)
{
  return spec->root_path != NULL && strcmp (spec->root_path, "/") == 0;
}

const char *
sbx_tuning_cgroup_only (const struct sbx_resources_tuning *t)
{
  const struct
  {
    bool asked;
    const char *field;
  } settings[] = {
    { t->has_swap && t->swap > 0, FIELD_RESOURCES ("memory.swap") },
    { t->has_reservation && t->reservation > 0,
      FIELD_RESOURCES ("memory.reservation") },
    { t->has_swappiness, FIELD_RESOURCES ("memory.swappiness") },
    { t->has_kernel_tcp && t->kernel_tcp > 0,
      FIELD_RESOURCES ("memory.kernelTCP") },
    { t->disable_oom_killer, FIELD_RESOURCES ("memory.disableOOMKiller") },
    { t->has_shares && t->shares > 0, FIELD_RESOURCES ("cpu.shares") },
    { t->has_quota && t->quota > 0, FIELD_RESOURCES ("cpu.quota") },
    { t->has_period && t->period > 0, FIELD_RESOURCES ("cpu.period") },
    { t->cpus && t->cpus[0], FIELD_RESOURCES ("cpu.cpus") },
    { t->mems && t->mems[0], FIELD_RESOURCES ("cpu.mems") },
    { sbx_block_io_asked (&t->block_io), FIELD_RESOURCES ("blockIO") },
    { t->n_hugepage_limits > 0, FIELD_RESOURCES ("hugepageLimits") },
    { sbx_net_settings_asked (&t->network), FIELD_RESOURCES ("network") },
  };
  for (size_t i = 0; i < sizeof settings / sizeof *settings; i++)
    if (settings[i].asked)
      return settings[i].field;
  return NULL;
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
