/* What the plan can honestly claim, and the refusal when the config
   requires more than that.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/build.h"

/* bubblewrap 0.12.0 fixes GHSA-pxhw-h44j-8pfx (CVE-2026-87766).  */
static const int fixed_runner[3] = { 0, 12, 0 };

static bool
runner_older (const int v[3], const int than[3])
{
  for (int i = 0; i < 3; i++)
    if (v[i] != than[i])
      return v[i] < than[i];
  return false;
}

/* Where DEST (a sandbox path below the writable bind W) lives on the host. */
static char *
host_path_below (const struct sbx_plan_mount *w, const char *dest)
{
  const char *rest = dest + strlen (w->dest);
  return sbx_path_join (w->source, rest[0] == '/' ? rest + 1 : rest);
}

/* The mitigation for old runners: no later mount may land below a
   symbolic link inside a bound directory, writable or not, since a runner
   < 0.12.0 could follow it outside (through /oldroot) while creating the
   mount point.  It sees the links present at launch: one a writer of the
   bound directory swaps in while bubblewrap sets up is not seen (the
   report says so, runner_gaps).  */
static int
refuse_symlinked_dest (const struct sbx_host_facts *host,
                       const struct sbx_plan *plan, size_t wi, size_t mi,
                       struct sbx_error *err)
{
  const struct sbx_plan_mount *w = &plan->mounts[wi], *m = &plan->mounts[mi];
  cleanup_free char *target = host_path_below (w, m->dest);
  if (target == NULL)
    return -ENOMEM;
  /* Every component below the root, the last one included.  */
  for (char *p = target + strlen (w->source);; p = strchr (p + 1, '/'))
    {
      char saved = p ? *p : '\0';
      if (p)
        *p = '\0';
      bool link = host_path_kind (host, target) == SBX_PATH_SYMLINK;
      if (p)
        *p = saved;
      if (link)
        return sbx_refuse (err, -ELOOP, NULL,
                           "mount destination %s has a symbolic link "
                           "component inside the bind of %s: refused "
                           "(bubblewrap older than 0.12.0 could follow it out "
                           "of the sandbox)",
                           m->dest, w->dest);
      if (p == NULL)
        break;
    }
  return 0;
}

static int
check_symlinked_dests (const struct sbx_host_facts *host,
                       const struct sbx_plan *plan, struct sbx_error *err)
{
  for (size_t wi = 0; wi < plan->n_mounts; wi++)
    {
      const struct sbx_plan_mount *w = &plan->mounts[wi];
      /* Every bind of a host directory but the host's own "/" (an
         agent's view, whose links are the host's: /lib, /var/run).  */
      bool bind = w->op == SBX_PLAN_BIND_RW || w->op == SBX_PLAN_BIND_RO
                  || w->op == SBX_PLAN_BIND_DEV;
      if (!bind || w->source == NULL || strcmp (w->source, "/") == 0)
        continue;
      for (size_t mi = wi + 1; mi < plan->n_mounts; mi++)
        {
          const char *d = plan->mounts[mi].dest;
          if (strcmp (d, w->dest) == 0 || !sbx_path_is_under (d, w->dest))
            continue;
          int r = refuse_symlinked_dest (host, plan, wi, mi, err);
          if (r < 0)
            return r;
        }
    }
  return 0;
}

static int
runner_gaps (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  const int *v = host->runner_version;
  if (host->runner_named)
    return plan_gap (plan, false, SBX_LEVEL_FULL,
                     "runner %s was named by the operator: trusted, not "
                     "probed",
                     host->runner_path);
  if (v[0] == 0 && v[1] == 0 && v[2] == 0)
    return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                     "the version of %s is unknown", host->runner_path);
  if (runner_older (v, fixed_runner))
    return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                     "bubblewrap %d.%d.%d is older than 0.12.0, which fixes "
                     "GHSA-pxhw-h44j-8pfx (CVE-2026-87766: setup-time "
                     "creation below a parent symlink could write outside "
                     "via /oldroot); mitigated in part: a mount destination "
                     "below a symbolic link inside a bound directory is "
                     "refused, and a mount that a link swapped in while "
                     "bubblewrap set up sent elsewhere stops the command "
                     "(the helper's check), but bubblewrap, as root, may "
                     "have made that mount point on the host by then",
                     v[0], v[1], v[2]);
  return 0;
}

/* Without --bind-fd a bind source inside a writable root is mounted by the
   path that was checked, which the sandbox can swap in between.  */
static int
bind_fd_gap (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  if (host->runner_bind_fd || !plan->agent
      || plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    return 0;
  return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                   "the runner has no --bind-fd (bubblewraps newer than 0.8.0 "
                   "have it, Debian 12's 0.8.0 as a backport): "
                   "bind sources inside writable roots are mounted by path, "
                   "and a swap between the check and the mount is not "
                   "excluded");
}

static int
network_gaps (const struct sbx_spec *spec, const struct sbx_host_facts *host,
              struct sbx_plan *plan)
{
  if (plan->network == SBX_NET_ALLOW && plan->join[SBX_NS_NETWORK])
    return plan_gap (plan, true, SBX_LEVEL_NONE,
                     "network: the sandbox joins the network namespace at "
                     "%s and reaches what it reaches",
                     plan->join[SBX_NS_NETWORK]);
  if (plan->network == SBX_NET_ALLOW)
    return plan_gap (plan, true, SBX_LEVEL_NONE,
                     "network: the host's network is shared");
  /* The network namespace holds for IP; a unix socket is reached through
     the file system, and seccomp cannot see the path a connect names: so
     no socket may name a path at all (policy/resolve.c, unix_closed)...  */
  if (plan->filters.unix_closed && !host->seatbelt)
    return 0;
  /* ... unless the operator approved one.  */
  if (plan->agent && !host->seatbelt
      && (spec->ext.network == SBX_NET_DENY
          || spec->ext.network == SBX_NET_LOOPBACK))
    return plan_gap (plan, true, SBX_LEVEL_PARTIAL,
                     "network: a host unix socket is approved (socket:PATH), "
                     "so sockets can connect to paths: host sockets "
                     "listening at launch are hidden outside the writable "
                     "roots, but sockets bound later stay connectable");
  if (plan->agent && spec->ext.hardened_defaults && host->host_sockets)
    return plan_gap (plan, true, SBX_LEVEL_PARTIAL,
                     "network: host unix sockets listening at launch are "
                     "hidden outside the writable roots; sockets bound "
                     "later, and the same socket reached through another "
                     "bind of its directory, stay connectable");
  if (plan->agent)
    return plan_gap (plan, true, SBX_LEVEL_PARTIAL,
                     "network: unix-domain sockets on paths the sandbox can "
                     "see stay connectable (known daemon sockets are "
                     "hidden)");
  return 0;
}

/* Seatbelt confines files and the network (sbpl.c); what Linux gets from
   namespaces, seccomp and no_new_privs has no counterpart under it.  */
static int
seatbelt_gaps (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  static const char *const gaps[] = {
    "process: visibility and signalling are not confined (macOS has no pid "
    "namespace): the command sees the host's processes and can signal "
    "those of the same user",
    "termination: no pid namespace or cgroup holds the sandbox; it is ended "
    "through its process group plus the descendants a sample of the "
    "process table found, so a process that left both can outlive the run",
    /* XNU refuses to exec setuid and setgid programs in a sandboxed
       process (Homebrew's sandbox.rb lets the setuid /bin/ps out of its
       sandbox for that reason); tests/macos/first-run.sh checks it.  */
    "privileges: no no_new_privs, seccomp filter or capability bounding on "
    "macOS; the kernel refuses to run setuid and setgid programs under "
    "a sandbox, so they fail instead of gaining privileges",
  };
  int r = 0;
  if (host->runner_named)
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "runner %s was named by the operator: trusted, not probed",
                  host->runner_path);
  /* No private loopback: "localhost" is the host's own.  */
  if (r == 0 && plan->network == SBX_NET_LOOPBACK)
    r = plan_gap (plan, true, SBX_LEVEL_PARTIAL,
                  "network: loopback on macOS is the host's own; services "
                  "listening on the host's localhost are reachable");
  for (size_t i = 0; r == 0 && i < sizeof gaps / sizeof *gaps; i++)
    r = strv_push (&plan->enforcement.reasons, gaps[i]);
  return r;
}

int
policy_require_level (const struct sbx_spec *spec, const struct sbx_plan *plan,
                      struct sbx_error *err)
{
  enum sbx_level want = spec->ext.require_enforcement;
  if (plan->enforcement.level >= want)
    return 0;
  const struct strv *why = &plan->enforcement.reasons;
  return sbx_refuse (err, -EPERM, "sbx.requireEnforcement",
                     "\"%s\" is required but this "
                     "sandbox would get \"%s\" (%s); run `sbx-oci check` for "
                     "the fix",
                     sbx_level_name (want),
                     sbx_level_name (plan->enforcement.level),
                     why->n ? why->v[0] : "no reason recorded");
}

/* What an agent config widened, whether or not a ceiling approved it: the
   report says so, so two runs with different trust never read alike.  */
int
policy_widenings (const struct sbx_spec *spec, struct sbx_plan *plan)
{
  const struct sbx_ext *x = &spec->ext;
  int r = 0;
  if (!plan->agent || plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    return 0;
  if (!x->hardened_defaults)
    r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                  "hardened defaults off: credential stores and daemon "
                  "sockets are not hidden");
  if (r == 0 && !x->alias_masking)
    r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                  "alias masking off: a hard-linked file in a writable root "
                  "can change a file no grant covers");
  if (r == 0 && x->protected_paths_set)
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "the config replaced the protected paths");
  if (r == 0 && x->env_mode == SBX_ENV_INHERIT)
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "env inherit: the caller's whole environment is passed "
                  "(credential-shaped names still dropped)");
  for (size_t i = 0; r == 0 && i < x->env_allow.n; i++)
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "env: the caller's %s is passed", x->env_allow.v[i]);
  if (r == 0 && x->allow_user_namespaces)
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "user namespaces allowed inside the sandbox");
  if (r == 0 && spec->linux_.seccomp)
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "the config's own seccomp filter replaces the default "
                  "agent filter");
  return r;
}

int
policy_enforcement (const struct sbx_spec *spec,
                    const struct sbx_host_facts *host, struct sbx_plan *plan,
                    struct sbx_error *err)
{
  int r = 0;
  if (plan->agent && plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    r = plan_gap (plan, false, SBX_LEVEL_NONE,
                  "mode danger-full-access: no filesystem confinement");
  if (r == 0 && host->seatbelt)
    r = seatbelt_gaps (host, plan);
  else if (r == 0)
    r = runner_gaps (host, plan);
  if (r == 0 && !host->seatbelt)
    r = bind_fd_gap (host, plan);
  if (r == 0 && !host->seatbelt
      && (!plan->unshare[SBX_NS_PID] || host->no_namespaces))
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "termination: no pid namespace holds the sandbox; `run` "
                  "ends its whole process tree, but if sbx-oci itself is "
                  "killed (SIGKILL), a process that left the sandbox's "
                  "process group can outlive it (a cgroup quota, where "
                  "there is one, is swept by the next run)");
  if (r == 0 && (!host->seatbelt || plan->network == SBX_NET_ALLOW))
    r = network_gaps (spec, host, plan);
  if (r < 0)
    return r;
  struct sbx_enforcement *e = &plan->enforcement;
  e->level = e->filesystem < e->network ? e->filesystem : e->network;
  e->no_new_privs = !host->seatbelt;
  /* The process gaps are neither files nor network, but they are gaps. */
  if (host->seatbelt && e->level > SBX_LEVEL_PARTIAL)
    e->level = SBX_LEVEL_PARTIAL;
  if (host->seatbelt)
    return 0;
  /* Only an old runner needs the mitigation, and only a sandbox that
     confines the filesystem has something to protect.  */
  bool old = host->runner_named
             || runner_older (host->runner_version, fixed_runner);
  e->mount_checks = old && plan->mode != SBX_MODE_DANGER_FULL_ACCESS;
  if (e->mount_checks)
    r = check_symlinked_dests (host, plan, err);
  return r;
}

bool
sbx_runner_predates_fix (const int version[3])
{
  return runner_older (version, fixed_runner);
}
