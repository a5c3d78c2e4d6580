/* A helper process that is nobody's child here (the limits watcher, the
   host ports' forwarder after `create`): it must outlive create without
   ever being the sandbox's parent, and be reaped by the caller's
   subreaper like any orphan.  */
#ifndef SBX_DETACH_H
#define SBX_DETACH_H

#include <sys/types.h>

/* Fork twice: the middle process makes a session of its own, forks the
   grandchild, which runs BODY (ARG) and must not return, tells its pid
   and exits at once.  0 with *PID, or a negative errno.  */
int sbx_fork_detached (void (*body) (const void *arg), const void *arg,
                       pid_t *pid);

#endif
