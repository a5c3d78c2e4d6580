/* The Landlock helper's command line from a plan: which paths it grants
   what (runtime/linux/confine/landlock_helper.c documents the options).  Pure.
 */
#ifndef SBX_LANDLOCK_RULES_H
#define SBX_LANDLOCK_RULES_H

#include "policy/policy.h"

/* Push the helper's argv, up to and including its "--", onto ARGV: exec'd
   as /proc/self/fd/HELPER_FD, or as "sbx-landlock" when HELPER_FD < 0 (a
   dry run, which has no descriptor).  Returns 0 or -ENOMEM.  */
int sbx_landlock_args (const struct sbx_plan *plan, int helper_fd,
                       struct strv *argv);

#endif
