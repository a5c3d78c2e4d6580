/* Who the sandbox runs as, and how its user namespace maps ids.
 *
 * bubblewrap 0.8 maps exactly one id, the caller's, onto one id in the
 * sandbox, and it never changes the host uid the command runs as: a
 * process.user other than the caller's makes the command *appear* as that
 * user inside while it keeps the caller's host uid for files.  That is a
 * gap, reported as such.  Mappings of other ids (ranges) are root's
 * containers' alone, and their maps are written by sbx (policy/id_maps.c).
 *
 * As root (a real one, or rootless podman's uid 0 in its own user
 * namespace), a container that asks for no user namespace gets none, as
 * under crun: bwrap runs in the caller's user namespace and
 * sbx-oci-init (runtime/linux/container/init_main.c), after every mount is in
 * place, takes process.user's uid, gid and additionalGids and the five
 * capability sets itself before it executes the command.  So the host
 * sees the workload as process.user (file permissions act on it), and
 * its capabilities act in the namespaces the caller made (podman's
 * network namespace: port 80, NET_ADMIN), which they could not from a
 * user namespace of bwrap's making.  It needs /proc in the container
 * (bwrap runs the helper as /proc/self/fd/N); without one, the rules
 * below apply.
 *
 * Otherwise, as root, a container whose process runs as root gets a user
 * namespace whose maps sbx writes itself (bwrap's --userns-block-fd): the
 * identity over the whole id range, so uid 0 there is uid 0 on the host and
 * every file keeps its owner.  A user namespace of its own is also what makes
 * bwrap trim the capability bounding set to the capabilities the
 * container keeps, which it does not do for root outside one.  Its
 * supplementary groups are set to process.user.additionalGids before
 * bwrap starts, and the identity map keeps them.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/build.h"

#define IDENTITY_MAP "0 0 4294967295\n"

static void
switch_to_user (const struct sbx_spec *spec, struct sbx_plan *plan)
{
  const struct sbx_user *u = &spec->process.user;
  plan->unshare[SBX_NS_USER] = true;
  plan->set_ids = true;
  plan->uid = u->uid;
  plan->gid = u->gid;
}

int
policy_copy_groups (const struct sbx_user *u, struct sbx_plan *plan)
{
  if (u->n_additional_gids == 0)
    return 0;
  plan->groups = calloc (u->n_additional_gids, sizeof *plan->groups);
  if (plan->groups == NULL)
    return -ENOMEM;
  memcpy (plan->groups, u->additional_gids,
          u->n_additional_gids * sizeof *plan->groups);
  plan->n_groups = u->n_additional_gids;
  return 0;
}

/* Root's container: its supplementary groups are additionalGids and
   nothing of the caller's (as runc sets them).  */
static int
exactly_these_groups (const struct sbx_user *u, struct sbx_plan *plan)
{
  plan->set_groups = true;
  return policy_copy_groups (u, plan);
}

bool
policy_init_step (const struct sbx_spec *spec, const struct sbx_plan *plan)
{
  if (!spec->has_process || plan->agent)
    return false;
  for (size_t i = 0; i < spec->n_mounts; i++)
    if (spec->mounts[i].type && strcmp (spec->mounts[i].type, "proc") == 0
        && strcmp (spec->mounts[i].destination, "/proc") == 0)
      return true;
  return false;
}

/* The helper takes the identity: no user namespace, no gap.  */
static int
helper_takes_ids (const struct sbx_user *u, struct sbx_plan *plan,
                  struct sbx_error *err)
{
  if (u->n_additional_gids > SBX_INIT_MAX_GROUPS)
    return sbx_refuse (err, -E2BIG, "process.user.additionalGids",
                       "%zu groups; at most %d "
                       "are supported",
                       u->n_additional_gids, SBX_INIT_MAX_GROUPS);
  plan->init_ids = true;
  plan->uid = u->uid;
  plan->gid = u->gid;
  return policy_copy_groups (u, plan);
}

int
policy_identity (const struct sbx_spec *spec,
                 const struct sbx_host_facts *host, struct sbx_plan *plan,
                 struct sbx_error *err)
{
  const struct sbx_linux *lx = &spec->linux_;
  const char *range_field;
  size_t range_index;
  plan->init = policy_init_step (spec, plan);
  if (policy_id_range (spec, host, &range_field, &range_index))
    return policy_id_maps (spec, host, range_field, range_index, plan, err);
  if (!spec->has_process)
    return 0;
  int r;
  const struct sbx_user *u = &spec->process.user;
  if (host->is_root && plan->init && !plan->unshare[SBX_NS_USER]
      && lx->n_uid_mappings == 0 && lx->n_gid_mappings == 0)
    return helper_takes_ids (u, plan, err);
  bool as_caller = u->uid == host->uid && u->gid == host->gid;
  /* The whole range is the host's root's to map; a namespace's root
     gets bwrap's map of its own id below, as an unprivileged caller.  */
  if (host->host_root && !plan->agent && as_caller && lx->n_uid_mappings == 0
      && lx->n_gid_mappings == 0)
    {
      plan->uid_map = strdup (IDENTITY_MAP);
      plan->gid_map = strdup (IDENTITY_MAP);
      if (plan->uid_map == NULL || plan->gid_map == NULL)
        return -ENOMEM;
      switch_to_user (spec, plan);
      return exactly_these_groups (u, plan);
    }
  /* Fewer groups is less privilege, not a weaker boundary: said, not
     counted against the level.  */
  if (u->n_additional_gids > 0
      && (r = plan_gap (plan, false, SBX_LEVEL_FULL,
                        "process.user.additionalGids: bubblewrap cannot set "
                        "supplementary groups; not applied"))
             < 0)
    return r;
  if (lx->n_uid_mappings == 1)
    as_caller = as_caller && lx->uid_mappings[0].container_id == u->uid;
  if (!as_caller || plan->unshare[SBX_NS_USER])
    switch_to_user (spec, plan);
  if (u->uid != host->uid)
    return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                     "process.user.uid %u: bubblewrap 0.8 cannot switch "
                     "host uid; the command appears as uid %u inside but "
                     "acts on files as host uid %u",
                     (unsigned) u->uid, (unsigned) u->uid,
                     (unsigned) host->uid);
  return 0;
}
