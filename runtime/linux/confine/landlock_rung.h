/* The Landlock helper's command line for the rung without namespaces
   (policy/no_namespaces.c): the plan's mounts cannot be made, so
   Landlock's allow-lists say everything, from the host as it is at
   launch.  */
#ifndef SBX_LANDLOCK_RUNG_H
#define SBX_LANDLOCK_RUNG_H

#include "policy/policy.h"

/* Push the helper's argv (exec'd as /proc/self/fd/HELPER_FD), the rules,
   "--" and the command onto ARGV.  TMPDIR: the run's own directory, the
   stand-in for the private /tmp (write beneath it).  Returns 0 or
   -ENOMEM.  */
int sbx_landlock_rung_args (const struct sbx_plan *plan, int helper_fd,
                            const char *tmpdir, struct strv *argv);

#endif
