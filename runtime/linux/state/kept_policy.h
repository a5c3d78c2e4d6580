/* What `create` decided about trust (and the Landlock domain), kept in the
   container's state directory for `exec` (SBX_KEPT_POLICY): whether the config
   was under the operator's ceiling, and the operator's approval tokens. exec's
   process object then meets the gates create's config met (sbx_policy_exec),
   with no --ceiling or --approve of its own needed or consulted: the
   container's trust was decided once, when it was created.  */
#ifndef SBX_KEPT_POLICY_H
#define SBX_KEPT_POLICY_H

#include "common/error.h"
#include "policy/policy.h"
#include "runtime/context.h"
#include "runtime/linux/state/state_store.h"

#define SBX_KEPT_POLICY "policy.json"

/* Write PLAN's trust and approvals into C's state directory.  */
int sbx_kept_policy_write (const struct sbx_container *c,
                           const struct sbx_plan *plan, struct sbx_error *err);

/* Check exec's SPEC (the kept config with exec's process in it) against
   the kept policy and make its environment: *OUT as sbx_policy_exec says.
   LANDLOCK gets the kept Landlock rule arguments (none: the sandbox has
   no Landlock layer).
   The names the environment lost are reported on stderr, as create
   reports them.  A container whose policy was not kept is refused.  */
int sbx_kept_policy_exec (const struct sbx_context *g,
                          const struct sbx_container *c,
                          const struct sbx_spec *spec, struct sbx_plan **out,
                          struct strv *landlock, struct sbx_error *err);

#endif
