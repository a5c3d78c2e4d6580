/* pidfds: signal a process without ever hitting a recycled pid.  */
#ifndef SBX_PIDFD_H
#define SBX_PIDFD_H

#include <signal.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

static inline int
sbx_pidfd_open (pid_t pid)
{
  return (int) syscall (SYS_pidfd_open, pid, 0);
}

static inline int
sbx_pidfd_signal (int pidfd, int sig)
{
  return (int) syscall (SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

/* SIG to PID through a pidfd of its own; whether it was delivered.  */
static inline bool
sbx_pidfd_kill (pid_t pid, int sig)
{
  int pfd = sbx_pidfd_open (pid);
  bool sent = pfd >= 0 && sbx_pidfd_signal (pfd, sig) == 0;
  if (pfd >= 0)
    close (pfd);
  return sent;
}

#endif
