/* Joining the namespaces of a running process, in an order that works
   for root and for an unprivileged caller alike.

   setns() into a namespace needs CAP_SYS_ADMIN in the user namespace that
   owns it, and a process has that only in its own user namespace and the
   ones below it.  A sandbox's namespaces are not all owned by its own
   user namespace: unprivileged bubblewrap makes its mount, pid, network,
   IPC and UTS namespaces in a first user namespace, then (with --uid
   other than 0, or --disable-userns) moves the sandbox into a second one
   nested in it; a network namespace podman made belongs to the host's.
   So the user namespaces from ours down to the sandbox's are entered one
   after the other, outermost first, and each other namespace right after
   the user namespace that owns it (the host's, or one outside the chain:
   before any).  */
#ifndef SBX_NS_JOIN_H
#define SBX_NS_JOIN_H

#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

enum
{
  SBX_NS_JOIN_MAX = 40 /* 6 namespaces and up to 34 nested user ones */
};

struct sbx_ns_join
{
  int fds[SBX_NS_JOIN_MAX]; /* in the order to join them */
  size_t n;
};

/* Open the namespaces of PID that differ from the caller's and order them
   in J.  Errors name the /proc path.  */
int sbx_ns_join_open (pid_t pid, struct sbx_ns_join *j, struct sbx_error *err);

/* setns() into each of J's namespaces in order (async-signal-safe: for a
   forked child).  Returns 0 or -errno.  */
int sbx_ns_join_enter (const struct sbx_ns_join *j);

void sbx_ns_join_close (struct sbx_ns_join *j);

#endif
