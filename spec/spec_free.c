/* sbx_spec_free: releases everything a parse stored, also after a parse
   that failed half-way (zeroed fields and counted-but-empty items).  */
#include <stdlib.h>

#include "spec/spec.h"

static void
free_kv (struct sbx_kv *kv, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      free (kv[i].key);
      free (kv[i].value);
    }
  free (kv);
}

static void
free_process (struct sbx_process *p)
{
  free (p->user.additional_gids);
  strv_free (&p->args);
  strv_free (&p->env);
  free (p->cwd);
  free (p->apparmor_profile);
  free (p->selinux_label);
  strv_free (&p->capabilities.bounding);
  strv_free (&p->capabilities.effective);
  strv_free (&p->capabilities.inheritable);
  strv_free (&p->capabilities.permitted);
  strv_free (&p->capabilities.ambient);
  for (size_t i = 0; i < p->n_rlimits; i++)
    free (p->rlimits[i].type);
  free (p->rlimits);
}

void
sbx_seccomp_free (struct sbx_seccomp *s)
{
  if (s == NULL)
    return;
  free (s->default_action);
  strv_free (&s->architectures);
  strv_free (&s->flags);
  for (size_t i = 0; i < s->n_syscalls; i++)
    {
      struct sbx_seccomp_rule *rule = &s->syscalls[i];
      strv_free (&rule->names);
      free (rule->action);
      for (size_t j = 0; j < rule->n_args; j++)
        free (rule->args[j].op);
      free (rule->args);
    }
  free (s->syscalls);
  free (s);
}

static void
free_linux (struct sbx_linux *lx)
{
  for (size_t i = 0; i < lx->n_namespaces; i++)
    free (lx->namespaces[i].path);
  free (lx->namespaces);
  free (lx->uid_mappings);
  free (lx->gid_mappings);
  strv_free (&lx->masked_paths);
  strv_free (&lx->readonly_paths);
  sbx_seccomp_free (lx->seccomp);
  free (lx->cgroups_path);
  free (lx->resources.tuning.cpus);
  free (lx->resources.tuning.mems);
  free (lx->resources.tuning.devices);
  struct sbx_block_io *bio = &lx->resources.tuning.block_io;
  free (bio->weight_devices);
  for (int t = 0; t < SBX_BLKIO_THROTTLE_N; t++)
    free (bio->throttle[t]);
  free (lx->resources.tuning.hugepage_limits);
  free (lx->resources.tuning.network.priorities);
  free_kv (lx->sysctl, lx->n_sysctl);
  free (lx->rootfs_propagation);
  free (lx->mount_label);
  for (size_t i = 0; i < lx->n_devices; i++)
    free (lx->devices[i].path);
  free (lx->devices);
}

static void
free_hook_list (struct sbx_hook_list *list)
{
  for (size_t i = 0; i < list->n; i++)
    {
      free (list->v[i].path);
      strv_free (&list->v[i].args);
      strv_free (&list->v[i].env);
    }
  free (list->v);
}

static void
free_ext (struct sbx_ext *ext)
{
  free (ext->workspace);
  free (ext->host_ports);
  strv_free (&ext->writable_roots);
  strv_free (&ext->temp_roots);
  strv_free (&ext->env_allow);
  strv_free (&ext->protected_paths);
}

void
sbx_spec_free (struct sbx_spec *spec)
{
  if (spec == NULL)
    return;
  free (spec->oci_version);
  free (spec->bundle);
  free (spec->root_path);
  for (size_t i = 0; i < spec->n_mounts; i++)
    {
      free (spec->mounts[i].destination);
      free (spec->mounts[i].type);
      free (spec->mounts[i].source);
      strv_free (&spec->mounts[i].options);
    }
  free (spec->mounts);
  free_process (&spec->process);
  free (spec->hostname);
  free_kv (spec->annotations, spec->n_annotations);
  free_linux (&spec->linux_);
  for (int p = 0; p < SBX_HOOK_PHASE_N; p++)
    free_hook_list (&spec->hooks.phase[p]);
  free_ext (&spec->ext);
  strv_free (&spec->fields);
  strv_free (&spec->ignored);
  free (spec->text);
  free (spec);
}
