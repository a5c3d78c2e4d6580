/* The forwarder of host services by port (policy/ports.c): a small
   process of sbx's, on the host's side, that accepts on the listening
   sockets sbx_port_listen made in the sandbox's network namespace and
   connects each connection to the host's 127.0.0.1 on the same port,
   then moves the bytes both ways (splice through a pipe per direction,
   one poll loop, no threads).

   What it reaches: only 127.0.0.1:PORT for the approved ports, as the
   user sbx runs as, with no capabilities and no_new_privs set (even for
   root); a connection the host refuses is reset.  At most
   SBX_FORWARD_MAX_CONNS connections at once: beyond that the listeners
   are not accepted from, and clients wait in their backlog.

   Who keeps it alive, and how it ends:
     run     a child of sbx (which is its subreaper); it dies with sbx
             (PR_SET_PDEATHSIG) and when the runner ends (a pidfd), and
             the monitor's final sweep kills and reaps it like any child
             left (runtime/linux/supervise/supervise.c).
     create  a process of its own session, forked twice so that it is
             nobody's child and never the sandbox's parent (as the limits
             watcher is); it holds a pidfd of the sandbox's first process
             and exits as soon as that process has ended, which is what
             `kill`, `delete` and a command's own exit all come to.  Its
             pid and start time are in the container's record, and
             `delete` kills it too (runtime/container_end.c).  */
#ifndef SBX_PORT_FORWARD_H
#define SBX_PORT_FORWARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

#define SBX_FORWARD_MAX_CONNS 64

struct sbx_port_forward
{
  const int *listen_fds; /* sbx_port_listen's, one per port */
  const uint16_t *ports;
  size_t n;
  int watch_pidfd; /* the forwarder ends when this process has ended */
  bool detach;     /* create: its own session, nobody's child */
};

/* Start the forwarder; *PID is its pid.  The caller still owns (and
   closes) the listening sockets and the pidfd: the forwarder has its own
   copies.  */
int sbx_port_forward_start (const struct sbx_port_forward *f, pid_t *pid,
                            struct sbx_error *err);

#endif
