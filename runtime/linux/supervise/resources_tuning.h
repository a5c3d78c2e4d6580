/* linux.resources' memory, cpu, device, block I/O, huge page and network
   settings (spec/spec.h's sbx_resources_tuning) as the cgroup code
   takes them.  */
#ifndef SBX_RESOURCES_TUNING_H
#define SBX_RESOURCES_TUNING_H

#include <stdbool.h>

#include "cgroups/cgroup.h"
#include "spec/spec.h"

/* Whether T (NULL: none) asks for anything a cgroup must carry.  */
bool sbx_tuning_asked (const struct sbx_resources_tuning *t);

/* Fill OUT's tuning fields from T (NULL: nothing).  The device rules are
   copied into *DEVICES, malloc'd, which OUT points into: free it after
   OUT's last use.  0 or -ENOMEM.  */
int sbx_tuning_to_cgroup (const struct sbx_resources_tuning *t,
                          struct sbx_cgroup_limits *out,
                          struct sbx_cgroup_device **devices);

#endif
