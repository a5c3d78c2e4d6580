#include "runtime/linux/bwrap/spawn.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "runtime/linux/bwrap/bind_sources.h"
#include "runtime/linux/bwrap/prestart.h"
#include "runtime/linux/bwrap/runner_child.h"
#include "runtime/linux/bwrap/runner_cover.h"
#include "runtime/linux/bwrap/runner_env.h"
#include "runtime/linux/bwrap/runner_status.h"
#include "runtime/linux/stop_wait.h"
#include "runtime/linux/supervise/run_guard.h"
#include "runtime/linux/bwrap/userns_made.h"
#include "runtime/linux/confine/landlock_helper_fd.h"
#include "runtime/linux/confine/landlock_rules.h"
#include "runtime/linux/confine/landlock_rung.h"
#include "runtime/linux/container/init_helper.h"

/* Copy every held bind source above the layout (see sbx_runner_layout).  */
static int
lift_mount_fds (const int *mount_fds, struct sbx_runner_layout *l)
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
free_mount_layout (struct sbx_runner_layout *l)
{
  for (size_t i = 0; l->mount_src && i < l->n_mounts; i++)
    if (l->mount_src[i] >= 0)
      close (l->mount_src[i]);
  free (l->mount_src);
  free (l->mount_at);
}

/* The pipes sbx keeps one end of.  */
struct spawn_pipes
{
  int status_r, info_r, userns_w, report_r, init_report_r;
};

static void
close_pipes (struct sbx_runner_layout *l, int report_w)
{
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    if (l->src[i] >= 0 && i != RUNNER_FD_SECCOMP && i != RUNNER_FD_SECCOMP_NET
        && i != RUNNER_FD_BLOCK && i != RUNNER_FD_STARTED)
      close (l->src[i]);
  if (report_w >= 0)
    close (report_w);
}

/* Make the pipes and name every source of the layout.  */
static int
open_pipes (const struct sbx_spawn_request *req, const int *mount_fds,
            int init_fd, int pidns_fd, struct sbx_runner_layout *l,
            struct spawn_pipes *p, int *report_w)
{
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    l->src[i] = l->at[i] = -1;
  *p = (struct spawn_pipes){ -1, -1, -1, -1, -1 };
  l->n_mounts = mount_fds ? req->plan->n_mounts : 0;
  l->mount_at = calloc (l->n_mounts + 1, sizeof *l->mount_at);
  l->mount_src = calloc (l->n_mounts + 1, sizeof *l->mount_src);
  if (l->mount_at == NULL || l->mount_src == NULL)
    return -ENOMEM;
  for (size_t i = 0; i < l->n_mounts; i++)
    l->mount_src[i] = -1;
  int r = sbx_runner_pipe (&p->status_r, &l->src[RUNNER_FD_STATUS], true);
  if (r == 0 && req->guard_fd > 2)
    sbx_run_guard_watch (req->guard_fd, p->status_r);
  if (sbx_has_fd (req->hold_fd))
    l->src[RUNNER_FD_BLOCK] = req->hold_fd;
  if (sbx_has_fd (req->seccomp_fd))
    l->src[RUNNER_FD_SECCOMP] = req->seccomp_fd;
  if (sbx_has_fd (req->seccomp_net_fd))
    l->src[RUNNER_FD_SECCOMP_NET] = req->seccomp_net_fd;
  l->src[RUNNER_FD_INIT] = init_fd;
  l->src[RUNNER_FD_PIDNS] = pidns_fd;
  if (r == 0 && req->plan->init && sbx_has_fd (req->started_fd))
    l->src[RUNNER_FD_STARTED] = req->started_fd;
  if (r == 0 && req->plan->init && req->init_report)
    r = sbx_runner_pipe (&p->init_report_r, &l->src[RUNNER_FD_INIT_REPORT],
                         true);
  /* Maps bwrap's namespace waits for (--userns-block-fd), unless sbx
     made the namespace itself.  */
  bool maps_after = req->plan->uid_map && !req->plan->enter_userns;
  if (r == 0
      && (maps_after || req->plan->n_host_ports || req->report_sandbox_pid))
    r = sbx_runner_pipe (&p->info_r, &l->src[RUNNER_FD_INFO], true);
  if (r == 0 && maps_after)
    r = sbx_runner_pipe (&p->userns_w, &l->src[RUNNER_FD_USERNS], false);
  if (r == 0 && req->rung == NULL)
    {
      struct sbx_error ignored = { 0 };
      r = sbx_runner_env_fd (&req->plan->env, &l->src[RUNNER_FD_ARGS],
                             &ignored);
    }
  if (r == 0 && sbx_helper_needed (req->plan))
    {
      struct sbx_error ignored = { 0 };
      r = l->src[RUNNER_FD_LANDLOCK] = sbx_landlock_helper_fd (&ignored);
      r = r < 0 ? r : 0;
    }
  if (r == 0)
    r = sbx_runner_pipe (&p->report_r, report_w, true);
  sbx_runner_layout_number (req->preserve_fds, mount_fds, l);
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
   would kill it with SIGPIPE.  A stop ends the wait (stop_wait.h), *PID
   then the sandbox's if bwrap reported it, for the caller to kill
   first.  */
static int
read_sandbox_pid (struct spawn_pipes *p, pid_t *pid, struct sbx_error *err)
{
  struct sbx_runner_status st = { 0 };
  int r = sbx_runner_status_wait_child (&st, p->info_r, true);
  if (r == -EINTR)
    {
      *pid = st.child_pid;
      return sbx_stop_requested (err) ?: r;
    }
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
rung_argv (const struct sbx_spawn_request *req,
           const struct sbx_runner_layout *l, struct strv *argv,
           struct sbx_error *err)
{
  struct sbx_rung *rung = req->rung;
  rung->n_close = 0;
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    if (l->at[i] >= 0 && i != RUNNER_FD_LANDLOCK
        && rung->n_close < sizeof rung->close_fds / sizeof *rung->close_fds)
      rung->close_fds[rung->n_close++] = l->at[i];
  int r = 0;
  if (req->plan->enforcement.landlock_abi > 0)
    r = sbx_landlock_rung_args (req->plan, l->at[RUNNER_FD_LANDLOCK],
                                rung->tmpdir, argv);
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
  int taken
      = req->prestart ? sbx_prestart_take (req->prestart, req, out, err) : 1;
  if (taken <= 0)
    return taken;
  struct sbx_runner_layout l;
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
    .json_status = l.at[RUNNER_FD_STATUS],
    .info = l.at[RUNNER_FD_INFO],
    .block = l.at[RUNNER_FD_BLOCK],
    .seccomp = l.at[RUNNER_FD_SECCOMP],
    .seccomp_net = l.at[RUNNER_FD_SECCOMP_NET],
    .userns_block = l.at[RUNNER_FD_USERNS],
    .args = l.at[RUNNER_FD_ARGS],
    .mounts = l.n_mounts ? l.mount_at : NULL,
    .init = l.at[RUNNER_FD_INIT],
    .init_report = l.at[RUNNER_FD_INIT_REPORT],
    .init_started = l.at[RUNNER_FD_STARTED],
    .landlock = l.at[RUNNER_FD_LANDLOCK],
    .pidns = l.at[RUNNER_FD_PIDNS],
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
  struct sbx_runner_child a = { .req = req,
                                .argv = argv.v,
                                .envp = req->rung ? req->rung->env.v : empty,
                                .l = &l,
                                .report_w = report_w,
                                .parent = getpid (),
                                .userns_fd = -1 };
  if (r == 0)
    r = sbx_runner_cover_plan (req->plan, req->state_root,
                               req->opts.mqueue_dir, &a.cover, err);
  if (r == 0 && req->plan->enter_userns)
    r = sbx_userns_make (req->plan->uid_map, req->plan->gid_map, &a.userns_fd,
                         err);
  pid_t pid = r < 0 ? -1 : sbx_runner_start (&a);
  sbx_runner_cover_free (&a.cover);
  if (a.userns_fd >= 0)
    close (a.userns_fd);
  if (r == 0 && pid < 0)
    r = sbx_fail_errno (err, -errno, "cannot start the runner");
  /* Without bwrap, sbx says what bwrap would have: the sandbox's pid (the
     runner's own), on the status channel the monitor reads.  */
  if (r == 0 && req->rung)
    dprintf (l.src[RUNNER_FD_STATUS], "{\"child-pid\": %d}\n", (int) pid);
  close_pipes (&l, report_w);
  free_mount_layout (&l);
  if (r == 0)
    r = sbx_runner_failure (p.report_r, req->host->runner_path, err);
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
  out->block_fd = l.at[RUNNER_FD_BLOCK];
  out->sandbox_pid = sandbox_pid;
  out->guard_fd = req->guard_fd > 2 ? req->guard_fd : -1;
  return 0;
}
