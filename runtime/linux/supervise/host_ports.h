/* Host services by port, started for `run` and `create` alike: the
   listening sockets in the sandbox's network namespace
   (runtime/linux/supervise/port_listen.h) and the forwarder that serves them
   (runtime/linux/supervise/port_forward.h, which says who keeps it alive).
   Both are called while the runner is held before the command's exec, so the
   ports are there when the command starts.  Nothing is done when the
   plan has no host ports.  */
#ifndef SBX_HOST_PORTS_H
#define SBX_HOST_PORTS_H

#include <sys/types.h>

#include "common/error.h"
#include "policy/policy.h"

/* `run`: the forwarder is sbx's child and ends with the runner RUNNER;
   SANDBOX is the sandbox's first process (bwrap's report).  */
int sbx_host_ports_run (const struct sbx_plan *plan, pid_t runner,
                        pid_t sandbox, struct sbx_error *err);

/* `create`: the forwarder is detached and ends with the sandbox's first
   process SANDBOX (started at START); its pid and start time go into the
   container directory DIR's record as "forwarder=PID START", for
   `delete`.  */
int sbx_host_ports_create (const struct sbx_plan *plan, pid_t sandbox,
                           unsigned long long start, const char *dir,
                           struct sbx_error *err);

#endif
