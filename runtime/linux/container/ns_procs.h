/* The processes of a sandbox.  When its first process is the init of a
   pid namespace of its own, they are every host pid of that namespace;
   otherwise (it shares the host's, or joined another container's by
   path) the namespace holds others' processes too, and the sandbox's are
   its first process and that process's descendants.  */
#ifndef SBX_NS_PROCS_H
#define SBX_NS_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Whether PID is pid 1 of its own pid namespace (the last "NSpid" of its
   status).  */
bool sbx_pid_is_ns_init (pid_t pid);

/* Fill *PIDS (malloc'd, ascending) with the sandbox's processes, PID1
   included.  Returns 0 or -errno (-ESRCH: PID1 is gone).  */
int sbx_sandbox_pids (pid_t pid1, pid_t **pids, size_t *n);

#endif
