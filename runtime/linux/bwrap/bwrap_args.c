#include "runtime/linux/bwrap/bwrap_args.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "runtime/linux/confine/landlock_rules.h"
#include "runtime/linux/bwrap/test_breaks.h"

#define PUSH(...)                                                             \
  do                                                                          \
    {                                                                         \
      const char *_a[] = { __VA_ARGS__ };                                     \
      for (size_t _i = 0; _i < sizeof _a / sizeof *_a; _i++)                  \
        if (strv_push (argv, _a[_i]) < 0)                                     \
          return -ENOMEM;                                                     \
    }                                                                         \
  while (0)

static int
push2 (struct strv *argv, const char *flag, const char *value)
{
  PUSH (flag, value);
  return 0;
}

static int
push_fd (struct strv *argv, const char *flag, int fd)
{
  if (fd < 0)
    return 0;
  if (strv_push (argv, flag) < 0 || strv_pushf (argv, "%d", fd) < 0)
    return -ENOMEM;
  return 0;
}

static int
namespace_args (const struct sbx_plan *plan, const struct sbx_host_facts *host,
                struct strv *argv)
{
  /* Unprivileged, bwrap needs a user namespace to do anything at all.
     A range's namespace is made by sbx and bwrap starts in it.  */
  if ((plan->unshare[SBX_NS_USER] && !plan->enter_userns) || !host->is_root)
    PUSH ("--unshare-user");
  if (plan->set_ids)
    {
      if (strv_push (argv, "--uid") < 0
          || strv_pushf (argv, "%u", plan->uid) < 0
          || strv_push (argv, "--gid") < 0
          || strv_pushf (argv, "%u", plan->gid) < 0)
        return -ENOMEM;
    }
  if (plan->unshare[SBX_NS_PID])
    PUSH ("--unshare-pid");
  if (plan->unshare[SBX_NS_NETWORK])
    PUSH ("--unshare-net");
  if (plan->unshare[SBX_NS_IPC])
    PUSH ("--unshare-ipc");
  if (plan->unshare[SBX_NS_UTS])
    PUSH ("--unshare-uts");
  if (plan->unshare[SBX_NS_CGROUP])
    PUSH ("--unshare-cgroup-try");
  if (plan->hostname)
    PUSH ("--hostname", plan->hostname);
  return 0;
}

static int
size_perms (const struct sbx_plan_mount *m, struct strv *argv)
{
  if (m->perms >= 0
      && (strv_push (argv, "--perms") < 0
          || strv_pushf (argv, "%04o", (unsigned) m->perms) < 0))
    return -ENOMEM;
  if (m->size > 0
      && (strv_push (argv, "--size") < 0
          || strv_pushf (argv, "%" PRId64, m->size) < 0))
    return -ENOMEM;
  return 0;
}

/* A bind whose source is held open: bwrap mounts what the descriptor is,
   whatever the path has become since.  */
static int
held_bind_args (const struct sbx_plan_mount *m, int fd, struct strv *argv)
{
  const char *flag = m->op == SBX_PLAN_BIND_RO ? "--ro-bind-fd" : "--bind-fd";
  if (strv_push (argv, flag) < 0 || strv_pushf (argv, "%d", fd) < 0
      || strv_push (argv, m->dest) < 0)
    return -ENOMEM;
  return 0;
}

static int
mount_args (const struct sbx_plan_mount *m, int fd,
            const struct sbx_bwrap_opts *opts, struct strv *argv)
{
  if (fd >= 0 && (m->op == SBX_PLAN_BIND_RO || m->op == SBX_PLAN_BIND_RW))
    return held_bind_args (m, fd, argv);
  switch (m->op)
    {
    case SBX_PLAN_BIND_RO:
      PUSH (m->optional ? "--ro-bind-try" : "--ro-bind", m->source, m->dest);
      return 0;
    case SBX_PLAN_BIND_RW:
      PUSH (m->optional ? "--bind-try" : "--bind", m->source, m->dest);
      return 0;
    case SBX_PLAN_BIND_DEV:
      PUSH (m->optional ? "--dev-bind-try" : "--dev-bind", m->source, m->dest);
      return 0;
    case SBX_PLAN_HIDE_DIR:
      PUSH ("--perms", "0555", "--tmpfs", m->dest);
      return 0;
    case SBX_PLAN_HIDE_FILE:
      PUSH ("--ro-bind", "/dev/null", m->dest);
      return 0;
    case SBX_PLAN_TMPFS:
      if (size_perms (m, argv) < 0)
        return -ENOMEM;
      PUSH ("--tmpfs", m->dest);
      return 0;
    case SBX_PLAN_PROC:
      PUSH ("--proc", m->dest);
      return 0;
    case SBX_PLAN_DEV:
      PUSH ("--dev", m->dest);
      return 0;
    case SBX_PLAN_MQUEUE:
      if (opts->mqueue_dir)
        PUSH ("--bind", opts->mqueue_dir, m->dest);
      else
        PUSH ("--mqueue", m->dest);
      return 0;
    case SBX_PLAN_DIR:
      if (size_perms (m, argv) < 0)
        return -ENOMEM;
      PUSH ("--dir", m->dest);
      return 0;
    case SBX_PLAN_REMOUNT_RO:
      PUSH ("--remount-ro", m->dest);
      return 0;
    }
  return -EINVAL;
}

static int
capability_args (const struct sbx_plan *plan,
                 const struct sbx_host_facts *host,
                 const struct sbx_bwrap_opts *opts, struct strv *argv)
{
  /* sbx-oci-init needs CAP_SETUID, CAP_SETGID and CAP_SETPCAP to take
     the identity and the sets; it is given all of root's and gives the
     command exactly the config's.  */
  if (plan->init_ids)
    return 0;
  /* A caller that is not uid 0 has no capability for bwrap to pass on.
     A uid 0 outside the initial user namespace (rootless podman, LXD)
     does, and bwrap keeps them all unless told: it is told to drop them,
     and its keep list is empty (sbx_caps_plan grants it none).  */
  if (host->uid != 0 || opts->caps == NULL)
    return 0;
  PUSH ("--cap-drop", "ALL");
  for (size_t i = 0; i < opts->caps->keep.n; i++)
    PUSH ("--cap-add", opts->caps->keep.v[i]);
  return 0;
}

static int
push_opt (struct strv *argv, const char *flag, long long v)
{
  if (strv_push (argv, flag) < 0 || strv_pushf (argv, "%lld", v) < 0)
    return -ENOMEM;
  return 0;
}

/* The identity and the five sets sbx-oci-init takes (init_main.c).  */
static int
init_ids_args (const struct sbx_plan *plan, const struct sbx_cap_sets *c,
               struct strv *argv)
{
  int r = push_opt (argv, "-u", plan->uid);
  r = r ?: push_opt (argv, "-g", plan->gid);
  if (r == 0 && plan->n_groups > 0)
    {
      char list[SBX_INIT_MAX_GROUPS * 11] = "";
      size_t used = 0;
      for (size_t i = 0; i < plan->n_groups && used < sizeof list; i++)
        used += snprintf (list + used, sizeof list - used, "%s%u",
                          i ? "," : "", (unsigned) plan->groups[i]);
      if (used >= sizeof list)
        return -EINVAL;
      r = strv_push (argv, "-G") < 0 || strv_push (argv, list) < 0 ? -ENOMEM
                                                                   : 0;
    }
  static const struct sbx_cap_sets none = { 0 };
  if (c == NULL)
    c = &none;
  if (r == 0
      && (strv_push (argv, "-c") < 0
          || strv_pushf (argv,
                         "%" PRIx64 ":%" PRIx64 ":%" PRIx64 ":%" PRIx64
                         ":%" PRIx64,
                         c->bounding, c->effective, c->permitted,
                         c->inheritable, c->ambient)
                 < 0))
    r = -ENOMEM;
  return r;
}

/* The command through sbx-oci-init: its options, then "--".  */
static int
init_args (const struct sbx_plan *plan, const struct sbx_bwrap_fds *fds,
           const struct sbx_bwrap_opts *opts, struct strv *argv)
{
  int r = fds->init >= 0 ? strv_pushf (argv, "/proc/self/fd/%d", fds->init)
                         : strv_push (argv, "sbx-oci-init");
  if (r == 0 && fds->init_report >= 0)
    r = push_opt (argv, "-r", fds->init_report);
  if (r == 0 && fds->block >= 0)
    r = push_opt (argv, "-h", fds->block);
  if (r == 0 && fds->init_started >= 0)
    r = push_opt (argv, "-s", fds->init_started);
  if (r == 0 && plan->init_ids)
    r = init_ids_args (plan, opts->caps ? &opts->caps->sets : NULL, argv);
  if (r == 0 && plan->selinux_label)
    r = push2 (argv, "-Z", plan->selinux_label);
  if (r == 0 && plan->apparmor_profile)
    r = push2 (argv, "-P", plan->apparmor_profile);
  return r ?: strv_push (argv, "--");
}

/* bwrap's options, up to the "--" before the command.  */
static int
options_args (const struct sbx_plan *plan, const struct sbx_host_facts *host,
              const struct sbx_bwrap_fds *fds,
              const struct sbx_bwrap_opts *opts, struct strv *argv)
{
  /* First: what the descriptor holds is parsed where --args stands.  */
  int r = push_fd (argv, "--args", fds->args);
  if (r == 0)
    r = namespace_args (plan, host, argv);
  if (r == 0)
    r = push_fd (argv, "--pidns", fds->pidns);
  if (r == 0 && opts->die_with_parent)
    r = strv_push (argv, "--die-with-parent");
  if (r == 0 && plan->new_session)
    r = strv_push (argv, "--new-session");
  if (r == 0 && opts->as_pid_1)
    r = strv_push (argv, "--as-pid-1");
  /* The context of the tmpfs, mqueue and devpts bwrap mounts.  */
  if (r == 0 && plan->mount_label)
    r = push2 (argv, "--file-label", plan->mount_label);
  if (r == 0)
    r = push_fd (argv, "--json-status-fd", fds->json_status);
  if (r == 0)
    r = push_fd (argv, "--info-fd", fds->info);
  if (r == 0 && !plan->init)
    r = push_fd (argv, "--block-fd", fds->block);
  if (r == 0)
    r = push_fd (argv, "--userns-block-fd", fds->userns_block);
  /* --add-seccomp-fd, not --seccomp: the two cannot be mixed, and only
     the former stacks a second program.  */
  if (r == 0)
    r = push_fd (argv, "--add-seccomp-fd", fds->seccomp);
  if (r == 0)
    r = push_fd (argv, "--add-seccomp-fd", fds->seccomp_net);
  if (r == 0)
    r = capability_args (plan, host, opts, argv);
  for (size_t i = 0; r == 0 && i < plan->n_mounts; i++)
    r = mount_args (&plan->mounts[i], fds->mounts ? fds->mounts[i] : -1, opts,
                    argv);
  if (r == 0)
    r = sbx_test_extra_mount_args (argv);
  if (r == 0 && plan->cwd)
    r = strv_push (argv, "--chdir") < 0 ? -ENOMEM
                                        : strv_push (argv, plan->cwd);
  return r;
}

/* R, a failure to build the command line, in ERR; 0 for none.  */
static int
built (int r, struct sbx_error *err)
{
  if (r < 0)
    return sbx_fail (err, r, "cannot build the bwrap command line: %s",
                     r == -ENOMEM ? "out of memory" : "invalid plan");
  return 0;
}

static int
command_args (const struct sbx_plan *plan, const struct sbx_bwrap_fds *fds,
              const struct sbx_bwrap_opts *opts, struct strv *argv)
{
  int r = 0;
  if (plan->init)
    r = init_args (plan, fds, opts, argv);
  /* The Landlock helper applies the domain, then execs the command: after
     sbx-oci-init (which has switched identity by then), never before it,
     whose memfd a Landlock domain would refuse to execute.  */
  if (r == 0 && sbx_helper_needed (plan))
    r = sbx_landlock_args (plan, fds->landlock, true, argv);
  for (size_t i = 0; r == 0 && i < plan->argv.n; i++)
    r = strv_push (argv, plan->argv.v[i]);
  return r;
}

int
sbx_bwrap_command (const struct sbx_plan *plan,
                   const struct sbx_bwrap_fds *fds,
                   const struct sbx_bwrap_opts *opts, struct strv *argv,
                   struct sbx_error *err)
{
  return built (command_args (plan, fds, opts, argv), err);
}

int
sbx_bwrap_options (const struct sbx_plan *plan,
                   const struct sbx_host_facts *host,
                   const struct sbx_bwrap_fds *fds,
                   const struct sbx_bwrap_opts *opts, struct strv *argv,
                   struct sbx_error *err)
{
  return built (options_args (plan, host, fds, opts, argv), err);
}

int
sbx_bwrap_args (const struct sbx_plan *plan, const struct sbx_host_facts *host,
                const struct sbx_bwrap_fds *fds,
                const struct sbx_bwrap_opts *opts, struct strv *argv,
                struct sbx_error *err)
{
  int r = strv_push (argv, host->runner_path);
  r = r ?: options_args (plan, host, fds, opts, argv);
  r = r ?: strv_push (argv, "--");
  r = r ?: command_args (plan, fds, opts, argv);
  return built (r, err);
}
