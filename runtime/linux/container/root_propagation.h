/* linux.rootfsPropagation, set on the container's "/" from outside, once
   bubblewrap's set-up is done and before the command runs: sbx-oci (root)
   joins the sandbox's mount namespace in a child and changes the root
   mount's propagation there.  Not by sbx-oci-init inside: bwrap has
   installed the config's seccomp filter before it, which a runtime-tools
   config's default filter makes refuse mount(2); runc too sets the
   propagation before its filter.  */
#ifndef SBX_ROOT_PROPAGATION_H
#define SBX_ROOT_PROPAGATION_H

#include <stdbool.h>
#include <sys/types.h>

#include "common/error.h"
#include "policy/policy.h"

/* Set PLAN's root propagation (none: nothing to do) on "/" of the mount
   namespace of PID, the sandbox's first process (held), a child of
   RUNNER, bwrap: checked once its pidfd is open, so a pid reused after
   the sandbox ended is never joined.  0, or -errno with ERR set.  */
int sbx_root_propagation_set (pid_t pid, pid_t runner,
                              const struct sbx_plan *plan,
                              struct sbx_error *err);

#endif
