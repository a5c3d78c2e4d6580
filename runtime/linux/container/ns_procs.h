/* The processes of a sandbox.  When its first process is the init of a
   pid namespace of its own, they are every host pid of that namespace;
   otherwise (it shares the host's, or joined another container's by
   path) the namespace holds others' processes too, and the sandbox's are
   its first process, that process's descendants, and what else is in its
   mount namespace (bwrap's own for each sandbox).  */
#ifndef SBX_NS_PROCS_H
#define SBX_NS_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Whether PID is pid 1 of its own pid namespace (the last "NSpid" of its
   status).  */
bool sbx_pid_is_ns_init (pid_t pid);

/* Fill *PIDS (malloc'd, ascending) with the sandbox's processes, PID1
   included.  Returns 0 or -errno (-ESRCH: PID1 is gone).  */
int sbx_sandbox_pids (pid_t pid1, pid_t **pids, size_t *n);

/* Whether PID1's mount namespace, into *NS, is the sandbox's own (bwrap
   makes one for every sandbox; a sandbox of no namespaces has ours).
   Without a pid namespace or a cgroup it is what still holds a process
   that left PID1's tree (setsid, its parent gone).  */
bool sbx_sandbox_mount_ns (pid_t pid1, struct stat *ns);

/* Fill *PIDS (malloc'd) with the host pids in the mount namespace NS.
   Returns 0 or -errno.  */
int sbx_mount_ns_pids (const struct stat *ns, pid_t **pids, size_t *n);

#endif
