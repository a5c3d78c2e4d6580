/* `sbx-oci start`: release a created sandbox (one byte on its FIFO),
   wait until its command runs and has settled, and run the poststart
   hooks.  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "common/signal_hold.h"
#include "runtime/cli.h"
#include "runtime/linux/container/logged_hooks.h"
#include "runtime/linux/pid_identity.h"
#include "runtime/linux/state/state_store.h"

static int
release (struct sbx_container *c, struct sbx_error *err)
{
  cleanup_free char *fifo = sbx_state_file (c, SBX_RELEASE_FIFO);
  cleanup_free char *mark = sbx_state_file (c, SBX_STARTED_MARK);
  if (fifo == NULL || mark == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* Non-blocking: with no reader left the open fails instead of hanging. */
  cleanup_close int fd
      = sbx_state_openat (c, SBX_RELEASE_FIFO, O_WRONLY | O_NONBLOCK, 0);
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s", fifo);
  /* Marked first: a sandbox seen running is never reported as created.
     Mark and byte go together (a signal between them left a container
     said to be running whose command never would).  */
  sigset_t old;
  sbx_signals_hold (&old);
  cleanup_close int m
      = sbx_state_openat (c, SBX_STARTED_MARK, O_WRONLY | O_CREAT, 0600);
  int r = m < 0 ? sbx_fail_errno (err, -errno, "cannot create %s", mark) : 0;
  ssize_t n = r < 0 ? 1 : sbx_write_nosigpipe (fd, "x", 1);
  if (n != 1)
    {
      unlinkat (c->dir_fd, SBX_STARTED_MARK, 0);
      r = sbx_fail_errno (err, n < 0 ? (int) n : -EIO,
                          "cannot release the sandbox");
    }
  sbx_signals_release (&old);
  return r;
}

/* Returns once the command has been executed, as runc's start does (it
   reads its exec FIFO to the end; crun 1.8's returns before the exec), so
   that a signal sent next reaches the command and not sbx-oci-init: the
   exec FIFO reads to its end when its last writer, sbx-oci-init, closes
   it by its exec (create's own copy went with create).  Nothing tells
   when the command has set its signal handlers (wait_settled).  What
   the helper wrote there instead is its failure.  A container made
   without one (an older sbx-oci, or one without /proc) has nothing to
   wait for.  */
static int
wait_exec (struct sbx_container *c, struct sbx_error *err)
{
  cleanup_close int fd
      = sbx_state_openat (c, SBX_EXEC_FIFO, O_RDONLY | O_NONBLOCK, 0);
  if (fd < 0)
    return 0;
  /* Blocking from here: a read waits for the last writer to go.  */
  if (fcntl (fd, F_SETFL, 0) < 0)
    return sbx_fail_errno (err, -errno, "cannot wait for the command");
  char msg[512];
  ssize_t n;
  do
    n = read (fd, msg, sizeof msg - 1);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    return 0;
  msg[n] = '\0';
  msg[strcspn (msg, "\n")] = '\0';
  return sbx_fail (err, -EIO, "%s", msg);
}

/* The longest start waits for the command to settle.  */
#define SETTLE_MS 100

/* Then until the command first sleeps (it waits for a child, input, a
   signal or a timer: 'S'), stops or ends, for at most SETTLE_MS.  A
   command sets its signal handlers before it first waits, as a shell's
   `trap` comes before its `wait`: a signal sent the moment start returns
   then reaches them, where a pid namespace's init drops one it has no
   handler for yet, and a shell trapped between `trap` and `wait` sat out
   its `wait` (runtime-tools' killsig; tests/integration/
   start_then_kill.sh).  Running ('R') or in an uninterruptible wait
   ('D': a page read, a vfork) it is still starting.  A command that never
   sleeps costs start SETTLE_MS.  */
static void
wait_settled (const struct sbx_container *c)
{
  const struct timespec tick = { 0, 100 * 1000 };
  uint64_t deadline = sbx_now_ms () + SETTLE_MS;
  for (;;)
    {
      char state = sbx_pid_state_since (c->pid, c->start_time);
      if ((state != 'R' && state != 'D') || sbx_now_ms () >= deadline)
        return;
      nanosleep (&tick, NULL);
    }
}

int
sbx_cmd_start (struct sbx_context *g, int argc, char **argv,
               struct sbx_error *err)
{
  if (argc != 2)
    return sbx_fail_usage (err, "start: expected exactly one container id");
  struct sbx_container c;
  int r = sbx_state_open (sbx_state_root (g), argv[1], true, &c, err);
  if (r == 0)
    switch (sbx_state_status (&c))
      {
      case SBX_STATUS_CREATED:
        r = release (&c, err);
        r = r ?: wait_exec (&c, err);
        if (r == 0)
          wait_settled (&c);
        break;
      case SBX_STATUS_RUNNING:
        r = sbx_fail (err, -EINVAL,
                      "cannot start an already running container");
        break;
      case SBX_STATUS_STOPPED:
        r = sbx_fail (err, -EINVAL,
                      "cannot start a container that has stopped");
        break;
      }
  if (r == 0)
    sbx_run_logged_hooks (g, &c, SBX_HOOK_POSTSTART, true);
  sbx_state_close (&c);
  return r < 0 ? r : 0;
}
