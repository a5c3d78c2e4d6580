/* linux.rootfsPropagation.  bwrap first makes the whole mount tree of
   its namespace a recursive slave of the host's, and offers no option
   for the root's propagation; sbx-oci-init, which holds root's
   capabilities until it takes the config's identity, sets it on the
   container's "/" before the command runs.  So it is honoured where
   sbx-oci-init takes the identity (a root caller's container without a
   user namespace of its own, or with mapping ranges) and refused
   elsewhere.  "shared" makes the container's own mounts peers of each
   other; none reaches the host, which bwrap's slave tree keeps out
   either way (docs/lifecycle.md).  */
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
policy_root_propagation (const struct sbx_spec *spec, struct sbx_plan *plan,
                         struct sbx_error *err)
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
  if (names[i].p.kind != SBX_PROPAGATION_KEEP && !plan->init_ids)
    return sbx_refuse (err, -ENOTSUP, FIELD,
                       "\"%s\" is set by sbx-oci-init, which holds the "
                       "capabilities for it only in a root caller's "
                       "container without a user namespace of its own; "
                       "bubblewrap makes the root a recursive slave "
                       "otherwise: use \"rslave\" or remove it",
                       v);
  plan->root_propagation = names[i].p;
  return 0;
}
