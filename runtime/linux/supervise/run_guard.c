#include "runtime/linux/supervise/run_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/linux/confine/fd_scrub.h"
#include "runtime/linux/pidfd.h"

struct word
{
  int word; /* enum sbx_run_guard_word */
  pid_t pid;
};

static __attribute__ ((noreturn)) void
guard_main (int fd)
{
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  /* Out of the caller's process group and session: what ends sbx-oci's
     group must not end its guard.  */
  setsid ();
  prctl (PR_SET_NAME, "sbx-oci-guard");
  int null = open ("/dev/null", O_RDWR | O_CLOEXEC);
  for (int i = 0; null >= 0 && i < 3; i++)
    dup2 (null, i);
  if (fd != 3 && (dup2 (fd, 3) < 0 || close (fd) < 0))
    _exit (1);
  sbx_close_fds_from (4);
  pid_t group = 0;
  int sandbox = -1; /* a pidfd: the pid is never taken for another */
  struct word w;
  ssize_t n;
  while ((n = read (3, &w, sizeof w)) == (ssize_t) sizeof w
         || (n < 0 && errno == EINTR))
    if (n < 0)
      continue;
    else if (w.word == SBX_GUARD_DONE)
      _exit (0);
    else if (w.word == SBX_GUARD_GROUP && w.pid > 1)
      group = w.pid;
    else if (w.word == SBX_GUARD_SANDBOX && w.pid > 1 && sandbox < 0)
      sandbox = sbx_pidfd_open (w.pid);
  if (group > 1)
    kill (-group, SIGKILL);
  if (sandbox >= 0)
    sbx_pidfd_signal (sandbox, SIGKILL);
  _exit (0);
}

int
sbx_run_guard_start (struct sbx_run_guard *g, struct sbx_error *err)
{
  int sv[2];
  g->fd = -1;
  g->pid = 0;
  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
    return sbx_fail_errno (err, -errno, "cannot make the run's guard socket");
  pid_t pid = fork ();
  if (pid < 0)
    {
      int e = errno;
      close (sv[0]);
      close (sv[1]);
      return sbx_fail_errno (err, -e, "cannot start the run's guard");
    }
  if (pid == 0)
    {
      close (sv[0]);
      guard_main (sv[1]);
    }
  close (sv[1]);
  g->fd = sv[0];
  g->pid = pid;
  return 0;
}

void
sbx_run_guard_tell (int fd, enum sbx_run_guard_word word, pid_t pid)
{
  struct word w = { word, pid };
  (void) !send (fd, &w, sizeof w, MSG_NOSIGNAL);
}

void
sbx_run_guard_stop (struct sbx_run_guard *g)
{
  if (g->fd < 0)
    return;
  /* The final sweep may have ended it already: then nothing listens.  */
  sbx_run_guard_tell (g->fd, SBX_GUARD_DONE, 0);
  close (g->fd);
  g->fd = -1;
  while (waitpid (g->pid, NULL, 0) < 0 && errno == EINTR)
    ;
}
