/* Who owns a container's terminal.  runc gives the terminal to the
 * process's uid and leaves its group to the devpts mount, whose "gid=5"
 * (tty, in runc's and podman's configs) gives each new terminal that
 * group: so a process that is not root can open its own terminal again
 * by name ($(tty), ttyname(3)), which a terminal left root:root 0620
 * forbids (tests/peers/podman_rootless.sh found it, podman run -t --user
 * and podman exec -t -u).  sbx-oci opens the terminal from outside the
 * container, as its caller (create's devpts instance, exec's through the
 * container's /dev/ptmx), so it hands it over itself where the process
 * takes process.user's ids (plan->init_ids: sbx-oci-init, or exec's
 * child, sets them; policy/ids.c), with the ids the namespace sbx-oci
 * runs in gives the container's: through the config's uidMappings and
 * gidMappings, or the same ids when it has none (a root container without
 * a user namespace of its own, rootless podman's included).  Anywhere
 * else bubblewrap maps the caller's own id onto process.user, so the
 * process is the caller outside, and its terminal, the caller's, is
 * already its own: handing it to process.user's id would give it to some
 * unrelated host account.  */
#include <stdlib.h>
#include <string.h>

#include "policy/build.h"

/* N of the option "gid=N" of the config's devpts mount on /dev/pts, or -1
   when it has none (or an N that is not a decimal id: the mount is bwrap's
   own devpts anyway, and a group is only a convenience here).  */
static int64_t
devpts_gid (const struct sbx_spec *spec)
{
  for (size_t i = 0; i < spec->n_mounts; i++)
    {
      const struct sbx_mount *m = &spec->mounts[i];
      if (m->type == NULL || strcmp (m->type, "devpts") != 0
          || strcmp (m->destination, "/dev/pts") != 0)
        continue;
      for (size_t k = 0; k < m->options.n; k++)
        {
          const char *o = m->options.v[k];
          char *end;
          if (strncmp (o, "gid=", 4) != 0 || o[4] < '0' || o[4] > '9')
            continue;
          unsigned long long gid = strtoull (o + 4, &end, 10);
          if (*end == '\0' && gid < UINT32_MAX)
            return (int64_t) gid;
        }
    }
  return -1;
}

/* ID of the container's through the N entries of V, or ID itself when
   there are none.  */
static int64_t
outside (const struct sbx_id_mapping *v, size_t n, int64_t id)
{
  if (id < 0 || n == 0)
    return id;
  return policy_mapped_id (v, n, (uint32_t) id);
}

void
sbx_policy_terminal_owner (const struct sbx_spec *spec,
                           const struct sbx_user *user, bool init_ids,
                           int64_t owner[2])
{
  const struct sbx_linux *lx = &spec->linux_;
  owner[0] = owner[1] = -1;
  if (!init_ids)
    return;
  owner[0] = outside (lx->uid_mappings, lx->n_uid_mappings, user->uid);
  owner[1] = outside (lx->gid_mappings, lx->n_gid_mappings, devpts_gid (spec));
}
