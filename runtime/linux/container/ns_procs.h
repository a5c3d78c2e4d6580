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

/* When PID1 is not its namespace's init, SIGKILL its descendants: its own
   death would take none of them, and what outlives it is re-parented out
   of its tree (to the host's reaper, or the init of the namespace it
   joined).  The tree is first stopped, until a pass finds no process it
   had not stopped, so that none forks a child the kill would miss.  A
   cgroup of the sandbox's own is the complete answer; this is what holds
   without one.  PID1 itself is left stopped, for the caller to kill.  */
void sbx_kill_descendants (pid_t pid1);

#endif
