/* The device rules a container's cgroup gets, on either version: the
   config's linux.resources.devices in order, then an allow rule for each
   node bubblewrap's --dev always makes that the config does not name.  */
#include "cgroups/cgroup_backend.h"

#include <errno.h>
#include <stdlib.h>

/* Allowed after the config's rules as runc and crun allow their default
   devices: podman asks for "deny all" and leaves these to the runtime
   (without them a uid-1000 workload could not write /dev/null).  A node
   the config names itself keeps the config's rule.  */
static const struct sbx_cgroup_device dev_nodes[] = {
  { true, 'c', 1, 3, "rwm" }, { true, 'c', 1, 5, "rwm" },
  { true, 'c', 1, 7, "rwm" }, { true, 'c', 1, 8, "rwm" },
  { true, 'c', 1, 9, "rwm" }, { true, 'c', 5, 0, "rwm" },
  { true, 'c', 5, 2, "rwm" }, { true, 'c', 136, -1, "rwm" },
};

static bool
named_by_config (const struct sbx_cgroup_limits *l,
                 const struct sbx_cgroup_device *n)
{
  for (size_t i = 0; i < l->n_devices; i++)
    if (l->devices[i].type == n->type && l->devices[i].major == n->major
        && l->devices[i].minor == n->minor)
      return true;
  return false;
}

int
cgfs_device_rules (const struct sbx_cgroup_limits *l,
                   struct sbx_cgroup_device **out, size_t *n)
{
  const size_t n_nodes = sizeof dev_nodes / sizeof *dev_nodes;
  *n = 0;
  *out = calloc (l->n_devices + n_nodes, sizeof **out);
  if (*out == NULL)
    return -ENOMEM;
  for (size_t i = 0; i < l->n_devices; i++)
    (*out)[(*n)++] = l->devices[i];
  for (size_t i = 0; i < n_nodes; i++)
    if (!named_by_config (l, &dev_nodes[i]))
      (*out)[(*n)++] = dev_nodes[i];
  return 0;
}
