/* The bubblewrap backend of `run` (runtime/backend.h): sbx-oci spawns
   bwrap as its own child and stays its supervisor, a child subreaper that
   forwards signals, enforces the wall clock and the limits, and sweeps
   stragglers at the end.  */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signal_hold.h"
#include "common/file_io.h"
#include "runtime/backend.h"
#include "runtime/linux/supervise/limits.h"
#include "runtime/linux/supervise/run_guard.h"
#include "runtime/linux/supervise/host_ports.h"
#include "runtime/linux/supervise/supervise.h"
#include "runtime/linux/container/root_propagation.h"
#include "runtime/linux/bwrap/prestart.h"
#include "runtime/linux/bwrap/probe.h"
#include "runtime/linux/bwrap/runner_cover.h"
#include "runtime/linux/bwrap/setup_retry.h"
#include "runtime/linux/bwrap/spawn.h"
#include "runtime/linux/container/sandbox.h"
#include "runtime/linux/confine/landlock_helper_fd.h"
#include "runtime/linux/confine/landlock_rules.h"
#include "runtime/linux/stop_wait.h"
#include "runtime/shell_quote.h"
#include "runtime/state_root.h"

/* One line of the dry run's commentary, "# " and FMT's text with its
   control characters as \xHH: the paths in it may be names a sandbox
   chose, and the dry run is read on a terminal and run by a shell, where
   a newline in a comment would start a command.  */
static void __attribute__ ((format (printf, 1, 2)))
comment (const char *fmt, ...)
{
  char *text = NULL;
  va_list ap;
  va_start (ap, fmt);
  int n = vasprintf (&text, fmt, ap);
  va_end (ap);
  char *shown = n < 0 ? NULL : sbx_escaped_dup (text);
  printf ("# %s\n", shown ? shown : "(out of memory)");
  free (shown);
  free (text);
}

/* What the runner does before it execs bwrap, which the command line
   alone would not reproduce.  */
/* The runner's cover of the state root, for a range's user namespace.  */
static void
print_cover (const struct sbx_runner_cover *cover)
{
  if (cover->top == NULL)
    return;
  char *kept = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&kept, &len);
  for (size_t i = 0; f && i < cover->n_kept; i++)
    fprintf (f, "%s%s", i ? ", " : "; bound back: ", cover->kept[i]);
  if (f)
    fclose (f);
  comment ("in its mount namespace the runner covers %s with a tmpfs "
           "searchable by all (bwrap, a mapped uid, could not search it), "
           "holding only the way to its mount points%s",
           cover->top, kept ? kept : "");
  free (kept);
}

static void
print_runner_steps (const struct sbx_sandbox *sb,
                    const struct sbx_runner_cover *cover)
{
  const struct sbx_plan *plan = sb->plan;
  const char *mqueue_dir = sb->mqueue_dir;
  static const struct
  {
    enum sbx_ns_type type;
    const char *name;
  } joined[] = { { SBX_NS_NETWORK, "network" },
                 { SBX_NS_IPC, "ipc" },
                 { SBX_NS_UTS, "uts" } };
  for (size_t i = 0; i < sizeof joined / sizeof *joined; i++)
    if (plan->join[joined[i].type])
      comment ("first, the runner joins the %s namespace %s", joined[i].name,
               plan->join[joined[i].type]);
  if (plan->join[SBX_NS_PID])
    comment ("bwrap enters the pid namespace %s (--pidns, a descriptor "
             "the runner opens)",
             plan->join[SBX_NS_PID]);
  print_cover (cover);
  if (mqueue_dir)
    comment ("the runner mounts the mqueue of the IPC namespace it shares "
             "on %s, in a mount namespace of its own",
             mqueue_dir);
  if (plan->n_nodes > 0)
    comment ("the runner mounts a tmpfs on %s, in a mount namespace of "
             "its own, and makes linux.devices' nodes in it",
             plan->nodes_dir);
  for (size_t i = 0; i < plan->n_host_ports; i++)
    printf ("# before the command runs, sbx-oci listens on the sandbox's "
            "127.0.0.1:%u and forwards to the host's 127.0.0.1:%u\n",
            plan->host_ports[i], plan->host_ports[i]);
  if (plan->enter_userns)
    printf ("# last, the runner enters a user namespace sbx made with "
            "linux.uidMappings and gidMappings as its maps, as its uid 0 "
            "(bwrap makes none)\n");
  if (plan->set_groups)
    {
      printf ("# its supplementary groups are exactly:");
      for (size_t i = 0; i < plan->n_groups; i++)
        printf (" %u", (unsigned) plan->groups[i]);
      printf (plan->n_groups ? "\n" : " none\n");
    }
}

/* The seccomp programs and the Landlock helper, written out for a dry
   run's command line: the file each fd number reads.  */
struct exported
{
  int fd[3];
  char *path[3];
};

/* FD is a fresh memfd or a filled pipe: read from where it stands.  */
static int
export_program (int fd, const char *dir, int index, char **path,
                struct sbx_error *err)
{
  char buf[65536];
  size_t len = 0;
  ssize_t n;
  while ((n = read (fd, buf + len, sizeof buf - len)) > 0)
    len += (size_t) n;
  if (n < 0 || len == sizeof buf)
    return sbx_fail_errno (err, n < 0 ? -errno : -EFBIG,
                           "cannot read seccomp program %d", index);
  if (asprintf (path, "%s/seccomp-%d.bpf", dir, index) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  return sbx_write_file_atomic (*path, buf, len, 0644, err);
}

/* --seccomp-dir: the programs as files, read on fds 3 and 4.  */
static int
export_seccomp (struct sbx_sandbox *sb, const char *dir,
                struct sbx_bwrap_fds *fds, struct exported *x,
                struct sbx_error *err)
{
  int fd[2] = { sb->seccomp_fd, sb->seccomp_net_fd }, next = 3, r = 0;
  for (int i = 0; r == 0 && i < 2; i++)
    if (fd[i] >= 0)
      {
        r = export_program (fd[i], dir, i, &x->path[i], err);
        x->fd[i] = next++;
      }
  fds->seccomp = x->fd[0];
  fds->seccomp_net = x->fd[1];
  if (r == 0 && sbx_helper_needed (sb->plan))
    {
      if (asprintf (&x->path[2], "%s/sbx-landlock", dir) < 0)
        return sbx_fail (err, -ENOMEM, "out of memory");
      r = sbx_landlock_helper_write (x->path[2], err);
      fds->landlock = x->fd[2] = next++;
    }
  return r;
}

static void
print_dry_run (const struct sbx_sandbox *sb, const struct strv *argv,
               const struct exported *x, const struct sbx_runner_cover *cover)
{
  /* "--": a config's environment name may begin with "-", which env
     would take for an option (-S runs a command of its own).  */
  printf ("env -i --");
  for (size_t i = 0; i < sb->plan->env.n; i++)
    {
      putchar (' ');
      sbx_shell_quote (stdout, sb->plan->env.v[i]);
    }
  for (size_t i = 0; i < argv->n; i++)
    {
      fputs (i == 0 ? " \\\n  " : " ", stdout);
      sbx_shell_quote (stdout, argv->v[i]);
    }
  for (int i = 0; i < 3; i++)
    if (x->path[i])
      {
        printf (" %d< ", x->fd[i]);
        sbx_shell_quote (stdout, x->path[i]);
      }
  putchar ('\n');
  if ((sb->seccomp_fd >= 0 || sb->seccomp_net_fd >= 0) && !x->path[0]
      && !x->path[1])
    printf ("# run for real, compiled seccomp programs are added with "
            "--add-seccomp-fd FD (--seccomp-dir DIR writes them out)\n");
  if (sbx_helper_needed (sb->plan) && !x->path[2])
    printf ("# run for real, bubblewrap execs the landlock helper "
            "sbx-landlock from a sealed memfd (--seccomp-dir DIR writes it "
            "out)\n");
  print_runner_steps (sb, cover);
  for (size_t i = 0; i < sb->plan->enforcement.reasons.n; i++)
    comment ("enforcement %s: %s",
             sbx_level_name (sb->plan->enforcement.level),
             sb->plan->enforcement.reasons.v[i]);
}

/* How `run` has bwrap build the sandbox, for the run and for its dry run
   alike: the printed command is the one that runs.  */
static struct sbx_bwrap_opts
run_opts (const struct sbx_sandbox *sb)
{
  return (struct sbx_bwrap_opts){ .die_with_parent = true,
                                  .caps = &sb->caps,
                                  .mqueue_dir = sb->mqueue_dir };
}

static int
dry_run (struct sbx_sandbox *sb, const char *seccomp_dir,
         struct sbx_error *err)
{
  struct sbx_bwrap_opts opts = run_opts (sb);
  struct sbx_bwrap_fds fds = SBX_BWRAP_NO_FDS;
  struct exported x = { { -1, -1, -1 }, { NULL, NULL, NULL } };
  cleanup_strv struct strv argv = { 0 };
  struct sbx_runner_cover cover = { 0 };
  int r = seccomp_dir ? export_seccomp (sb, seccomp_dir, &fds, &x, err) : 0;
  if (r == 0)
    r = sbx_bwrap_args (sb->plan, &sb->probe.facts, &fds, &opts, &argv, err);
  if (r == 0)
    r = sbx_runner_cover_plan (sb->plan, sb->state_root, sb->mqueue_dir,
                               &cover, err);
  if (r == 0)
    print_dry_run (sb, &argv, &x, &cover);
  sbx_runner_cover_free (&cover);
  for (int i = 0; i < 3; i++)
    free (x.path[i]);
  return r;
}

/* Let the held runner go on.  One that has ended already (bwrap failed
   its set-up, sbx-oci-init did not find the command) has no reader left:
   the write's SIGPIPE is taken here, not left to end sbx-oci, which goes
   on to report how the runner ended.  */
static void
release_hold (int fd)
{
  (void) sbx_write_nosigpipe (fd, "x", 1);
}

/* Whether sbx-oci-init reported on REPORT_FD that it is held (a NUL),
   rather than a failure to find the command: that line goes to stderr,
   where sbx-oci-init writes it without a report pipe, and the run goes on
   to end with its status.  */
static bool
init_held (int report_fd)
{
  char msg[512];
  ssize_t n;
  do
    n = read (report_fd, msg, sizeof msg);
  while (n < 0 && errno == EINTR);
  if (n > 0 && msg[0] == '\0')
    return true;
  if (n > 0)
    {
      (void) !write (2, "sbx-oci: ", 9);
      (void) !write (2, msg, (size_t) n);
    }
  return false;
}

static int
supervise (struct sbx_sandbox *sb, const struct sbx_run_request *o,
           struct sbx_prestart *ps, struct sbx_limits *lim,
           struct sbx_outcome *out, struct sbx_error *err)
{
  sigset_t set;
  sbx_bwrap_supervise_signals (&set); /* blocked since sbx_backend_run */
  cleanup_close int sfd = signalfd (-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0)
    return sbx_fail_errno (err, -errno, "signalfd");
  /* Whatever double-forks out of the sandbox is re-parented here and
     swept at the end.  */
  prctl (PR_SET_CHILD_SUBREAPER, 1);
  struct sbx_spawn_request req = {
    .plan = sb->plan,
    .host = &sb->probe.facts,
    .opts = run_opts (sb),
    .spec = sb->spec,
    .seccomp_fd = sb->seccomp_fd,
    .seccomp_net_fd = sb->seccomp_net_fd,
    .preserve_fds = o->preserve_fds,
    .own_process_group = true,
    .cgroup = lim->cgroup,
    .state_root = sb->state_root,
    .prestart = ps,
  };
  /* Where bwrap can make no namespace, it is not run at all.  */
  struct sbx_rung rung = { 0 };
  bool direct = !sb->plan->enforcement.namespaces;
  if (direct)
    {
      int pr = sbx_rung_prepare (sb->plan, sb->seccomp_fd, sb->seccomp_net_fd,
                                 &rung, err);
      if (pr < 0)
        {
          sbx_rung_release (&rung);
          return pr;
        }
      req.rung = &rung;
    }
  /* The runner starts held until the command may run: without a quota,
     so that RLIMIT_NPROC can be set in the sandbox first; with host
     ports, so that they are listened on first.  Without bwrap to hold it
     (the rung: no network namespace, so no host ports either),
     RLIMIT_NPROC is set as soon as the command started.  */
  bool nproc = sbx_limits_wants_nproc (lim);
  bool propagation = sb->plan->root_propagation.kind != SBX_PROPAGATION_KEEP;
  int hold[2] = { -1, -1 };
  if (!direct && (nproc || sb->plan->n_host_ports || propagation)
      && pipe2 (hold, O_CLOEXEC) < 0)
    {
      sbx_rung_release (&rung);
      return sbx_fail_errno (err, -errno,
                             "cannot make the runner's hold pipe");
    }
  req.hold_fd = hold[0];
  /* sbx-oci-init says when it is held (the mounts are all in place), and
     bwrap which process that is.  */
  req.init_report = propagation;
  req.report_sandbox_pid = propagation;
  struct sbx_spawned sp = { .init_report_fd = -1 };
  /* The prestart's guard (told the runner's group, which a runner that
     replaces an abandoned prestart tells it anew), or one of its own.  */
  struct sbx_run_guard guard;
  int r = ps && sbx_prestart_take_guard (ps, &guard)
              ? 0
              : sbx_run_guard_start (&guard, err);
  req.guard_fd = guard.fd;
  r = r ?: sbx_bwrap_spawn (&req, &sp, err);
  sp.guard_pid = guard.pid;
  if (r == 0 && direct && nproc)
    sbx_limits_hold_nproc (lim, sp.runner_pid, 0);
  if (hold[0] >= 0)
    {
      close (hold[0]);
      if (r == 0 && nproc)
        sbx_limits_hold_nproc (lim, sp.runner_pid, 0);
      if (r == 0)
        r = sbx_host_ports_run (sb->plan, sp.runner_pid, sp.sandbox_pid, err);
      bool held = r == 0 && (!propagation || init_held (sp.init_report_fd));
      if (held && propagation)
        r = sbx_root_propagation_set (sp.sandbox_pid, sp.runner_pid, sb->plan,
                                      err);
      if (r == 0 && held)
        release_hold (hold[1]);
      close (hold[1]);
    }
  if (r < 0 && sp.runner_pid > 0)
    {
      /* Never released: the command did not run.  */
      kill (sp.runner_pid, SIGKILL);
      waitpid (sp.runner_pid, NULL, 0);
      close (sp.status_fd);
    }
  if (r == 0)
    {
      r = sbx_bwrap_supervise (&sp, sb->plan, lim, sfd, out, err);
      close (sp.status_fd);
    }
  if (sp.init_report_fd >= 0)
    close (sp.init_report_fd);
  sbx_run_guard_stop (&guard);
  sbx_rung_release (&rung);
  return r;
}

/* The sandbox, set up again while its set-up failed, provably before the
   command, as the host changed (setup_retry.h).  */
static int
supervise_attempts (const struct sbx_context *g, struct sbx_sandbox *sb,
                    const struct sbx_run_request *o, struct sbx_prestart *ps,
                    struct sbx_limits *lim, struct sbx_outcome *out,
                    struct sbx_error *err)
{
  const struct sbx_outcome fresh = *out;
  cleanup_close int watch = sbx_mounts_watch ();
  for (int attempt = 1;; attempt++)
    {
      int r = supervise (sb, o, attempt == 1 ? ps : NULL, lim, out, err);
      if (r < 0 || !out->set_up_failed || attempt == SBX_SETUP_ATTEMPTS
          || !sbx_setup_again (g, &watch, attempt,
                               sbx_sandbox_sockets_changed (sb)))
        return r;
      r = sbx_sandbox_rewind_filters (sb, err);
      if (r < 0)
        return r;
      *out = fresh;
    }
}

/* The limits are set up before the runner starts and finished after it
   ended, whatever happened in between: a quota's cgroup never outlives
   the run.  */
static int
run_limited (const struct sbx_context *g, struct sbx_sandbox *sb,
             const struct sbx_run_request *o, struct sbx_prestart *ps,
             struct sbx_outcome *out, struct sbx_error *err)
{
  int hr = sbx_run_refuse_held_only (sb->spec, err);
  if (hr < 0)
    return hr;
  const struct sbx_linux *lx = sb->spec->has_linux ? &sb->spec->linux_ : NULL;
  struct sbx_limits_request req = {
    .id = o->id,
    .cgroups_path = lx ? lx->cgroups_path : NULL,
    .systemd = g->systemd_cgroup,
    .tuning = lx ? &lx->resources.tuning : NULL,
    .reasons = &sb->plan->enforcement.reasons,
  };
  struct sbx_limits lim;
  int r = sbx_limits_setup (&lim, sb->plan, &req, err);
  if (r == 0)
    r = supervise_attempts (g, sb, o, ps, &lim, out, err);
  struct sbx_error ferr = { 0 };
  int f = sbx_limits_finish (&lim, out, r < 0 ? &ferr : err);
  sbx_limits_release (&lim);
  return r < 0 ? r : f;
}

/* A stop that ended a wait before the command started (stop_wait.h: a
   runner that hangs in the probe, or before it reports the sandbox) is
   the run's outcome, as one the supervision takes is: 0, the outcome
   filled, or -EINTR.  */
static int
stopped_before_start (struct sbx_outcome *out, struct sbx_error *err)
{
  int s = sbx_stop_pending ();
  if (s == 0)
    return -EINTR;
  sbx_error_clear (err);
  sbx_outcome_stopped_before_start (out, s);
  return 0;
}

/* bwrap started while `run` plans (prestart.h), where it may fit: the
   operator named no runner (one that reads its own arguments would get
   only --args) and the kernel has Landlock (the helper is the command it
   starts with).  */
static void
prestart (const struct sbx_context *g, const struct sbx_run_request *req,
          struct sbx_prestart *ps)
{
  sbx_prestart_init (ps);
  const char *runner = sbx_probe_runner_found ();
  if (!req->dry_run && !sbx_probe_named_runner (g->runner) && runner
      && sbx_probe_landlock_abi () > 0)
    sbx_bwrap_prestart (runner, req->preserve_fds, ps);
}

int
sbx_backend_run (const struct sbx_context *g,
                 const struct sbx_run_request *req, struct sbx_run_result *res,
                 struct sbx_error *err)
{
  if (req->backend == SBX_BACKEND_SEATBELT)
    return sbx_fail (err, -ENOTSUP,
                     "--backend seatbelt: runs only on macOS; use it with "
                     "--dry-run here to print the profile");
  /* A stopping signal is held from here, and taken by the supervision
     loop (which stops the set-up), so that it ends the run through the
     limits' finish and with an outcome: its default action left the
     cgroup behind (kill_loop.sh), and the caller no verdict.  */
  if (!req->dry_run)
    {
      sigset_t held;
      sbx_bwrap_supervise_signals (&held);
      sigprocmask (SIG_BLOCK, &held, NULL);
    }
  struct sbx_prestart ps;
  prestart (g, req, &ps);
  struct sbx_sandbox sb;
  int r = sbx_sandbox_prepare_source (g, &req->source, &sb, err);
  if (r == 0 && req->dry_run)
    r = dry_run (&sb, req->seccomp_dir, err);
  else if (r == 0)
    r = run_limited (g, &sb, req, &ps, &res->outcome, err);
  if (r == -EINTR && !req->dry_run)
    r = stopped_before_start (&res->outcome, err);
  sbx_prestart_release (&ps);
  res->exec_status = sb.exec_status;
  if (sb.spec)
    {
      res->ignored = sb.spec->ignored;
      sb.spec->ignored = (struct strv){ 0 };
    }
  res->plan = sb.plan;
  sb.plan = NULL; /* the outcome's enforcement report needs it */
  sbx_sandbox_release (&sb);
  return r;
}

int
sbx_backend_resolve (const struct sbx_context *g,
                     const struct sbx_config_source *src,
                     struct sbx_spec **spec, struct sbx_plan **plan,
                     struct sbx_error *err)
{
  struct sbx_sandbox sb;
  int r = sbx_sandbox_prepare_source (g, src, &sb, err);
  if (r == 0)
    {
      *spec = sb.spec, *plan = sb.plan;
      sb.spec = NULL, sb.plan = NULL;
    }
  sbx_sandbox_release (&sb);
  return r;
}

void
sbx_backend_print_runner (const struct sbx_context *g)
{
  struct sbx_probe probe;
  struct sbx_error err = { 0 };
  /* Only a root already there and the caller's own serves as the cache. */
  cleanup_close int root_fd = -1;
  sbx_state_root_open (sbx_state_root (g), false, &root_fd, &err);
  sbx_error_clear (&err);
  if (sbx_probe_host (g->runner, root_fd, &probe, &err) < 0)
    printf ("runner: none (%s)\n", err.msg);
  else
    {
      const int *v = probe.facts.runner_version;
      printf ("runner: %s (bubblewrap %d.%d.%d%s)\n", probe.runner_path, v[0],
              v[1], v[2], probe.facts.runner_named ? ", named" : "");
    }
  sbx_probe_release (&probe);
}
