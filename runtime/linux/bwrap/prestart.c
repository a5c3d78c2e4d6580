#include "runtime/linux/bwrap/prestart.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signal_hold.h"
#include "runtime/linux/bwrap/bind_sources.h"
#include "runtime/linux/bwrap/runner_child.h"
#include "runtime/linux/bwrap/runner_env.h"
#include "runtime/linux/confine/landlock_helper_args.h"
#include "runtime/linux/confine/landlock_helper_fd.h"
#include "runtime/linux/confine/landlock_rules.h"

/* The runner's slot of each of the prestart's descriptors.  */
static const int prestart_slot[SBX_PRESTART_FDS] = {
  [SBX_PRESTART_STATUS] = RUNNER_FD_STATUS,
  [SBX_PRESTART_OPTIONS] = RUNNER_FD_ARGS,
  [SBX_PRESTART_SECCOMP] = RUNNER_FD_SECCOMP,
  [SBX_PRESTART_SECCOMP_NET] = RUNNER_FD_SECCOMP_NET,
  [SBX_PRESTART_HELPER] = RUNNER_FD_LANDLOCK,
  [SBX_PRESTART_HELPER_ARGS] = RUNNER_FD_HELPER_ARGS,
};

static void
prestart_close (struct sbx_prestart *ps)
{
  for (int i = 0; i < SBX_PRESTART_FDS; i++)
    if (ps->ours[i] >= 0)
      {
        close (ps->ours[i]);
        ps->ours[i] = -1;
      }
}

void
sbx_prestart_init (struct sbx_prestart *ps)
{
  *ps = (struct sbx_prestart){ .guard = { .fd = -1, .stack = MAP_FAILED } };
  for (int i = 0; i < SBX_PRESTART_FDS; i++)
    ps->ours[i] = ps->at[i] = -1;
}

bool
sbx_prestart_take_guard (struct sbx_prestart *ps, struct sbx_run_guard *g)
{
  if (ps->guard.fd < 0)
    return false;
  *g = ps->guard;
  ps->guard = (struct sbx_run_guard){ .fd = -1, .stack = MAP_FAILED };
  return true;
}

/* Kill the prestarted runner, if it is still PS's, and close PS's ends.  */
static void
prestart_abandon (struct sbx_prestart *ps)
{
  if (ps->pid > 0)
    {
      /* Still reading its options: it has done nothing yet.  */
      kill (ps->pid, SIGKILL);
      while (waitpid (ps->pid, NULL, 0) < 0 && errno == EINTR)
        ;
      ps->pid = 0;
    }
  prestart_close (ps);
}

void
sbx_prestart_release (struct sbx_prestart *ps)
{
  /* The guard first, while the group it knows is still the runner's.  */
  sbx_run_guard_stop (&ps->guard);
  prestart_abandon (ps);
}

/* The runner's descriptors, each with sbx-oci's end in PS->ours.  */
static int
prestart_fds (struct sbx_prestart *ps, struct sbx_runner_layout *l)
{
  struct sbx_error ignored = { 0 };
  int *ours = ps->ours;
  int r = sbx_runner_pipe (&ours[SBX_PRESTART_STATUS],
                           &l->src[RUNNER_FD_STATUS], true);
  if (r == 0)
    sbx_run_guard_watch (ps->guard.fd, ours[SBX_PRESTART_STATUS]);
  r = r
          ?: sbx_runner_pipe (&ours[SBX_PRESTART_OPTIONS],
                              &l->src[RUNNER_FD_ARGS], false);
  r = r
          ?: sbx_runner_pipe (&ours[SBX_PRESTART_SECCOMP],
                              &l->src[RUNNER_FD_SECCOMP], false);
  r = r
          ?: sbx_runner_pipe (&ours[SBX_PRESTART_SECCOMP_NET],
                              &l->src[RUNNER_FD_SECCOMP_NET], false);
  /* sbx-oci's ends never block: a write that does not fit fails.  */
  for (int i = SBX_PRESTART_OPTIONS; r == 0 && i <= SBX_PRESTART_SECCOMP_NET;
       i++)
    if (fcntl (ours[i], F_SETFL, O_NONBLOCK) < 0)
      r = -errno;
  if (r == 0
      && (l->src[RUNNER_FD_LANDLOCK] = sbx_landlock_helper_fd (&ignored)) < 0)
    r = l->src[RUNNER_FD_LANDLOCK];
  /* A memfd, not a pipe: the helper reads it only once bwrap has set up,
     long after all of it was written.  */
  if (r == 0
      && (ours[SBX_PRESTART_HELPER_ARGS] = l->src[RUNNER_FD_HELPER_ARGS]
          = memfd_create ("sbx-landlock-args", MFD_CLOEXEC))
             < 0)
    r = -errno;
  sbx_runner_layout_number (ps->preserve_fds, NULL, l);
  for (int i = 0; i < SBX_PRESTART_FDS; i++)
    ps->at[i] = l->at[prestart_slot[i]];
  return r;
}

static void
close_theirs (struct sbx_runner_layout *l, const struct sbx_prestart *ps)
{
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    if (l->src[i] >= 0 && l->src[i] != ps->ours[SBX_PRESTART_HELPER_ARGS])
      close (l->src[i]);
}

void
sbx_bwrap_prestart (const char *runner, int preserve_fds,
                    struct sbx_prestart *ps)
{
  static const struct sbx_plan no_steps; /* a runner of no plan's steps */
  struct sbx_error ignored = { 0 };
  sbx_prestart_init (ps);
  ps->preserve_fds = preserve_fds;
  /* The guard first: it must hold none of the pipes below (it closes
     what it inherited with close_range, which may be missing).  */
  if (sbx_run_guard_start (&ps->guard, &ignored) < 0)
    return;
  ps->runner = runner;
  struct sbx_runner_layout l = { 0 };
  for (int i = 0; i < RUNNER_FD_COUNT; i++)
    l.src[i] = l.at[i] = -1;
  int report_r = -1, report_w = -1;
  int r = prestart_fds (ps, &l);
  r = r ?: sbx_runner_pipe (&report_r, &report_w, true);
  cleanup_strv struct strv argv = { 0 };
  if (r == 0
      && (strv_push (&argv, runner) < 0 || strv_push (&argv, "--args") < 0
          || strv_pushf (&argv, "%d", ps->at[SBX_PRESTART_OPTIONS]) < 0
          || strv_push (&argv, "--") < 0
          || strv_pushf (&argv, "/proc/self/fd/%d",
                         ps->at[SBX_PRESTART_HELPER])
                 < 0
          || strv_push (&argv, "-a") < 0
          || strv_pushf (&argv, "%d", ps->at[SBX_PRESTART_HELPER_ARGS]) < 0))
    r = -ENOMEM;
  struct sbx_spawn_request req = { .plan = &no_steps,
                                   .preserve_fds = preserve_fds,
                                   .own_process_group = true,
                                   .guard_fd = ps->guard.fd };
  char *empty[] = { NULL };
  struct sbx_runner_child a = { .req = &req,
                                .argv = argv.v,
                                .envp = empty,
                                .l = &l,
                                .report_w = report_w,
                                .parent = getpid (),
                                .userns_fd = -1 };
  pid_t pid = r < 0 ? -1 : sbx_runner_start (&a);
  close_theirs (&l, ps);
  if (report_w >= 0)
    close (report_w);
  if (pid > 0)
    ps->pid = pid;
  if (pid < 0 || sbx_runner_failure (report_r, runner, &ignored) < 0)
    prestart_abandon (ps);
  if (report_r >= 0)
    close (report_r);
}

/* The descriptors as bwrap has them, for the argument builder.  */
static struct sbx_bwrap_fds
prestart_bwrap_fds (const struct sbx_prestart *ps)
{
  struct sbx_bwrap_fds fds = SBX_BWRAP_NO_FDS;
  fds.json_status = ps->at[SBX_PRESTART_STATUS];
  fds.seccomp = ps->at[SBX_PRESTART_SECCOMP];
  fds.seccomp_net = ps->at[SBX_PRESTART_SECCOMP_NET];
  fds.landlock = ps->at[SBX_PRESTART_HELPER];
  return fds;
}

/* Whether REQ's runner takes no step before its exec: none that a
   runner started before the plan could have taken.  */
static bool
no_steps_before_exec (const struct sbx_spawn_request *req)
{
  const struct sbx_plan *plan = req->plan;
  const struct sbx_process *p
      = req->spec && req->spec->has_process ? &req->spec->process : NULL;
  for (size_t t = 0; t < sizeof plan->join / sizeof *plan->join; t++)
    if (plan->join[t])
      return false;
  return req->rung == NULL && !req->opts.as_pid_1 && !plan->enter_userns
         && plan->n_nodes == 0 && !req->opts.mqueue_dir && !plan->set_groups
         && (p == NULL
             || (p->n_rlimits == 0 && !p->has_oom_score_adj
                 && !p->user.has_umask));
}

/* Whether REQ's runner has exactly PS's descriptors, each of them used:
   none held open for a bind (bwrap would need it in its own table: it
   follows a /proc/PID/fd link of sbx-oci's by the name the link shows,
   which a swap can change, docs/design.md), no hold, no info channel, no
   sbx-oci-init, both seccomp programs and the helper.  */
static bool
uses_exactly_its_fds (const struct sbx_spawn_request *req,
                      const struct sbx_prestart *ps)
{
  const struct sbx_plan *plan = req->plan;
  return !sbx_bind_sources_any (plan) && !plan->uid_map && !plan->init
         && plan->n_host_ports == 0 && !sbx_has_fd (req->hold_fd)
         && !req->report_sandbox_pid && !req->init_report
         && sbx_has_fd (req->seccomp_fd) && sbx_has_fd (req->seccomp_net_fd)
         && sbx_helper_needed (plan) && req->preserve_fds == ps->preserve_fds
         && strcmp (req->host->runner_path, ps->runner) == 0;
}

/* Whether the arguments are within what the ordinary way takes too:
   bwrap counts every argument it parses, the command's included, against
   SBX_BWRAP_MAX_ARGS (here the command goes to the helper, which bwrap
   never counts), and the helper reads at most its -a limits.  */
static bool
arguments_fit (const struct strv *options, const struct strv *env,
               const struct strv *command)
{
  size_t bytes = 0;
  for (size_t i = 1; i < command->n; i++)
    bytes += strlen (command->v[i]) + 1;
  size_t counted = 4 + options->n + 3 * env->n + command->n;
  return command->n >= 2 && command->n - 1 < SBX_HELPER_ARGS_MAX
         && bytes < SBX_HELPER_ARGS_MAX_BYTES && counted <= SBX_BWRAP_MAX_ARGS;
}

/* All of BUF to FD in one write, so that bwrap never reads a part of it:
   a pipe (non-blocking) made as large as LEN (fits_pipe) takes it whole,
   and sbx-oci's death comes before the write or after it.  */
static int
write_whole (int fd, const char *buf, size_t len)
{
  ssize_t n = sbx_write_nosigpipe (fd, buf, len);
  return n < 0 ? (int) n : (size_t) n < len ? -EAGAIN : 0;
}

/* Whether the pipe FD holds LEN bytes at once, made larger if need be (an
   unprivileged caller's pipes stop at /proc/sys/fs/pipe-max-size).  */
static bool
fits_pipe (int fd, size_t len)
{
  int size = fcntl (fd, F_GETPIPE_SZ);
  return size > 0
         && ((size_t) size >= len
             || (len <= INT_MAX && fcntl (fd, F_SETPIPE_SZ, (int) len) >= 0));
}

/* The seccomp program at FROM (where it stands) into the pipe TO.  */
static int
copy_program (int from, int to)
{
  char buf[65536];
  size_t len = 0;
  ssize_t n;
  while ((n = read (from, buf + len, sizeof buf - len)) != 0)
    if (n < 0 && errno != EINTR)
      return -errno;
    else if (n > 0 && (len += (size_t) n) == sizeof buf)
      return -EFBIG; /* larger than any program the kernel loads */
  return fits_pipe (to, len) ? write_whole (to, buf, len) : -EFBIG;
}

/* ENV as --setenv (NULL: none), then each of V's N strings, NUL-ended,
   in *BUF (the caller's to free) of *LEN bytes.  */
static int
nul_list (const struct strv *env, char *const *v, size_t n, char **buf,
          size_t *len)
{
  FILE *f = open_memstream (buf, len);
  if (f == NULL)
    return -errno;
  int r = env ? sbx_runner_env_write (f, env) : 0;
  for (size_t i = 0; r == 0 && i < n; i++)
    if (fwrite (v[i], 1, strlen (v[i]) + 1, f) != strlen (v[i]) + 1)
      r = -EIO;
  if (fclose (f) != 0 && r == 0)
    r = -errno;
  return r;
}

/* End the prestart that REQ's guard was told of: the guard forgets its
   group first, as once reaped the number is free for another's.  */
static void
drop (struct sbx_prestart *ps, const struct sbx_spawn_request *req)
{
  if (req->guard_fd > 2)
    sbx_run_guard_tell (req->guard_fd, SBX_GUARD_GROUP, 0);
  prestart_abandon (ps);
}

/* What the prestarted runner waits for, written once it is sure to fit:
   bwrap's options after the plan's environment (one write to a pipe
   sized for them), and the helper's arguments (a memfd).  */
struct handover
{
  char *options, *helper_args;
  size_t options_len, helper_args_len;
};

/* Write the seccomp programs, the helper's arguments, then bwrap's
   options, whose end lets bwrap go on.  Nothing is closed before a
   failure has killed bwrap: it must never go on with a part of its
   options.  */
static int
prestart_finish (const struct sbx_spawn_request *req, struct sbx_prestart *ps,
                 const struct handover *h, struct sbx_spawned *out,
                 struct sbx_error *err)
{
  int *ours = ps->ours, status = ours[SBX_PRESTART_STATUS];
  int args = ours[SBX_PRESTART_HELPER_ARGS];
  int r = copy_program (req->seccomp_fd, ours[SBX_PRESTART_SECCOMP]);
  r = r ?: copy_program (req->seccomp_net_fd, ours[SBX_PRESTART_SECCOMP_NET]);
  r = r ?: write_whole (args, h->helper_args, h->helper_args_len);
  if (r == 0 && lseek (args, 0, SEEK_SET) < 0)
    r = -errno;
  struct sbx_error cgerr = { 0 };
  if (r == 0 && req->cgroup
      && (r = sbx_cgroup_enter (req->cgroup, ps->pid, &cgerr)) < 0)
    sbx_fail (err, r, "%s", cgerr.msg);
  else if (r == 0)
    r = write_whole (ours[SBX_PRESTART_OPTIONS], h->options, h->options_len);
  if (r < 0)
    {
      drop (ps, req);
      return err->code
                 ? r
                 : sbx_fail_errno (err, r, "cannot hand bwrap its options");
    }
  ours[SBX_PRESTART_STATUS] = -1;
  prestart_close (ps); /* the options' end: bwrap goes on */
  *out = (struct sbx_spawned){ .runner_pid = ps->pid,
                               .status_fd = status,
                               .block_fd = -1,
                               .init_report_fd = -1,
                               .guard_fd
                               = req->guard_fd > 2 ? req->guard_fd : -1 };
  ps->pid = 0; /* the caller's to supervise now */
  return 0;
}

/* The handover for REQ: 0, or 1 when it is beyond what the prestart
   takes (then the ordinary way runs it), or a negative errno.  */
static int
prepare_handover (const struct sbx_spawn_request *req,
                  const struct sbx_prestart *ps, struct handover *h,
                  struct sbx_error *err)
{
  struct sbx_bwrap_fds fds = prestart_bwrap_fds (ps);
  cleanup_strv struct strv options = { 0 }, command = { 0 };
  int r = sbx_bwrap_options (req->plan, req->host, &fds, &req->opts, &options,
                             err);
  r = r ?: sbx_bwrap_command (req->plan, &fds, &req->opts, &command, err);
  if (r < 0 || !arguments_fit (&options, &req->plan->env, &command))
    return r < 0 ? r : 1;
  /* The command begins with the helper (sbx_helper_needed), which the
     runner already has as its own command: the rest is its arguments.  */
  r = nul_list (NULL, command.v + 1, command.n - 1, &h->helper_args,
                &h->helper_args_len);
  r = r
          ?: nul_list (&req->plan->env, options.v, options.n, &h->options,
                       &h->options_len);
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot hand bwrap its options");
  return fits_pipe (ps->ours[SBX_PRESTART_OPTIONS], h->options_len) ? 0 : 1;
}

int
sbx_prestart_take (struct sbx_prestart *ps,
                   const struct sbx_spawn_request *req,
                   struct sbx_spawned *out, struct sbx_error *err)
{
  if (ps->pid <= 0)
    return 1;
  struct handover h = { 0 };
  int r = no_steps_before_exec (req) && uses_exactly_its_fds (req, ps)
              ? prepare_handover (req, ps, &h, err)
              : 1;
  if (r == 0)
    r = prestart_finish (req, ps, &h, out, err);
  else
    drop (ps, req);
  free (h.options);
  free (h.helper_args);
  return r;
}
