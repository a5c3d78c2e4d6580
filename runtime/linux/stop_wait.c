#include "runtime/linux/stop_wait.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/signal_hold.h"
#include "runtime/linux/pidfd.h"

int
sbx_wait_unless_stopped (int fd, short events, int timeout_ms)
{
  sigset_t stops;
  sbx_signals_held_set (&stops);
  for (int s = 1; s < NSIG; s++)
    if (sigismember (&stops, s) == 1 && sbx_signal_ignored (s))
      sigdelset (&stops, s);
  /* Readable while one is pending; polled, never read, so it stays.  */
  int sfd = signalfd (-1, &stops, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0)
    return -errno;
  struct pollfd p[2]
      = { { .fd = sfd, .events = POLLIN }, { .fd = fd, .events = events } };
  int n;
  do
    n = poll (p, 2, timeout_ms);
  while (n < 0 && errno == EINTR);
  int e = errno;
  close (sfd);
  if (n < 0)
    return -e;
  if (p[0].revents & POLLIN)
    return -EINTR;
  return n > 0;
}

int
sbx_reap_unless_stopped (pid_t pid, int *status)
{
  int pfd = sbx_pidfd_open (pid);
  int stopped = pfd >= 0 ? sbx_wait_unless_stopped (pfd, POLLIN, -1) : 0;
  if (pfd >= 0)
    close (pfd);
  if (stopped < 0)
    kill (pid, SIGKILL);
  while (waitpid (pid, status, 0) < 0)
    if (errno != EINTR)
      return -errno;
  return stopped < 0 ? stopped : 0;
}
