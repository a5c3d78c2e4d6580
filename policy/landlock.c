/* The Landlock layer: a second, independent confinement of the file
   system under bubblewrap's mount table, applied by the helper bubblewrap
   execs in place of the command (runtime/linux/confine/landlock_helper.c),
   with rules from the plan's grants (runtime/linux/confine/landlock_rules.c).
   Agent sandboxes always have it where the kernel offers it; a container opts
   in with "sbx": {"landlock": true}.  */
#include <errno.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/build.h"

/* What each ABI below the highest lacks, in the report's words.  With
   namespaces, the mount table still holds each of these; the level is not
   lowered, the gap in the second layer is said.  */
static int
missing_rights (struct sbx_plan *plan, int abi)
{
  static const struct
  {
    int since;
    const char *what;
  } rights[] = {
    { 2, "the refer right (renaming or linking a file into another "
         "directory is refused everywhere, even inside the grants)" },
    { 3, "the truncate right (truncating a file outside the grants is "
         "not refused by landlock)" },
    { 5, "the ioctl-dev right (ioctl on device nodes is not confined by "
         "landlock)" },
    { 6, "scoping (abstract unix sockets and signals outside the sandbox "
         "are not refused by landlock)" },
  };
  int r = 0;
  for (size_t i = 0; r == 0 && i < sizeof rights / sizeof *rights; i++)
    if (abi < rights[i].since)
      r = plan_gap (plan, false, SBX_LEVEL_FULL,
                    "landlock: ABI %d lacks %s; ABI %d has it", abi,
                    rights[i].what, rights[i].since);
  return r;
}

/* Whether M is a grant the helper turns into a rule of its own (the
   write and device rules; "/" is the sandbox's root, read by a rule of
   its own).  */
static bool
own_rule (const struct sbx_plan_mount *m)
{
  bool op = m->op == SBX_PLAN_BIND_RW || m->op == SBX_PLAN_BIND_DEV
            || m->op == SBX_PLAN_TMPFS || m->op == SBX_PLAN_MQUEUE;
  return op && m->why != SBX_WHY_ROOT && strcmp (m->dest, "/") != 0;
}

/* The helper follows no link on a rule's way (landlock_helper.c): at
   exec, after the sandbox has run, one may be the sandbox's.  A grant
   reached through a link that is there at launch (on the host's root for
   an agent, in the rootfs for a container) would lose its rule, so it is
   refused, naming the link.  */
static int
refuse_linked_grants (const struct sbx_spec *spec,
                      const struct sbx_host_facts *host,
                      const struct sbx_plan *plan, struct sbx_error *err)
{
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (!own_rule (m))
        continue;
      cleanup_free char *view
          = plan->agent ? strdup (m->dest)
                        : sbx_path_join (spec->root_path, m->dest + 1);
      if (view == NULL)
        return -ENOMEM;
      size_t from = plan->agent ? 1 : strlen (spec->root_path) + 1;
      size_t link = policy_linked_prefix (host, view, from);
      if (link == 0)
        continue;
      view[link] = '\0';
      return sbx_refuse_path (err, -ELOOP,
                              "%s: the way to it goes through the symbolic "
                              "link %s, which the Landlock layer does not "
                              "follow; give the path it names",
                              m->dest, view);
    }
  return 0;
}

int
policy_landlock (const struct sbx_spec *spec,
                 const struct sbx_host_facts *host, struct sbx_plan *plan,
                 struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  plan->enforcement.namespaces = !host->seatbelt;
  plan->enforcement.seatbelt = host->seatbelt;
  if (host->seatbelt)
    return 0;
  bool agent = plan->agent && plan->mode != SBX_MODE_DANGER_FULL_ACCESS;
  if (agent && x->landlock_set && !x->landlock)
    return sbx_refuse (err, -EINVAL, "sbx.landlock",
                       "an agent sandbox always has the "
                       "landlock layer; remove the key");
  if (!agent && !x->landlock)
    return 0;
  if (host->landlock_abi < 1)
    return plan_gap (plan, false, SBX_LEVEL_FULL,
                     "landlock: this kernel offers none (Linux 5.13 or "
                     "newer, with landlock in the lsm= list): the mount "
                     "table is the only file-system layer");
  int abi = host->landlock_abi > SBX_LANDLOCK_ABI_MAX ? SBX_LANDLOCK_ABI_MAX
                                                      : host->landlock_abi;
  plan->enforcement.landlock_abi = abi;
  int r = refuse_linked_grants (spec, host, plan, err);
  if (r == 0)
    r = missing_rights (plan, abi);
  if (r == 0 && plan->n_host_ports > 0 && abi < 4)
    r = plan_gap (plan, false, SBX_LEVEL_FULL,
                  "landlock: ABI %d has no TCP rules: the host ports are "
                  "held by the network namespace alone; ABI 4 has them",
                  abi);
  return r;
}
