/* Policy resolution: the entry point and the parts that are neither mounts
   nor environment (namespaces, identity, command, limits).  */
#include "policy/policy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/error.h"
#include "common/path.h"
#include "policy/build.h"

struct sbx_plan_mount *
plan_add (struct sbx_plan *plan, enum sbx_plan_op op, enum sbx_plan_why why,
          const char *source, const char *dest)
{
  struct sbx_plan_mount *v
      = realloc (plan->mounts, (plan->n_mounts + 1) * sizeof *v);
  if (v == NULL)
    return NULL;
  plan->mounts = v;
  struct sbx_plan_mount *m = &v[plan->n_mounts];
  *m = (struct sbx_plan_mount){ .op = op, .why = why, .perms = -1 };
  m->dest = strdup (dest);
  m->source = source ? strdup (source) : NULL;
  if (m->dest == NULL || (source && m->source == NULL))
    {
      free (m->dest);
      free (m->source);
      return NULL;
    }
  plan->n_mounts++;
  return m;
}

int
plan_add_proc (struct sbx_plan *plan, enum sbx_plan_why why, const char *dest)
{
  static const char *const host_wide[]
      = { "sys", "sysrq-trigger", "irq", "bus" };
  if (!plan_add (plan, SBX_PLAN_PROC, why, NULL, dest))
    return -ENOMEM;
  for (size_t i = 0; i < sizeof host_wide / sizeof *host_wide; i++)
    {
      char source[64];
      snprintf (source, sizeof source, "/proc/%s", host_wide[i]);
      cleanup_free char *at = sbx_path_join (dest, host_wide[i]);
      struct sbx_plan_mount *m
          = at ? plan_add (plan, SBX_PLAN_BIND_RO, SBX_WHY_SYSTEM, source, at)
               : NULL;
      if (m == NULL)
        return -ENOMEM;
      m->optional = true; /* /proc/irq and /proc/bus are not everywhere */
    }
  return 0;
}

int
plan_gap (struct sbx_plan *plan, bool network, enum sbx_level level,
          const char *fmt, ...)
{
  enum sbx_level *l
      = network ? &plan->enforcement.network : &plan->enforcement.filesystem;
  if (level < *l)
    *l = level;
  char *text = NULL;
  va_list ap;
  va_start (ap, fmt);
  int r = vasprintf (&text, fmt, ap);
  va_end (ap);
  /* A reason quotes what a sandbox may have written (a git config's
     setting, a name in the workspace), and is read on terminals and in
     the dry run a shell runs: one line, no control character.  */
  char *reason = r < 0 ? NULL : sbx_escaped_dup (text);
  free (text);
  if (reason == NULL)
    return -ENOMEM;
  /* The same gap found twice (a git config reached from two places) is
     said once.  */
  if (strv_contains (&plan->enforcement.reasons, reason))
    {
      free (reason);
      return 0;
    }
  return strv_push_owned (&plan->enforcement.reasons, reason);
}

bool
plan_dest_inside_tmpfs (const struct sbx_plan *plan, const char *dest)
{
  for (size_t i = plan->n_mounts; i-- > 0;)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      bool fresh = m->op == SBX_PLAN_HIDE_DIR || m->op == SBX_PLAN_TMPFS
                   || m->op == SBX_PLAN_DIR;
      if (sbx_path_is_under (dest, m->dest) && strcmp (dest, m->dest) != 0)
        return fresh;
    }
  return false;
}

size_t
policy_linked_prefix (const struct sbx_host_facts *host, char *path,
                      size_t from)
{
  for (char *p = path + from;; p++)
    {
      char *slash = strchr (p, '/');
      if (slash)
        *slash = '\0';
      bool link = host_path_kind (host, path) == SBX_PATH_SYMLINK;
      if (slash)
        *slash = '/';
      if (link)
        return slash ? (size_t) (slash - path) : strlen (path);
      if (slash == NULL)
        return 0;
      p = slash;
    }
}

enum sbx_path_kind
host_path_kind (const struct sbx_host_facts *host, const char *path)
{
  return host->path_kind ? host->path_kind (path, host->path_ctx)
                         : SBX_PATH_ABSENT;
}

/* The namespaces that can be joined by path: the network one (podman's)
   and the IPC and UTS ones a Kubernetes pod's containers share, which the
   runner enters before bwrap starts, and the PID one (podman's --pid
   container:X, a pod's shareProcessNamespace), which bwrap enters itself
   (--pidns) so that its --proc is that namespace's.  bwrap always makes
   its own mount namespace, and a user namespace would have to be joined
   by bwrap before everything else it does.  */
static bool
joinable (enum sbx_ns_type type)
{
  return type == SBX_NS_NETWORK || type == SBX_NS_IPC || type == SBX_NS_UTS
         || type == SBX_NS_PID;
}

/* An agent's sandbox always has a PID namespace unless its config lists
   its namespaces and leaves "pid" out: that is the explicit way OCI says
   "share the host's".  A container's config is read as OCI reads it: a
   namespace it does not list, even with none listed at all, is the
   caller's (runtime-tools' linux_ns_itype).  */
static int
resolve_namespaces (const struct sbx_spec *spec, struct sbx_plan *plan)
{
  const struct sbx_linux *lx = &spec->linux_;
  bool listed = spec->has_linux && lx->n_namespaces > 0;
  for (size_t i = 0; i < lx->n_namespaces; i++)
    {
      const struct sbx_namespace *ns = &lx->namespaces[i];
      if (ns->path == NULL)
        plan->unshare[ns->type] = true;
      else if (joinable (ns->type))
        {
          free (plan->join[ns->type]);
          if ((plan->join[ns->type] = strdup (ns->path)) == NULL)
            return -ENOMEM;
        }
    }
  if (!listed && plan->agent)
    plan->unshare[SBX_NS_PID] = true;
  plan->unshare[SBX_NS_MOUNT] = true;
  if (plan->agent)
    {
      plan->unshare[SBX_NS_IPC] = true;
      plan->unshare[SBX_NS_UTS] = true;
    }
  if (spec->ext.network != SBX_NET_UNSET)
    plan->unshare[SBX_NS_NETWORK] = spec->ext.network != SBX_NET_ALLOW;
  plan->network = spec->ext.network;
  /* A namespace of its own reaches its loopback; the host's, or one
     joined by path (whose reach sbx cannot know), reaches what that one
     reaches.  */
  if (plan->network == SBX_NET_UNSET)
    plan->network
        = plan->unshare[SBX_NS_NETWORK] ? SBX_NET_LOOPBACK : SBX_NET_ALLOW;
  return 0;
}

static int
resolve_namespace_paths (const struct sbx_spec *spec, struct sbx_plan *plan,
                         struct sbx_error *err)
{
  const struct sbx_linux *lx = &spec->linux_;
  for (size_t i = 0; i < lx->n_namespaces; i++)
    {
      const struct sbx_namespace *ns = &lx->namespaces[i];
      if (ns->path == NULL)
        continue;
      if (!joinable (ns->type))
        return sbx_refuse_path (
            err, -ENOTSUP,
            "linux.namespaces[%zu].path: joining an existing "
            "namespace is supported for \"network\", \"ipc\", "
            "\"uts\" and \"pid\" (bubblewrap creates the others "
            "itself)",
            i);
      if (plan->agent && ns->type != SBX_NS_NETWORK)
        return sbx_refuse_path (
            err, -EPERM,
            "linux.namespaces[%zu].path: an agent policy keeps "
            "PID, IPC and UTS namespaces of its own",
            i);
    }
  /* A joined namespace takes the place of the one bwrap would make.  */
  if (plan->join[SBX_NS_IPC])
    plan->unshare[SBX_NS_IPC] = false;
  if (plan->join[SBX_NS_UTS])
    plan->unshare[SBX_NS_UTS] = false;
  return 0;
}

/* bwrap enters a joined PID namespace from its first child, which is in
   the sandbox's user namespace when bwrap makes one (always when
   unprivileged): that namespace holds no privilege over the joined one,
   so setns fails, and neither could the sandbox mount that namespace's
   /proc.  Refused here, once the identity has decided on a user
   namespace, rather than left to fail inside bwrap.  */
static int
resolve_pid_join (const struct sbx_spec *spec,
                  const struct sbx_host_facts *host,
                  const struct sbx_plan *plan, struct sbx_error *err)
{
  if (plan->join[SBX_NS_PID] == NULL
      || (host->is_root && !plan->unshare[SBX_NS_USER]))
    return 0;
  size_t i = 0;
  while (spec->linux_.namespaces[i].type != SBX_NS_PID
         || spec->linux_.namespaces[i].path == NULL)
    i++;
  return sbx_refuse_path (
      err, -ENOTSUP,
      "linux.namespaces[%zu].path: a pid namespace can be "
      "joined only by root without a user namespace (bubblewrap "
      "would enter it from the sandbox's user namespace, which "
      "has no privilege over it)",
      i);
}

static int
resolve_process (const struct sbx_spec *spec, struct sbx_plan *plan,
                 struct sbx_error *err)
{
  if (!spec->has_process)
    return sbx_refuse (err, -EINVAL, "process", "required to run a container");
  for (size_t i = 0; i < spec->process.args.n; i++)
    if (strv_push (&plan->argv, spec->process.args.v[i]) < 0)
      return -ENOMEM;
  plan->cwd = strdup (spec->process.cwd);
  if (spec->hostname && plan->unshare[SBX_NS_UTS])
    plan->hostname = strdup (spec->hostname);
  plan->root = strdup (spec->root_path);
  if (plan->cwd == NULL || plan->root == NULL
      || (spec->hostname && plan->unshare[SBX_NS_UTS] && !plan->hostname))
    return -ENOMEM;
  return 0;
}

static void
resolve_limits (const struct sbx_spec *spec, struct sbx_plan *plan)
{
  const struct sbx_resources *res = &spec->linux_.resources;
  plan->memory_limit = res->has_memory_limit && res->memory_limit > 0
                           ? res->memory_limit
                           : -1;
  plan->pids_limit
      = res->has_pids_limit && res->pids_limit > 0 ? res->pids_limit : -1;
  plan->wall_clock_ms = spec->ext.wall_clock_ms;
  /* The parser defaults it and refuses 0 (sbx_ext_init, parse_limits).  */
  plan->sample_interval_ms = spec->ext.sample_interval_ms;
}

/* Whether host id 0 is among the ids MAP (uid_map text) gives: a range
   that holds 0 starts at it.  */
static bool
maps_host_root (const char *map)
{
  unsigned long inside, outside, count;
  for (const char *line = map; line != NULL && *line != '\0';)
    {
      if (sscanf (line, "%lu %lu %lu", &inside, &outside, &count) == 3
          && outside == 0 && count > 0)
        return true;
      line = strchr (line, '\n');
      line = line ? line + 1 : NULL;
    }
  return false;
}

/* The kernel does not hold host uid 0 to RLIMIT_NPROC, nor a process
   with CAP_SYS_RESOURCE or CAP_SYS_ADMIN in the host's user namespace.
   Only from the initial user namespace can sbx-oci tell which id is host
   uid 0 (elsewhere any may be: rootless podman's root sits in a
   namespace whose parent may itself be nested).  The sandbox runs as the
   ids sbx maps (MAP); else as process.user when sbx-oci-init takes it;
   else as the caller's own uid (the one bwrap maps, or the rung's, which
   drops every capability).  Where that is uid 0 it would not hold; nor
   for the host's root's container in the host's user namespace, which
   may keep such a capability.  */
static bool
nproc_rlimit_holds (const struct sbx_host_facts *host,
                    const struct sbx_plan *plan)
{
  if (!host->initial_userns)
    return false;
  if (plan->uid_map)
    return !maps_host_root (plan->uid_map);
  if (plan->init_ids ? plan->uid == 0 : host->caller_is_root_here)
    return false;
  return !host->host_root || plan->unshare[SBX_NS_USER];
}

enum sbx_mode
policy_mode (const struct sbx_spec *spec, bool agent)
{
  if (agent && spec->ext.mode == SBX_MODE_UNSET)
    return spec->root_readonly ? SBX_MODE_READ_ONLY
                               : SBX_MODE_DANGER_FULL_ACCESS;
  return spec->ext.mode;
}

int
policy_keep_approvals (const struct sbx_host_facts *host,
                       struct sbx_plan *plan)
{
  for (size_t i = 0; host->approved && i < host->approved->n; i++)
    if (strv_push (&plan->approvals, host->approved->v[i]) < 0)
      return -ENOMEM;
  return 0;
}

/* Whether the operator approved a host unix socket ("socket:PATH"): the
   sandbox must then be able to connect to a path.  */
static bool
approves_socket (const struct strv *approved)
{
  for (size_t i = 0; approved && i < approved->n; i++)
    if (strncmp (approved->v[i], "socket:", 7) == 0)
      return true;
  return false;
}

struct sbx_filters
sbx_policy_filters (const struct sbx_spec *spec, const struct strv *approved)
{
  struct sbx_filters f = { SBX_FILTERS_NONE, false, false };
  if (spec->linux_.seccomp)
    f.main = SBX_FILTERS_CONFIG;
  /* Agents get the default filter unless their config brings its own.  */
  else if (sbx_spec_is_agent (spec))
    f.main = spec->ext.allow_user_namespaces ? SBX_FILTERS_AGENT_USERNS
                                             : SBX_FILTERS_AGENT;
  /* "deny" is only ever the config's explicit word (resolve_namespaces) */
  f.net_deny = spec->ext.network == SBX_NET_DENY;
  /* Host unix sockets bound after launch (seccomp_agent_default.c): an
     agent's explicit "deny" or "loopback" reaches none.  */
  f.unix_closed = sbx_spec_is_agent (spec)
                  && (spec->ext.network == SBX_NET_DENY
                      || spec->ext.network == SBX_NET_LOOPBACK)
                  && !approves_socket (approved);
  return f;
}

struct sbx_plan *
policy_plan_new (const struct sbx_spec *spec,
                 const struct sbx_host_facts *host, bool under_ceiling)
{
  struct sbx_plan *plan = calloc (1, sizeof *plan);
  if (plan == NULL)
    return NULL;
  plan->agent = sbx_spec_is_agent (spec);
  plan->under_ceiling = under_ceiling;
  plan->mode = policy_mode (spec, plan->agent);
  plan->filters = sbx_policy_filters (spec, host->approved);
  return plan;
}

int
sbx_policy_resolve (const struct sbx_spec *spec,
                    const struct sbx_host_facts *host,
                    const struct sbx_ceiling *ceiling, struct sbx_plan **out,
                    struct sbx_error *err)
{
  *out = NULL;
  int r = policy_ceiling_fields (spec, host, ceiling, err);
  if (r < 0)
    return r;
  struct sbx_plan *plan = policy_plan_new (spec, host, ceiling != NULL);
  if (plan == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  plan->enforcement.filesystem = SBX_LEVEL_FULL;
  plan->enforcement.network = SBX_LEVEL_FULL;
  plan->new_session = true;
  plan->die_with_parent = true;
  resolve_limits (spec, plan);
  r = resolve_namespaces (spec, plan);
  if (r == 0)
    r = resolve_namespace_paths (spec, plan, err);
  if (r == 0)
    r = resolve_process (spec, plan, err);
  if (r == 0)
    r = policy_sysctl (spec, plan, err);
  if (r == 0)
    r = policy_identity (spec, host, plan, err);
  if (r == 0)
    r = policy_root_propagation (spec, host, plan, err);
  if (r == 0)
    r = policy_labels (spec, host, plan, err);
  if (r == 0)
    r = resolve_pid_join (spec, host, plan, err);
  if (r == 0)
    r = plan->agent ? policy_agent_mounts (spec, host, plan, err)
                    : policy_container_mounts (spec, host, plan, err);
  if (r == 0)
    r = policy_seal_hidden (plan);
  if (r == 0)
    r = policy_env (spec, host, plan, err);
  if (r == 0)
    r = policy_keep_approvals (host, plan);
  if (r == 0)
    r = policy_host_ports (spec, host, plan, err);
  if (r == 0)
    r = policy_widenings (spec, plan);
  if (r == 0)
    r = policy_enforcement (spec, host, plan, err);
  /* After: its gaps are in the second layer, the first layer's come
     first in the report.  */
  if (r == 0)
    r = policy_landlock (spec, host, plan, err);
  if (r == 0)
    r = policy_no_namespaces (host, plan, err);
  if (r == 0)
    plan->nproc_rlimit_holds = nproc_rlimit_holds (host, plan);
  if (r == 0)
    r = policy_ceiling_plan (spec, plan, ceiling, err);
  if (r == 0)
    r = policy_require_level (spec, plan, err);
  if (r < 0)
    {
      sbx_plan_free (plan);
      return r == -ENOMEM ? sbx_fail (err, r, "out of memory") : r;
    }
  *out = plan;
  return 0;
}

bool
sbx_plan_changeable_root (const struct sbx_plan_mount *m)
{
  bool writable = m->op == SBX_PLAN_BIND_RW || m->op == SBX_PLAN_BIND_DEV;
  bool workspace = m->op == SBX_PLAN_BIND_RO && m->why == SBX_WHY_WORKSPACE;
  return (writable || workspace) && m->source && strcmp (m->source, "/") != 0;
}

void
sbx_plan_free (struct sbx_plan *plan)
{
  if (plan == NULL)
    return;
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      free (plan->mounts[i].source);
      free (plan->mounts[i].dest);
    }
  free (plan->mounts);
  free (plan->root);
  free (plan->hostname);
  for (int t = 0; t < SBX_NS_COUNT; t++)
    free (plan->join[t]);
  free (plan->uid_map);
  free (plan->gid_map);
  free (plan->groups);
  free (plan->host_ports);
  for (size_t i = 0; i < plan->n_nodes; i++)
    sbx_plan_node_free (&plan->nodes[i]);
  free (plan->nodes);
  free (plan->nodes_dir);
  free (plan->cwd);
  free (plan->selinux_label);
  free (plan->apparmor_profile);
  free (plan->mount_label);
  strv_free (&plan->argv);
  strv_free (&plan->env);
  strv_free (&plan->env_dropped);
  strv_free (&plan->env_redacted);
  strv_free (&plan->enforcement.reasons);
  strv_free (&plan->approvals);
  free (plan);
}
