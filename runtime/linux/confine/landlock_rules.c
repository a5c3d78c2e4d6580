/* Which paths the Landlock domain grants what, from the plan's grants.

   Read and execute everywhere the sandbox can see (its "/"), writes only
   beneath the plan's writable binds, its tmpfs mounts (the private /tmp,
   a config's tmpfs) and the mqueue, and on the few device nodes a shell
   needs.  Hidden and read-only places inside a granted root get no rule
   of their own: Landlock's rules only add rights, so "/repo writable,
   /repo/vendor hidden, /repo/vendor/cache writable" is the write grant on
   /repo (which covers the other two) in this layer, while the hidden
   /repo/vendor is the mount layer's empty read-only tmpfs, and both layers
   allow /repo/vendor/cache.  Outside the grants the two layers agree, and
   each refuses on its own.  With host ports, TCP connect is allowed to
   those ports only.  */
#include "runtime/linux/confine/landlock_rules.h"

#include <errno.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "runtime/linux/confine/landlock_abi.h"

_Static_assert(SBX_LL_ABI_KNOWN == SBX_LANDLOCK_ABI_MAX,
               "the helper and the policy know the same landlock ABI");

/* The device nodes of a minimal /dev a shell and its tools use.  */
static const char *const dev_nodes[] = {
  "null", "zero", "full", "random", "urandom", "tty", "ptmx", "console", "pts",
};

static int
push2 (struct strv *argv, const char *opt, const char *path)
{
  return strv_push (argv, opt) < 0 || strv_push (argv, path) < 0 ? -ENOMEM : 0;
}

static int
dev_rules (const char *dev, struct strv *argv)
{
  int r = 0;
  for (size_t i = 0; r == 0 && i < sizeof dev_nodes / sizeof *dev_nodes; i++)
    {
      cleanup_free char *p = sbx_path_join (dev, dev_nodes[i]);
      r = p ? push2 (argv, "-d", p) : -ENOMEM;
    }
  cleanup_free char *shm = sbx_path_join (dev, "shm");
  return r ? r : shm ? push2 (argv, "-w", shm) : -ENOMEM;
}

/* The sandbox's "/": read and execute, or everything when a container's
   root is writable (sealed read-only at the end when it is not).  */
static int
root_rule (const struct sbx_plan *plan, const struct sbx_plan_mount *m,
           struct strv *argv)
{
  bool writable = m->op == SBX_PLAN_BIND_RW && !plan->root_readonly;
  if (m->op != SBX_PLAN_BIND_RO && m->op != SBX_PLAN_BIND_RW)
    return 0;
  return push2 (argv, writable ? "-w" : "-r", m->dest);
}

static int
mount_rule (const struct sbx_plan *plan, const struct sbx_plan_mount *m,
            struct strv *argv)
{
  if (m->why == SBX_WHY_ROOT)
    return root_rule (plan, m, argv);
  switch (m->op)
    {
    case SBX_PLAN_BIND_RW:
    case SBX_PLAN_TMPFS:
    case SBX_PLAN_MQUEUE:
      return push2 (argv, "-w", m->dest);
    case SBX_PLAN_BIND_DEV:
      return push2 (argv, "-d", m->dest);
    case SBX_PLAN_DEV:
      return dev_rules (m->dest, argv);
    default:
      return 0; /* read-only, hidden or made: "/"'s read rule covers it */
    }
}

/* Whether M makes a mount (not a directory, not a remount).  */
static bool
makes_mount (const struct sbx_plan_mount *m)
{
  switch (m->op)
    {
    case SBX_PLAN_DIR:
    case SBX_PLAN_REMOUNT_RO:
      return false;
    default:
      return true;
    }
}

/* Whether M's mount is made read-only (the helper's -M checks it is).  */
static bool
read_only (const struct sbx_plan_mount *m)
{
  return m->op == SBX_PLAN_BIND_RO || m->op == SBX_PLAN_HIDE_DIR
         || m->op == SBX_PLAN_HIDE_FILE;
}

/* Whether the mount at MI lies strictly below a changeable root
   (sbx_plan_changeable_root; a container's own root aside), where a
   writer of that directory may swap a link into its way, or swap it back,
   while bubblewrap sets up: bubblewrap follows a link in a destination,
   and its mount lands elsewhere.  The helper's -m checks it landed.  A
   sandbox cannot rename a directory that is a mount point in its own
   namespace, which is why the plan pins the way to what it protects and
   hides (policy_pin_parents): this check is for writers without those
   pins.  An optional mount may be absent, so it is not checked; nor is
   an alias mask (a hard-linked file re-bound read-only: a pnpm store has
   thousands, and bubblewrap takes at most 9000 arguments).  Only where
   bubblewrap follows links in destinations (plan mount_checks: older
   than 0.12.0).  */
static bool
needs_mount_check (const struct sbx_plan *plan, size_t mi)
{
  const struct sbx_plan_mount *m = &plan->mounts[mi];
  if (!plan->enforcement.mount_checks || !plan->enforcement.namespaces
      || !makes_mount (m) || m->optional || m->why == SBX_WHY_ALIAS)
    return false;
  /* One a later mount covers (a hidden store over a repository in it, a
     nested root over a pin) is not there to be seen.  */
  for (size_t lj = mi + 1; lj < plan->n_mounts; lj++)
    if (makes_mount (&plan->mounts[lj])
        && sbx_path_is_under (m->dest, plan->mounts[lj].dest))
      return false;
  for (size_t wi = 0; wi < mi; wi++)
    {
      const struct sbx_plan_mount *w = &plan->mounts[wi];
      if (sbx_plan_changeable_root (w) && w->why != SBX_WHY_ROOT
          && strcmp (m->dest, w->dest) != 0
          && sbx_path_is_under (m->dest, w->dest))
        return true;
    }
  return false;
}

bool
sbx_helper_needed (const struct sbx_plan *plan)
{
  if (plan->enforcement.landlock_abi > 0)
    return true;
  for (size_t i = 0; i < plan->n_mounts; i++)
    if (needs_mount_check (plan, i))
      return true;
  return false;
}

int
sbx_landlock_args (const struct sbx_plan *plan, int helper_fd,
                   bool mount_checks, struct strv *argv)
{
  bool landlock = plan->enforcement.landlock_abi > 0;
  const struct sbx_enforcement *e = &plan->enforcement;
  int r;
  if (helper_fd >= 0)
    r = strv_pushf (argv, "/proc/self/fd/%d", helper_fd) < 0
                || strv_push (argv, "-f") < 0
                || strv_pushf (argv, "%d", helper_fd) < 0
            ? -ENOMEM
            : 0;
  else
    r = strv_push (argv, "sbx-landlock");
  if (r == 0)
    r = strv_push (argv, "-A") < 0
                || strv_pushf (argv, "%d", e->landlock_abi) < 0
            ? -ENOMEM
            : 0;
  for (size_t i = 0; r == 0 && landlock && i < plan->n_mounts; i++)
    r = mount_rule (plan, &plan->mounts[i], argv);
  for (size_t i = 0; r == 0 && mount_checks && i < plan->n_mounts; i++)
    if (needs_mount_check (plan, i))
      r = push2 (argv, read_only (&plan->mounts[i]) ? "-M" : "-m",
                 plan->mounts[i].dest);
  /* Scoping where no namespace holds it already: a sandbox in its own
     pid namespace can name no process outside to signal, one in its own
     network namespace no abstract socket outside.  Left out there, an
     exec'd process (a domain of its own) still signals and reaches the
     sandbox's other processes.  */
  if (r == 0 && landlock && plan->unshare[SBX_NS_PID])
    r = push2 (argv, "-u", "signal");
  if (r == 0 && landlock && plan->unshare[SBX_NS_NETWORK])
    r = push2 (argv, "-u", "abstract");
  /* Host ports: a TCP connect to those ports only, the belt under the
     network namespace that holds them (policy/ports.c).  */
  for (size_t i = 0; r == 0 && landlock && i < plan->n_host_ports; i++)
    r = strv_push (argv, "-c") < 0
                || strv_pushf (argv, "%u", (unsigned) plan->host_ports[i]) < 0
            ? -ENOMEM
            : 0;
  return r == 0 && strv_push (argv, "--") < 0 ? -ENOMEM : r;
}
