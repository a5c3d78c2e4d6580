/* Running OCI hooks: fork, give the state on stdin, wait with a timeout.  */
#include "common/clock.h"
#include "hooks/hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signal_hold.h"
#include "runtime/linux/confine/fd_scrub.h"

/* Without a pidfd the parent polls waitpid at this interval.  */
#define HOOK_POLL_INTERVAL_MS 10

/* What the child needs, prepared before fork so the child allocates
   nothing on the way to execve.  */
struct hook_exec
{
  const char *path;
  char *const *argv;
  char *const *envp;
  int stdin_fd;  /* read end of the state pipe */
  int status_fd; /* CLOEXEC write end: carries execve's errno on failure */
};

/* The parent's view of one running hook.  */
struct hook_proc
{
  pid_t pid;
  int pidfd;    /* -1 where the kernel lacks pidfd_open */
  int stdin_fd; /* non-blocking write end; -1 once the state is delivered */
  const char *state;
  size_t len, off;
};

/* ---- in the child ---- */

/* A hook must not inherit sbx's signal state: a blocked or ignored SIGPIPE
   (or anything else) would change how the hook behaves.  */
static void
reset_signals (void)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigset_t none;
  for (int sig = 1; sig < NSIG; sig++)
    sigaction (sig, &dfl, NULL); /* fails harmlessly for KILL, STOP, ... */
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
}

static _Noreturn void
exec_child (const struct hook_exec *x)
{
  int e = 0;
  reset_signals ();
  /* Its own process group, so a timeout kills what the hook started too.
     The cost: a hook that reads the terminal (or writes to it under TOSTOP)
     is stopped as a background job; hooks get a pipe on stdin anyway.  */
  setpgid (0, 0);
  /* dup2 clears CLOEXEC on fd 0; if the pipe already is fd 0, clear it.  */
  if (x->stdin_fd == STDIN_FILENO)
    e = fcntl (STDIN_FILENO, F_SETFD, 0) < 0 ? errno : 0;
  else if (dup2 (x->stdin_fd, STDIN_FILENO) < 0)
    e = errno;
  /* The status pipe moves to fd 3, still close-on-exec, so one sweep
     closes everything above it.  */
  int status_fd = x->status_fd;
  if (e == 0 && status_fd != 3)
    {
      if (dup3 (status_fd, 3, O_CLOEXEC) < 0)
        e = errno;
      else
        status_fd = 3;
    }
  if (e == 0)
    e = -sbx_close_fds_from (4);
  if (e == 0)
    {
      execve (x->path, x->argv, x->envp);
      e = errno;
    }
  /* Tell the parent why, so a missing binary is not mistaken for a hook
     that exited 127.  */
  (void) !write (status_fd, &e, sizeof e);
  _exit (127);
}

/* ---- in the parent ---- */

/* Writing the state to a hook that exits without reading stdin raises
   SIGPIPE; sbx must get EPIPE instead and not die.  Block SIGPIPE while a
   hook runs and swallow the one the write raised.  */
struct sigpipe_guard
{
  sigset_t old_mask;
  bool was_pending;
};

static void
sigpipe_block (struct sigpipe_guard *g)
{
  sigset_t pipe_set, pending;
  sigemptyset (&pipe_set);
  sigaddset (&pipe_set, SIGPIPE);
  sigpending (&pending);
  g->was_pending = sigismember (&pending, SIGPIPE) == 1;
  sigprocmask (SIG_BLOCK, &pipe_set, &g->old_mask);
}

static void
sigpipe_restore (const struct sigpipe_guard *g)
{
  sigset_t pipe_set;
  struct timespec zero = { 0, 0 };
  sigemptyset (&pipe_set);
  sigaddset (&pipe_set, SIGPIPE);
  if (!g->was_pending)
    while (sigtimedwait (&pipe_set, NULL, &zero) == SIGPIPE)
      ;
  sigprocmask (SIG_SETMASK, &g->old_mask, NULL);
}

static void
close_stdin (struct hook_proc *p)
{
  if (p->stdin_fd >= 0)
    close (p->stdin_fd);
  p->stdin_fd = -1;
}

/* Write what the pipe takes now.  A hook may close stdin early: EPIPE (or
   any write error) ends the delivery, it does not fail the hook.  */
static void
feed_stdin (struct hook_proc *p)
{
  while (p->off < p->len)
    {
      ssize_t n = write (p->stdin_fd, p->state + p->off, p->len - p->off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        return;
      if (n < 0)
        break;
      p->off += n;
    }
  close_stdin (p);
}

static int
spawn_hook (const struct sbx_hook *hook, const char *label,
            struct hook_proc *p, int *status_rd, struct sbx_error *err)
{
  char *path_argv[] = { hook->path, NULL };
  char *no_env[] = { NULL };
  struct hook_exec x = {
    .path = hook->path,
    .argv = hook->args.n > 0 ? hook->args.v : path_argv,
    .envp = hook->env.n > 0 ? hook->env.v : no_env,
  };
  int in[2], st[2];

  if (pipe2 (in, O_CLOEXEC) < 0)
    return sbx_fail_errno (err, -errno, "%s: cannot create a pipe", label);
  if (pipe2 (st, O_CLOEXEC) < 0)
    {
      int e = -errno;
      close (in[0]);
      close (in[1]);
      return sbx_fail_errno (err, e, "%s: cannot create a pipe", label);
    }
  pid_t pid = fork ();
  int e = pid < 0 ? -errno : 0;
  if (pid == 0)
    {
      x.stdin_fd = in[0];
      x.status_fd = st[1];
      exec_child (&x);
    }
  close (in[0]);
  close (st[1]);
  if (pid < 0)
    {
      close (in[1]);
      close (st[0]);
      return sbx_fail_errno (err, e, "%s: cannot fork %s", label, hook->path);
    }
  p->pid = pid;
  p->stdin_fd = in[1];
  *status_rd = st[0];
  fcntl (p->stdin_fd, F_SETFL, O_NONBLOCK);
#ifdef SYS_pidfd_open
  p->pidfd = syscall (SYS_pidfd_open, pid, 0);
#endif
  return 0;
}

/* Deliver the state and wait for the hook to end, at most TIMEOUT seconds
   (0 = no limit).  Returns 0 with *STATUS filled, -ETIMEDOUT, or -errno.  */
static int
wait_hook (struct hook_proc *p, int timeout, int signal_fd, int *status)
{
  int64_t deadline
      = timeout > 0 ? (int64_t) sbx_now_ms () + (int64_t) timeout * 1000 : -1;
  for (;;)
    {
      pid_t r = waitpid (p->pid, status, WNOHANG);
      if (r == p->pid)
        return 0;
      if (r < 0 && errno != EINTR)
        return -errno;

      int wait_ms = -1;
      if (deadline >= 0)
        {
          int64_t left = deadline - (int64_t) sbx_now_ms ();
          if (left <= 0)
            return -ETIMEDOUT;
          wait_ms = left > INT32_MAX ? INT32_MAX : (int) left;
        }
      if (p->pidfd < 0 && (wait_ms < 0 || wait_ms > HOOK_POLL_INTERVAL_MS))
        wait_ms = HOOK_POLL_INTERVAL_MS;

      struct pollfd fds[3] = { { .fd = signal_fd, .events = POLLIN } };
      nfds_t n = 1;
      if (p->pidfd >= 0)
        fds[n++] = (struct pollfd){ .fd = p->pidfd, .events = POLLIN };
      if (p->stdin_fd >= 0)
        fds[n++] = (struct pollfd){ .fd = p->stdin_fd, .events = POLLOUT };
      if (poll (fds, n, wait_ms) < 0 && errno != EINTR)
        return -errno;
      if (fds[0].revents & POLLIN)
        return -EINTR;
      if (p->stdin_fd >= 0)
        feed_stdin (p);
    }
}

/* Kill the hook and everything in its process group, then reap it.  The pid
   is our unreaped child, so neither it nor its group id can be recycled.  */
static void
kill_hook (struct hook_proc *p, int *status)
{
  kill (-p->pid, SIGKILL);
  kill (p->pid, SIGKILL); /* in case it had not reached setpgid yet */
  while (waitpid (p->pid, status, 0) < 0 && errno == EINTR)
    ;
}

static int
check_outcome (int status, int status_rd, const char *label, const char *path,
               struct sbx_error *err)
{
  int exec_errno;
  ssize_t n;
  do
    n = read (status_rd, &exec_errno, sizeof exec_errno);
  while (n < 0 && errno == EINTR);
  if (n == (ssize_t) sizeof exec_errno && exec_errno > 0)
    return sbx_fail_errno (err, -exec_errno, "%s: %s cannot execute", label,
                           path);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return 0;
  if (WIFEXITED (status))
    return sbx_fail (err, -EIO, "%s: %s exited with status %d", label, path,
                     WEXITSTATUS (status));
  return sbx_fail (err, -EIO, "%s: %s killed by signal %d", label, path,
                   WTERMSIG (status));
}

static int
run_one (const struct sbx_hook *hook, const char *label, const char *state,
         struct sbx_error *err)
{
  struct hook_proc p = { .pid = -1, .pidfd = -1, .stdin_fd = -1 };
  cleanup_close int status_rd = -1;
  struct sigpipe_guard guard;
  int status = 0;

  p.state = state ? state : "";
  p.len = strlen (p.state);
  sigpipe_block (&guard);
  /* A signal that would end sbx-oci ends the hook first (its process
     group), then sbx-oci, on the release below: the hook outlived a
     SIGTERMed create, and its own timeout.  */
  sigset_t stopping, old;
  sbx_signals_held_set (&stopping);
  sigdelset (&stopping, SIGPIPE); /* feeding a hook that has gone */
  /* One ignored (nohup's SIGHUP) ends nothing: held, it is queued all
     the same, and a signalfd of it would end the hook.  */
  for (int s = 1; s < NSIG; s++)
    if (sigismember (&stopping, s) == 1 && sbx_signal_ignored (s))
      sigdelset (&stopping, s);
  sbx_signals_hold (&old);
  cleanup_close int signal_fd
      = signalfd (-1, &stopping, SFD_CLOEXEC | SFD_NONBLOCK);
  int r = spawn_hook (hook, label, &p, &status_rd, err);
  if (r == 0)
    {
      r = wait_hook (&p, hook->timeout, signal_fd, &status);
      if (r < 0)
        kill_hook (&p, &status);
      close_stdin (&p);
      if (p.pidfd >= 0)
        close (p.pidfd);
      if (r == -ETIMEDOUT)
        r = sbx_fail (err, r, "%s: %s timed out after %ds", label, hook->path,
                      hook->timeout);
      else if (r == -EINTR)
        r = sbx_fail (err, r, "%s: %s was ended: sbx-oci was sent a signal",
                      label, hook->path);
      else if (r < 0)
        r = sbx_fail_errno (err, r, "%s: %s: cannot wait for the hook", label,
                            hook->path);
      else
        r = check_outcome (status, status_rd, label, hook->path, err);
    }
  sbx_signals_release (&old);
  sigpipe_restore (&guard);
  return r;
}

static void
hook_label (char *buf, size_t size, const char *phase, size_t index)
{
  snprintf (buf, size, "hooks.%s[%zu]", phase, index);
}

int
sbx_hooks_run (const struct sbx_hook_list *list, const char *phase,
               const char *state_json, struct sbx_error *err)
{
  for (size_t i = 0; list && i < list->n; i++)
    {
      char label[128];
      hook_label (label, sizeof label, phase, i);
      int r = run_one (&list->v[i], label, state_json, err);
      if (r < 0)
        return r;
    }
  return 0;
}

int
sbx_hooks_run_all_logged (const struct sbx_hook_list *list, const char *phase,
                          const char *state_json, struct strv *messages)
{
  int failures = 0;
  for (size_t i = 0; list && i < list->n; i++)
    {
      char label[128];
      struct sbx_error e = { 0 };
      hook_label (label, sizeof label, phase, i);
      if (run_one (&list->v[i], label, state_json, &e) < 0)
        {
          failures++;
          strv_push (messages, e.msg);
        }
    }
  return failures;
}
