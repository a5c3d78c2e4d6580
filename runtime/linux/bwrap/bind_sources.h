/* Bind sources held as descriptors from the check to the mount.
 *
 * A bind whose source lies inside a writable root names a path the
 * sandbox (an earlier call, or a concurrent one) can change: a directory
 * swapped for a symbolic link between policy resolution and bwrap's mount
 * would mount whatever the link points to.  Each such source is opened
 * here, beneath the outermost writable root that holds it, with openat2
 * refusing every symbolic link, and bwrap is given the descriptor
 * (--bind-fd, --ro-bind-fd) instead of the path.  A config's source
 * outside them is not the sandbox's to change, but may be another's (a
 * concurrent sandbox's workspace): it is settled where it leads when the
 * plan is made (sbx_bind_sources_settle), checked there, and opened again
 * at the mount refusing every link, so a swap in between fails.  The
 * runtime's own sources (the root, /dev's nodes) stay paths.  */
#ifndef SBX_BIND_SOURCES_H
#define SBX_BIND_SOURCES_H

#include "policy/policy.h"

/* Fill *FDS with PLAN->n_mounts descriptors (O_PATH, close-on-exec), -1
   for a mount bwrap gets by path.  A source that became a symbolic link
   since it was checked fails, naming it; a missing optional one stays a
   path (bwrap's -try skips it).  */
int sbx_bind_sources_open (const struct sbx_plan *plan, int **fds,
                           struct sbx_error *err);

void sbx_bind_sources_close (int *fds, size_t n);

/* Whether sbx_bind_sources_open would hold any of PLAN's sources.  */
bool sbx_bind_sources_any (const struct sbx_plan *plan);

/* Each config bind source outside the plan's writable roots replaced by
   where it leads now (every link followed; one that leads to what no
   path from here names, a file of another mount namespace's reached
   through /proc/PID/root, is refused).  Under a ceiling the config had to name
   that path already (policy/ceiling_gate.c): one that leads elsewhere now was
   changed since, and is refused.  Before every check of the sources.  */
int sbx_bind_sources_settle (struct sbx_plan *plan, struct sbx_error *err);

#endif
