/* `sbx-oci exec`: bwrap cannot join a running sandbox, so sbx does: join
   the namespaces of the sandbox's first process (/proc/PID/ns), fork into
   its pid namespace, take the process's user, capabilities, no_new_privs
   and the container's seccomp program, and exec.  With --detach the
   process is left to the caller's subreaper, as runc leaves it.  */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "runtime/cli.h"
#include "runtime/linux/container/exec_lookup.h"
#include "runtime/linux/confine/fd_scrub.h"
#include "runtime/linux/confine/capabilities.h"
#include "runtime/linux/container/console.h"
#include "runtime/linux/container/ns_join.h"
#include "runtime/linux/bwrap/probe.h"
#include "runtime/linux/confine/seccomp.h"
#include "runtime/linux/confine/seccomp_builtin.h"
#include "runtime/linux/container/sealed_self.h"
#include "policy/policy.h"
#include "runtime/linux/state/state_store.h"
#include "spec/spec.h"

struct exec_options
{
  const char *process_file;
  const char *pid_file;
  const char *cwd;
  struct strv env;
  bool detach;
  bool tty;
  const char *console_socket;
  int preserve_fds;
  int first_arg; /* argv index of the id */
};

/* What the new process needs, prepared before any fork.  */
struct exec_plan
{
  struct sbx_spec *spec;        /* process (and the bundle's seccomp) */
  struct strv caps;             /* kept when running as uid 0 */
  struct sock_fprog filter;     /* .len 0: none */
  struct sock_fprog filter_net; /* network "deny"; .len 0: none */
  struct sbx_ns_join ns;
  int tty_slave;    /* -1: no terminal */
  int preserve_fds; /* the caller's 3 .. 3+N-1 pass in */
};

static int
parse_exec_options (int argc, char **argv, struct exec_options *o,
                    struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "process", required_argument, NULL, 'p' },
    { "pid-file", required_argument, NULL, 'P' },
    { "cwd", required_argument, NULL, 'w' },
    { "env", required_argument, NULL, 'e' },
    { "detach", no_argument, NULL, 'd' },
    { "tty", no_argument, NULL, 't' },
    { "console-socket", required_argument, NULL, 'c' },
    { "preserve-fds", required_argument, NULL, 'F' },
    { "user", required_argument, NULL, 'u' },
    { "cap", required_argument, NULL, 'C' },
    { "no-new-privs", no_argument, NULL, 'x' }, /* always in effect */
    { "process-label", required_argument, NULL, 'L' },
    { "apparmor", required_argument, NULL, 'A' },
    { NULL, 0, NULL, 0 },
  };
  int c;
  while ((c = getopt_long (argc, argv, "+p:w:e:dtu:", longopts, NULL)) != -1)
    switch (c)
      {
      case 'p':
        o->process_file = optarg;
        break;
      case 'P':
        o->pid_file = optarg;
        break;
      case 'w':
        o->cwd = optarg;
        break;
      case 'e':
        if (strv_push (&o->env, optarg) < 0)
          return sbx_fail (err, -ENOMEM, "out of memory");
        break;
      case 'd':
        o->detach = true;
        break;
      case 'x':
        break;
      /* Taken by runc's exec; ignoring them would run the process with
         less than, or other than, what was asked.  */
      case 'C':
        return sbx_fail (err, -ENOTSUP,
                         "exec --cap: not supported; put the capability in "
                         "the --process file's capabilities");
      case 'L':
      case 'A':
        return sbx_fail (err, -ENOTSUP,
                         "exec --%s: SELinux and AppArmor labels are not "
                         "supported (bubblewrap cannot apply them)",
                         c == 'L' ? "process-label" : "apparmor");
      case 't':
        o->tty = true;
        break;
      case 'c':
        o->console_socket = optarg;
        break;
      case 'F':
        if (sbx_parse_preserve_fds (optarg, &o->preserve_fds, err) < 0)
          return err->code;
        break;
      case 'u':
        return sbx_fail (err, -ENOTSUP,
                         "exec --user: give the user in --process");
      default:
        return sbx_fail (err, -EINVAL, "exec: unknown option (see --help)");
      }
  if (optind >= argc)
    return sbx_fail (err, -EINVAL, "exec: a container id is required");
  if (o->process_file == NULL && optind + 1 >= argc)
    return sbx_fail (err, -EINVAL, "exec: give --process FILE or a command");
  if (o->tty && o->console_socket == NULL)
    return sbx_fail (err, -EINVAL, "exec --tty: --console-socket is required");
  o->first_arg = optind;
  return 0;
}

/* The process object, read as the "process" of a config the parser knows. */
static int
load_process (const struct exec_options *o, char **argv,
              const struct sbx_container *c, struct exec_plan *p,
              struct sbx_error *err)
{
  int r = sbx_state_load_spec (c, &p->spec, err);
  if (r < 0)
    return r;
  if (o->process_file == NULL)
    {
      /* ARGS on the command line replace the bundle's command.  */
      strv_free (&p->spec->process.args);
      for (int i = o->first_arg + 1; r == 0 && argv[i]; i++)
        r = strv_push (&p->spec->process.args, argv[i]);
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
  /* Swap in the given process, keep the bundle's seccomp.  */
  struct sbx_process tmp = p->spec->process;
  p->spec->process = ps->process;
  ps->process = tmp;
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
open_terminal (const struct sbx_container *c, const char *socket_path,
               int *slave, struct sbx_error *err)
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

/* The same programs the sandbox was started with: the bundle's filter, or
   an agent's default one, and network "deny"'s on top.  */
static int
load_filters (const struct sbx_spec *spec, struct exec_plan *p,
              struct sbx_error *err)
{
  struct sbx_filters f = sbx_policy_filters (spec);
  int r = 0;
  if (f.main == SBX_FILTERS_CONFIG)
    r = read_program (sbx_seccomp_compile (spec->linux_.seccomp, err),
                      &p->filter, err);
  else if (f.main != SBX_FILTERS_NONE)
    r = copy_builtin (sbx_agent_filter (f.main), &p->filter, err);
  if (r == 0 && f.net_deny)
    r = copy_builtin (SBX_FILTER_NET_DENY, &p->filter_net, err);
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
  STEP_EXEC,
};

struct exec_failure
{
  int step, errnum;
};

static __attribute__ ((noreturn)) void
fail_step (int report_w, int step)
{
  struct exec_failure f = { step, errno };
  if (write (report_w, &f, sizeof f) < 0)
    _exit (127);
  _exit (127);
}

/* Of the caller's descriptors only 0-2 and --preserve-fds N (3 .. 3+N-1)
   go in, as with runc; the CLOEXEC report pipe moves just above them.
   Returns the report pipe's new number.  */
static int
keep_only_preserved (int report_w, int preserve_fds)
{
  int above = 3 + preserve_fds;
  if (report_w != above && dup3 (report_w, above, O_CLOEXEC) < 0)
    fail_step (report_w, STEP_FDS);
  int r = sbx_close_fds_from (above + 1);
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
  if (p->tty_slave >= 0
      && (setsid () < 0
          || sbx_console_make_controlling (p->tty_slave, &ignored) < 0))
    fail_step (report_w, STEP_TTY);
  report_w = keep_only_preserved (report_w, p->preserve_fds);
  if (chdir (cwd) < 0)
    fail_step (report_w, STEP_CWD);
  /* An unprivileged sandbox's user namespace denies setgroups; with no
     additional groups asked for, there is nothing to set.  */
  if (setgroups (pr->user.n_additional_gids, pr->user.additional_gids) < 0
      && (errno != EPERM || pr->user.n_additional_gids > 0))
    fail_step (report_w, STEP_USER);
  if (setgid (pr->user.gid) < 0)
    fail_step (report_w, STEP_USER);
  if (pr->user.uid == 0 ? sbx_caps_set_exact (&p->caps) < 0
                        : setuid (pr->user.uid) < 0)
    fail_step (report_w, pr->user.uid == 0 ? STEP_CAPS : STEP_USER);
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
  environ = envp; /* execvp searches the process's own PATH */
  execvp (pr->args.v[0], pr->args.v);
  fail_step (report_w, STEP_EXEC);
}

/* The intermediate child: join, fork into the pid namespace, report the
   new pid, and wait for it unless detached.  */
static __attribute__ ((noreturn)) void
enter (const struct exec_plan *p, char **envp, const char *cwd, bool detach,
       int report_w, int pid_w)
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
      become (p, envp, cwd, report_w);
    }
  close (report_w);
  if (write (pid_w, &pid, sizeof pid) < 0 || detach)
    _exit (0);
  close (pid_w);
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      _exit (127);
  _exit (WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
}

static const char *const step_names[] = {
  [STEP_SETNS] = "join the container's namespaces",
  [STEP_FORK] = "fork into the container's pid namespace",
  [STEP_TTY] = "take the terminal",
  [STEP_CWD] = "enter the working directory",
  [STEP_USER] = "take the process's user and groups",
  [STEP_CAPS] = "set the capabilities",
  [STEP_SECCOMP] = "load the seccomp program",
  [STEP_FDS] = "close the caller's descriptors",
  [STEP_EXEC] = "execute",
};

static int
report_failure (const struct exec_failure *f, const struct exec_plan *p,
                const char *cwd, struct sbx_error *err)
{
  const char *cmd = p->spec->process.args.v[0];
  if (f->step == STEP_EXEC && f->errnum == ENOENT)
    return sbx_fail (err, -ENOENT,
                     "exec: \"%s\": executable file not found in $PATH", cmd);
  if (f->step == STEP_EXEC && f->errnum == EACCES)
    return sbx_fail (err, -EACCES, "exec: \"%s\": permission denied", cmd);
  int step
      = f->step >= STEP_SETNS && f->step <= STEP_EXEC ? f->step : STEP_EXEC;
  return sbx_fail_errno (err, -f->errnum, "exec %s: cannot %s%s%s", cmd,
                         step_names[step], step == STEP_CWD ? " " : "",
                         step == STEP_CWD ? cwd : "");
}

/* The process's environment with --env on top.  In an agent sandbox the
   same rule as at launch holds: nothing shaped like a credential.  */
static int
merge_env (const struct sbx_process *pr, const struct strv *extra, bool agent,
           struct strv *out)
{
  for (size_t i = 0; i < pr->env.n; i++)
    {
      size_t klen = strcspn (pr->env.v[i], "=");
      bool replaced = agent && sbx_env_name_is_secret (pr->env.v[i], klen);
      for (size_t j = 0; j < extra->n; j++)
        replaced |= strncmp (extra->v[j], pr->env.v[i], klen + 1) == 0;
      if (!replaced && strv_push (out, pr->env.v[i]) < 0)
        return -ENOMEM;
    }
  for (size_t j = 0; j < extra->n; j++)
    if (!(agent
          && sbx_env_name_is_secret (extra->v[j], strcspn (extra->v[j], "=")))
        && strv_push (out, extra->v[j]) < 0)
      return -ENOMEM;
  return 0;
}

static int
launch (const struct exec_plan *p, const struct exec_options *o, char **envp,
        struct sbx_error *err)
{
  const char *cwd = o->cwd ? o->cwd : p->spec->process.cwd;
  int rep[2], pp[2];
  if (pipe2 (rep, O_CLOEXEC) < 0 || pipe2 (pp, O_CLOEXEC) < 0)
    return sbx_fail_errno (err, -errno, "cannot create a pipe");
  pid_t a = fork ();
  if (a < 0)
    return sbx_fail_errno (err, -errno, "cannot fork");
  if (a == 0)
    {
      close (rep[0]);
      close (pp[0]);
      enter (p, envp, cwd, o->detach, rep[1], pp[1]);
    }
  close (rep[1]);
  close (pp[1]);
  pid_t pid = 0;
  struct exec_failure f;
  ssize_t np = read (pp[0], &pid, sizeof pid);
  ssize_t nf = read (rep[0], &f, sizeof f);
  close (pp[0]);
  close (rep[0]);
  int r = 0;
  if (nf == (ssize_t) sizeof f)
    r = report_failure (&f, p, cwd, err);
  else if (np != (ssize_t) sizeof pid)
    r = sbx_fail (err, -EIO, "exec: the process could not be started");
  if (r == 0 && o->pid_file)
    {
      char buf[32];
      int n = snprintf (buf, sizeof buf, "%d", (int) pid);
      r = sbx_write_file_atomic (o->pid_file, buf, n, 0644, err);
    }
  int status;
  while (waitpid (a, &status, 0) < 0 && errno == EINTR)
    ;
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

int
sbx_cmd_exec (struct sbx_context *g, int argc, char **argv,
              struct sbx_error *err)
{
  struct exec_options o = { 0 };
  struct exec_plan p = { .tty_slave = -1 };
  struct strv notes = { 0 }, env = { 0 };
  struct sbx_container c = { .lock_fd = -1 };
  /* First of all: from here on, nothing of the host's sbx-oci file is
     reachable from this process or its children (sealed_self.h).  */
  int r = sbx_run_from_sealed_copy (err);
  r = r ?: parse_exec_options (argc, argv, &o, err);
  p.preserve_fds = o.preserve_fds;
  r = r
          ?: sbx_state_open (sbx_state_root (g), argv[o.first_arg], false, &c,
                             err);
  r = r ?: check_running (&c, err);
  r = r ?: load_process (&o, argv, &c, &p, err);
  /* As create planned them: an unprivileged caller's sandbox holds none.  */
  r = r
          ?: sbx_caps_plan (&p.spec->process.capabilities,
                            sbx_probe_is_root (), &p.caps, &notes, err);
  r = r ?: load_filters (p.spec, &p, err);
  if (r == 0
      && merge_env (&p.spec->process, &o.env, sbx_spec_is_agent (p.spec), &env)
             < 0)
    r = sbx_fail (err, -ENOMEM, "out of memory");
  r = r ?: open_namespaces (&c, &p, err);
  if (r == 0 && o.tty)
    r = open_terminal (&c, o.console_socket, &p.tty_slave, err);
  if (r == 0)
    {
      char *empty[] = { NULL };
      r = launch (&p, &o, env.v ? env.v : empty, err);
    }
  sbx_ns_join_close (&p.ns);
  if (p.tty_slave >= 0)
    close (p.tty_slave);
  free (p.filter.filter);
  free (p.filter_net.filter);
  strv_free (&p.caps);
  strv_free (&notes);
  strv_free (&env);
  strv_free (&o.env);
  sbx_spec_free (p.spec);
  sbx_state_close (&c);
  return r;
}
