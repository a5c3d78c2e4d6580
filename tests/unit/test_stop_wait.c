/* Waiting while the stopping signals are held: what the wait ends on
   (the descriptor, the timeout, a held signal; never an ignored one),
   that the signal stays pending, and the reap that kills on a stop.  */
#include "common/signal_hold.h"
#include "runtime/linux/stop_wait.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static bool
pending (int s)
{
  sigset_t set;
  return sigpending (&set) == 0 && sigismember (&set, s) == 1;
}

/* Take S, held and pending, so that the next case starts clean.  */
static void
take (int s)
{
  sigset_t one;
  sigemptyset (&one);
  sigaddset (&one, s);
  sigtimedwait (&one, NULL, &(struct timespec){ 0, 0 });
}

static void
test_wait (void)
{
  int p[2];
  if (pipe (p) < 0)
    abort ();
  tap_ok (sbx_wait_unless_stopped (p[0], POLLIN, 50) == 0,
          "an empty pipe: the timeout");
  (void) !write (p[1], "x", 1);
  tap_ok (sbx_wait_unless_stopped (p[0], POLLIN, -1) == 1,
          "a pipe with a byte: ready");
  char c;
  (void) !read (p[0], &c, 1);

  signal (SIGHUP, SIG_IGN);
  raise (SIGHUP);
  tap_ok (pending (SIGHUP), "an ignored signal, held, is queued all the same");
  tap_ok (sbx_wait_unless_stopped (p[0], POLLIN, 50) == 0,
          "and does not stop the wait (nohup)");
  take (SIGHUP);
  signal (SIGHUP, SIG_DFL);

  raise (SIGTERM);
  tap_ok (sbx_wait_unless_stopped (p[0], POLLIN, -1) == -EINTR,
          "a held SIGTERM stops a wait that would last for good");
  tap_ok (pending (SIGTERM), "and stays pending, for the release");
  tap_ok (sbx_wait_unless_stopped (-1, 0, -1) == -EINTR,
          "a pause ends on it too");
  take (SIGTERM);
  close (p[0]);
  close (p[1]);
}

static void
test_reap (void)
{
  int status = 0;
  pid_t pid = fork ();
  if (pid == 0)
    _exit (3);
  tap_ok (sbx_reap_unless_stopped (pid, &status) == 0 && WIFEXITED (status)
              && WEXITSTATUS (status) == 3,
          "a child that ends is reaped, its status kept");

  pid = fork ();
  if (pid == 0)
    {
      pause ();
      _exit (0);
    }
  raise (SIGINT);
  status = 0;
  tap_ok (sbx_reap_unless_stopped (pid, &status) == -EINTR,
          "a held SIGINT stops the wait on a child that never ends");
  tap_ok (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL,
          "which is killed and reaped all the same");
  tap_ok (kill (pid, 0) < 0 && errno == ESRCH, "and is gone");
  take (SIGINT);
}

int
main (void)
{
  sigset_t old;
  sbx_signals_hold (&old);
  test_wait ();
  test_reap ();
  sbx_signals_release (&old);
  return tap_done ();
}
