#include "runtime/linux/stop_wait.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/signal_hold.h"
#include "runtime/linux/pidfd.h"

int
sbx_stop_pending (void)
{
  sigset_t held;
  sbx_signals_held_set (&held);
  return sbx_signals_pending_in (&held);
}

int
sbx_stop_requested (struct sbx_error *err)
{
  int s = sbx_stop_pending ();
  return s ? sbx_fail (err, -EINTR, "sbx-oci was sent signal %d", s) : 0;
}

/* Take the held signals that are pending but ignored: the release would
   drop them, and pending they keep a signalfd of them readable.  */
static void
drop_ignored (const sigset_t *held)
{
  sigset_t pending;
  if (sigpending (&pending) < 0)
    return;
  for (int s = 1; s < NSIG; s++)
    if (sigismember (held, s) == 1 && sigismember (&pending, s) == 1
        && sbx_signal_ignored (s))
      {
        sigset_t one;
        sigemptyset (&one);
        sigaddset (&one, s);
        sigtimedwait (&one, NULL, &(struct timespec){ 0, 0 });
      }
}

int
sbx_wait_unless_stopped (int fd, short events, int timeout_ms)
{
  sigset_t held;
  sbx_signals_held_set (&held);
  /* Readable while one is pending; polled, never read, so it stays.  */
  int sfd = signalfd (-1, &held, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0)
    return -errno;
  struct pollfd p[2]
      = { { .fd = sfd, .events = POLLIN }, { .fd = fd, .events = events } };
  /* One deadline, however often the wait is taken up again.  */
  uint64_t until = timeout_ms < 0 ? 0 : sbx_now_ms () + (uint64_t) timeout_ms;
  int r;
  for (;;)
    {
      uint64_t now = timeout_ms < 0 ? 0 : sbx_now_ms ();
      int left = timeout_ms < 0 ? -1 : now >= until ? 0 : (int) (until - now);
      int n = poll (p, 2, left);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        r = -errno;
      else if (!(p[0].revents & POLLIN))
        r = n > 0;
      else if (sbx_stop_pending ())
        r = -EINTR;
      else
        {
          drop_ignored (&held);
          continue;
        }
      break;
    }
  close (sfd);
  return r;
}

int
sbx_reap_unless_stopped (pid_t pid, int *status)
{
  int pfd = sbx_pidfd_open (pid);
  int stopped = pfd >= 0 ? sbx_wait_unless_stopped (pfd, POLLIN, -1) : 0;
  if (pfd >= 0)
    close (pfd);
  /* Any other end of the wait (no signalfd) leaves the plain wait.  */
  if (stopped == -EINTR)
    kill (pid, SIGKILL);
  while (waitpid (pid, status, 0) < 0)
    if (errno != EINTR)
      return -errno;
  return stopped == -EINTR ? stopped : 0;
}
