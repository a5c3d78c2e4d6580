#include "runtime/darwin/supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "runtime/darwin/process_sample.h"

/* POSIX ps, where macOS and Debian both have it.  */
#define SBX_PS "/bin/ps"

static const int watched[SBX_SEATBELT_N_SIGNALS]
    = { SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

/* The write end of the self-pipe: a signal handler has nowhere else to
   find it.  One supervised run per process.  */
static int signal_pipe = -1;

static void
on_signal (int sig)
{
  int saved = errno;
  unsigned char b = (unsigned char) sig;
  ssize_t n = write (signal_pipe, &b, 1);
  (void) n; /* a full pipe already holds a wake-up */
  errno = saved;
}

int
sbx_seatbelt_watch_start (struct sbx_seatbelt_watch *w, struct sbx_error *err)
{
  if (pipe (w->pipe) < 0)
    return sbx_fail_errno (err, -errno, "pipe");
  for (int i = 0; i < 2; i++)
    {
      fcntl (w->pipe[i], F_SETFD, FD_CLOEXEC);
      fcntl (w->pipe[i], F_SETFL, O_NONBLOCK);
    }
  signal_pipe = w->pipe[1];
  sigset_t set;
  sigemptyset (&set);
  struct sigaction sa = { .sa_handler = on_signal };
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int i = 0; i < SBX_SEATBELT_N_SIGNALS; i++)
    {
      sigaddset (&set, watched[i]);
      sigaction (watched[i], &sa, &w->old[i]);
    }
  sigprocmask (SIG_BLOCK, &set, &w->old_mask);
  return 0;
}

void
sbx_seatbelt_watch_stop (struct sbx_seatbelt_watch *w)
{
  for (int i = 0; i < SBX_SEATBELT_N_SIGNALS; i++)
    sigaction (watched[i], &w->old[i], NULL);
  sigprocmask (SIG_SETMASK, &w->old_mask, NULL);
  signal_pipe = -1;
  close (w->pipe[0]);
  close (w->pipe[1]);
}

struct run
{
  pid_t child;
  int delivered; /* the last signal sbx itself sent */
  bool breach;   /* the wall clock ran out */
  bool ended;    /* the child is a zombie, not yet reaped */
};

/* The whole process group, then every descendant found by a sample taken
   before the kill (one that setsid'd out of the group included).  */
static void
terminate (struct run *run)
{
  pid_t found[1024];
  long n = sbx_sample_descendants (SBX_PS, run->child, found,
                                   sizeof found / sizeof *found);
  kill (-run->child, SIGKILL);
  for (long i = 0; i < n; i++)
    kill (found[i], SIGKILL);
  run->delivered = SIGKILL;
}

/* Whether the child has ended, without reaping it: while it is a zombie
   its pid, and so its process group's id, cannot be reused, so the group
   can still be signalled safely.  */
static bool
child_ended (pid_t child)
{
  siginfo_t si;
  memset (&si, 0, sizeof si);
  if (waitid (P_PID, (id_t) child, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
    return errno == ECHILD;
  return si.si_pid == child;
}

static void
on_wakeup (struct run *run, int rd)
{
  unsigned char sigs[64];
  ssize_t n;
  while ((n = read (rd, sigs, sizeof sigs)) > 0)
    for (ssize_t i = 0; i < n; i++)
      if (sigs[i] != SIGCHLD && !run->breach)
        {
          run->delivered = sigs[i];
          kill (-run->child, sigs[i]);
        }
  run->ended = child_ended (run->child);
}

static int
loop (struct run *run, int rd, uint64_t wall_clock_ms)
{
  uint64_t deadline = wall_clock_ms ? sbx_now_ms () + wall_clock_ms : 0;
  while (!run->ended)
    {
      int timeout = -1;
      if (deadline && !run->breach)
        {
          uint64_t now = sbx_now_ms ();
          timeout = now >= deadline ? 0 : (int) (deadline - now);
        }
      struct pollfd pfd = { rd, POLLIN, 0 };
      int n = poll (&pfd, 1, timeout);
      if (n < 0 && errno != EINTR)
        return -errno;
      if (deadline && !run->breach && sbx_now_ms () >= deadline)
        {
          run->breach = true;
          terminate (run);
        }
      on_wakeup (run, rd);
    }
  return 0;
}

static void
fill_outcome (const struct run *run, int status, struct sbx_outcome *out)
{
  if (run->breach)
    {
      out->kind = SBX_OUTCOME_LIMIT;
      out->limit = SBX_LIMIT_WALL_CLOCK;
      out->signal = SIGKILL;
      snprintf (out->reason, sizeof out->reason,
                "the %s limit was reached: the sandbox was killed",
                sbx_limit_name (SBX_LIMIT_WALL_CLOCK));
    }
  else if (WIFSIGNALED (status))
    {
      out->kind = SBX_OUTCOME_SIGNALED;
      out->signal = WTERMSIG (status);
      out->signal_certain = run->delivered == out->signal;
    }
  else
    {
      out->kind = SBX_OUTCOME_EXITED;
      out->exit_code = WEXITSTATUS (status);
    }
}

int
sbx_seatbelt_supervise (struct sbx_seatbelt_watch *w,
                        const struct sbx_seatbelt_command *cmd,
                        uint64_t wall_clock_ms, struct sbx_outcome *out,
                        struct sbx_error *err)
{
  struct run run = { 0 };
  uint64_t start = sbx_now_ms ();
  int r = sbx_seatbelt_spawn (cmd, watched + 1, SBX_SEATBELT_N_SIGNALS - 1,
                              &run.child, err);
  sigset_t set;
  sigemptyset (&set);
  for (int i = 0; i < SBX_SEATBELT_N_SIGNALS; i++)
    sigaddset (&set, watched[i]);
  sigprocmask (SIG_UNBLOCK, &set, NULL);
  if (r < 0)
    return r;
  r = loop (&run, w->pipe[0], wall_clock_ms);
  if (r < 0)
    terminate (&run);
  else
    /* The command ended: whatever it left in its group goes with it, as
       the sweep at the end of a run on Linux.  */
    kill (-run.child, SIGKILL);
  int status = 0;
  while (waitpid (run.child, &status, 0) < 0 && errno == EINTR)
    ;
  if (r < 0)
    return sbx_fail_errno (err, r, "supervising the sandbox");
  out->wall_ms = sbx_now_ms () - start;
  fill_outcome (&run, status, out);
  return 0;
}
