#include "runtime/linux/supervise/resources_tuning.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool
sbx_tuning_asked (const struct sbx_resources_tuning *t)
{
  return t && (t->n_devices || sbx_tuning_cgroup_only (t));
}

/* A period or a quota of 0 is no setting (the kernel refuses it); a
   quota of -1 is "no quota", which a new cgroup already has.  */
int
sbx_tuning_to_cgroup (const struct sbx_resources_tuning *t,
                      struct sbx_cgroup_limits *out,
                      struct sbx_cgroup_device **devices)
{
  *devices = NULL;
  if (t == NULL)
    return 0;
  if (t->has_swap)
    out->memory_swap = t->swap;
  if (t->has_reservation)
    out->memory_reservation = t->reservation;
  if (t->has_kernel_tcp)
    out->memory_kernel_tcp = t->kernel_tcp;
  out->has_swappiness = t->has_swappiness;
  out->swappiness = (unsigned) t->swappiness;
  out->disable_oom_killer = t->disable_oom_killer;
  out->cpu_shares = t->has_shares ? t->shares : 0;
  out->cpu_period = t->has_period ? t->period : 0;
  out->cpu_quota = t->has_quota && t->quota > 0 ? t->quota : 0;
  out->cpus = t->cpus && t->cpus[0] ? t->cpus : NULL;
  out->mems = t->mems && t->mems[0] ? t->mems : NULL;
  out->block_io = &t->block_io;
  out->hugepage_limits = t->hugepage_limits;
  out->n_hugepage_limits = t->n_hugepage_limits;
  out->network = sbx_net_settings_asked (&t->network) ? &t->network : NULL;
  if (t->n_devices == 0)
    return 0;
  *devices = calloc (t->n_devices, sizeof **devices);
  if (*devices == NULL)
    return -ENOMEM;
  for (size_t i = 0; i < t->n_devices; i++)
    {
      const struct sbx_device_rule *d = &t->devices[i];
      struct sbx_cgroup_device *o = &(*devices)[i];
      *o = (struct sbx_cgroup_device){ d->allow, d->type, d->major, d->minor,
                                       "" };
      memcpy (o->access, d->access, sizeof o->access);
    }
  out->devices = *devices;
  out->n_devices = t->n_devices;
  return 0;
}
