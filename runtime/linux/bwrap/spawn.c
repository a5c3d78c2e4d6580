#include "runtime/linux/bwrap/spawn.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

#include "common/cleanup.h"
#include "common/file_io.h"
#include "runtime/linux/bwrap/bind_sources.h"
#include "runtime/linux/exec_search.h"
#include "runtime/linux/bwrap/runner_cover.h"
#include "runtime/linux/bwrap/runner_env.h"
#include "runtime/linux/bwrap/runner_nodes.h"
#include "runtime/linux/bwrap/runner_status.h"
#include "runtime/linux/bwrap/userns_made.h"
#include "runtime/linux/confine/fd_scrub.h"
#include "runtime/linux/confine/landlock_helper_fd.h"
#include "runtime/linux/confine/landlock_rules.h"
#include "runtime/linux/child_step.h"
#include "runtime/linux/confine/landlock_rung.h"
#include "runtime/linux/confine/rlimits.h"
#include "runtime/linux/container/init_helper.h"
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

/* The request's optional descriptors: stdio is never one of them, so a
   field left at 0 by an initializer reads as "none", not as stdin.  */
static bool
has_fd (int fd)
{
  return fd > 2;
}

/* The descriptors the runner is given, in the order they are numbered
   from 3 (after any preserved ones); -1 where unused.  */
enum
{
  FD_STATUS,
  FD_BLOCK,
  FD_SECCOMP,
  FD_SECCOMP_NET,
  FD_INFO,
  FD_USERNS,
  FD_ARGS,
  FD_INIT,        /* the sealed sbx-oci-init */
  FD_INIT_REPORT, /* its lookup failures, to create */
  FD_STARTED,     /* the exec FIFO it keeps open until its exec */
  FD_LANDLOCK,
  FD_PIDNS, /* the joined pid namespace, for bwrap's --pidns */
  FD_COUNT
};

struct fd_layout
{
  int at[FD_COUNT];  /* the number the runner sees */
  int src[FD_COUNT]; /* the descriptor sbx holds */
  /* Held bind sources (bind_sources.h), one per plan mount, -1 where a
     source is a path: the number the runner sees, and a copy sbx made
     above the whole layout, so placing one never clobbers another.  */
  int *mount_at, *mount_src;
  size_t n_mounts;
  int report; /* the child's failure pipe, above all of them */
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

/* Put every source at its number.  Sources are first lifted above the
   layout so that no dup2 clobbers one still to be placed.  */
static int
place_fds (const struct fd_layout *l, int *report_w)
{
  int high = l->report + 4, src[FD_COUNT];
  for (int i = 0; i < FD_COUNT; i++)
    if ((src[i] = l->src[i]) >= 0
        && (src[i] = fcntl (src[i], F_DUPFD_CLOEXEC, high)) < 0)
      return -1;
  int rep = fcntl (*report_w, F_DUPFD_CLOEXEC, high);
  if (rep < 0)
    return -1;
  *report_w = rep;
  for (int i = 0; i < FD_COUNT; i++)
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

struct child_args
{
  const struct sbx_spawn_request *req;
  char **argv, **envp;
  const struct fd_layout *l;
  int report_w;
  pid_t parent;  /* sbx itself, which the child must not outlive */
  int userns_fd; /* the user namespace to enter last (userns_made.h), or
                    -1 */
  struct sbx_runner_cover cover; /* for a range's user namespace */
};

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
  const struct child_args *a = arg;
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
static pid_t
start_child (struct child_args *a)
{
  _Alignas(16) char stack[64 * 1024];
  pid_t pid = clone (child_main, stack + sizeof stack,
                     CLONE_VM | CLONE_VFORK | SIGCHLD, a);
#ifdef __SANITIZE_ADDRESS__
  __asan_unpoison_memory_region (stack, sizeof stack);
#endif
  return pid;
}

/* Number the sources that are present: 3 upwards, after the preserved
   descriptors.  */
static void
layout_fds (const struct sbx_spawn_request *req, const int *mount_fds,
            struct fd_layout *l)
{
  int next = 3 + (req->preserve_fds > 0 ? req->preserve_fds : 0);
  for (int i = 0; i < FD_COUNT; i++)
    l->at[i] = l->src[i] >= 0 ? next++ : -1;
  for (size_t i = 0; i < l->n_mounts; i++)
    l->mount_at[i] = mount_fds[i] >= 0 ? next++ : -1;
  l->report = next;
}

/* Copy every held bind source above the layout (see fd_layout).  */
static int
lift_mount_fds (const int *mount_fds, struct fd_layout *l)
{
  for (size_t i = 0; i < l->n_mounts; i++)
    if (mount_fds[i] >= 0
        && (l->mount_src[i]
            = fcntl (mount_fds[i], F_DUPFD_CLOEXEC, l->report + 4))
               < 0)
      return -errno;
  return 0;
}

static void
free_mount_layout (struct fd_layout *l)
{
  for (size_t i = 0; l->mount_src && i < l->n_mounts; i++)
    if (l->mount_src[i] >= 0)
      close (l->mount_src[i]);
  free (l->mount_src);
  free (l->mount_at);
}

static int
read_child_failure (int report_r, const char *runner, struct sbx_error *err)
{
  struct sbx_child_step f;
  if (!sbx_child_step_read (report_r, STEP_EXEC, &f))
    return 0; /* closed by a successful exec */
  if (f.detail[0])
    return sbx_fail (err, f.errnum > 0 ? -f.errnum : -EINVAL, "%s", f.detail);
  return sbx_fail_errno (err, -f.errnum, "runner %s: cannot %s", runner,
                         step_names[f.step]);
}

/* The pipes sbx keeps one end of.  */
struct spawn_pipes
{
  int status_r, info_r, userns_w, report_r, init_report_r;
};

static void
close_pipes (struct fd_layout *l, int report_w)
{
  for (int i = 0; i < FD_COUNT; i++)
    if (l->src[i] >= 0 && i != FD_SECCOMP && i != FD_SECCOMP_NET
        && i != FD_BLOCK && i != FD_STARTED)
      close (l->src[i]);
  if (report_w >= 0)
    close (report_w);
}

static int
open_pipe (int *ours, int *theirs, bool we_read)
{
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    return -errno;
  *ours = we_read ? p[0] : p[1];
  *theirs = we_read ? p[1] : p[0];
  return 0;
}

/* Make the pipes and name every source of the layout.  */
static int
open_pipes (const struct sbx_spawn_request *req, const int *mount_fds,
            int init_fd, int pidns_fd, struct fd_layout *l,
            struct spawn_pipes *p, int *report_w)
{
  for (int i = 0; i < FD_COUNT; i++)
    l->src[i] = l->at[i] = -1;
  *p = (struct spawn_pipes){ -1, -1, -1, -1, -1 };
  l->n_mounts = mount_fds ? req->plan->n_mounts : 0;
  l->mount_at = calloc (l->n_mounts + 1, sizeof *l->mount_at);
  l->mount_src = calloc (l->n_mounts + 1, sizeof *l->mount_src);
  if (l->mount_at == NULL || l->mount_src == NULL)
    return -ENOMEM;
  for (size_t i = 0; i < l->n_mounts; i++)
    l->mount_src[i] = -1;
  int r = open_pipe (&p->status_r, &l->src[FD_STATUS], true);
  if (has_fd (req->hold_fd))
    l->src[FD_BLOCK] = req->hold_fd;
  if (has_fd (req->seccomp_fd))
    l->src[FD_SECCOMP] = req->seccomp_fd;
  if (has_fd (req->seccomp_net_fd))
    l->src[FD_SECCOMP_NET] = req->seccomp_net_fd;
  l->src[FD_INIT] = init_fd;
  l->src[FD_PIDNS] = pidns_fd;
  if (r == 0 && req->plan->init && has_fd (req->started_fd))
    l->src[FD_STARTED] = req->started_fd;
  if (r == 0 && req->plan->init && req->init_report)
    r = open_pipe (&p->init_report_r, &l->src[FD_INIT_REPORT], true);
  /* Maps bwrap's namespace waits for (--userns-block-fd), unless sbx
     made the namespace itself.  */
  bool maps_after = req->plan->uid_map && !req->plan->enter_userns;
  if (r == 0
      && (maps_after || req->plan->n_host_ports || req->report_sandbox_pid))
    r = open_pipe (&p->info_r, &l->src[FD_INFO], true);
  if (r == 0 && maps_after)
    r = open_pipe (&p->userns_w, &l->src[FD_USERNS], false);
  if (r == 0 && req->rung == NULL)
    {
      struct sbx_error ignored = { 0 };
      r = sbx_runner_env_fd (&req->plan->env, &l->src[FD_ARGS], &ignored);
    }
  if (r == 0 && sbx_helper_needed (req->plan))
    {
      struct sbx_error ignored = { 0 };
      r = l->src[FD_LANDLOCK] = sbx_landlock_helper_fd (&ignored);
      r = r < 0 ? r : 0;
    }
  if (r == 0)
    r = open_pipe (&p->report_r, report_w, true);
  layout_fds (req, mount_fds, l);
  return r == 0 ? lift_mount_fds (mount_fds, l) : r;
}

static int
write_proc (pid_t pid, const char *file, const char *text)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, file);
  return sbx_write_control_file (path, text);
}

/* The sandbox's pid, from --info-fd.  Read to the end: bwrap closes the
   info channel only after writing all of it, and closing our end early
   would kill it with SIGPIPE.  */
static int
read_sandbox_pid (struct spawn_pipes *p, pid_t *pid, struct sbx_error *err)
{
  struct sbx_runner_status st = { 0 };
  while (!st.eof && sbx_runner_status_read (&st, p->info_r) == 0)
    ;
  if (st.child_pid <= 0)
    return sbx_fail (err, -ECHILD,
                     "the runner exited before the sandbox's namespaces "
                     "were set up (its message is above)");
  *pid = st.child_pid;
  return 0;
}

/* bwrap waits on --userns-block-fd after reporting the sandbox's pid on
   --info-fd: write the sandbox's id maps, then let it go on.  */
static int
write_id_maps (const struct sbx_plan *plan, pid_t pid, struct spawn_pipes *p,
               struct sbx_error *err)
{
  int r = write_proc (pid, "uid_map", plan->uid_map);
  if (r == 0)
    r = write_proc (pid, "gid_map", plan->gid_map);
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot write the sandbox's id maps");
  if (write (p->userns_w, "x", 1) != 1)
    return sbx_fail_errno (err, -errno, "cannot release the user namespace");
  return 0;
}

/* The rung without namespaces: the helper's command line, and the
   layout's descriptors the command must not keep.  */
static int
rung_argv (const struct sbx_spawn_request *req, const struct fd_layout *l,
           struct strv *argv, struct sbx_error *err)
{
  struct sbx_rung *rung = req->rung;
  rung->n_close = 0;
  for (int i = 0; i < FD_COUNT; i++)
    if (l->at[i] >= 0 && i != FD_LANDLOCK
        && rung->n_close < sizeof rung->close_fds / sizeof *rung->close_fds)
      rung->close_fds[rung->n_close++] = l->at[i];
  int r = 0;
  if (req->plan->enforcement.landlock_abi > 0)
    r = sbx_landlock_rung_args (req->plan, l->at[FD_LANDLOCK], rung->tmpdir,
                                argv);
  for (size_t i = 0; r == 0 && req->plan->enforcement.landlock_abi == 0
                     && i < req->plan->argv.n;
       i++)
    r = strv_push (argv, req->plan->argv.v[i]);
  return r < 0 ? sbx_fail (err, r, "out of memory") : 0;
}

/* The pid namespace the plan joins, checked to be one: bwrap's own
   complaint would name neither the field nor the path.  (The rung runs
   agents only, which never join one: policy/agent.c.)  */
static int
open_pidns (const struct sbx_spawn_request *req, struct sbx_error *err)
{
  const char *path = req->plan->join[SBX_NS_PID];
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return sbx_fail_errno (err, -errno,
                           "linux.namespaces: cannot open the pid "
                           "namespace %s",
                           path);
  if (ioctl (fd, NS_GET_NSTYPE) != CLONE_NEWPID)
    {
      close (fd);
      return sbx_refuse (err, -EINVAL, "linux.namespaces",
                         "%s is not a pid namespace", path);
    }
  return fd;
}

int
sbx_bwrap_spawn (const struct sbx_spawn_request *req, struct sbx_spawned *out,
                 struct sbx_error *err)
{
  struct fd_layout l;
  struct spawn_pipes p;
  int report_w = -1;
  /* Held now, at the last moment before bwrap mounts them: the plan is
     final (create adds its terminal's /dev/pts to it).  */
  int *mount_fds = NULL;
  int r = req->host->runner_bind_fd && req->rung == NULL
              ? sbx_bind_sources_open (req->plan, &mount_fds, err)
              : 0;
  if (r == 0 && req->rung && req->opts.as_pid_1)
    return sbx_fail (err, -EPERM,
                     "no namespace can be made on this host: `create` needs "
                     "a pid namespace; `run` works here (landlock and "
                     "seccomp alone)");
  if (r < 0)
    return r;
  int init_fd = req->plan->init ? sbx_init_helper_open (err) : -1;
  if (init_fd < 0 && req->plan->init)
    {
      sbx_bind_sources_close (mount_fds, req->plan->n_mounts);
      return init_fd;
    }
  int pidns_fd = req->plan->join[SBX_NS_PID] ? open_pidns (req, err) : -1;
  if (pidns_fd < 0 && req->plan->join[SBX_NS_PID])
    {
      sbx_bind_sources_close (mount_fds, req->plan->n_mounts);
      if (init_fd >= 0)
        close (init_fd);
      return pidns_fd;
    }
  r = open_pipes (req, mount_fds, init_fd, pidns_fd, &l, &p, &report_w);
  sbx_bind_sources_close (mount_fds, req->plan->n_mounts);
  cleanup_strv struct strv argv = { 0 };
  /* No held sources (a runner without --bind-fd): every bind by path,
     not by the one-slot layout's number.  */
  struct sbx_bwrap_fds fds = {
    l.at[FD_STATUS],      l.at[FD_INFO],
    l.at[FD_BLOCK],       l.at[FD_SECCOMP],
    l.at[FD_SECCOMP_NET], l.at[FD_USERNS],
    l.at[FD_ARGS],        l.n_mounts ? l.mount_at : NULL,
    l.at[FD_INIT],        l.at[FD_INIT_REPORT],
    l.at[FD_STARTED],     l.at[FD_LANDLOCK],
    l.at[FD_PIDNS],
  };
  if (r < 0)
    sbx_fail_errno (err, r, "cannot create the runner's pipes");
  else if (req->rung)
    r = rung_argv (req, &l, &argv, err);
  else
    r = sbx_bwrap_args (req->plan, req->host, &fds, &req->opts, &argv, err);
  /* The runner's own environment is empty: the sandbox's reaches it as
     --setenv arguments on --args (runner_env.h).  */
  char *empty[] = { NULL };
  struct child_args a = { req, argv.v,   req->rung ? req->rung->env.v : empty,
                          &l,  report_w, getpid (),
                          -1 };
  if (r == 0)
    r = sbx_runner_cover_plan (req->plan, req->state_root,
                               req->opts.mqueue_dir, &a.cover, err);
  if (r == 0 && req->plan->enter_userns)
    r = sbx_userns_make (req->plan->uid_map, req->plan->gid_map, &a.userns_fd,
                         err);
  pid_t pid = r < 0 ? -1 : start_child (&a);
  sbx_runner_cover_free (&a.cover);
  if (a.userns_fd >= 0)
    close (a.userns_fd);
  if (r == 0 && pid < 0)
    r = sbx_fail_errno (err, -errno, "cannot start the runner");
  /* Without bwrap, sbx says what bwrap would have: the sandbox's pid (the
     runner's own), on the status channel the monitor reads.  */
  if (r == 0 && req->rung)
    dprintf (l.src[FD_STATUS], "{\"child-pid\": %d}\n", (int) pid);
  close_pipes (&l, report_w);
  free_mount_layout (&l);
  if (r == 0)
    r = read_child_failure (p.report_r, req->host->runner_path, err);
  pid_t sandbox_pid = 0;
  if (r == 0 && p.info_r >= 0)
    r = read_sandbox_pid (&p, &sandbox_pid, err);
  if (r == 0 && req->plan->uid_map && !req->plan->enter_userns)
    r = write_id_maps (req->plan, sandbox_pid, &p, err);
  /* On failure the sandbox's first process goes first, while it still
     waits on userns_w (its go-ahead, whose end would let it run on and
     bwrap reap it): the pid is surely still its.  Left, it would wait on
     bwrap for ever, holding what it inherited.  */
  if (r < 0 && sandbox_pid > 0)
    kill (sandbox_pid, SIGKILL);
  int ours[] = { p.report_r, p.info_r, p.userns_w };
  for (size_t i = 0; i < sizeof ours / sizeof *ours; i++)
    if (ours[i] >= 0)
      close (ours[i]);
  if (r < 0)
    {
      if (pid > 0)
        {
          kill (pid, SIGKILL);
          waitpid (pid, NULL, 0);
        }
      if (p.status_r >= 0)
        close (p.status_r);
      if (p.init_report_r >= 0)
        close (p.init_report_r);
      return r;
    }
  out->runner_pid = pid;
  out->init_report_fd = p.init_report_r;
  out->status_fd = p.status_r;
  out->block_fd = l.at[FD_BLOCK];
  out->sandbox_pid = sandbox_pid;
  out->guard_fd = req->guard_fd > 2 ? req->guard_fd : -1;
  return 0;
}
