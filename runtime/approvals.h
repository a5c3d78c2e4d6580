/* The operator's approval file (--approve FILE): one token per line, '#'
   comments; every widening an agent config asks for must be named there
   (sbx_policy_check_approvals).  Shared by every backend.  */
#ifndef SBX_APPROVALS_H
#define SBX_APPROVALS_H

#include "runtime/cli.h"
#include "spec/policy.h"

/* The tokens of the approval file into TOKENS (none without --approve). */
int sbx_read_approvals (const struct sbx_globals *g, struct strv *tokens,
                        struct sbx_error *err);

/* Read them and check PLAN's widenings against them.  */
int sbx_check_approvals (const struct sbx_globals *g,
                         const struct sbx_spec *spec,
                         const struct sbx_plan *plan, struct sbx_error *err);

#endif
