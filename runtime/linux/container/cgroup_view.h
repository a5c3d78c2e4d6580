/* What a container with a cgroup namespace sees at its cgroup mount: its
   own cgroup, as a fresh cgroup mount in that namespace would show it
   (so its memory limit, cpu quota and pids.max read right inside), not
   the host's whole tree.  */
#ifndef SBX_CGROUP_VIEW_H
#define SBX_CGROUP_VIEW_H

#include "cgroups/cgroup.h"
#include "policy/policy.h"

/* In PLAN, when it unshares the cgroup namespace, replace every
   read-only bind of the host's /sys/fs/cgroup (a config "cgroup" mount)
   by CG's directories: v2's cgroup bound at the destination; v1's
   controllers each bound at DEST/NAME ("memory", "pids", "cpu", ...) on
   a tmpfs sealed read-only.  Nothing changes without a cgroup namespace
   or a cgroup.  0 or -ENOMEM.  */
int sbx_cgroup_view (struct sbx_plan *plan, const struct sbx_cgroup *cg);

#endif
