#include "runtime/linux/bwrap/runner_child.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

#include "common/file_io.h"
#include "runtime/linux/bwrap/runner_nodes.h"
#include "runtime/linux/bwrap/userns_made.h"
#include "runtime/linux/child_step.h"
#include "runtime/linux/confine/fd_scrub.h"
#include "runtime/linux/confine/landlock_rung.h"
#include "runtime/linux/confine/rlimits.h"
#include "runtime/linux/exec_search.h"
#include "runtime/linux/supervise/run_guard.h"

enum
{
  STEP_PGRP = 1,
  STEP_JOIN,
  STEP_GROUPS,
  STEP_CGROUP,
  STEP_RLIMITS,
  STEP_OOM,
  STEP_USERNS,
  STEP_FDS,
  STEP_NODES,
  STEP_EXEC
};

static const char *const step_names[] = {
  [STEP_PGRP] = "set its process group",
  [STEP_JOIN] = "join a namespace by path",
  [STEP_GROUPS] = "set process.user.additionalGids",
  [STEP_CGROUP] = "enter the sandbox's cgroup",
  [STEP_RLIMITS] = "apply process.rlimits",
  [STEP_OOM] = "apply process.oomScoreAdj",
  [STEP_USERNS] = "enter the user namespace of linux.uidMappings",
  [STEP_FDS] = "arrange its file descriptors",
  [STEP_NODES] = "make linux.devices' nodes",
  [STEP_EXEC] = "execute",
};

static __attribute__ ((noreturn)) void
child_fail (int report_fd, int step)
{
  sbx_child_step_fail (report_fd, step, errno, NULL);
}

/* The kernel copies oom_score_adj to every child, so bwrap and the
   workload get it from the runner.  */
static int
write_oom_score_adj (int value)
{
  char buf[16];
  snprintf (buf, sizeof buf, "%d", value);
  return sbx_write_control_file ("/proc/self/oom_score_adj", buf);
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
    sbx_child_step_fail (report_w, STEP_RLIMITS, -r, err.msg);
  if (p->has_oom_score_adj && (r = write_oom_score_adj (p->oom_score_adj)) < 0)
    {
      int e = -r;
      char msg[160];
      snprintf (msg, sizeof msg, "process.oomScoreAdj: cannot set %d: %s%s",
                p->oom_score_adj, strerror (e),
                e == EACCES ? " (lowering it needs CAP_SYS_RESOURCE)" : "");
      sbx_child_step_fail (report_w, STEP_OOM, e, msg);
    }
  if (p->user.has_umask)
    umask (p->user.umask);
}

/* FD again, at MIN or above, close-on-exec, in one system call: musl's
   fcntl follows F_DUPFD_CLOEXEC with an F_SETFD for kernels before
   2.6.24, and `run` waits while the runner does this.  */
static int
dup_above (int fd, int min)
{
  return (int) syscall (SYS_fcntl, fd, F_DUPFD_CLOEXEC, min);
}

/* Put every source at its number.  Sources are first lifted above the
   layout so that no dup2 clobbers one still to be placed.  */
static int
place_fds (const struct sbx_runner_layout *l, int *report_w)
{
  int high = l->report + 4, src[RUNNER_FD_COUNT];
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    if ((src[i] = l->src[i]) >= 0 && (src[i] = dup_above (src[i], high)) < 0)
      return -1;
  int rep = dup_above (*report_w, high);
  if (rep < 0)
    return -1;
  *report_w = rep;
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    if (src[i] >= 0 && dup2 (src[i], l->at[i]) < 0)
      return -1;
  for (size_t i = 0; i < l->n_mounts; i++)
    if (l->mount_src[i] >= 0 && dup2 (l->mount_src[i], l->mount_at[i]) < 0)
      return -1;
  if (dup3 (rep, l->report, O_CLOEXEC) < 0)
    return -1;
  *report_w = l->report;
  return sbx_close_fds_from (l->report + 1);
}

/* Enter the namespaces the plan joins by path, so that bwrap starts in
   them and makes only the others.  */
static void
join_namespaces (const struct sbx_plan *plan, int report_w)
{
  static const struct
  {
    enum sbx_ns_type type;
    int flag;
    const char *name;
  } joinable[] = { { SBX_NS_NETWORK, CLONE_NEWNET, "network" },
                   { SBX_NS_IPC, CLONE_NEWIPC, "ipc" },
                   { SBX_NS_UTS, CLONE_NEWUTS, "uts" } };
  for (size_t i = 0; i < sizeof joinable / sizeof *joinable; i++)
    {
      const char *path = plan->join[joinable[i].type];
      if (path == NULL)
        continue;
      int ns = open (path, O_RDONLY | O_CLOEXEC);
      if (ns < 0 || setns (ns, joinable[i].flag) < 0)
        {
          int e = errno;
          char msg[400];
          snprintf (msg, sizeof msg,
                    "linux.namespaces: cannot join the %s namespace %s: %s",
                    joinable[i].name, path, strerror (e));
          sbx_child_step_fail (report_w, STEP_JOIN, e, msg);
        }
      close (ns);
    }
}

/* A mount namespace of the runner's own, for what it mounts for bwrap
   to bind (the shared mqueue, the devices' and the config's tmpfs): the
   host's mount table never sees those, and they end with the sandbox.  A
   slave, not private: what the host mounts later still reaches the
   sandbox, as under runc (rootfsPropagation "rslave").  */
static void
own_mount_namespace (int report_w)
{
  if (unshare (CLONE_NEWNS) < 0
      || mount (NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
    {
      int e = errno;
      char msg[400];
      snprintf (msg, sizeof msg,
                "cannot make a mount namespace for the runner: %s",
                strerror (e));
      sbx_child_step_fail (report_w, STEP_JOIN, e, msg);
    }
}

/* The mqueue of the IPC namespace the runner is in now (a joined one, or
   the host's), where bwrap will bind it from: bwrap cannot mount it
   itself from inside the sandbox's user namespace, which does not own
   that IPC namespace.  */
static void
mount_shared_mqueue (const char *dir, int report_w)
{
  if (mount ("mqueue", dir, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)
      < 0)
    {
      int e = errno;
      char msg[400];
      snprintf (msg, sizeof msg,
                "cannot mount the shared IPC namespace's mqueue on %s: %s",
                dir, strerror (e));
      sbx_child_step_fail (report_w, STEP_JOIN, e, msg);
    }
}

static int
child_main (void *arg)
{
  const struct sbx_runner_child *a = arg;
  const struct sbx_spawn_request *req = a->req;
  int report_w = a->report_w;
  /* Armed before anything else, then the parent checked: a parent that
     died before the arm has re-parented us already, and no signal would
     ever come.  It holds through the exec of bwrap (not set-uid), so sbx
     killed at any moment takes the runner with it; bwrap's
     --die-with-parent carries it on to the sandbox (`run`).  */
  if (prctl (PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid () != a->parent)
    _exit (127);
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  signal (SIGPIPE, SIG_DFL);
  int rr = req->rung ? sbx_rung_session (req->rung) : 0;
  if (rr < 0)
    errno = -rr;
  if (rr < 0 || (!req->rung && req->own_process_group && setpgid (0, 0) < 0))
    child_fail (report_w, STEP_PGRP);
  if (req->guard_fd > 2)
    sbx_run_guard_tell (req->guard_fd, SBX_GUARD_GROUP, getpgrp ());
  join_namespaces (req->plan, report_w);
  if (req->opts.mqueue_dir || req->plan->n_nodes > 0 || a->cover.top)
    own_mount_namespace (report_w);
  char msg[400];
  int nr = a->cover.top ? sbx_runner_cover (&a->cover, msg, sizeof msg) : 0;
  if (nr < 0)
    sbx_child_step_fail (report_w, STEP_NODES, -nr, msg);
  if (req->opts.mqueue_dir)
    mount_shared_mqueue (req->opts.mqueue_dir, report_w);
  nr = req->plan->n_nodes > 0
           ? sbx_runner_make_nodes (req->plan, msg, sizeof msg)
           : 0;
  if (nr < 0)
    sbx_child_step_fail (report_w, STEP_NODES, -nr, msg);
  /* The raw call: glibc's setgroups would try to tell every thread, and
     this child shares its parent's memory.  */
  if (req->plan->set_groups
      && syscall (SYS_setgroups, req->plan->n_groups, req->plan->groups) < 0)
    child_fail (report_w, STEP_GROUPS);
  /* Entered before exec: everything the runner forks is inside.  */
  struct sbx_error cgerr;
  int cr = req->cgroup ? sbx_cgroup_enter (req->cgroup, getpid (), &cgerr) : 0;
  if (cr < 0)
    {
      errno = -cr;
      child_fail (report_w, STEP_CGROUP);
    }
  apply_inherited (req->spec, report_w);
  /* Last of the steps: those above need the host's privilege.  */
  if (a->userns_fd >= 0 && (rr = sbx_userns_enter (a->userns_fd)) < 0)
    {
      errno = -rr;
      child_fail (report_w, STEP_USERNS);
    }
  if (place_fds (a->l, &report_w) < 0)
    child_fail (report_w, STEP_FDS);
  if (req->rung)
    {
      /* No bwrap: the helper (or, with no landlock, the command) is
         exec'd from here, under what bwrap would have set up.  */
      if ((rr = sbx_rung_confine (req->rung)) < 0)
        {
          errno = -rr;
          child_fail (report_w, STEP_EXEC);
        }
      sbx_exec_search (a->argv, a->envp);
      child_fail (report_w, STEP_EXEC);
    }
  execve (a->argv[0], a->argv, a->envp);
  child_fail (report_w, STEP_EXEC);
}

/* Start the child the way posix_spawn does: it borrows our memory on a
   stack of its own and we wait until it has exec'd or failed.  Nothing is
   copied, so neither process takes copy-on-write faults; on a VM these
   are most of what a fork costs.  The stack lies inside our own, which is
   where AddressSanitizer expects a stack to be; the redzones the child's
   frames left in the shared shadow memory are cleared once it is gone,
   or our later frames there would be reported as overflows.  */
pid_t
sbx_runner_start (struct sbx_runner_child *a)
{
  _Alignas(16) char stack[64 * 1024];
  pid_t pid = clone (child_main, stack + sizeof stack,
                     CLONE_VM | CLONE_VFORK | SIGCHLD, a);
#ifdef __SANITIZE_ADDRESS__
  __asan_unpoison_memory_region (stack, sizeof stack);
#endif
  return pid;
}

/* Number the sources that are present: 3 upwards, after the PRESERVED
   descriptors.  */
void
sbx_runner_layout_number (int preserved, const int *mount_fds,
                          struct sbx_runner_layout *l)
{
  int next = 3 + (preserved > 0 ? preserved : 0);
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    l->at[i] = l->src[i] >= 0 ? next++ : -1;
  for (size_t i = 0; i < l->n_mounts; i++)
    l->mount_at[i] = mount_fds[i] >= 0 ? next++ : -1;
  l->report = next;
}

int
sbx_runner_failure (int report_r, const char *runner, struct sbx_error *err)
{
  struct sbx_child_step f;
  if (!sbx_child_step_read (report_r, STEP_EXEC, &f))
    return 0; /* closed by a successful exec */
  if (f.detail[0])
    return sbx_fail (err, f.errnum > 0 ? -f.errnum : -EINVAL, "%s", f.detail);
  return sbx_fail_errno (err, -f.errnum, "runner %s: cannot %s", runner,
                         step_names[f.step]);
}

int
sbx_runner_pipe (int *ours, int *theirs, bool we_read)
{
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    return -errno;
  *ours = we_read ? p[0] : p[1];
  *theirs = we_read ? p[1] : p[0];
  return 0;
}
