/* The operator's ceiling over a config it does not trust (policy/ceiling.h).
 *
 * Two checks, both before requireEnforcement is looked at, so a refusal
 * speaks about the policy first:
 *   - policy_ceiling_fields, before resolution: every key the config sets
 *     is on an allow-list (a key the list does not know is refused, so a
 *     new OCI field cannot open a hole by default), fields that widen need
 *     their approval token, and values stay under the ceiling;
 *   - policy_ceiling_plan, after it: what the resolved plan would do (its
 *     network, its namespaces, binds against hidden stores).
 * Every refusal is one line naming the field and the token or limit.  */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/ceiling.h"
#include "policy/build.h"

/* A key path (spec_fields.c) and what setting it takes: NULL, nothing
   beyond the value checks below; else the approval token.  A path ending
   in '*' covers everything below it.  */
struct field_rule
{
  const char *path;
  const char *token;
};

static const struct field_rule field_rules[] = {
  { "ociVersion", NULL },
  { "root", NULL },
  { "root.path", NULL },
  { "root.readonly", NULL },
  { "process", NULL },
  { "process.terminal", NULL },
  { "process.consoleSize*", NULL },
  { "process.args", NULL },
  { "process.env", NULL },
  { "process.cwd", NULL },
  { "process.user", NULL },
  { "process.user.uid", NULL },
  { "process.user.gid", NULL },
  { "process.user.umask", NULL },
  { "process.user.additionalGids", NULL },
  { "process.rlimits*", NULL },
  { "process.noNewPrivileges", NULL },
  { "process.capabilities*", "capabilities" },
  { "process.oomScoreAdj", "oom-score-adj" },
  { "hostname", NULL },
  { "mounts", NULL },
  { "mounts[].destination", NULL },
  { "mounts[].type", NULL },
  { "mounts[].source", NULL },
  { "mounts[].options", NULL },
  { "annotations", NULL },
  { "hooks*", "hooks" },
  { "linux", NULL },
  { "linux.namespaces", NULL },
  { "linux.namespaces[].type", NULL },
  { "linux.namespaces[].path", "namespace-join" },
  { "linux.resources", NULL },
  { "linux.resources.memory*", NULL },
  { "linux.resources.cpu*", NULL },
  { "linux.resources.devices*", NULL },
  { "linux.resources.blockIO*", NULL },
  { "linux.resources.hugepageLimits*", NULL },
  /* a tag the host's firewall may trust (iptables -m cgroup) */
  { "linux.resources.network*", "net-class" },
  { "linux.resources.pids", NULL },
  { "linux.resources.pids.limit", NULL },
  { "linux.maskedPaths", NULL },
  { "linux.readonlyPaths", NULL },
  { "linux.sysctl", "sysctl" },
  { "linux.uidMappings*", "id-mappings" },
  { "linux.gidMappings*", "id-mappings" },
  { "linux.seccomp*", "seccomp" },
  { "linux.cgroupsPath", "cgroups-path" },
  { "sbx", NULL },
  { "sbx.mode", NULL },
  { "sbx.workspace", NULL },
  { "sbx.writableRoots", NULL },
  { "sbx.tempRoots", NULL },
  { "sbx.network", NULL },
  { "sbx.network.mode", NULL },
  { "sbx.network.hostPorts", NULL }, /* "port:N", checked for every config
                                        (policy/ports.c) */
  { "sbx.env", NULL },
  { "sbx.env.mode", NULL },
  { "sbx.env.allow", NULL },
  { "sbx.protectedPaths", "protected-paths" },
  { "sbx.hardenedDefaults", NULL },
  { "sbx.aliasMasking*", NULL },
  { "sbx.requireEnforcement", NULL },
  { "sbx.limits*", NULL },
  { "sbx.allowUserNamespaces", NULL },
  { "sbx.allowLaunchServices", NULL },
};

static int
need (const struct sbx_ceiling *c, const char *token, const char *field,
      const char *what, struct sbx_error *err)
{
  if (sbx_ceiling_approves (c, token))
    return 0;
  return sbx_refuse (err, -EPERM, field,
                     "%s widens the ceiling and needs the operator's "
                     "approval: add \"%s\" to the ceiling's \"approve\"",
                     what, token);
}

static const struct field_rule *
field_rule (const char *path)
{
  for (size_t i = 0; i < sizeof field_rules / sizeof *field_rules; i++)
    {
      const char *p = field_rules[i].path;
      size_t n = strlen (p);
      if (p[n - 1] == '*' ? strncmp (path, p, n - 1) == 0
                          : strcmp (path, p) == 0)
        return &field_rules[i];
    }
  return NULL;
}

static int
check_keys (const struct sbx_spec *spec, const struct sbx_ceiling *c,
            struct sbx_error *err)
{
  for (size_t i = 0; i < spec->fields.n; i++)
    {
      const char *path = spec->fields.v[i];
      const struct field_rule *rule = field_rule (path);
      if (rule == NULL)
        return sbx_refuse (err, -EPERM, path,
                           "not a field an untrusted config may set under "
                           "a ceiling (only the operator's own config can)");
      if (rule->token)
        {
          int r = need (c, rule->token, path, "setting this field", err);
          if (r < 0)
            return r;
        }
    }
  return 0;
}

static bool
in_workspaces (const struct sbx_ceiling *c, const char *path)
{
  for (size_t i = 0; i < c->workspaces.n; i++)
    if (sbx_path_is_under (path, c->workspaces.v[i]))
      return true;
  return false;
}

/* A path the config wants granted (written, or bound in): inside one of
   the ceiling's workspaces or approved by its own path, and free of
   symbolic links, since a link in any component (one an earlier call
   planted in the workspace, say) would point the grant somewhere the
   check never saw.  */
static int
check_grant (const struct sbx_ceiling *c, const struct sbx_host_facts *host,
             const char *path, bool write, const char *field, const char *what,
             struct sbx_error *err)
{
  /* A write inside a workspace is the ceiling's own only where its
     maxMode lets the workspace be written; under "read-only" it is a
     widening like one outside (a temp root over the workspace).  */
  if (!in_workspaces (c, path)
      || (write && c->max_mode < SBX_MODE_WORKSPACE_WRITE))
    {
      int r = need (c, path, field, what, err);
      if (r < 0)
        return r;
    }
  cleanup_free char *copy = strdup (path);
  if (copy == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  size_t link = policy_linked_prefix (host, copy, 1);
  if (link == 0)
    return 0;
  copy[link] = '\0';
  return sbx_refuse (err, -EPERM, field,
                     "%s is a symbolic link; under a ceiling a granted "
                     "path must name the real directory",
                     copy);
}

static int
check_roots (const struct sbx_spec *spec, const struct sbx_ceiling *c,
             const struct sbx_host_facts *host, struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  const struct strv *lists[2] = { &x->writable_roots, &x->temp_roots };
  const char *names[2] = { "sbx.writableRoots", "sbx.tempRoots" };
  char field[64];
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < lists[k]->n; i++)
      {
        snprintf (field, sizeof field, "%s[%zu]", names[k], i);
        int r = check_grant (c, host, lists[k]->v[i], true, field,
                             "a writable path outside the ceiling's "
                             "workspaces or above its maxMode",
                             err);
        if (r < 0)
          return r;
      }
  return 0;
}

/* Whether a writable bind of SOURCE reaches the protected PATH: SOURCE
   holds it, or is it or inside it (a bind of WS/.git or WS/.git/hooks).  */
static bool
bind_reaches (const struct sbx_host_facts *host, const char *source,
              const char *path)
{
  if (sbx_path_is_under (source, path))
    return true;
  return sbx_path_is_under (path, source)
         && host_path_kind (host, path) != SBX_PATH_ABSENT;
}

/* Refused when a writable bind of M's source would reach the protected
   PATH (freed here).  */
static int
refuse_reached (const struct sbx_host_facts *host, const struct sbx_mount *m,
                char *path, const char *field, struct sbx_error *err)
{
  cleanup_free char *p = path;
  if (p == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (!bind_reaches (host, m->source, p))
    return 0;
  return sbx_refuse (err, -EPERM, field,
                     "would make the protected %s writable at %s; bind a "
                     "directory that holds no protected metadata",
                     p, m->destination);
}

/* The protected paths a writable bind of M's source would reach, inside
   ROOT (the source itself, the workspace, each writable root).  */
static int
check_bind_protected_in (const struct sbx_spec *spec,
                         const struct sbx_host_facts *host,
                         const struct sbx_mount *m, const char *root,
                         const char *field, struct sbx_error *err)
{
  const char *const *list = policy_protected_list (spec);
  int r = 0;
  for (size_t i = 0; r == 0 && root && list && list[i]; i++)
    r = refuse_reached (host, m, sbx_path_join (root, list[i]), field, err);
  return r;
}

/* The same for a git directory the alias walk found (GIT: a nested
   repository's, a submodule's), whose config and hooks are protected,
   or a .git file, protected itself.  */
static int
check_bind_git_meta (const struct sbx_host_facts *host,
                     const struct sbx_mount *m, const char *git,
                     const char *field, struct sbx_error *err)
{
  static const char *const inside[] = { "config", "hooks" };
  bool dir = host_path_kind (host, git) == SBX_PATH_DIR;
  int r = 0;
  for (size_t k = 0; r == 0 && k < (dir ? 2u : 1u); k++)
    r = refuse_reached (host, m,
                        dir ? sbx_path_join (git, inside[k]) : strdup (git),
                        field, err);
  return r;
}

/* A writable bind of a directory that holds protected metadata, or of
   the metadata itself, would make it writable at the bind's destination,
   where no pin is.  */
static int
check_bind_protected (const struct sbx_spec *spec,
                      const struct sbx_host_facts *host,
                      const struct sbx_mount *m, const char *field,
                      struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  if (!sbx_mount_is_writable_bind (m))
    return 0;
  int r = check_bind_protected_in (spec, host, m, m->source, field, err);
  if (r == 0)
    r = check_bind_protected_in (spec, host, m, x->workspace, field, err);
  for (size_t i = 0; r == 0 && i < x->writable_roots.n; i++)
    r = check_bind_protected_in (spec, host, m, x->writable_roots.v[i], field,
                                 err);
  /* A home inside a writable root has its start-up files protected as
     the root's own (protect.c), and a nested repository its config and
     hooks: a bind of a directory above them reaches them too.  */
  const char *homes[] = { host->home, host->account_home };
  for (size_t i = 0; r == 0 && i < 2; i++)
    r = check_bind_protected_in (spec, host, m, homes[i], field, err);
  for (size_t i = 0; r == 0 && host->git_meta && i < host->git_meta->n; i++)
    r = check_bind_git_meta (host, m, host->git_meta->v[i], field, err);
  return r;
}

static int
check_mounts (const struct sbx_spec *spec, const struct sbx_ceiling *c,
              const struct sbx_host_facts *host, struct sbx_error *err)
{
  char type_field[64], sfield[64];
  for (size_t i = 0; i < spec->n_mounts; i++)
    {
      const struct sbx_mount *m = &spec->mounts[i];
      snprintf (type_field, sizeof type_field, "mounts[%zu].type", i);
      snprintf (sfield, sizeof sfield, "mounts[%zu].source", i);
      if (!sbx_mount_is_bind (m))
        {
          if (m->type && strcmp (m->type, "tmpfs") == 0)
            continue; /* a private tmpfs hides; it reaches nothing */
          return sbx_refuse (err, -EPERM, type_field,
                             "only \"bind\" and \"tmpfs\" mounts are "
                             "allowed under a ceiling");
        }
      if (m->source == NULL || m->source[0] != '/')
        return sbx_refuse (err, -EPERM, sfield,
                           "a bind under a ceiling needs an absolute "
                           "source");
      int r = check_grant (c, host, m->source, sbx_mount_is_writable_bind (m),
                           sfield,
                           "a bind of a path outside the ceiling's "
                           "workspaces (or, writable, above its maxMode)",
                           err);
      if (r == 0)
        r = check_bind_protected (spec, host, m, sfield, err);
      if (r < 0)
        return r;
    }
  return 0;
}

static int
check_mode (const struct sbx_spec *spec, const struct sbx_ceiling *c,
            const struct sbx_host_facts *host, struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  if (!sbx_spec_is_agent (spec))
    return sbx_refuse (err, -EPERM, "root.path",
                       "a container rootfs is refused under a "
                       "ceiling, which confines agent policies (root.path "
                       "\"/\")");
  enum sbx_mode mode = x->mode;
  if (mode == SBX_MODE_UNSET)
    mode = spec->root_readonly ? SBX_MODE_READ_ONLY
                               : SBX_MODE_DANGER_FULL_ACCESS;
  if (mode > c->max_mode)
    return sbx_refuse (err, -EPERM, x->mode ? "sbx.mode" : "root.readonly",
                       "\"%s\" is above the ceiling's maxMode \"%s\"",
                       sbx_mode_name (mode), sbx_mode_name (c->max_mode));
  /* Read-only, the workspace is still bound in, over what the sandbox
     would see there (a workspace of "/proc" shows the host's processes):
     a bind source like any other.  */
  if (mode != SBX_MODE_WORKSPACE_WRITE)
    return x->workspace
               ? check_grant (c, host, x->workspace, false, "sbx.workspace",
                              "a workspace outside the ceiling's "
                              "workspaces",
                              err)
               : 0;
  for (size_t i = 0; x->workspace && i < c->workspaces.n; i++)
    if (strcmp (x->workspace, c->workspaces.v[i]) == 0)
      return 0;
  return sbx_refuse (err, -EPERM, "sbx.workspace",
                     "%s is not one of the ceiling's "
                     "workspaces (%s%s)",
                     x->workspace ? x->workspace : "(none)",
                     c->workspaces.n ? c->workspaces.v[0] : "none",
                     c->workspaces.n > 1 ? ", ..." : "");
}

static int
check_env (const struct sbx_spec *spec, const struct sbx_ceiling *c,
           struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  if (x->env_mode == SBX_ENV_INHERIT)
    {
      int r = need (c, "env-inherit", "sbx.env.mode",
                    "the caller's whole environment", err);
      if (r < 0)
        return r;
    }
  for (size_t i = 0; i < x->env_allow.n; i++)
    {
      char token[256], field[64];
      snprintf (token, sizeof token, "env:%s", x->env_allow.v[i]);
      snprintf (field, sizeof field, "sbx.env.allow[%zu]", i);
      int r
          = need (c, token, field, "passing a variable of the caller's", err);
      if (r < 0)
        return r;
    }
  return 0;
}

static int
check_switches (const struct sbx_spec *spec, const struct sbx_ceiling *c,
                struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  int r = 0;
  if (!x->hardened_defaults)
    r = need (c, "hardened-defaults-off", "sbx.hardenedDefaults",
              "turning hardened defaults off", err);
  if (r == 0 && !x->alias_masking)
    r = need (c, "alias-masking-off", "sbx.aliasMasking.enabled",
              "turning alias masking off", err);
  /* Lower bounds leave the rest of the writable roots unwalked: alias
     masking off below them.  */
  if (r == 0 && x->alias_max_entries < SBX_ALIAS_MAX_ENTRIES_DEFAULT)
    r = need (c, "alias-masking-off", "sbx.aliasMasking.maxEntries",
              "a walk bound below the default", err);
  if (r == 0 && x->alias_max_depth < SBX_ALIAS_MAX_DEPTH_DEFAULT)
    r = need (c, "alias-masking-off", "sbx.aliasMasking.maxDepth",
              "a walk bound below the default", err);
  if (r == 0 && x->allow_user_namespaces)
    r = need (c, "user-namespaces", "sbx.allowUserNamespaces",
              "user namespaces", err);
  if (r == 0 && x->allow_launch_services)
    r = need (c, "launch-services", "sbx.allowLaunchServices",
              "letting macOS's LaunchServices and AppleEvents start code "
              "outside the sandbox",
              err);
  return r;
}

/* As root, another uid or group could read what the caller's cannot
   (another account's 0600 files); unprivileged, ids are only names inside
   the sandbox's own user namespace.  */
static int
check_process (const struct sbx_spec *spec, const struct sbx_host_facts *host,
               const struct sbx_ceiling *c, struct sbx_error *err)
{
  const struct sbx_process *p = &spec->process;
  if (host->is_root
      && (p->user.uid != host->uid || p->user.gid != host->gid
          || p->user.n_additional_gids))
    {
      int r = need (c, "user", "process.user",
                    "an identity other than the caller's", err);
      if (r < 0)
        return r;
    }
  for (size_t i = 0; i < p->n_rlimits; i++)
    {
      const struct sbx_rlimit *l = &p->rlimits[i];
      uint64_t hard = host->rlimit_hard ? host->rlimit_hard (l->resource) : 0;
      bool above
          = host->rlimit_hard == NULL || l->hard > hard || l->soft > hard;
      char field[64];
      snprintf (field, sizeof field, "process.rlimits[%zu]", i);
      if (above)
        {
          int r = need (c, "rlimits", field,
                        "a resource limit above the caller's", err);
          if (r < 0)
            return r;
        }
    }
  return 0;
}

/* "id-mappings" approves the caller's own id mapped onto one id; a range
   would map host ids (another account's files, as root) that no approval
   of the ceiling names.  */
static int
check_id_ranges (const struct sbx_spec *spec,
                 const struct sbx_host_facts *host, struct sbx_error *err)
{
  const char *field;
  size_t index;
  if (!policy_id_range (spec, host, &field, &index))
    return 0;
  return sbx_refuse_path (err, -EPERM,
                          "%s[%zu]: a range of host ids is not granted by a "
                          "ceiling; under one only the caller's own id can be "
                          "mapped, with size 1",
                          field, index);
}

int
policy_ceiling_process (const struct sbx_spec *spec,
                        const struct sbx_host_facts *host,
                        const struct sbx_ceiling *ceiling,
                        struct sbx_error *err)
{
  int r = check_keys (spec, ceiling, err);
  return r ?: check_process (spec, host, ceiling, err);
}

int
policy_ceiling_fields (const struct sbx_spec *spec,
                       const struct sbx_host_facts *host,
                       const struct sbx_ceiling *ceiling,
                       struct sbx_error *err)
{
  if (ceiling == NULL)
    return 0; /* the config is the operator's own */
  int r = check_keys (spec, ceiling, err);
  if (r == 0)
    r = check_mode (spec, ceiling, host, err);
  if (r == 0)
    r = check_switches (spec, ceiling, err);
  if (r == 0)
    r = check_env (spec, ceiling, err);
  if (r == 0)
    r = check_process (spec, host, ceiling, err);
  if (r == 0)
    r = check_id_ranges (spec, host, err);
  if (r == 0)
    r = check_roots (spec, ceiling, host, err);
  if (r == 0)
    r = check_mounts (spec, ceiling, host, err);
  return r;
}

/* A bind that would show a hidden credential store or daemon socket
   (the store itself, anything inside it, or a directory holding it).  */
static int
check_hidden_reached (const struct sbx_spec *spec, const struct sbx_plan *plan,
                      struct sbx_error *err)
{
  for (size_t i = 0; i < spec->n_mounts; i++)
    {
      const struct sbx_mount *m = &spec->mounts[i];
      if (!sbx_mount_is_bind (m))
        continue;
      for (size_t k = 0; k < plan->n_mounts; k++)
        {
          const struct sbx_plan_mount *h = &plan->mounts[k];
          if (h->why != SBX_WHY_CREDENTIAL && h->why != SBX_WHY_SOCKET)
            continue;
          if (sbx_path_is_under (m->source, h->dest)
              || sbx_path_is_under (h->dest, m->source))
            {
              char field[64];
              snprintf (field, sizeof field, "mounts[%zu].source", i);
              return sbx_refuse (err, -EPERM, field,
                                 "would expose %s, which hardened defaults "
                                 "hide",
                                 h->dest);
            }
        }
    }
  return 0;
}

/* The restricted rung (policy/agent.c): a PID namespace of the
   sandbox's own, but the host's /proc bound in, since a private one could
   not be mounted here: the host's processes are as visible as with the
   host's PID namespace.  */
static bool
shows_host_proc (const struct sbx_plan *plan)
{
  for (size_t i = 0; i < plan->n_mounts; i++)
    if (plan->mounts[i].source
        && strcmp (plan->mounts[i].source, "/proc") == 0)
      return true;
  return false;
}

int
policy_ceiling_plan (const struct sbx_spec *spec, const struct sbx_plan *plan,
                     const struct sbx_ceiling *ceiling, struct sbx_error *err)
{
  if (ceiling == NULL)
    return 0;
  if (plan->network > ceiling->max_network)
    return sbx_refuse (
        err, -EPERM, spec->ext.network ? "sbx.network" : "linux.namespaces",
        "network \"%s\" is above the ceiling's maxNetwork "
        "\"%s\"",
        sbx_net_name (plan->network), sbx_net_name (ceiling->max_network));
  /* A joined one is not the host's: its path met "namespace-join".  */
  if (!plan->unshare[SBX_NS_PID] && plan->join[SBX_NS_PID] == NULL)
    {
      int r = need (ceiling, "host-pid", "linux.namespaces",
                    "sharing the host's PID namespace", err);
      if (r < 0)
        return r;
    }
  else if (shows_host_proc (plan))
    {
      int r = need (ceiling, "host-pid", "/proc",
                    "showing the host's processes through its /proc (a "
                    "private /proc cannot be mounted on this host)",
                    err);
      if (r < 0)
        return r;
    }
  return check_hidden_reached (spec, plan, err);
}
