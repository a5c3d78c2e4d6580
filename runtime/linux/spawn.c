#include "runtime/linux/spawn.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/fd_scrub.h"
#include "runtime/linux/rlimits.h"

/* What failed in the child before exec, sent back on a CLOEXEC pipe.  */
struct child_failure
{
  int step;
  int errnum;
  char detail[480]; /* the step's own message, when it has one */
};

enum
{
  STEP_PGRP = 1,
  STEP_NETNS,
  STEP_CGROUP,
  STEP_RLIMITS,
  STEP_OOM,
  STEP_FDS,
  STEP_EXEC
};

static const char *const step_names[] = {
  [STEP_PGRP] = "set its process group",
  [STEP_NETNS] = "join the network namespace",
  [STEP_CGROUP] = "enter the sandbox's cgroup",
  [STEP_RLIMITS] = "apply process.rlimits",
  [STEP_OOM] = "apply process.oomScoreAdj",
  [STEP_FDS] = "arrange its file descriptors",
  [STEP_EXEC] = "execute",
};

/* The request's optional descriptors: stdio is never one of them, so a
   field left at 0 by an initializer reads as "none", not as stdin.  */
static bool
has_fd (int fd)
{
  return fd > 2;
}

/* Descriptor numbers the runner will see.  */
struct fd_layout
{
  int status, block, seccomp, seccomp_net, report;
};

static __attribute__ ((noreturn)) void
child_fail_detail (int report_fd, int step, int errnum, const char *detail)
{
  struct child_failure f = { step, errnum, "" };
  if (detail)
    snprintf (f.detail, sizeof f.detail, "%s", detail);
  if (write (report_fd, &f, sizeof f) < 0)
    _exit (127);
  _exit (127);
}

static __attribute__ ((noreturn)) void
child_fail (int report_fd, int step)
{
  child_fail_detail (report_fd, step, errno, NULL);
}

/* The kernel copies oom_score_adj to every child, so bwrap and the
   workload get it from the runner.  */
static int
write_oom_score_adj (int value)
{
  int fd = open ("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  char buf[16];
  int n = snprintf (buf, sizeof buf, "%d", value);
  int r = write (fd, buf, (size_t) n) == n ? 0 : -1;
  int saved = errno;
  close (fd);
  errno = saved;
  return r;
}

/* What the sandbox inherits from its runner: resource limits, umask and
   the OOM score adjustment (bwrap changes none of them).  */
static void
apply_inherited (const struct sbx_spec *spec, int report_w)
{
  if (spec == NULL || !spec->has_process)
    return;
  const struct sbx_process *p = &spec->process;
  struct sbx_error err = { 0 };
  int r = sbx_rlimits_apply (p->rlimits, p->n_rlimits, &err);
  if (r < 0)
    child_fail_detail (report_w, STEP_RLIMITS, -r, err.msg);
  if (p->has_oom_score_adj && write_oom_score_adj (p->oom_score_adj) < 0)
    {
      int e = errno;
      char msg[160];
      snprintf (msg, sizeof msg,
                "process.oomScoreAdj: cannot set %d: %s%s", p->oom_score_adj,
                strerror (e),
                e == EACCES ? " (lowering it needs CAP_SYS_RESOURCE)" : "");
      child_fail_detail (report_w, STEP_OOM, e, msg);
    }
  if (p->user.has_umask)
    umask (p->user.umask);
}

/* Move SRC to TARGET, which must be above every source still pending: the
   caller first lifts all sources above the layout.  */
static int
place (int src, int target)
{
  if (src < 0)
    return 0;
  return dup2 (src, target) < 0 ? -1 : 0;
}

static __attribute__ ((noreturn)) void
child_main (const struct sbx_spawn_request *req, char **argv, char **envp,
            const struct fd_layout *at, int status_w, int block_r,
            int report_w)
{
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  signal (SIGPIPE, SIG_DFL);
  if (req->own_process_group && setpgid (0, 0) < 0)
    child_fail (report_w, STEP_PGRP);
  if (req->plan->netns_path)
    {
      int ns = open (req->plan->netns_path, O_RDONLY | O_CLOEXEC);
      if (ns < 0 || setns (ns, CLONE_NEWNET) < 0)
        child_fail (report_w, STEP_NETNS);
      close (ns);
    }
  /* Entered before exec: everything the runner forks is inside.  */
  struct sbx_error cgerr;
  int cr = req->cgroup ? sbx_cgroup_enter (req->cgroup, getpid (), &cgerr) : 0;
  if (cr < 0)
    {
      errno = -cr;
      child_fail (report_w, STEP_CGROUP);
    }
  apply_inherited (req->spec, report_w);
  /* Lift every source above the layout so no dup2 clobbers another.  */
  int high = at->report + 1;
  int srcs[5] = { status_w, block_r,
                  has_fd (req->seccomp_fd) ? req->seccomp_fd : -1,
                  has_fd (req->seccomp_net_fd) ? req->seccomp_net_fd : -1,
                  report_w };
  for (int i = 0; i < 5; i++)
    if (srcs[i] >= 0
        && (srcs[i] = fcntl (srcs[i], F_DUPFD_CLOEXEC, high + 4)) < 0)
      child_fail (report_w, STEP_FDS);
  report_w = srcs[4];
  if (place (srcs[0], at->status) < 0 || place (srcs[1], at->block) < 0
      || place (srcs[2], at->seccomp) < 0
      || place (srcs[3], at->seccomp_net) < 0
      || dup3 (report_w, at->report, O_CLOEXEC) < 0)
    child_fail (report_w, STEP_FDS);
  report_w = at->report;
  if (sbx_close_fds_from (at->report + 1) < 0)
    child_fail (report_w, STEP_FDS);
  execve (argv[0], argv, envp);
  child_fail (report_w, STEP_EXEC);
}

static void
layout_fds (const struct sbx_spawn_request *req, struct fd_layout *at)
{
  int next = 3 + (req->preserve_fds > 0 ? req->preserve_fds : 0);
  at->status = next++;
  at->block = req->hold ? next++ : -1;
  at->seccomp = has_fd (req->seccomp_fd) ? next++ : -1;
  at->seccomp_net = has_fd (req->seccomp_net_fd) ? next++ : -1;
  at->report = next;
}

static int
read_child_failure (int report_r, const char *runner, struct sbx_error *err)
{
  struct child_failure f;
  ssize_t n;
  do
    n = read (report_r, &f, sizeof f);
  while (n < 0 && errno == EINTR);
  if (n != (ssize_t) sizeof f)
    return 0; /* closed by a successful exec */
  if (f.step < STEP_PGRP || f.step > STEP_EXEC)
    f.step = STEP_EXEC;
  f.detail[sizeof f.detail - 1] = '\0';
  if (f.detail[0])
    return sbx_fail (err, f.errnum > 0 ? -f.errnum : -EINVAL, "%s",
                     f.detail);
  return sbx_fail_errno (err, -f.errnum, "runner %s: cannot %s", runner,
                         step_names[f.step]);
}

int
sbx_spawn_runner (const struct sbx_spawn_request *req,
                  struct sbx_spawned *out, struct sbx_error *err)
{
  struct fd_layout at;
  layout_fds (req, &at);
  cleanup_close int status_r = -1, status_w = -1, block_r = -1, block_w = -1;
  cleanup_close int report_r = -1, report_w = -1;
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    return sbx_fail_errno (err, -errno, "cannot create the status pipe");
  status_r = p[0], status_w = p[1];
  bool own_pipe = req->hold && !has_fd (req->hold_fd);
  if (own_pipe && pipe2 (p, O_CLOEXEC) < 0)
    return sbx_fail_errno (err, -errno, "cannot create the hold pipe");
  if (own_pipe)
    block_r = p[0], block_w = p[1];
  if (pipe2 (p, O_CLOEXEC) < 0)
    return sbx_fail_errno (err, -errno, "cannot create a pipe");
  report_r = p[0], report_w = p[1];

  struct sbx_bwrap_fds fds
      = { at.status, -1, at.block, at.seccomp, at.seccomp_net };
  cleanup_strv struct strv argv = { 0 };
  int r = sbx_bwrap_args (req->plan, req->host, &fds, &req->opts, &argv, err);
  if (r < 0)
    return r;
  char *empty[] = { NULL };
  char **envp = req->plan->env.v ? req->plan->env.v : empty;

  pid_t pid = fork ();
  if (pid < 0)
    return sbx_fail_errno (err, -errno, "cannot fork");
  if (pid == 0)
    child_main (req, argv.v, envp, &at, status_w,
                own_pipe ? block_r : req->hold ? req->hold_fd : -1, report_w);
  close (steal_fd (&report_w));
  r = read_child_failure (report_r, req->host->runner_path, err);
  if (r < 0)
    {
      waitpid (pid, NULL, 0);
      return r;
    }
  out->runner_pid = pid;
  out->status_fd = steal_fd (&status_r);
  out->release_fd = steal_fd (&block_w);
  out->block_fd = at.block;
  return 0;
}

int
sbx_spawn_release (struct sbx_spawned *sp, struct sbx_error *err)
{
  if (sp->release_fd < 0)
    return 0;
  ssize_t n;
  do
    n = write (sp->release_fd, "x", 1);
  while (n < 0 && errno == EINTR);
  int saved = errno;
  close (sp->release_fd);
  sp->release_fd = -1;
  if (n != 1)
    return sbx_fail_errno (err, -saved, "cannot release the sandbox");
  return 0;
}
