/* A process named by its pid and its start time (field 22 of
   /proc/PID/stat): what the state store records, so that a recycled pid is
   never taken for the sandbox's, nor signalled.  */
#ifndef SBX_PID_IDENTITY_H
#define SBX_PID_IDENTITY_H

#include <stdbool.h>
#include <sys/types.h>

/* The start time of PID (field 22 of /proc/PID/stat), 0 when it is gone. */
unsigned long long sbx_pid_start_time (pid_t pid);

/* The state letter of PID (field 3: 'R', 'S', 'T', 'Z', ...), 0 when it
   is gone.  */
char sbx_pid_state (pid_t pid);

/* The state letter of PID when it is still the process that started at
   START, 0 when it is gone or another.  */
char sbx_pid_state_since (pid_t pid, unsigned long long start);

/* The parent of PID as this process sees it, or -1 when it is gone.  */
pid_t sbx_pid_parent (pid_t pid);

/* Whether PID is alive (not a zombie) and started at START.  */
bool sbx_pid_alive_since (pid_t pid, unsigned long long start);

/* SIGKILL PID through a pidfd when it is still the process that started
   at START (a recycled pid is never hit).  */
void sbx_stop_pid (pid_t pid, unsigned long long start);

#endif
