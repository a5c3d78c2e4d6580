/* Bind sources held as descriptors from the check to the mount.
 *
 * A bind whose source lies inside a writable root names a path the
 * sandbox (an earlier call, or a concurrent one) can change: a directory
 * swapped for a symbolic link between policy resolution and bwrap's mount
 * would mount whatever the link points to.  Each such source is opened
 * here, beneath the outermost writable root that holds it, with openat2
 * refusing every symbolic link, and bwrap is given the descriptor
 * (--bind-fd, --ro-bind-fd) instead of the path.  Sources outside every
 * writable root are the host's, read-only to every sandbox, and stay
 * paths.  */
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

#endif
