/* The hooks whose failures the runtime spec makes warnings, not errors:
   poststart (at `start`) and poststop (at `delete`).  */
#ifndef SBX_LOGGED_HOOKS_H
#define SBX_LOGGED_HOOKS_H

#include "runtime/context.h"
#include "spec/spec.h"
#include "runtime/linux/state/state_store.h"

/* Run the PHASE (poststart or poststop) hooks of C's bundle with C's
   state on stdin, every hook even after a failure, each failure logged as
   a warning.  A bundle that cannot be read is warned about only when
   WARN_UNREADABLE (a deleted container's bundle may be gone already).  */
void sbx_run_logged_hooks (const struct sbx_context *g,
                           const struct sbx_container *c,
                           enum sbx_hook_phase phase, bool warn_unreadable);

#endif
