/* The one way a sandbox's work is ended: `kill` with SIGKILL, `delete
   --force` and a breach seen by the watcher all come here (DESIGN.md,
   "Termination ends the work, not a pid").  */
#ifndef SBX_TERMINATE_H
#define SBX_TERMINATE_H

#include "cgroups/cgroup.h"
#include "common/error.h"

/* SIGKILL the sandbox's pid 1 through PIDFD: it is the init of the
   sandbox's pid namespace, so the kernel kills every process of the
   namespace with it, double-forked and setsid'd ones included.  A first
   process that is not its namespace's init (the host's pid namespace, or
   one joined by path) has its whole tree killed with it
   (sbx_tree_kill_held).  Then,
   when CG is not NULL, every process of the sandbox's cgroup (one that
   joined the cgroup without joining the namespace).  WAIT_MS > 0: wait
   that long for pid 1 to be gone; its pidfd turns readable only after
   the kernel has reaped the rest of the namespace, so then nothing of
   the sandbox is left.  -ETIMEDOUT when it is not gone by then.  */
/* Wait up to WAIT_MS for the process of PIDFD to be gone: 0, -ETIMEDOUT,
   or another negative errno.  */
int sbx_wait_gone (int pidfd, int wait_ms);

int sbx_terminate (int pidfd, struct sbx_cgroup *cg, int wait_ms,
                   struct sbx_error *err);

#endif
