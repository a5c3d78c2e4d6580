/* linux.uidMappings / gidMappings beyond the caller's own id: ranges, as
 * podman's --uidmap 0:100000:65536 asks.
 *
 * bubblewrap 0.8 maps one id, the caller's, onto one id in the namespace
 * it makes, and root's own id must stay unmapped in a range's namespace
 * (host root would be a uid inside).  So sbx makes the user namespace
 * itself and writes the config's maps (runtime/linux/bwrap/userns_made.c);
 * the runner enters it as its uid 0 after every step that needs the
 * host's privilege (namespaces joined by path, the cgroup, rlimits), and
 * bwrap, root there, makes the other namespaces, owned by it.  As for a
 * root container without a user namespace, sbx-oci-init takes
 * process.user, its groups and the five capability sets inside
 * (init_main.c).  So the host sees the workload as the ids process.user
 * maps to, its files belong to them, and its capabilities act only in
 * namespaces its own user namespace owns.
 *
 * The kernel takes a map of ids other than the writer's own only from a
 * writer with CAP_SETUID / CAP_SETGID over the namespace's parent: an
 * unprivileged caller would need newuidmap's setuid help, which sbx does
 * not use, so its ranges are refused.  An agent runs as its caller; under
 * a ceiling a range is refused even with "id-mappings" approved
 * (ceiling_gate.c): the ceiling grants no host uid but the caller's.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/build.h"

/* The kernel reads a map in one write shorter than a page: 4 KiB, the
   smallest page a Linux kernel has.  */
#define MAP_TEXT_MAX 4095

struct id_maps
{
  const char *field; /* "linux.uidMappings" */
  const struct sbx_id_mapping *v;
  size_t n;
  unsigned long own; /* the caller's id */
  int64_t root;      /* the host's root here (root_uid_here), or -1 */
};

static void
id_maps_of (const struct sbx_spec *spec, const struct sbx_host_facts *host,
            struct id_maps maps[2])
{
  const struct sbx_linux *lx = &spec->linux_;
  maps[0]
      = (struct id_maps){ "linux.uidMappings", lx->uid_mappings,
                          lx->n_uid_mappings, host->uid, host->root_uid_here };
  maps[1]
      = (struct id_maps){ "linux.gidMappings", lx->gid_mappings,
                          lx->n_gid_mappings, host->gid, host->root_gid_here };
}

bool
policy_id_range (const struct sbx_spec *spec,
                 const struct sbx_host_facts *host, const char **field,
                 size_t *index)
{
  struct id_maps maps[2];
  id_maps_of (spec, host, maps);
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < maps[k].n; i++)
      if (i > 0 || maps[k].v[i].size != 1
          || maps[k].v[i].host_id != maps[k].own)
        {
          *field = maps[k].field;
          *index = i;
          return true;
        }
  return false;
}

int64_t
policy_mapped_id (const struct sbx_id_mapping *v, size_t n, uint32_t id)
{
  for (size_t i = 0; i < n; i++)
    if (id >= v[i].container_id && id - v[i].container_id < v[i].size)
      return (int64_t) v[i].host_id + (id - v[i].container_id);
  return -1;
}

/* The host id that ID (a container's) maps to, or -1 when none does.  */
static int64_t
host_id_of (const struct id_maps *m, uint32_t id)
{
  return policy_mapped_id (m->v, m->n, id);
}

static int
need_mapped (const struct id_maps *m, uint32_t id, const char *field,
             struct sbx_error *err)
{
  if (host_id_of (m, id) >= 0)
    return 0;
  return sbx_refuse_path (err, -EINVAL, "%s: %u has no mapping in %s", field,
                          (unsigned) id, m->field);
}

/* M as the kernel reads it, one "containerID hostID size" line each.  */
static int
map_text (const struct id_maps *m, char **out, struct sbx_error *err)
{
  /* Three 10-digit numbers, two spaces and a newline a line.  */
  size_t cap = m->n * 33 + 1, len = 0;
  char *text = malloc (cap);
  if (text == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (size_t i = 0; i < m->n; i++)
    len += (size_t) snprintf (
        text + len, cap - len, "%u %u %u\n", (unsigned) m->v[i].container_id,
        (unsigned) m->v[i].host_id, (unsigned) m->v[i].size);
  if (len > MAP_TEXT_MAX)
    {
      free (text);
      return sbx_refuse_path (
          err, -E2BIG,
          "%s: the map is %zu bytes; the kernel reads at most "
          "%d in one write (fewer or shorter entries)",
          m->field, len, MAP_TEXT_MAX);
    }
  *out = text;
  return 0;
}

/* Who may have a range at all: a container's config, run by root.  */
static int
may_map_a_range (const struct sbx_plan *plan,
                 const struct sbx_host_facts *host, const char *field,
                 size_t index, struct sbx_error *err)
{
  if (plan->agent)
    return sbx_refuse_path (
        err, -ENOTSUP,
        "%s[%zu]: an agent policy runs as the caller's own id; "
        "a range of host ids is for containers only",
        field, index);
  unsigned long own = strcmp (field, "linux.uidMappings") == 0
                          ? (unsigned long) host->uid
                          : (unsigned long) host->gid;
  if (!host->is_root)
    return sbx_refuse_path (
        err, -ENOTSUP,
        "%s[%zu]: only root can map a range of ids (bubblewrap "
        "maps an unprivileged caller's own id, %lu, to one id); "
        "use {\"hostID\": %lu, \"size\": 1}",
        field, index, own, own);
  return 0;
}

/* Both maps, in a user namespace of the container's own.  */
static int
maps_complete (const struct sbx_plan *plan, const struct id_maps maps[2],
               struct sbx_error *err)
{
  if (!plan->unshare[SBX_NS_USER])
    return sbx_refuse_path (
        err, -EINVAL,
        "%s: given without a user namespace (add {\"type\": "
        "\"user\"} to linux.namespaces)",
        maps[0].n ? maps[0].field : maps[1].field);
  for (int k = 0; k < 2; k++)
    if (maps[k].n == 0)
      return sbx_refuse_path (
          err, -EINVAL,
          "%s: required with %s (the sandbox's user namespace "
          "maps both)",
          maps[k].field, maps[1 - k].field);
  return 0;
}

/* A range's namespace keeps host root out: mapped, it would be the
   workload's own id under another number, and the capabilities sbx-oci-init
   gives inside would act on the host's root-owned files.  The host's root
   is id 0 of the caller's namespace only in the host's; in a rootless
   podman's it is no id at all (podman's --userns=keep-id maps id 0 there,
   the user's own), in `unshare -r`'s it is 0 again.  In a namespace
   nested deeper any id may be it, unseen: a range there may hold the
   caller's own id, as bwrap's one-id map holds any caller's.  */
static int
host_root_unmapped (const struct id_maps maps[2], struct sbx_error *err)
{
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; maps[k].root >= 0 && i < maps[k].n; i++)
      if (maps[k].root >= maps[k].v[i].host_id
          && maps[k].root - maps[k].v[i].host_id < maps[k].v[i].size)
        return sbx_refuse_path (err, -EPERM,
                                "%s[%zu]: maps host id %lld, the host's "
                                "root, into the container; a range's "
                                "namespace keeps the host's root out",
                                maps[k].field, i, (long long) maps[k].root);
  return 0;
}

/* The runner sets the namespace up as its uid 0 and gid 0: both mapped.  */
static int
root_mapped (const struct id_maps maps[2], struct sbx_error *err)
{
  for (int k = 0; k < 2; k++)
    if (host_id_of (&maps[k], 0) < 0)
      return sbx_refuse_path (err, -EINVAL,
                              "%s: no entry maps container id 0 (sbx-oci sets "
                              "the sandbox up as uid and gid 0 inside)",
                              maps[k].field);
  return 0;
}

static int
each_group_mapped (const struct sbx_user *u, const struct id_maps *gids,
                   struct sbx_error *err)
{
  if (u->n_additional_gids > SBX_INIT_MAX_GROUPS)
    return sbx_refuse_path (
        err, -E2BIG,
        "process.user.additionalGids: %zu groups; at most %d "
        "are supported",
        u->n_additional_gids, SBX_INIT_MAX_GROUPS);
  for (size_t i = 0; i < u->n_additional_gids; i++)
    {
      char field[64];
      snprintf (field, sizeof field, "process.user.additionalGids[%zu]", i);
      int r = need_mapped (gids, u->additional_gids[i], field, err);
      if (r < 0)
        return r;
    }
  return 0;
}

int
policy_id_maps (const struct sbx_spec *spec, const struct sbx_host_facts *host,
                const char *field, size_t index, struct sbx_plan *plan,
                struct sbx_error *err)
{
  const struct sbx_user *u = &spec->process.user;
  struct id_maps maps[2];
  id_maps_of (spec, host, maps);
  int r = may_map_a_range (plan, host, field, index, err);
  if (r == 0)
    r = maps_complete (plan, maps, err);
  if (r == 0 && !plan->init)
    r = sbx_refuse_path (
        err, -ENOTSUP,
        "%s: needs /proc mounted in the container (sbx-oci-init "
        "takes process.user inside the mapped user namespace)",
        field);
  if (r == 0)
    r = host_root_unmapped (maps, err);
  if (r == 0)
    r = root_mapped (maps, err);
  if (r == 0)
    r = need_mapped (&maps[0], u->uid, "process.user.uid", err);
  if (r == 0)
    r = need_mapped (&maps[1], u->gid, "process.user.gid", err);
  if (r == 0)
    r = each_group_mapped (u, &maps[1], err);
  if (r == 0)
    r = map_text (&maps[0], &plan->uid_map, err);
  if (r == 0)
    r = map_text (&maps[1], &plan->gid_map, err);
  if (r == 0 && policy_copy_groups (u, plan) < 0)
    r = sbx_fail (err, -ENOMEM, "out of memory");
  if (r < 0)
    return r;
  plan->enter_userns = true;
  plan->init_ids = true;
  plan->uid = u->uid;
  plan->gid = u->gid;
  return 0;
}
