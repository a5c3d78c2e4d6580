/* The exec engine: bwrap cannot join a running sandbox, so sbx does: join
   the namespaces of the sandbox's first process (/proc/PID/ns), fork into
   its pid namespace, take the process's user, capabilities, no_new_privs
   and the container's seccomp program, and exec.  With --detach the
   process is left to the caller's subreaper, as runc leaves it.  */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/host_root.h"
#include "common/file_io.h"
#include "common/signal_hold.h"
#include "runtime/context.h"
#include "runtime/linux/container/exec_join.h"
#include "runtime/linux/container/exec_labels.h"
#include "runtime/linux/child_step.h"
#include "runtime/linux/exec_search.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/container/sealed_self.h"
#include "runtime/linux/confine/fd_scrub.h"
#include "runtime/linux/confine/landlock_helper_fd.h"
#include "runtime/linux/state/kept_policy.h"
#include "runtime/linux/confine/capabilities.h"
#include "runtime/linux/container/console.h"
#include "runtime/linux/container/ns_join.h"
#include "runtime/linux/confine/seccomp.h"
#include "runtime/linux/confine/seccomp_builtin.h"
#include "policy/policy.h"
#include "runtime/linux/state/state_store.h"
#include "runtime/linux/supervise/limits_report.h"
#include "runtime/linux/supervise/supervise.h"
#include "spec/spec.h"

/* What the new process needs, prepared before any fork.  */
struct exec_plan
{
  struct sbx_spec *spec;         /* process (and the bundle's seccomp) */
  struct sbx_caps_decision caps; /* as create decided them */
  struct sock_fprog filter;      /* .len 0: none */
  struct sock_fprog filter_net;  /* network "deny"; .len 0: none */
  struct sbx_ns_join ns;
  int tty_slave;    /* -1: no terminal */
  int preserve_fds; /* the caller's 3 .. 3+N-1 pass in */
  /* The Landlock layer, when the sandbox has it: the helper's sealed
     memfd, exec'd in place of the command with create's rules (kept
     policy) and the command after "--" in HELPER_ARGV.  -1: none: sbx-oci
     execs the command itself, from its own sealed copy (exit_route).  */
  int helper_fd;
  struct strv helper_argv;
  const char *selinux, *apparmor; /* the plan's labels; NULL: none */
  int proc_fd; /* the host's /proc, for the labels: the container's own may
                  be covered by now (exec_labels.h); -1 without labels */
};

/* The process object, read as the "process" of a config the parser knows. */
static int
load_process (const struct sbx_exec_request *o, const struct sbx_container *c,
              struct exec_plan *p, struct sbx_error *err)
{
  int r = sbx_state_load_spec (c, &p->spec, err);
  if (r < 0)
    return r;
  if (o->process_file == NULL)
    {
      /* ARGS on the command line replace the bundle's command.  */
      strv_free (&p->spec->process.args);
      for (size_t i = 0; r == 0 && i < o->args.n; i++)
        r = strv_push (&p->spec->process.args, o->args.v[i]);
      return r;
    }
  cleanup_free char *text = NULL, *doc = NULL;
  size_t len;
  r = sbx_read_file (o->process_file, 1 << 20, &text, &len, err);
  if (r == -ENOENT)
    return sbx_fail (err, r, "--process %s: no such file", o->process_file);
  if (r < 0)
    return r;
  if (asprintf (&doc,
                "{\"ociVersion\":\"1.0.0\",\"root\":{\"path\":\"/\"},"
                "\"process\":%s}",
                text)
      < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  struct sbx_spec *ps = NULL;
  r = sbx_spec_parse (doc, strlen (doc), "/", &ps, err);
  if (r < 0)
    return sbx_error_prefix (err, "--process %s", o->process_file);
  /* Swap in the given process, keep the bundle's seccomp; the keys the
     process object set are what the ceiling checks (kept_policy.h).  */
  struct sbx_process tmp = p->spec->process;
  p->spec->process = ps->process;
  ps->process = tmp;
  /* A process given without labels runs with the container's, as runc
     exec's does.  */
  struct sbx_process *now = &p->spec->process, *was = &ps->process;
  if (now->selinux_label == NULL)
    now->selinux_label = steal_pointer (&was->selinux_label);
  if (now->apparmor_profile == NULL)
    now->apparmor_profile = steal_pointer (&was->apparmor_profile);
  struct strv fields = p->spec->fields;
  p->spec->fields = ps->fields;
  ps->fields = fields;
  sbx_spec_free (ps);
  return 0;
}

static int
open_namespaces (const struct sbx_container *c, struct exec_plan *p,
                 struct sbx_error *err)
{
  int r = sbx_ns_join_open (c->pid, &p->ns, err);
  /* The pid was checked before the opens: check it again after.  */
  if (r == 0 && !sbx_state_pid_alive (c))
    return sbx_fail (err, -ESRCH, "container not running");
  return r;
}

/* A pseudo-terminal of the sandbox's own devpts (so the process sees
   /dev/pts/N), its master sent to the caller as runc sends it.  The
   sandbox owns its /dev/ptmx: it is looked up inside the sandbox's root,
   never followed out of it.  */
static int
open_terminal (const struct sbx_container *c, const struct sbx_spec *spec,
               bool init_ids, const char *socket_path, int *slave,
               struct sbx_error *err)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/root", (int) c->pid);
  cleanup_close int root = open (path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s", path);
  if (!sbx_state_pid_alive (c)) /* the root opened is the sandbox's */
    return sbx_fail (err, -ESRCH, "container not running");
  cleanup_close int master = -1;
  int r = sbx_console_open_in_root (root, "/dev/ptmx", &master, slave, err);
  int64_t owner[2];
  sbx_policy_terminal_owner (spec, &spec->process.user, init_ids, owner);
  r = r ?: sbx_console_give (*slave, owner, err);
  return r ?: sbx_console_send (socket_path, master, err);
}

/* Read a compiled program (an fd from sbx_seccomp_compile) into F.  */
static int
read_program (int fd, struct sock_fprog *f, struct sbx_error *err)
{
  cleanup_close int owned = fd;
  if (fd < 0)
    return fd;
  struct stat st;
  if (fstat (fd, &st) < 0 || st.st_size % sizeof (struct sock_filter))
    return sbx_fail (err, -EINVAL, "the compiled seccomp program is corrupt");
  f->filter = malloc (st.st_size ? st.st_size : 1);
  if (f->filter == NULL
      || pread (fd, f->filter, st.st_size, 0) != (ssize_t) st.st_size)
    return sbx_fail (err, -EIO, "cannot read the compiled seccomp program");
  f->len = st.st_size / sizeof (struct sock_filter);
  return 0;
}

/* A built-in filter (seccomp_builtin.h) into F.  */
static int
copy_builtin (enum sbx_builtin_filter which, struct sock_fprog *f,
              struct sbx_error *err)
{
  const struct sbx_bpf *b = &sbx_builtin_filters[which];
  f->filter = malloc (b->len);
  if (f->filter == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  memcpy (f->filter, b->code, b->len);
  f->len = (unsigned short) (b->len / sizeof (struct sock_filter));
  return 0;
}

/* The same programs the sandbox was started with (F, as the policy
   decided them): the bundle's filter, or an agent's default one, and
   network "deny"'s on top.  */
static int
load_filters (const struct sbx_spec *spec, struct sbx_filters f,
              struct exec_plan *p, struct sbx_error *err)
{
  int r = 0;
  if (f.main == SBX_FILTERS_CONFIG)
    r = read_program (sbx_seccomp_compile (spec->linux_.seccomp, err),
                      &p->filter, err);
  else if (f.main != SBX_FILTERS_NONE)
    r = copy_builtin (sbx_agent_filter (f.main), &p->filter, err);
  enum sbx_builtin_filter net = sbx_network_filter (f);
  if (r == 0 && net != SBX_FILTER_COUNT)
    r = copy_builtin (net, &p->filter_net, err);
  return r;
}

enum
{
  STEP_SETNS = 1,
  STEP_FORK,
  STEP_TTY,
  STEP_CWD,
  STEP_USER,
  STEP_CAPS,
  STEP_SECCOMP,
  STEP_FDS,
  STEP_LABEL,
  STEP_EXEC,
};

static __attribute__ ((noreturn)) void
fail_step (int report_w, int step)
{
  sbx_child_step_fail (report_w, step, errno, NULL);
}

/* Of the caller's descriptors only 0-2 and --preserve-fds N (3 .. 3+N-1)
   go in, as with runc; the CLOEXEC report pipe moves just above them, and
   the helper's memfd (P->helper_fd, when there is one) above it, at
   helper_fd_number.  Returns the report pipe's new number.  */
static int
helper_fd_number (int preserve_fds)
{
  return 3 + preserve_fds + 1;
}

static int
keep_only_preserved (const struct exec_plan *p, int report_w)
{
  int above = 3 + p->preserve_fds;
  /* Out of the way first: neither may land on the other's new place. */
  int rep = fcntl (report_w, F_DUPFD_CLOEXEC, above + 2);
  if (rep < 0)
    fail_step (report_w, STEP_FDS);
  int hf = p->helper_fd < 0 ? -1
                            : fcntl (p->helper_fd, F_DUPFD_CLOEXEC, above + 2);
  if ((p->helper_fd >= 0 && hf < 0) || dup3 (rep, above, O_CLOEXEC) < 0
      || (hf >= 0 && dup3 (hf, above + 1, O_CLOEXEC) < 0))
    fail_step (rep, STEP_FDS);
  int r = sbx_close_fds_from (p->helper_fd >= 0 ? above + 2 : above + 1);
  if (r < 0)
    {
      errno = -r;
      fail_step (above, STEP_FDS);
    }
  return above;
}

/* In the sandbox's namespaces: become the process and exec it.  */
static __attribute__ ((noreturn)) void
become (const struct exec_plan *p, char **envp, const char *cwd, int report_w)
{
  const struct sbx_process *pr = &p->spec->process;
  struct sbx_error ignored = { 0 };
  /* First, while the host's /proc is still open: the labels take effect
     at the exec below and nothing else is executed before it.  */
  const char *which;
  if (sbx_exec_labels (p->proc_fd, p->selinux, p->apparmor, &which) < 0)
    fail_step (report_w, STEP_LABEL);
  /* A session of its own, as bwrap's --new-session gives run's sandbox:
     in the caller's, its terminal was the process's controlling one too,
     and TIOCSTI typed into the operator's shell (a review, 2026-12-04).  */
  if (setsid () < 0
      || (p->tty_slave >= 0
          && sbx_console_make_controlling (p->tty_slave, &ignored) < 0))
    fail_step (report_w, STEP_TTY);
  report_w = keep_only_preserved (p, report_w);
  if (chdir (cwd) < 0)
    fail_step (report_w, STEP_CWD);
  /* The five sets as sbx-oci-init gives them (init_main.c): bounding
     while CAP_SETPCAP is still effective, the permitted set kept through
     the change of uid for the rest.  */
  if (p->caps.by_sets
      && (sbx_caps_trim_bounding (p->caps.sets.bounding) < 0
          || prctl (PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0))
    fail_step (report_w, STEP_CAPS);
  /* An unprivileged sandbox's user namespace denies setgroups; with no
     additional groups asked for, there is nothing to set.  */
  if (setgroups (pr->user.n_additional_gids, pr->user.additional_gids) < 0
      && (errno != EPERM || pr->user.n_additional_gids > 0))
    fail_step (report_w, STEP_USER);
  /* setuid (0) too: a user namespace joined is entered with the host
     ids, and a range's map (policy/id_maps.c) leaves host uid 0
     unmapped there.  Becoming its uid 0 keeps the capabilities.  */
  if (setgid (pr->user.gid) < 0 || setuid (pr->user.uid) < 0)
    fail_step (report_w, STEP_USER);
  if (p->caps.by_sets
          ? sbx_caps_set_sets (&p->caps.sets) < 0
          : pr->user.uid == 0 && sbx_caps_set_exact (&p->caps.keep) < 0)
    fail_step (report_w, STEP_CAPS);
  /* bwrap always sets no_new_privs: the exec'd process gets no more.  */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    fail_step (report_w, STEP_CAPS);
  if ((p->filter.len
       && prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p->filter) < 0)
      || (p->filter_net.len
          && prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p->filter_net) < 0))
    fail_step (report_w, STEP_SECCOMP);
  /* Changing the user above made the process dumpable again when
     fs.suid_dumpable is 1: undo that before the sandbox's files are
     searched for the command.  */
  if (prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
    fail_step (report_w, STEP_CAPS);
  environ = envp; /* the search uses the process's own PATH */
  if (p->helper_fd >= 0)
    syscall (SYS_execveat, helper_fd_number (p->preserve_fds), "",
             p->helper_argv.v, envp, AT_EMPTY_PATH);
  else
    sbx_exec_search (pr->args.v, envp);
  fail_step (report_w, STEP_EXEC);
}

/* The intermediate child: join, fork into the pid namespace, report the
   new pid, wait for sbx-oci's word (GO_R's end: it has a pidfd of the
   process, and has signalled it if it was to), then wait for the process
   unless detached.  Until that word the process, even ended, is this
   one's unreaped child, so its pid is nobody else's.  The signals exec
   forwards stay held here (the caller's mask, OLD, is the process's):
   sent to exec's process group (Ctrl-C, timeout(1)), they would end this
   child, and with it exec's wait, the process running on.  */
static __attribute__ ((noreturn)) void
enter (const struct exec_plan *p, char **envp, const char *cwd, bool detach,
       const sigset_t *old, int report_w, int pid_w, int go_r)
{
  /* Before any namespace is entered: a non-dumpable process's /proc/PID
     files are out of reach of the sandbox's processes (they would need
     CAP_SYS_PTRACE in the host's user namespace), /proc/PID/exe above
     all.  Its fork inherits this, and only the exec of the command makes
     a process dumpable again.  */
  if (prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
    fail_step (report_w, STEP_SETNS);
  int r = sbx_ns_join_enter (&p->ns);
  if (r < 0)
    {
      errno = -r;
      fail_step (report_w, STEP_SETNS);
    }
  pid_t pid = fork ();
  if (pid < 0)
    fail_step (report_w, STEP_FORK);
  if (pid == 0)
    {
      close (pid_w);
      close (go_r);
      sigprocmask (SIG_SETMASK, old, NULL);
      become (p, envp, cwd, report_w);
    }
  close (report_w);
  if (write (pid_w, &pid, sizeof pid) < 0)
    _exit (0);
  close (pid_w);
  char c;
  while (read (go_r, &c, 1) < 0 && errno == EINTR)
    ;
  if (detach)
    _exit (0);
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      _exit (127);
  _exit (WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
}

static const char *const step_names[] = {
  [STEP_SETNS] = "join the container's namespaces",
  [STEP_FORK] = "fork into the container's pid namespace",
  [STEP_TTY] = "make a session of its own (and take the terminal)",
  [STEP_CWD] = "enter the working directory",
  [STEP_USER] = "take the process's user and groups",
  [STEP_CAPS] = "set the capabilities",
  [STEP_SECCOMP] = "load the seccomp program",
  [STEP_FDS] = "close the caller's descriptors",
  [STEP_LABEL] = "take the SELinux or AppArmor label",
  [STEP_EXEC] = "execute",
};

static int
report_failure (const struct sbx_child_step *f, const struct exec_plan *p,
                const char *cwd, struct sbx_error *err)
{
  const char *cmd = p->spec->process.args.v[0];
  if (f->step == STEP_EXEC && f->errnum == ENOENT)
    return sbx_fail_kind (err, SBX_ERROR_NOT_FOUND, -ENOENT,
                          "exec: \"%s\": executable file not found in $PATH",
                          cmd);
  if (f->step == STEP_EXEC && f->errnum == EACCES)
    return sbx_fail_kind (err, SBX_ERROR_NOT_EXECUTABLE, -EACCES,
                          "exec: \"%s\": permission denied", cmd);
  return sbx_fail_errno (err, -f->errnum, "exec %s: cannot %s%s%s", cmd,
                         step_names[f->step], f->step == STEP_CWD ? " " : "",
                         f->step == STEP_CWD ? cwd : "");
}

/* --env on top of the process's environment, before the policy makes
   the environment from it (kept_policy.h): the names --env brings meet
   the same rules as the process object's.  */
static int
add_env_options (struct sbx_process *pr, const struct strv *extra,
                 struct sbx_error *err)
{
  struct strv env = { 0 };
  for (size_t i = 0; i < pr->env.n; i++)
    {
      size_t klen = strcspn (pr->env.v[i], "=");
      bool replaced = false;
      for (size_t j = 0; j < extra->n; j++)
        replaced |= strncmp (extra->v[j], pr->env.v[i], klen + 1) == 0;
      if (!replaced && strv_push (&env, pr->env.v[i]) < 0)
        goto oom;
    }
  for (size_t j = 0; j < extra->n; j++)
    if (strv_push (&env, extra->v[j]) < 0)
      goto oom;
  strv_free (&pr->env);
  pr->env = env;
  return 0;
oom:
  strv_free (&env);
  return sbx_fail (err, -ENOMEM, "out of memory");
}

/* While sbx-oci exec waits, the signals a caller ends it with go to the
   process it started, as `run` forwards them: a caller's SIGTERM ends
   the command, not only its waiter: through its pidfd, so that once
   it ended and was reaped, none goes to what took its pid.  */
static volatile sig_atomic_t forward_to, forward_fd = -1, grace_armed;

/* The signals `run` forwards (supervise.c): the ones a caller ends or
   tells a command with.  */
static const int forwarded[]
    = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

/* SIG to the process: through its pidfd, or by its pid where no pidfd
   could be had (pidfd_open refused), as before pidfds.  */
static int
signal_process (int sig)
{
  return forward_fd >= 0 ? sbx_pidfd_signal (forward_fd, sig)
                         : kill ((pid_t) forward_to, sig);
}

/* A stopping signal forwarded starts the grace (SIGALRM ends it): a
   process that ignores it is killed then, as under `run`; exec waited
   for good, and a caller's SIGKILL of exec left the process running.  */
static void
forward_signal (int sig)
{
  if (forward_to <= 0)
    return;
  int saved = errno;
  signal_process (sig);
  if (sbx_signal_stops (sig) && !grace_armed)
    {
      grace_armed = 1;
      alarm (SBX_STOP_GRACE_MS / 1000);
    }
  errno = saved;
}

/* The grace's alarm (the kernel's, once armed) kills the process and
   its group (it leads one: become's setsid), so that a child of it that
   ignores the signal too ends with it; the group only while the process
   is there to own its number.  A SIGALRM sent by anyone else,
   or an alarm the caller left running, is forwarded as the others are.  */
static void
grace_over (int sig, siginfo_t *si, void *uc)
{
  (void) uc;
  if (forward_to <= 0)
    return;
  if (!grace_armed || si->si_code != SI_KERNEL)
    {
      forward_signal (sig);
      return;
    }
  int saved = errno;
  if (signal_process (0) == 0)
    kill (-(pid_t) forward_to, SIGKILL);
  signal_process (SIGKILL);
  errno = saved;
}

/* Forward to PID (its pidfd PIDFD), or no more (ON false).  */
static void
forward_signals (pid_t pid, int pidfd, bool on)
{
  struct sigaction sa = { .sa_handler = on ? forward_signal : SIG_DFL };
  struct sigaction alrm = { .sa_flags = on ? SA_SIGINFO : 0 };
  if (on)
    alrm.sa_sigaction = grace_over;
  else
    alrm.sa_handler = SIG_DFL;
  forward_fd = on ? pidfd : -1; /* before forward_to, which arms them */
  forward_to = on ? pid : 0;
  grace_armed = 0;
  if (!on)
    alarm (0);
  sigaction (SIGALRM, &alrm, NULL);
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
    sigaction (forwarded[i], &sa, NULL);
}

/* Close FDS' N descriptors that are open (>= 0).  */
static void
close_all (const int *fds, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

static int
launch (const struct exec_plan *p, const struct sbx_exec_request *o,
        char **envp, struct sbx_error *err)
{
  const char *cwd = o->cwd ? o->cwd : p->spec->process.cwd;
  int fds[6] = { -1, -1, -1, -1, -1, -1 };
  int *rep = fds, *pp = fds + 2, *go = fds + 4;
  if (pipe2 (rep, O_CLOEXEC) < 0 || pipe2 (pp, O_CLOEXEC) < 0
      || pipe2 (go, O_CLOEXEC) < 0)
    {
      int e = errno;
      close_all (fds, 6);
      return sbx_fail_errno (err, -e, "cannot create a pipe");
    }
  /* Held from before the fork until the pid is known: a signal in
     between is delivered then, not lost with sbx-oci.  */
  sigset_t held, old;
  sigemptyset (&held);
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
    sigaddset (&held, forwarded[i]);
  sigprocmask (SIG_BLOCK, &held, &old);
  pid_t a = fork ();
  if (a < 0)
    {
      int saved = errno;
      sigprocmask (SIG_SETMASK, &old, NULL);
      close_all (fds, 6);
      return sbx_fail_errno (err, -saved, "cannot fork");
    }
  if (a == 0)
    {
      close (rep[0]);
      close (pp[0]);
      close (go[1]);
      enter (p, envp, cwd, o->detach, &old, rep[1], pp[1], go[0]);
    }
  close (rep[1]);
  close (pp[1]);
  close (go[0]);
  pid_t pid = 0;
  struct sbx_child_step f;
  ssize_t np = read (pp[0], &pid, sizeof pid);
  bool failed = sbx_child_step_read (rep[0], STEP_EXEC, &f);
  close (pp[0]);
  close (rep[0]);
  /* Until go[1] closes, the process's pid is surely its (enter): a stop
     below ends it by that pid, and a foreground exec takes the pidfd it
     forwards through, for after.  */
  int pidfd
      = !o->detach && np == (ssize_t) sizeof pid ? sbx_pidfd_open (pid) : -1;
  int r = 0;
  if (failed)
    r = report_failure (&f, p, cwd, err);
  else if (np != (ssize_t) sizeof pid)
    r = sbx_fail (err, -EIO, "exec: the process could not be started");
  if (r == 0 && o->pid_file.path)
    {
      char buf[32];
      int n = snprintf (buf, sizeof buf, "%d", (int) pid);
      r = sbx_file_dest_write (&o->pid_file, buf, n, 0644, err);
    }
  /* Asked to stop before it said the process started (the pid file
     written is part of saying so): with --detach the process is ended
     here, and its pid file removed, or it would run on though this exec
     ends by the signal, on the release below.  Without, the signal is
     forwarded to it.  */
  if (r == 0 && o->detach && sbx_signals_pending_in (&held))
    {
      kill (pid, SIGKILL);
      if (o->pid_file.path)
        unlinkat (o->pid_file.dirfd, o->pid_file.name, 0);
      r = sbx_fail (err, -EINTR, "exec: sbx-oci was sent a signal");
    }
  close (go[1]);
  if (r == 0 && !o->detach && np == (ssize_t) sizeof pid)
    forward_signals (pid, pidfd, true);
  sigprocmask (SIG_SETMASK, &old, NULL);
  int status = 0;
  while (waitpid (a, &status, 0) < 0 && errno == EINTR)
    ;
  forward_signals (0, -1, false);
  if (pidfd >= 0)
    close (pidfd);
  if (r < 0 || o->detach)
    return r;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* A created sandbox is still held inside bwrap's set-up: only a started
   one has the namespaces and mounts its command runs in.  */
static int
check_running (const struct sbx_container *c, struct sbx_error *err)
{
  switch (sbx_state_status (c))
    {
    case SBX_STATUS_RUNNING:
      return 0;
    case SBX_STATUS_CREATED:
      return sbx_fail (err, -EINVAL,
                       "cannot exec in container \"%s\": it is created but "
                       "not started (run `start` first)",
                       c->id);
    case SBX_STATUS_STOPPED:
      break;
    }
  return sbx_fail (err, -EINVAL, "cannot exec in a stopped container");
}

/* The helper's command line: the kept rules, then the command.  */
static int
helper_route (const struct strv *rules, struct exec_plan *p,
              struct sbx_error *err)
{
  p->helper_fd = sbx_landlock_helper_fd (err);
  if (p->helper_fd < 0)
    return p->helper_fd;
  struct strv *a = &p->helper_argv;
  int r
      = strv_push (a, "sbx-landlock") < 0 || strv_push (a, "-f") < 0
                || strv_pushf (a, "%d", helper_fd_number (p->preserve_fds)) < 0
            ? -ENOMEM
            : 0;
  for (size_t i = 0; r == 0 && i < rules->n; i++)
    r = strv_push (a, rules->v[i]);
  r = r ?: strv_push (a, "--");
  for (size_t i = 0; r == 0 && i < p->spec->process.args.n; i++)
    r = strv_push (a, p->spec->process.args.v[i]);
  return r < 0 ? sbx_fail (err, -ENOMEM, "out of memory") : 0;
}

/* Into the container's cgroup, when it has one, before anything is
   forked: the process exec starts (and all it starts) is held by the
   container's quota, as runc's exec is, and ended by `kill` and `delete`
   through the cgroup.  sbx-oci exec itself counts there while it waits.  */
static int
enter_cgroup (const struct sbx_container *c, struct sbx_error *err)
{
  struct sbx_cgroup *cg = NULL;
  int r = sbx_container_cgroup (c, &cg, err);
  /* Only the cgroup the container's first process is in: state.json is
     data, and a cgroup named there alone could be anyone's.  */
  if (r == 0 && cg && !sbx_cgroup_holds (cg, c->pid))
    r = sbx_fail (err, -EPERM,
                  "exec: the cgroup state.json names does not hold the "
                  "container's first process (%d); refusing to enter it",
                  (int) c->pid);
  if (r == 0 && cg)
    r = sbx_cgroup_enter (cg, getpid (), err);
  sbx_cgroup_free (cg);
  return r < 0 ? r : 0;
}

/* How the command is reached without anything of the host's sbx-oci
   file in the sandbox's reach (the runc CVE-2019-5736 pattern).  With
   the Landlock layer, the helper execs it (helper_route): a sealed memfd,
   so a command that is /proc/self/exe (the path, a link to it, a
   `#!/proc/self/exe` script) finds the helper, and the joining processes,
   in no Landlock domain until the helper's, are out of the sandbox's
   reach (a domain may not inspect a process outside it) whatever the
   capabilities or fs.suid_dumpable.  Without it, sbx-oci execs the
   command itself, first re-executing itself from a sealed copy of its
   own (sealed_self.h), as runc does: the joining processes are
   non-dumpable (enter), but a sandbox holding CAP_SYS_PTRACE in the
   host's user namespace, or a host with fs.suid_dumpable = 1 (a change
   of uid makes a process dumpable again), could still open their
   /proc/PID/exe; and the search keeps execvp's ways (a script without "#!",
   PATH's empty entries), as before.  A label is taken by the next exec,
   which must be the command's: so not with the Landlock layer, whose
   helper would take it.  */
static int
exit_route (const struct sbx_plan *policy, const struct strv *rules,
            struct exec_plan *p, struct sbx_error *err)
{
  p->selinux = policy->selinux_label;
  p->apparmor = policy->apparmor_profile;
  bool labels = p->selinux || p->apparmor;
  if (rules->n > 0 && labels)
    return sbx_refuse (err, -ENOTSUP,
                       p->selinux ? "process.selinuxLabel"
                                  : "process.apparmorProfile",
                       "not with the Landlock layer, whose helper would take "
                       "the label in place of the command");
  if (rules->n > 0)
    return helper_route (rules, p, err);
  int r = sbx_run_from_sealed_copy (err);
  if (r == 0 && labels
      && (p->proc_fd = open ("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
    r = sbx_fail_errno (err, -errno, "/proc");
  return r;
}

/* --process-label and --apparmor over the process's own labels: the
   policy then checks them as it checks a config's.  */
static int
label_options (const struct sbx_exec_request *o, struct sbx_process *pr)
{
  const char *given[2] = { o->process_label, o->apparmor };
  char **into[2] = { &pr->selinux_label, &pr->apparmor_profile };
  for (int i = 0; i < 2; i++)
    if (given[i])
      {
        free (*into[i]);
        if ((*into[i] = strdup (given[i])) == NULL)
          return -ENOMEM;
      }
  return 0;
}

int
sbx_container_exec (const struct sbx_context *g,
                    const struct sbx_exec_request *o, struct sbx_error *err)
{
  struct exec_plan p = { .tty_slave = -1,
                         .preserve_fds = o->preserve_fds,
                         .helper_fd = -1,
                         .proc_fd = -1 };
  struct strv notes = { 0 }, landlock = { 0 };
  struct sbx_plan *policy = NULL;
  struct sbx_container c = { .lock_fd = -1 };
  int r = sbx_state_open (sbx_state_root (g), o->id, false, &c, err);
  r = r ?: check_running (&c, err);
  r = r ?: load_process (o, &c, &p, err);
  r = r ?: add_env_options (&p.spec->process, &o->env, err);
  r = r ?: label_options (o, &p.spec->process);
  /* The gates create's config met, for the process object exec was given;
     then the environment, as create made it.  */
  r = r ?: sbx_kept_policy_exec (g, &c, p.spec, &policy, &landlock, err);
  r = r ?: exit_route (policy, &landlock, &p, err);
  r = r
          ?: sbx_caps_decide (&p.spec->process.capabilities, policy->init_ids,
                              sbx_runs_as_root (), &p.caps, &notes, err);
  r = r ?: load_filters (p.spec, policy->filters, &p, err);
  r = r ?: open_namespaces (&c, &p, err);
  if (r == 0 && o->tty)
    r = open_terminal (&c, p.spec, policy->init_ids, o->console_socket,
                       &p.tty_slave, err);
  r = r ?: enter_cgroup (&c, err);
  if (r == 0)
    {
      char *empty[] = { NULL };
      r = launch (&p, o, policy->env.v ? policy->env.v : empty, err);
    }
  sbx_ns_join_close (&p.ns);
  if (p.tty_slave >= 0)
    close (p.tty_slave);
  if (p.helper_fd >= 0)
    close (p.helper_fd);
  if (p.proc_fd >= 0)
    close (p.proc_fd);
  strv_free (&p.helper_argv);
  strv_free (&landlock);
  free (p.filter.filter);
  free (p.filter_net.filter);
  sbx_caps_decision_free (&p.caps);
  strv_free (&notes);
  sbx_plan_free (policy);
  sbx_spec_free (p.spec);
  sbx_state_close (&c);
  return r;
}
