/* The processes of a sandbox: every host pid whose pid namespace is the
   one of the sandbox's first process.  */
#ifndef SBX_NS_PROCS_H
#define SBX_NS_PROCS_H

#include <stddef.h>
#include <sys/types.h>

/* Fill *PIDS (malloc'd, ascending) with the pids sharing the pid namespace
   of PID1, PID1 included.  Returns 0 or -errno (-ESRCH: PID1 is gone). */
int sbx_ns_pids (pid_t pid1, pid_t **pids, size_t *n);

#endif
