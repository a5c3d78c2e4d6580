/* OCI lifecycle hooks (runtime-spec config.md, "POSIX-platform Hooks").
 *
 * Each hook is a program run with the container's state JSON on stdin,
 * stdout and stderr inherited, exactly the environment the config gives
 * (none when absent) and no other descriptor.  Hooks of a phase run in the
 * listed order.  */
#ifndef SBX_HOOKS_H
#define SBX_HOOKS_H

#include "common/error.h"
#include "common/strv.h"
#include "spec/spec.h"

/* Run the hooks of LIST in order and stop at the first that fails.  PHASE is
   the config.json key ("prestart", "createRuntime", ...) used to name a hook
   in messages, e.g. "hooks.prestart[0]: /usr/bin/x timed out after 5s".
   Returns 0, or fills ERR and returns:
     -ETIMEDOUT  the hook outlived its timeout and was killed (with its
                 process group);
     -EIO        it exited non-zero or was killed by a signal;
     -errno      it could not be executed (execve's errno), or sbx could not
                 start it (pipe, fork).
   Expects sbx's own fds 0-2 to be open (main ensures it) and no SIGCHLD
   handler that reaps children.  */
int sbx_hooks_run (const struct sbx_hook_list *list, const char *phase,
                   const char *state_json, struct sbx_error *err);

/* For phases whose failures must not stop the caller (poststop: the
   container is already gone): run every hook of LIST even when one fails,
   append one message per failure to MESSAGES (same wording as
   sbx_hooks_run) and return the number of failures.  */
int sbx_hooks_run_all_logged (const struct sbx_hook_list *list,
                              const char *phase, const char *state_json,
                              struct strv *messages);

#endif
