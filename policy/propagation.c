/* linux.rootfsPropagation.  bwrap first makes the whole mount tree of
   its namespace a recursive slave of the host's, and offers no option
   for the root's propagation, so sbx-oci sets it on the container's "/"
   from outside while sbx-oci-init holds the command
   (runtime/linux/container/root_propagation.h).  Doing so takes root in
   the initial user namespace, and a container (sbx-oci-init, which holds
   it); it is refused elsewhere.  "shared" makes the container's own
   mounts peers of each other; none reaches the host, which bwrap's slave
   tree keeps out either way (docs/lifecycle.md).  */
#include <errno.h>
#include <string.h>

#include "policy/build.h"

#define FIELD "linux.rootfsPropagation"

static const struct
{
  const char *name;
  struct sbx_propagation p;
} names[] = {
  { "", { SBX_PROPAGATION_KEEP, false } },
  { "slave", { SBX_PROPAGATION_KEEP, false } },
  { "rslave", { SBX_PROPAGATION_KEEP, false } },
  { "shared", { SBX_PROPAGATION_SHARED, false } },
  { "rshared", { SBX_PROPAGATION_SHARED, true } },
  { "private", { SBX_PROPAGATION_PRIVATE, false } },
  { "rprivate", { SBX_PROPAGATION_PRIVATE, true } },
  { "unbindable", { SBX_PROPAGATION_UNBINDABLE, false } },
  { "runbindable", { SBX_PROPAGATION_UNBINDABLE, true } },
};

int
policy_root_propagation (const struct sbx_spec *spec,
                         const struct sbx_host_facts *host,
                         struct sbx_plan *plan, struct sbx_error *err)
{
  const char *v = spec->has_linux ? spec->linux_.rootfs_propagation : NULL;
  if (v == NULL)
    return 0;
  size_t i = 0;
  while (i < sizeof names / sizeof *names && strcmp (names[i].name, v) != 0)
    i++;
  if (i == sizeof names / sizeof *names)
    return sbx_refuse (err, -EINVAL, FIELD,
                       "\"%s\" is not a propagation; use shared, slave, "
                       "private or unbindable (or their r- forms)",
                       v);
  if (names[i].p.kind != SBX_PROPAGATION_KEEP
      && !(host->is_root && plan->init))
    return sbx_refuse (err, -ENOTSUP, FIELD,
                       "\"%s\" is set from outside the sandbox, which "
                       "takes root and a container (with /proc); "
                       "bubblewrap makes the root a recursive slave: use "
                       "\"rslave\" or remove it",
                       v);
  plan->root_propagation = names[i].p;
  /* Less than asked, and no weaker a boundary for it: said, not counted. */
  if (names[i].p.kind == SBX_PROPAGATION_SHARED)
    return plan_gap (plan, false, SBX_LEVEL_FULL,
                     FIELD " \"%s\": shared among the container's own "
                           "mounts only; bubblewrap makes the tree a slave "
                           "of the host's first, so none reaches the host",
                     v);
  return 0;
}
