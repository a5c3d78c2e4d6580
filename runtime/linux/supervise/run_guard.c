#include "runtime/linux/supervise/run_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/linux/raw_syscall.h"

#define GUARD_STACK (64 * 1024)

struct word
{
  int word; /* enum sbx_run_guard_word */
  pid_t pid;
};

#ifdef SBX_HAVE_RAW_SYSCALL
/* The guard shares sbx-oci's memory (CLONE_VM): nothing is copied, so
   starting it costs a run no copy-on-write faults, which is what a fork
   costs on a VM (about 2 ms a run, tests/bench/run_bench.sh).  So it
   calls no libc function: raw system calls only, whose errors touch no
   errno of sbx-oci's, on a stack of its own.  */
#define SYS(n, a, b, c, d) sbx_raw_syscall6 ((n), (a), (b), (c), (d), 0, 0)
#define SANITIZE_NONE __attribute__ ((no_sanitize ("address", "undefined")))
#else
/* Elsewhere a fork: a memory of its own, where libc's errno is its own. */
static long
guard_syscall (long n, long a, long b, long c, long d)
{
  long r = syscall (n, a, b, c, d);
  return r < 0 ? -(long) errno : r;
}
#define SYS(n, a, b, c, d) guard_syscall ((n), (a), (b), (c), (d))
#define SANITIZE_NONE
#endif

/* Where KEY (a NUL-ended string) ends in the LEN bytes at BUF, or -1.
   No libc: see above.  */
static SANITIZE_NONE long
key_end (const char *buf, long len, const char *key)
{
  for (long i = 0; i < len; i++)
    {
      long k = 0;
      while (key[k] && i + k < len && buf[i + k] == key[k])
        k++;
      if (!key[k])
        return i + k;
    }
  return -1;
}

/* The pid after "child-pid" in the LEN bytes at BUF (bwrap's status
   JSON: { "child-pid": N, ... }), or 0; 0 too when bwrap reported the
   command's exit code there as well: the sandbox has ended, and its
   pid may be another process's by now (sbx-oci stopped, then killed).  */
static SANITIZE_NONE long
child_pid_in (const char *buf, long len)
{
  long at = key_end (buf, len, "\"child-pid\""), pid = 0;
  if (at < 0 || key_end (buf, len, "\"exit-code\"") >= 0)
    return 0;
  while (at < len && (buf[at] == ' ' || buf[at] == ':'))
    at++;
  while (at < len && buf[at] >= '0' && buf[at] <= '9' && pid < 1 << 30)
    pid = pid * 10 + (buf[at++] - '0');
  return pid;
}

/* The sandbox's first process as bwrap named it on STATUS, which
   sbx-oci had not read yet when it died: a pidfd, or -1.  bwrap names
   it before it lets it go on, so one that could have left the runner's
   group is named there, if not told.  */
static SANITIZE_NONE long
sandbox_on_status (long status)
{
  char buf[512];
  SYS (SYS_fcntl, status, F_SETFL, O_NONBLOCK, 0);
  long n = SYS (SYS_read, status, (long) buf, sizeof buf, 0);
  long pid = n > 0 ? child_pid_in (buf, n) : 0;
  return pid > 1 ? SYS (SYS_pidfd_open, pid, 0, 0, 0) : -1;
}

/* One word from FD, and the descriptor that came with it into *PASSED
   (-1 when none came); the read's result.  */
static SANITIZE_NONE long
read_word (long fd, struct word *w, long *passed)
{
  _Alignas(struct cmsghdr) char control[CMSG_SPACE (sizeof (int))];
  struct iovec iov = { .iov_base = w, .iov_len = sizeof *w };
  struct msghdr msg = { .msg_iov = &iov,
                        .msg_iovlen = 1,
                        .msg_control = control,
                        .msg_controllen = sizeof control };
  *passed = -1;
  long n = SYS (SYS_recvmsg, fd, (long) &msg, MSG_CMSG_CLOEXEC, 0);
  struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR (&msg) : NULL;
  if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
    {
      int got;
      for (unsigned i = 0; i < sizeof got; i++)
        ((char *) &got)[i] = ((const char *) CMSG_DATA (c))[i];
      *passed = got;
    }
  return n;
}

static SANITIZE_NONE int
guard_main (void *arg)
{
  long fd = (long) arg;
  /* Out of sbx-oci's session and process group: what ends those must
     not end the guard; and none of its descriptors but the socket.  */
  SYS (SYS_setsid, 0, 0, 0, 0);
  SYS (SYS_close_range, 0, fd - 1, 0, 0);
  SYS (SYS_close_range, fd + 1, ~0U, 0, 0);
  pid_t group = 0;
  long sandbox = -1; /* a pidfd: the pid is never taken for another */
  long status = -1;  /* bwrap's status channel */
  struct word w;
  for (;;)
    {
      long passed;
      long n = read_word (fd, &w, &passed);
      if (n == -EINTR)
        continue;
      if (n != (long) sizeof w)
        break; /* sbx-oci is gone without a word: end what it left */
      if (w.word == SBX_GUARD_DONE)
        SYS (SYS_exit, 0, 0, 0, 0);
      else if (w.word == SBX_GUARD_GROUP)
        group = w.pid > 1 ? w.pid : 0;
      else if (w.word == SBX_GUARD_SANDBOX && w.pid > 1 && sandbox < 0)
        sandbox = SYS (SYS_pidfd_open, w.pid, 0, 0, 0);
      else if (w.word == SBX_GUARD_STATUS && passed >= 0)
        {
          /* A runner that replaces an abandoned prestart: its own.  */
          if (status >= 0)
            SYS (SYS_close, status, 0, 0, 0);
          status = passed;
          passed = -1;
        }
      if (passed >= 0)
        SYS (SYS_close, passed, 0, 0, 0);
    }
  if (group > 1)
    SYS (SYS_kill, -group, SIGKILL, 0, 0);
  if (sandbox < 0 && status >= 0)
    sandbox = sandbox_on_status (status);
  if (sandbox >= 0)
    SYS (SYS_pidfd_send_signal, sandbox, SIGKILL, 0, 0);
  SYS (SYS_exit, 0, 0, 0, 0);
  return 0;
}

int
sbx_run_guard_start (struct sbx_run_guard *g, struct sbx_error *err)
{
  int sv[2];
  *g = (struct sbx_run_guard){ .fd = -1, .stack = MAP_FAILED };
  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
    return sbx_fail_errno (err, -errno, "cannot make the run's guard socket");
  pid_t pid;
#ifdef SBX_HAVE_RAW_SYSCALL
  g->stack = mmap (NULL, GUARD_STACK, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  pid = g->stack == MAP_FAILED
            ? -1
            : clone (guard_main, (char *) g->stack + GUARD_STACK,
                     CLONE_VM | SIGCHLD, (void *) (long) sv[1]);
#else
  pid = fork ();
  if (pid == 0)
    guard_main ((void *) (long) sv[1]);
#endif
  int e = errno;
  close (sv[1]);
  if (pid < 0)
    {
      close (sv[0]);
      sbx_run_guard_stop (g);
      return sbx_fail_errno (err, -e, "cannot start the run's guard");
    }
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
sbx_run_guard_watch (int fd, int status_fd)
{
  struct word w = { SBX_GUARD_STATUS, 0 };
  struct iovec iov = { .iov_base = &w, .iov_len = sizeof w };
  _Alignas(struct cmsghdr) char control[CMSG_SPACE (sizeof (int))] = { 0 };
  struct msghdr msg = { .msg_iov = &iov,
                        .msg_iovlen = 1,
                        .msg_control = control,
                        .msg_controllen = sizeof control };
  struct cmsghdr *c = CMSG_FIRSTHDR (&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN (sizeof status_fd);
  memcpy (CMSG_DATA (c), &status_fd, sizeof status_fd);
  (void) !sendmsg (fd, &msg, MSG_NOSIGNAL);
}

void
sbx_run_guard_stop (struct sbx_run_guard *g)
{
  if (g->fd >= 0)
    {
      /* The final sweep may have ended it already: then nothing
         listens.  */
      sbx_run_guard_tell (g->fd, SBX_GUARD_DONE, 0);
      close (g->fd);
      g->fd = -1;
      while (g->pid > 0 && waitpid (g->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    }
  /* Gone (waited for here or by the sweep): its stack is free.  */
  if (g->stack != MAP_FAILED)
    munmap (g->stack, GUARD_STACK);
  g->stack = MAP_FAILED;
}
