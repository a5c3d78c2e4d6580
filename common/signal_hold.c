#include "common/signal_hold.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

void
sbx_signals_held_set (sigset_t *set)
{
  /* Not the ones a fault raises: holding those would not stop them, and
     would hide a crash; nor SIGABRT, the sanitizers' end.  */
  sigfillset (set);
  static const int left[]
      = { SIGSEGV, SIGBUS,  SIGILL,   SIGFPE, SIGTRAP, SIGSYS,  SIGABRT,
          SIGCHLD, SIGCONT, SIGWINCH, SIGURG, SIGTSTP, SIGTTIN, SIGTTOU };
  for (size_t i = 0; i < sizeof left / sizeof *left; i++)
    sigdelset (set, left[i]);
}

void
sbx_signals_hold (sigset_t *old)
{
  sigset_t set;
  sbx_signals_held_set (&set);
  sigprocmask (SIG_BLOCK, &set, old);
}

void
sbx_signals_release (const sigset_t *old)
{
  sigprocmask (SIG_SETMASK, old, NULL);
}

bool
sbx_signal_ignored (int s)
{
  struct sigaction now;
  return sigaction (s, NULL, &now) == 0 && now.sa_handler == SIG_IGN;
}

int
sbx_signals_pending_in (const sigset_t *set)
{
  sigset_t pending;
  if (sigpending (&pending) < 0)
    return 0;
  for (int s = 1; s < NSIG; s++)
    if (sigismember (set, s) == 1 && sigismember (&pending, s) == 1
        && !sbx_signal_ignored (s))
      return s;
  return 0;
}

ssize_t
sbx_write_nosigpipe (int fd, const void *buf, size_t len)
{
  sigset_t pipe_signal, old;
  sigemptyset (&pipe_signal);
  sigaddset (&pipe_signal, SIGPIPE);
  sigprocmask (SIG_BLOCK, &pipe_signal, &old);
  ssize_t n;
  do
    n = write (fd, buf, len);
  while (n < 0 && errno == EINTR);
  int e = n < 0 ? errno : 0;
  if (e == EPIPE)
    sigtimedwait (&pipe_signal, NULL, &(struct timespec){ 0, 0 });
  sigprocmask (SIG_SETMASK, &old, NULL);
  return n < 0 ? -e : n;
}
