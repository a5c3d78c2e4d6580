/* The listening half of host services by port (policy/ports.c):
   sockets on 127.0.0.1:PORT inside the sandbox's network namespace, made
   from outside it.

   A socket belongs to the network namespace its maker was in when it
   made it, and keeps belonging there whoever holds it later.  So a short
   helper process forked from sbx enters the sandbox's network namespace,
   makes the listening sockets, hands them back over a socketpair
   (SCM_RIGHTS) and exits; sbx, still in the host's namespaces, keeps
   them.  Entering needs CAP_SYS_ADMIN in the user namespace that owns the
   network namespace: for an unprivileged sandbox that is bubblewrap's
   user namespace, which its creator's uid may join, so the helper joins
   the user namespaces from ours down to that owner first (as `exec` does,
   runtime/linux/ns_join.h); root's own network namespace owner is ours.
   The helper never runs anything of the sandbox and no process inside
   gains anything: the sandbox only finds the ports taken.

   The sockets are bound with IP_FREEBIND: bubblewrap reports the
   sandbox's pid before it brings the sandbox's loopback up, and the
   command only starts (the runner is held) after they exist.  */
#ifndef SBX_PORT_LISTEN_H
#define SBX_PORT_LISTEN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

/* Listen on 127.0.0.1:PORTS[i] in the network namespace of PID; FDS[i]
   gets each socket (non-blocking, close-on-exec).  On failure no socket
   is left open and ERR names the port or the step.  */
int sbx_port_listen (pid_t pid, const uint16_t *ports, size_t n, int *fds,
                     struct sbx_error *err);

#endif
