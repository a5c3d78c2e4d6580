/* The create engine: set the sandbox up held before exec, and leave no sbx
   process between the caller and the sandbox's first process
   (docs/design.md, "Process model").  bwrap runs with --unshare-pid
   --as-pid-1, held on a FIFO in the state directory (opened read-write, so it
   never sees EOF); once bwrap reports the sandbox's pid, the outer bwrap is
   killed and the sandbox is re-parented to the caller's subreaper.  `start`
   writes one byte to the FIFO.  */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "common/signal_hold.h"
#include "hooks/hooks.h"
#include "runtime/linux/container/root_propagation.h"
#include "runtime/linux/container/cgroup_view.h"
#include "runtime/context.h"
#include "runtime/linux/container/create_held.h"
#include "runtime/linux/supervise/limits.h"
#include "runtime/linux/supervise/host_ports.h"
#include "runtime/linux/container/create_console.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/stop_wait.h"
#include "runtime/linux/bwrap/runner_status.h"
#include "runtime/linux/bwrap/setup_retry.h"
#include "runtime/linux/bwrap/spawn.h"
#include "runtime/linux/confine/sysctl.h"
#include "runtime/linux/container/sandbox.h"
#include "runtime/linux/state/kept_policy.h"
#include "runtime/linux/state/sandbox_record.h"
#include "runtime/linux/state/state_store.h"

/* How long bwrap may take to set the sandbox up.  */
#define HOLD_WAIT_MS 30000

/* runner_failed's code for a runner that exited with status 1, as
   bwrap's die() does when its set-up fails: only that set-up may be made
   again.  A runner killed by a signal, or a wrapper (--runner) that
   turned bwrap's death into another status, may have left its child
   behind.  */
#define SET_UP_FAILED (-EIO)

static int
runner_failed (const struct sbx_sandbox *sb, int status, struct sbx_error *err)
{
  bool died = WIFEXITED (status) && WEXITSTATUS (status) == 1;
  return sbx_fail (err, died ? SET_UP_FAILED : -ECHILD,
                   "the sandbox could not be set up (runner %s exited with "
                   "status %d)",
                   sb->probe.facts.runner_path,
                   WIFEXITED (status) ? WEXITSTATUS (status)
                                      : 128 + WTERMSIG (status));
}

/* sbx-oci-init's one line, when it could not find the command among
   the container's mounts (then it exited, and with it the runner).  */
static int
init_failed (const struct sbx_sandbox *sb, const char *msg, int status,
             struct sbx_error *err)
{
  if (msg == NULL || msg[0] == '\0')
    return runner_failed (sb, status, err);
  return sbx_fail (err, -ENOENT, "%.*s", (int) strcspn (msg, "\n"), msg);
}

/* sbx-oci-init's report: 1 when it is held (it wrote one NUL), 0 when it
   has said nothing yet, -1 with its message in MSG when it failed.  */
static int
init_report (int report_fd, char *msg, size_t size)
{
  struct pollfd p = { report_fd, POLLIN, 0 };
  if (report_fd < 0 || poll (&p, 1, 0) <= 0)
    return 0;
  ssize_t n = read (report_fd, msg, size - 1);
  if (n <= 0)
    return 0;
  msg[n] = '\0';
  return msg[0] == '\0' ? 1 : -1;
}

/* -EINTR for a stop that ended a wait (stop_wait.h), in its words.  */
static int
stopped (struct sbx_error *err)
{
  int r = sbx_stop_requested (err);
  return r < 0 ? r : sbx_fail (err, -EINTR, "sbx-oci was sent a signal");
}

/* The sandbox ended before it was held: wait for the runner, and say why
   in sbx-oci-init's words when it left a report, else in the runner's.  */
static int
ended_in_setup (const struct sbx_sandbox *sb, pid_t *runner, int report_fd,
                struct sbx_error *err)
{
  int status = 0;
  int r = sbx_reap_unless_stopped (*runner, &status);
  *runner = 0;
  if (r == -EINTR)
    return stopped (err);
  char msg[512] = "";
  init_report (report_fd, msg, sizeof msg);
  return init_failed (sb, msg, status, err);
}

/* PATH (/proc/PID/syscall) shows a read of WANT's fd, or cannot be
   read here (then bwrap's report must do).  */
static bool
held_now (const char *path, const char *want, int wlen)
{
  char buf[64];
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read (fd, buf, sizeof buf - 1) : -1;
  if (n > wlen && strncmp (buf, want, wlen) == 0)
    return true;
  return n < 0 && (errno == EACCES || errno == EPERM);
}

/* bwrap reports the sandbox's pid right after clone, before it sets the
   sandbox up: only once the sandbox sits in read() on its block fd is the
   setup known to have worked.  /proc/PID/syscall shows that as
   "NR 0xFD ...", NR read's number on this architecture (0 on x86-64, 63
   on arm64: a literal 0 timed out every create there); a runner that exits
   first means the setup failed (bwrap has said why on stderr).
   sbx-oci-init, when it holds instead of bwrap, says so itself on
   REPORT_FD, which works for an unprivileged caller too, whose
   /proc/PID/syscall of the sandbox is not readable.  */
static int
wait_until_held (const struct sbx_sandbox *sb, pid_t *runner, pid_t child,
                 int block_fd, int report_fd, struct sbx_error *err)
{
  char path[64], want[32];
  snprintf (path, sizeof path, "/proc/%d/syscall", (int) child);
  int wlen
      = snprintf (want, sizeof want, "%ld 0x%x ", (long) SYS_read, block_fd);
  char msg[512] = "";
  for (int ms = 0; ms < HOLD_WAIT_MS;)
    {
      int status, said = init_report (report_fd, msg, sizeof msg);
      if (said > 0)
        return 0;
      if (waitpid (*runner, &status, WNOHANG) == *runner)
        {
          *runner = 0;
          if (said == 0)
            init_report (report_fd, msg, sizeof msg);
          return init_failed (sb, msg, status, err);
        }
      if (said == 0 && report_fd < 0 && held_now (path, want, wlen))
        return 0;
      int stop = sbx_stop_requested (err);
      if (stop < 0)
        return stop;
      int step = ms < 100 ? 1 : 10;
      usleep (step * 1000);
      ms += step;
    }
  return sbx_fail (err, -ETIMEDOUT, "the sandbox was not set up within %d s",
                   HOLD_WAIT_MS / 1000);
}
/* The sandbox ST reports, kept in C for kill_recorded (once).  */
static void
keep_reported (const struct sbx_runner_status *st, struct sbx_container *c)
{
  if (st->child_pid > 0 && c->pid == 0)
    {
      c->pid = st->child_pid;
      c->start_time = sbx_pid_start_time (c->pid);
    }
}

/* A stop came before the runner reported the sandbox's pid: the runner
   is killed, and a sandbox it reported, in the grace or before it died,
   is kept in C.  -EINTR, the stop's.  */
static int
stopped_unreported (pid_t *runner, struct sbx_runner_status *st, int status_fd,
                    struct sbx_container *c, struct sbx_error *err)
{
  /* Its start time while the runner, its parent, still holds it.  */
  keep_reported (st, c);
  kill (*runner, SIGKILL);
  while (waitpid (*runner, NULL, 0) < 0 && errno == EINTR)
    ;
  *runner = 0;
  /* All the runner wrote is there now; the sandbox may hold the pipe
     open, so what is there is all that is read.  */
  if (st->child_pid == 0 && fcntl (status_fd, F_SETFL, O_NONBLOCK) == 0)
    sbx_runner_status_read (st, status_fd);
  keep_reported (st, c);
  return stopped (err);
}

/* Spawn bwrap held on the FIFO and learn the sandbox's pid.  */
static int
spawn_held (struct sbx_sandbox *sb, const struct sbx_create_request *o,
            int fifo, int exec_fifo, struct sbx_create_console *con,
            pid_t *runner, struct sbx_container *c, struct sbx_cgroup *cgroup,
            struct sbx_error *err)
{
  struct sbx_spawn_request req = {
    .plan = sb->plan,
    .host = &sb->probe.facts,
    /* Without a pid namespace of its own (--pid=host) the command is
       bwrap's child, a host pid: bwrap refuses --as-pid-1 then.  */
    .opts = { .as_pid_1 = sb->plan->unshare[SBX_NS_PID],
              .die_with_parent = false,
              .caps = &sb->caps,
              .mqueue_dir = sb->mqueue_dir },
    .spec = sb->spec,
    .seccomp_fd = sb->seccomp_fd,
    .seccomp_net_fd = sb->seccomp_net_fd,
    .hold_fd = fifo,
    .preserve_fds = o->preserve_fds,
    .cgroup = cgroup,
    .state_root = sb->state_root,
    .started_fd = exec_fifo,
    .init_report = true,
  };
  struct sbx_spawned sp;
  /* Not started at all once stopped.  */
  int r = sbx_stop_requested (err);
  if (r < 0)
    return r;
  r = con->slave >= 0 ? sbx_create_console_swap_in (con) : 0;
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot give the terminal to the runner");
  r = sbx_bwrap_spawn (&req, &sp, err);
  sbx_create_console_swap_out (con);
  if (r < 0)
    return r;
  *runner = sp.runner_pid;
  cleanup_close int report_fd = sp.init_report_fd;
  struct sbx_runner_status st = { 0 };
  r = sbx_runner_status_wait_child (&st, sp.status_fd, false);
  if (r == -EINTR)
    r = stopped_unreported (runner, &st, sp.status_fd, c, err);
  close (sp.status_fd);
  if (r == -EINTR)
    return r;
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot read the runner's status");
  if (st.child_pid <= 0)
    return ended_in_setup (sb, runner, report_fd, err);
  c->pid = st.child_pid;
  c->start_time = sbx_pid_start_time (c->pid);
  /* Gone already: sbx-oci-init may have failed at once (a missing
     executable), and its report says so.  */
  if (c->start_time == 0)
    return ended_in_setup (sb, runner, report_fd, err);
  /* Before anything else: from here a killed create leaves the sandbox
     findable by this record (until now, by the FIFO it holds).  */
  r = sbx_record_pid (c->dir, "pid", c->pid, c->start_time, err);
  if (r < 0)
    return r;
  r = wait_until_held (sb, runner, c->pid, sp.block_fd, report_fd, err);
  return r ?: sbx_root_propagation_set (c->pid, *runner, sb->plan, err);
}

/* The sandbox C's record names, killed (if it is still that process)
   and waited for up to a second: a failed attempt's, or a failed
   create's.  */
static void
kill_recorded (struct sbx_container *c)
{
  if (c->start_time == 0)
    return;
  int pfd = sbx_pidfd_open (c->pid);
  if (pfd >= 0 && sbx_pid_start_time (c->pid) == c->start_time
      && sbx_pidfd_signal (pfd, SIGKILL) == 0)
    poll (&(struct pollfd){ pfd, POLLIN, 0 }, 1, 1000);
  if (pfd >= 0)
    close (pfd);
}

/* spawn_held again while its set-up failed as the host changed
   (setup_retry.h): the runner ended on its own, so its sandbox did too;
   one whose pid was recorded is killed all the same before the next
   attempt holds on the same FIFOs.  The command never ran: it waits for
   `start`.  */
static int
spawn_attempts (const struct sbx_context *g, struct sbx_sandbox *sb,
                const struct sbx_create_request *o, int fifo, int exec_fifo,
                struct sbx_create_console *con, pid_t *runner,
                struct sbx_container *c, struct sbx_cgroup *cgroup,
                struct sbx_error *err)
{
  cleanup_close int watch = sbx_mounts_watch ();
  for (int attempt = 1;; attempt++)
    {
      int r = spawn_held (sb, o, fifo, exec_fifo, con, runner, c, cgroup, err);
      if (r != SET_UP_FAILED || *runner != 0 || attempt == SBX_SETUP_ATTEMPTS
          || !sbx_setup_again (g, &watch, attempt,
                               sbx_sandbox_sockets_changed (sb)))
        return r;
      kill_recorded (c);
      c->pid = 0;
      c->start_time = 0;
      sbx_error_clear (err);
      r = sbx_sandbox_rewind_filters (sb, err);
      if (r < 0)
        return r;
    }
}

static int
run_create_hooks (const struct sbx_spec *spec, const char *state,
                  struct sbx_error *err)
{
  int r = 0;
  for (int p = SBX_HOOK_PRESTART; r == 0 && p <= SBX_HOOK_CREATE_CONTAINER;
       p++)
    r = sbx_hooks_run (&spec->hooks.phase[p], sbx_hook_phase_name (p), state,
                       err);
  return r;
}

static int
record (const struct sbx_sandbox *sb, const struct sbx_create_request *o,
        struct sbx_container *c, const struct sbx_limits *lim,
        struct sbx_error *err)
{
  cleanup_free char *text = NULL;
  cleanup_free char *kept = sbx_state_file (c, SBX_KEPT_CONFIG);
  if (kept == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  int r = sbx_write_file_atomic_at (c->dir_fd, SBX_KEPT_CONFIG, kept,
                                    sb->spec->text, sb->spec->text_len, 0600,
                                    err);
  r = r ?: sbx_kept_policy_write (c, sb->plan, err);
  r = r ?: sbx_state_write (c, sb->spec, sb->plan, lim, &text, err);
  r = r ?: run_create_hooks (sb->spec, text, err);
  if (r == 0 && o->pid_file.path)
    {
      char pid[32];
      int n = snprintf (pid, sizeof pid, "%d", (int) c->pid);
      r = sbx_file_dest_write (&o->pid_file, pid, n, 0644, err);
    }
  return r;
}

static int
launch (const struct sbx_context *g, struct sbx_sandbox *sb,
        const struct sbx_create_request *o, struct sbx_container *c,
        struct sbx_limits *lim, struct sbx_error *err)
{
  cleanup_free char *fifo_path = sbx_state_file (c, SBX_RELEASE_FIFO);
  if (fifo_path == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (mkfifoat (c->dir_fd, SBX_RELEASE_FIFO, 0600) < 0)
    return sbx_fail_errno (err, -errno, "cannot create %s", fifo_path);
  cleanup_close int fifo = sbx_state_openat (c, SBX_RELEASE_FIFO, O_RDWR, 0);
  if (fifo < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s", fifo_path);
  /* `start` reads it to its end: sbx-oci-init closes it by its exec.  */
  if (mkfifoat (c->dir_fd, SBX_EXEC_FIFO, 0600) < 0)
    return sbx_fail_errno (err, -errno, "cannot create %s/%s", c->dir,
                           SBX_EXEC_FIFO);
  cleanup_close int exec_fifo = sbx_state_openat (c, SBX_EXEC_FIFO, O_RDWR, 0);
  if (exec_fifo < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s/%s", c->dir,
                           SBX_EXEC_FIFO);
  struct sbx_create_console con = { .slave = -1, .saved = { -1, -1, -1 } };
  if (sb->spec->process.terminal)
    {
      int64_t owner[2];
      sbx_policy_terminal_owner (sb->spec, &sb->spec->process.user,
                                 sb->plan->init_ids, owner);
      int r = sbx_create_console_open (&con, c->dir, o->console_socket, owner,
                                       sb->plan, err);
      if (r < 0)
        {
          sbx_create_console_close (&con);
          return r;
        }
    }
  pid_t runner = 0;
  int r = spawn_attempts (g, sb, o, fifo, exec_fifo, &con, &runner, c,
                          lim->cgroup, err);
  /* Held means set up: the sandbox has its bind of the instance.  */
  sbx_create_console_close (&con);
  r = r
          ?: sbx_host_ports_create (sb->plan, c->pid, c->start_time, c->dir,
                                    err);
  if (r == 0 && sb->spec->has_linux)
    r = sbx_sysctl_apply (c->pid, sb->spec->linux_.sysctl,
                          sb->spec->linux_.n_sysctl, err);
  if (r == 0)
    sbx_limits_hold_nproc (lim, 0, c->pid);
  r = r ?: sbx_limits_watch (lim, c->dir, c->pid, c->start_time, err);
  r = r ?: record (sb, o, c, lim, err);
  /* Without --die-with-parent the held sandbox outlives its launcher and
     is re-parented to the caller's subreaper.  */
  if (runner > 0)
    {
      kill (runner, SIGKILL);
      waitpid (runner, NULL, 0);
    }
  /* A signal that came meanwhile (held: sbx_container_create) ends this
     create once it is undone, asked last: one that ended a createRuntime
     hook left the container "created", its hook never done (the hooks
     see it, hooks.c, and fail).  */
  r = r ?: sbx_stop_requested (err);
  if (r < 0)
    kill_recorded (c);
  return r;
}

/* The cgroup exists before the runner does, so the runner enters it
   before exec; a failed create leaves no cgroup and no watcher.  */
static int
launch_limited (const struct sbx_context *g, struct sbx_sandbox *sb,
                const struct sbx_create_request *o, struct sbx_container *c,
                struct sbx_error *err)
{
  const struct sbx_linux *lx = sb->spec->has_linux ? &sb->spec->linux_ : NULL;
  struct sbx_limits_request req = {
    .id = c->id,
    .cgroups_path = lx ? lx->cgroups_path : NULL,
    .systemd = g->systemd_cgroup,
    .tuning = lx ? &lx->resources.tuning : NULL,
    .container_dir = c->dir,
  };
  struct sbx_limits lim;
  int r = sbx_limits_setup (&lim, sb->plan, &req, err);
  if (r == 0 && sbx_cgroup_view (sb->plan, lim.cgroup) < 0)
    r = sbx_fail (err, -ENOMEM, "out of memory");
  r = r ?: launch (g, sb, o, c, &lim, err);
  if (r < 0)
    sbx_limits_undo (&lim);
  sbx_limits_release (&lim);
  return r;
}

int
sbx_container_create (const struct sbx_context *g,
                      const struct sbx_create_request *o,
                      struct sbx_error *err)
{
  const char *root = sbx_state_root (g);
  int r = sbx_state_check_id (o->id, err);
  r = r ?: sbx_state_root_ensure (root, err);
  if (r < 0)
    return r;
  /* From the claim on, a signal that would end sbx-oci acts only once a
     create it stopped is undone (launch, wait_until_held): one that came
     while the sandbox was set up left the claimed directory ("create did
     not finish": the id taken until delete --force) and the sandbox
     held in it, recorded nowhere (signal_windows.sh).  */
  sigset_t mask;
  sbx_signals_hold (&mask);
  struct sbx_container c;
  r = sbx_state_claim (root, o->id, &c, err);
  if (r < 0)
    {
      sbx_state_close (&c);
      sbx_signals_release (&mask);
      return r;
    }
  struct sbx_sandbox sb;
  r = sbx_sandbox_prepare (g, o->bundle, &sb, err);
  if (r == 0 && sb.spec->process.terminal && o->console_socket == NULL)
    r = sbx_fail (err, -EINVAL,
                  "process.terminal is true: --console-socket is required");
  /* It would have to run inside the sandbox between bwrap's set-up and
     the command's exec, where bwrap offers no step: refused, not skipped. */
  if (r == 0 && sb.spec->hooks.phase[SBX_HOOK_START_CONTAINER].n > 0)
    r = sbx_fail (err, -ENOTSUP,
                  "hooks.startContainer: bubblewrap cannot run a hook "
                  "inside the sandbox before the command starts");
  r = r ?: sbx_stop_requested (err);
  r = r ?: launch_limited (g, &sb, o, &c, err);
  sbx_sandbox_release (&sb);
  if (r < 0)
    {
      struct sbx_error ignored = { 0 };
      sbx_state_remove (&c, &ignored);
    }
  sbx_state_close (&c);
  sbx_signals_release (&mask);
  return r < 0 ? r : 0;
}
