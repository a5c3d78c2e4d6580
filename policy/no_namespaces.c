/* The rung without namespaces: where bubblewrap can make none (inside a
   container with a default seccomp or AppArmor profile, on a host with
   user namespaces off), an agent sandbox is confined by Landlock and
   seccomp alone, and the report says what that lacks.

   What still holds: writes only beneath the grants, and reads of the
   hidden stores refused, both by Landlock
   (runtime/linux/confine/landlock_rung.c turns the plan's mounts into
   allow-lists: a hidden path is carved out by allowing its siblings along the
   way); network "deny" by the seccomp address-family filter; the default agent
   filter; the plan's environment and descriptors only; limits by rlimits and
   sampling; termination by process group and the subreaper's sweep.  What does
   not: no PID, mount or network namespace, the host's /proc, no private /tmp
   (a per-run directory stands in as TMPDIR), and an entry created after launch
   in a directory along a carved-out path is covered by no rule.  */
#include <errno.h>

#include "policy/build.h"

static int
refusals (const struct sbx_plan *plan, struct sbx_error *err)
{
  if (plan->network == SBX_NET_LOOPBACK)
    return sbx_refuse (err, -EPERM, "sbx.network",
                       "\"loopback\" needs a network namespace, "
                       "which this host cannot make (no user namespaces): use "
                       "\"deny\", or run where `sbx-oci check` finds user "
                       "namespaces");
  if (plan->enforcement.landlock_abi < 1
      && plan->mode != SBX_MODE_DANGER_FULL_ACCESS)
    return sbx_refuse (err, -EPERM, NULL,
                       "no user namespace can be made here and this kernel "
                       "has no landlock: nothing could confine the sandbox's "
                       "files; run `sbx-oci check` for the fix");
  return 0;
}

static int
gaps (struct sbx_plan *plan)
{
  bool scoped = plan->enforcement.landlock_abi >= 6;
  int r = plan_gap (
      plan, false, SBX_LEVEL_PARTIAL,
      "no namespaces (bubblewrap cannot make any on this host): landlock "
      "and seccomp alone confine the sandbox");
  if (r == 0)
    r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                  "no mount namespace: the host's /proc is visible, and "
                  "there is no private /tmp (/tmp is read-only; TMPDIR is "
                  "a directory of the run's own, removed at its end)");
  if (r == 0)
    r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                  "hidden and read-only paths are carved out of landlock's "
                  "allow-lists by allowing the entries beside each, along "
                  "its path, that exist at launch: an entry created later "
                  "in one of those directories is covered by no rule "
                  "(refused to the sandbox, even inside a writable root)");
  if (r == 0)
    r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                  scoped ? "no PID namespace: the host's processes are "
                           "visible (signals to them are refused by "
                           "landlock's scoping)"
                         : "no PID namespace: the host's processes are "
                           "visible, and those of the same user can be "
                           "signalled (landlock ABI 6 would scope signals)");
  if (r == 0 && plan->network == SBX_NET_DENY)
    r = plan_gap (plan, true, SBX_LEVEL_PARTIAL,
                  scoped ? "no network namespace: network \"deny\" holds by "
                           "the seccomp address-family filter alone (unix "
                           "sockets only; abstract ones scoped by landlock)"
                         : "no network namespace: network \"deny\" holds by "
                           "the seccomp address-family filter alone; "
                           "abstract unix sockets of the host are "
                           "reachable");
  return r;
}

int
policy_no_namespaces (const struct sbx_host_facts *host, struct sbx_plan *plan,
                      struct sbx_error *err)
{
  if (!host->no_namespaces || host->seatbelt)
    return 0;
  if (!plan->agent)
    return sbx_refuse (err, -EPERM, "root.path",
                       "bubblewrap can make no namespace on this host (no "
                       "user namespaces): a container's root file system "
                       "needs one; only agent sandboxes (root.path \"/\") "
                       "run here; run `sbx-oci check` for the fix");
  plan->enforcement.namespaces = false;
  int r = refusals (plan, err);
  if (r < 0)
    return r;
  r = gaps (plan);
  struct sbx_enforcement *e = &plan->enforcement;
  e->level = e->filesystem < e->network ? e->filesystem : e->network;
  return r;
}
