/* The Landlock helper's command line from a plan: which paths it grants
   what (runtime/linux/confine/landlock_helper.c documents the options).  Pure.
 */
#ifndef SBX_LANDLOCK_RULES_H
#define SBX_LANDLOCK_RULES_H

#include "policy/policy.h"

/* Whether bubblewrap execs the helper in place of the command: for the
   Landlock layer, or to check mounts (MOUNT_CHECKS below) where the plan
   has one to check.  */
bool sbx_helper_needed (const struct sbx_plan *plan);

/* Push the helper's argv, up to and including its "--", onto ARGV: exec'd
   as /proc/self/fd/HELPER_FD, or as "sbx-landlock" when HELPER_FD < 0 (a
   dry run, which has no descriptor).  With MOUNT_CHECKS, a -m check of
   every mount bubblewrap makes below a bind of a directory others may
   write (`run`, `create`; not `exec`, whose process finds the mounts the
   first one was checked against).  "-A 0" without the Landlock layer.
   Returns 0 or -ENOMEM.  */
int sbx_landlock_args (const struct sbx_plan *plan, int helper_fd,
                       bool mount_checks, struct strv *argv);

#endif
