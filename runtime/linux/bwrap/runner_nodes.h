/* linux.devices' nodes, made by root's runner before it execs bwrap
   (policy/devices.c plans them).  */
#ifndef SBX_RUNNER_NODES_H
#define SBX_RUNNER_NODES_H

#include <stddef.h>

#include "policy/policy.h"

/* In the runner, inside a mount namespace of its own: mount a tmpfs
   (0700, root's) on PLAN->nodes_dir and make each of PLAN->nodes there
   with its type, numbers, mode and owner, for bwrap to bind.  Nothing
   is left on the host: the tmpfs lives only in this namespace and in the
   sandbox's binds.  Allocates nothing (the runner shares its parent's
   memory).  Returns 0, or -errno with MSG filled.  */
int sbx_runner_make_nodes (const struct sbx_plan *plan, char *msg,
                           size_t size);

#endif
