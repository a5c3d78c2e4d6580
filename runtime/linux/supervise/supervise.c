#include "common/clock.h"
#include "runtime/linux/supervise/supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signal_hold.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/bwrap/runner_status.h"
#include "runtime/linux/supervise/limits.h"
#include "runtime/linux/supervise/run_guard.h"
#include "runtime/linux/supervise/terminate.h"
#include "runtime/linux/supervise/tree_kill.h"

/* A shell's Ctrl-Z, `bg` and `fg`: they stop and continue the command,
   not `run`, which stopped would check no limit while the sandbox ran
   on (runc forwards them too).  */
static bool
job_control (int sig)
{
  return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU || sig == SIGCONT;
}

/* Every signal that would end sbx-oci by default is taken and forwarded
   (SIGALRM or SIGXCPU ended the run with its cgroup left and no outcome),
   as runc forwards them, but SIGPIPE: only sbx-oci's own writes raise
   it, and those take it themselves (common/signal_hold.h).  */
void
sbx_bwrap_supervise_signals (sigset_t *set)
{
  sbx_signals_held_set (set);
  sigdelset (set, SIGPIPE);
  sigaddset (set, SIGCHLD);
  for (int sig = 1; sig < NSIG; sig++)
    if (job_control (sig))
      sigaddset (set, sig);
}

struct monitor
{
  struct sbx_runner_status st;
  pid_t runner;
  bool runner_done;
  int runner_status;
  int sandbox_pidfd;
  int delivered; /* the last signal sbx itself sent */
  enum sbx_limit_kind breach;
  struct sbx_cgroup *cgroup; /* the quota's, or NULL */
  int status_fd;             /* bwrap's status channel, non-blocking */
  int grace_fd;              /* armed by a stopping signal, or -1 */
  bool grace_over;           /* and the sandbox was killed when it ran out */
  int abandoned;             /* the signal that ended the set-up, or 0 */
  int guard_fd;              /* the run's guard (run_guard.h), or -1 */
  bool own_pid_ns;           /* the sandbox's init ends all it started */
  bool guard_released;       /* told it may end (release_guard) */
  int pending; /* a signal forwarded before the command's process was */
};

static void
learn_sandbox (struct monitor *m)
{
  if (m->sandbox_pidfd >= 0 || m->st.child_pid <= 0)
    return;
  /* The guard first: until it is told, it can end this process only if
     it reads the pid where sbx-oci has just taken it from.  */
  if (m->guard_fd >= 0)
    sbx_run_guard_tell (m->guard_fd, SBX_GUARD_SANDBOX, m->st.child_pid);
  m->sandbox_pidfd = sbx_pidfd_open (m->st.child_pid);
}

/* The command's exit code says the sandbox's set-up is long over: its
   init armed its own death signal (run's bwrap has --die-with-parent)
   before it ran the command, so bwrap's end, and with it sbx-oci's (the
   runner's death signal), ends the init, and in a pid namespace of its
   own everything the sandbox started.  (bwrap 0.8.0's init reports the
   exit code and then waits for its other children: it is not gone yet.)
   The guard, which covers only the set-up window (run_guard.h), is let
   go now, to end while bwrap does rather than be killed and waited for
   by the sweep.  Without that namespace what the sandbox left running is
   still the guard's to end, should sbx-oci die before its sweep.  */
static void
release_guard (struct monitor *m)
{
  if (!m->own_pid_ns || !m->st.have_exit_code || m->guard_fd < 0)
    return;
  sbx_run_guard_tell (m->guard_fd, SBX_GUARD_DONE, 0);
  m->guard_fd = -1;
  m->guard_released = true;
}

/* Whether this process has no child at all, ended or not: then there is
   nothing to sweep (a look that costs one system call, not two reads of
   procfs).  */
static bool
childless (void)
{
  siginfo_t info;
  return waitid (P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0
         && errno == ECHILD;
}

/* Up to MAX of the pids listed in the "children" file at PATH, or -1
   when it cannot be read; a read into a buffer of ours, as this runs on
   every run's way out.  The kernel ends every pid with a space: a number
   without one was cut by the buffer, and is left for the next round
   rather than read as another, shorter pid.  */
static ssize_t
read_children (const char *path, pid_t *pids, size_t max)
{
  char buf[4096];
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t len = fd < 0 ? -1 : read (fd, buf, sizeof buf - 1);
  size_t n = 0;
  if (len < 0)
    return -1;
  buf[len] = '\0';
  for (char *p = buf, *end; n < max; p = end)
    {
      long pid = strtol (p, &end, 10);
      if (end == p || *end != ' ' || pid <= 0)
        break;
      pids[n++] = (pid_t) pid;
    }
  return (ssize_t) n;
}

/* Whether PID, one of ours, surely has no child: a children file that
   cannot be read does not count as empty.  */
static bool
is_childless (pid_t pid)
{
  char path[64];
  pid_t one;
  snprintf (path, sizeof path, "/proc/%d/task/%d/children", (int) pid,
            (int) pid);
  return read_children (path, &one, 1) == 0;
}

/* The sandbox's first process and its whole process group; its pid 1
   (bwrap's reaper) only dies of SIGKILL, which ends the namespace.  */
static void
forward (struct monitor *m, int sig)
{
  if (m->st.child_pid == 0)
    sbx_runner_status_read (&m->st, m->status_fd); /* it may be there */
  learn_sandbox (m);
  m->delivered = sig;
  if (m->st.child_pid > 0)
    {
      /* bwrap's init ignores it; until the init has forked the command's
         process, nothing else is there to take it: it is sent again as
         soon as something is (resend_pending).  */
      kill (-m->st.child_pid, sig);
      if (is_childless (m->st.child_pid))
        m->pending = sig;
    }
  else
    {
      /* Not started yet: abandon the set-up.  Its whole process group:
         bwrap's first child, still in it until bwrap has reported its pid
         (read just above), would otherwise wait for ever for the go-ahead
         of the bwrap killed here (supervise/run_guard.h).  */
      m->abandoned = sig;
      kill (-m->runner, SIGKILL);
    }
}

/* Before the command's process is there, nothing is stopped or
   continued: the signal is kept for it, unless it would take the place
   of a pending one that ends the run.  */
static void
forward_job_control (struct monitor *m, int sig)
{
  if (m->st.child_pid == 0)
    sbx_runner_status_read (&m->st, m->status_fd);
  learn_sandbox (m);
  if (m->st.child_pid > 0)
    kill (-m->st.child_pid, sig);
  if ((m->st.child_pid <= 0 || is_childless (m->st.child_pid))
      && (m->pending == 0 || job_control (m->pending)))
    m->pending = sig;
}

static void
resend_pending (struct monitor *m)
{
  if (m->pending && m->st.child_pid > 0 && !is_childless (m->st.child_pid))
    {
      kill (-m->st.child_pid, m->pending);
      m->pending = 0;
    }
}

static void
teardown (struct monitor *m, enum sbx_limit_kind why)
{
  learn_sandbox (m);
  m->breach = why;
  m->delivered = SIGKILL;
  /* The same path as `kill` and `delete --force`; the loop reaps.  */
  struct sbx_error ignored = { 0 };
  if (m->sandbox_pidfd >= 0)
    sbx_terminate (m->sandbox_pidfd, m->cgroup, 0, &ignored);
  kill (m->runner, SIGKILL);
}

static void
reap (struct monitor *m)
{
  int status;
  pid_t pid;
  while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
    if (pid == m->runner)
      {
        m->runner_done = true;
        m->runner_status = status;
      }
}

static void
arm (int fd, uint64_t ms)
{
  struct itimerspec its
      = { .it_value = { (time_t) (ms / 1000), (long) (ms % 1000) * 1000000 } };
  if (fd >= 0)
    timerfd_settime (fd, 0, &its, NULL);
}

static int
arm_timer (uint64_t ms)
{
  if (ms == 0)
    return -1;
  int fd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  arm (fd, ms);
  return fd;
}

static void
on_signal (struct monitor *m, int signal_fd)
{
  struct signalfd_siginfo si;
  while (read (signal_fd, &si, sizeof si) == (ssize_t) sizeof si)
    {
      if (si.ssi_signo == SIGCHLD)
        {
          reap (m);
          continue;
        }
      if (job_control ((int) si.ssi_signo))
        {
          forward_job_control (m, (int) si.ssi_signo);
          continue;
        }
      forward (m, (int) si.ssi_signo);
      if (sbx_signal_stops ((int) si.ssi_signo) && m->grace_fd < 0)
        m->grace_fd = arm_timer (SBX_STOP_GRACE_MS);
    }
}

/* The monitor's sampling tick (limits without a quota).  */
static void
on_sample (struct monitor *m, struct sbx_limits *lim, int sample_fd)
{
  uint64_t ticks, next;
  if (read (sample_fd, &ticks, sizeof ticks) <= 0)
    return;
  enum sbx_limit_kind breach
      = sbx_limits_tick (lim, m->st.child_pid, sbx_now_ms (), &next);
  if (breach != SBX_LIMIT_NONE)
    teardown (m, breach);
  else
    arm (sample_fd, next);
}

static int
loop (struct monitor *m, int signal_fd, int status_fd, int timer_fd,
      struct sbx_limits *lim, int sample_fd)
{
  while (!m->runner_done || !m->st.eof)
    {
      struct pollfd fds[5] = {
        { signal_fd, POLLIN, 0 },
        { m->st.eof ? -1 : status_fd, POLLIN, 0 },
        { timer_fd, POLLIN, 0 },
        { m->breach ? -1 : sample_fd, POLLIN, 0 },
        { m->delivered == SIGKILL ? -1 : m->grace_fd, POLLIN, 0 },
      };
      /* Once bwrap is gone its pipe ends soon; never wait forever on a
         write end some stray process might still hold.  */
      int timeout = m->runner_done ? 100 : m->pending ? 5 : -1;
      int n = poll (fds, 5, timeout);
      if (n < 0 && errno != EINTR)
        return -errno;
      if (n == 0 && m->runner_done)
        break;
      /* The status first: a signal that arrives with the sandbox's pid
         still unread must reach the sandbox, not abandon its set-up.  */
      if (fds[1].revents)
        sbx_runner_status_read (&m->st, status_fd);
      learn_sandbox (m);
      release_guard (m);
      if (fds[0].revents & POLLIN)
        on_signal (m, signal_fd);
      if (fds[2].revents & POLLIN)
        {
          uint64_t ticks;
          if (read (timer_fd, &ticks, sizeof ticks) > 0)
            teardown (m, SBX_LIMIT_WALL_CLOCK);
        }
      if (fds[3].revents & POLLIN)
        on_sample (m, lim, sample_fd);
      resend_pending (m);
      if (fds[4].revents & POLLIN)
        {
          m->grace_over = true;
          teardown (m, m->breach);
        }
    }
  return 0;
}

/* Kill and reap every child left to this (subreaper) process, but only
   kill SANDBOX_INIT (the init of the sandbox's own PID namespace, 0 for
   none) when it has no child.  The sandbox's init, SIGKILLed, never runs
   again, and every process the sandbox made descends from it: with no
   child left (checked after the kill, which also ends any fork it was
   making), nothing the sandbox started can run.  It is not waited for:
   what it still does is release its namespaces (a mount table, an RCU
   grace period), which the kernel finishes after we return, as it does
   behind bwrap itself.  Only a process that joined the PID namespace
   from outside (nsenter) is not its descendant: the kernel kills it when
   that release is done, a millisecond or so later.  This holds because
   the init is bwrap's single-threaded reaper (`run` does not use
   --as-pid-1), whose children are all on its main thread's list.  */
static void
sweep_children (pid_t sandbox_init, pid_t guard)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/self/task/%d/children", (int) getpid ());
  /* Each round kills the whole tree below each child (without a pid
     namespace nothing else ends it: a chain of any depth whose top
     returned hangs below this subreaper) and reaps what is re-parented
     here now; a process forked behind the walk is re-parented here for
     the next round.  No sleeping: a SIGKILLed child of ours is reaped as
     soon as it is gone.  (Up to 256 a round: the rest are killed in the
     next one.)  The bound only keeps a kernel bug from hanging `run`.  */
  for (int round = 0; round < 100000; round++)
    {
      pid_t pids[256];
      bool killed[256];
      ssize_t n = read_children (path, pids, sizeof pids / sizeof *pids);
      size_t waited = 0;
      for (ssize_t i = 0; i < n; i++)
        {
          /* The init of the sandbox's pid namespace takes its whole
             namespace with it; the run's guard forks nothing (raw system
             calls only, run_guard.c), so it needs no walk, whose stop
             of it would cost every run a wait.  */
          if (pids[i] != sandbox_init && pids[i] != guard)
            sbx_tree_kill (pids[i]);
          killed[i] = sbx_pidfd_kill (pids[i], SIGKILL);
        }
      for (ssize_t i = 0; i < n; i++)
        {
          if (pids[i] == sandbox_init && killed[i] && is_childless (pids[i]))
            continue;
          while (waitpid (pids[i], NULL, 0) < 0 && errno == EINTR)
            ;
          waited++;
        }
      if (waited == 0)
        return;
    }
}

/* The signal that ended the set-up before the command ran, or 0: one
   that abandoned it before bwrap reported the sandbox, or one forwarded
   to the sandbox's processes while they were still setting up (the
   Landlock helper, sbx-oci-init), which bwrap then reports as its own
   128+N without an exit code (kill_loop.sh, under ASan's slower set-up). */
static int
stopped_in_setup (const struct monitor *m)
{
  if (m->st.have_exit_code)
    return 0;
  if (m->abandoned)
    return m->abandoned;
  int s = m->runner_status, d = m->delivered;
  bool by_it = (WIFEXITED (s) && WEXITSTATUS (s) == 128 + d)
               || (WIFSIGNALED (s) && WTERMSIG (s) == d);
  return d > 0 && sbx_signal_stops (d) && by_it ? d : 0;
}

int
sbx_bwrap_supervise (struct sbx_spawned *sp, const struct sbx_plan *plan,
                     struct sbx_limits *lim, int signal_fd,
                     struct sbx_outcome *out, struct sbx_error *err)
{
  bool own_pid_ns = plan->enforcement.namespaces && plan->unshare[SBX_NS_PID];
  struct monitor m = { .runner = sp->runner_pid,
                       .sandbox_pidfd = -1,
                       .guard_fd = sp->guard_fd,
                       .own_pid_ns = own_pid_ns,
                       .grace_fd = -1,
                       .cgroup = lim->cgroup,
                       .status_fd = sp->status_fd };
  uint64_t start = sbx_now_ms ();
  fcntl (sp->status_fd, F_SETFL, O_NONBLOCK);
  cleanup_close int timer_fd = arm_timer (plan->wall_clock_ms);
  cleanup_close int sample_fd = arm_timer (
      lim->mechanism == SBX_LIMITS_MONITOR ? lim->interval_ms : 0);
  int r = loop (&m, signal_fd, sp->status_fd, timer_fd, lim, sample_fd);
  if (!m.runner_done)
    {
      teardown (&m, m.breach);
      waitpid (m.runner, &m.runner_status, 0);
    }
  /* The sandbox's init is left to release its namespaces after we
     return, unless a quota's cgroup is to be removed: that needs the init
     gone from it, and waiting for the init is the quickest way to know.  */
  bool leave_init = own_pid_ns && m.cgroup == NULL;
  /* A guard let go ends at once: reaped here, it often leaves nothing to
     sweep.  */
  if (m.guard_released && sp->guard_pid > 0)
    while (waitpid (sp->guard_pid, NULL, 0) < 0 && errno == EINTR)
      ;
  if (!childless ())
    sweep_children (leave_init ? m.st.child_pid : 0, sp->guard_pid);
  if (m.sandbox_pidfd >= 0)
    close (m.sandbox_pidfd);
  if (m.grace_fd >= 0)
    close (m.grace_fd);
  if (r < 0)
    return sbx_fail_errno (err, r, "supervising the sandbox");
  out->wall_ms = sbx_now_ms () - start;
  /* Without namespaces the runner is the command itself (there is no
     bwrap to report its exit code): its own status is the command's.  */
  if (!plan->enforcement.namespaces && !m.st.have_exit_code)
    {
      m.st.have_exit_code = true;
      m.st.exit_code = WIFSIGNALED (m.runner_status)
                           ? 128 + WTERMSIG (m.runner_status)
                           : WEXITSTATUS (m.runner_status);
    }
  sbx_outcome_from_runner (out, m.st.have_exit_code, m.st.exit_code,
                           m.runner_status, m.delivered);
  /* bwrap's die() exits 1: a wrapper (--runner) that turned bwrap's
     death by a signal into an exit of 137 proves nothing.  */
  out->set_up_failed
      = plan->enforcement.namespaces && !m.st.have_exit_code
        && WIFEXITED (m.runner_status) && WEXITSTATUS (m.runner_status) == 1
        && m.delivered == 0 && m.breach == SBX_LIMIT_NONE && m.abandoned == 0;
  int stopped = stopped_in_setup (&m);
  if (stopped && m.breach == SBX_LIMIT_NONE)
    sbx_outcome_stopped_before_start (out, stopped);
  else if (m.grace_over && m.breach == SBX_LIMIT_NONE)
    {
      /* Stopped as asked, if not in time: the command (or its set-up) is
         what was ended, not a sandbox that failed.  */
      out->kind = SBX_OUTCOME_SIGNALED;
      out->signal = SIGKILL;
      out->signal_certain = true;
      snprintf (out->reason, sizeof out->reason,
                "it had not ended %d s after the signal sbx-oci forwarded: "
                "killed",
                SBX_STOP_GRACE_MS / 1000);
    }
  if (m.breach != SBX_LIMIT_NONE)
    {
      out->kind = SBX_OUTCOME_LIMIT;
      out->limit = m.breach;
      out->signal = SIGKILL;
      snprintf (out->reason, sizeof out->reason,
                "the %s limit was reached: the sandbox was killed",
                sbx_limit_name (m.breach));
    }
  return 0;
}
