/* linux.devices: each node a container lists, bound at its path with
   device access.  Root (in the initial user namespace) makes the node
   itself: the runner makes it in a tmpfs of its own mount namespace
   (HOST->nodes_dir) and bwrap binds it from there.  No one else may make
   a device node, so an unprivileged caller gets the host's node at the
   same path, checked to be the one asked for, as runc does rootless.  */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/build.h"

static const char *
type_name (char type)
{
  return type == 'b'   ? "block device"
         : type == 'p' ? "FIFO"
                       : "character device";
}

/* The host's id that ID of the container's user namespace is (MAPPINGS,
   N: the config's; none, the same id): the node's owner as the host
   writes it.  */
static int
host_id (const struct sbx_id_mapping *mappings, size_t n, uint32_t id,
         uint32_t *out)
{
  if (n == 0)
    {
      *out = id;
      return 0;
    }
  for (size_t i = 0; i < n; i++)
    if (id >= mappings[i].container_id
        && id - mappings[i].container_id < mappings[i].size)
      {
        *out = mappings[i].host_id + (id - mappings[i].container_id);
        return 0;
      }
  return -1;
}

/* N (its source made) to PLAN's nodes, bound at DEST; N is the plan's
   after, whatever the result.  */
static int
add_node (struct sbx_plan *plan, struct sbx_plan_node *n,
          const char *nodes_dir, enum sbx_plan_op op, const char *dest)
{
  struct sbx_plan_node *v
      = realloc (plan->nodes, (plan->n_nodes + 1) * sizeof *v);
  if (v == NULL)
    {
      sbx_plan_node_free (n);
      return -ENOMEM;
    }
  plan->nodes = v;
  v[plan->n_nodes++] = *n;
  if (plan->nodes_dir == NULL
      && (plan->nodes_dir = strdup (nodes_dir)) == NULL)
    return -ENOMEM;
  return plan_add (plan, op, SBX_WHY_OCI_MOUNT, n->source, dest) ? 0 : -ENOMEM;
}

/* OPTIONS as one comma-separated string, as mount(8) writes them.  */
static char *
join_options (const struct strv *options)
{
  size_t len = 1;
  for (size_t i = 0; i < options->n; i++)
    len += strlen (options->v[i]) + 1;
  char *s = malloc (len), *p = s;
  if (s == NULL)
    return NULL;
  *p = '\0';
  for (size_t i = 0; i < options->n; i++)
    p += sprintf (p, "%s%s", i ? "," : "", options->v[i]);
  return s;
}

/* 'u' for a tmpfs owner option "uid=N", 'g' for "gid=N", else 0.  */
static char
owner_option (const char *o)
{
  return strncmp (o, "uid=", 4) == 0   ? 'u'
         : strncmp (o, "gid=", 4) == 0 ? 'g'
                                       : 0;
}

/* Option O (the INDEX-th mount's I-th) as the runner writes it.  With
   ranges an owner (uid=N, gid=N) names an id of the container's user
   namespace, where crun mounts the tmpfs; the runner mounts it from the
   host's, so it writes the host id N maps to.  */
static int
runner_option (const struct sbx_linux *lx, bool ranges, const char *o,
               size_t index, size_t i, struct strv *out, struct sbx_error *err)
{
  char owner = owner_option (o);
  if (!ranges || !owner)
    return strv_push (out, o);
  bool uid = owner == 'u';
  /* Read as the kernel's tmpfs reads it (kstrtouint, base 0): "010" is
     8, "0x10" 16, a "+" allowed.  */
  const char *digits = o + 4 + (o[4] == '+');
  char *end = NULL;
  errno = 0;
  unsigned long long id = strtoull (digits, &end, 0);
  uint32_t host = 0;
  if (!isdigit ((unsigned char) digits[0]) || *end != '\0' || errno != 0
      || id > UINT32_MAX)
    return sbx_refuse_path (err, -EINVAL,
                            "mounts[%zu].options[%zu]: %.4s takes an id",
                            index, i, o);
  if ((uid ? host_id (lx->uid_mappings, lx->n_uid_mappings, id, &host)
           : host_id (lx->gid_mappings, lx->n_gid_mappings, id, &host))
      < 0)
    return sbx_refuse_path (err, -EINVAL,
                            "mounts[%zu].options[%zu]: %llu is not mapped "
                            "by linux.%s",
                            index, i, id, uid ? "uidMappings" : "gidMappings");
  return strv_pushf (out, "%.4s%u", o, host);
}

/* M's options as the runner mounts them: as written, one word each, but
   with ranges (RANGES) owned as the container's ids say, its root when
   the config names no owner, as bwrap's tmpfs made inside would be.  */
static int
runner_options (const struct sbx_linux *lx, const struct sbx_mount *m,
                size_t index, bool ranges, char **out, struct sbx_error *err)
{
  cleanup_strv struct strv o = { 0 };
  bool has_uid = false, has_gid = false;
  int r = 0;
  for (size_t i = 0; r == 0 && i < m->options.n; i++)
    {
      /* The runner splits at commas: one option must be one word, or
         what the policy read of it ("ro") is not what is mounted.  */
      if (strchr (m->options.v[i], ','))
        return sbx_refuse_path (err, -EINVAL,
                                "mounts[%zu].options[%zu]: a comma inside "
                                "one option; list each on its own",
                                index, i);
      has_uid |= owner_option (m->options.v[i]) == 'u';
      has_gid |= owner_option (m->options.v[i]) == 'g';
      r = runner_option (lx, ranges, m->options.v[i], index, i, &o, err);
    }
  uint32_t root = 0;
  if (r == 0 && ranges && !has_uid
      && host_id (lx->uid_mappings, lx->n_uid_mappings, 0, &root) == 0)
    r = strv_pushf (&o, "uid=%u", root);
  if (r == 0 && ranges && !has_gid
      && host_id (lx->gid_mappings, lx->n_gid_mappings, 0, &root) == 0)
    r = strv_pushf (&o, "gid=%u", root);
  if (r < 0)
    return r;
  if ((*out = join_options (&o)) == NULL)
    return -ENOMEM;
  if (strlen (*out) > SBX_RUNNER_TMPFS_OPTIONS_MAX)
    return sbx_refuse_path (err, -E2BIG,
                            "mounts[%zu].options: %zu bytes%s; at most %d "
                            "for a tmpfs",
                            index, strlen (*out),
                            ranges ? " with the owners written as host ids"
                                   : "",
                            SBX_RUNNER_TMPFS_OPTIONS_MAX);
  return 0;
}

int
policy_runner_tmpfs (const struct sbx_linux *lx, const struct sbx_mount *m,
                     size_t index, const char *nodes_dir,
                     struct sbx_plan *plan, struct sbx_error *err)
{
  struct sbx_plan_node n = { .type = 't', .index = index };
  int r
      = runner_options (lx, m, index, plan->enter_userns, &n.fs_options, err);
  if (r == 0 && asprintf (&n.source, "%s/tmpfs-%zu", nodes_dir, index) < 0)
    {
      n.source = NULL; /* undefined after a failure */
      r = -ENOMEM;
    }
  if (r == 0 && (n.fs_name = strdup (m->source ? m->source : "tmpfs")) == NULL)
    r = -ENOMEM;
  if (r < 0)
    {
      sbx_plan_node_free (&n);
      return r;
    }
  /* A plain bind: bwrap adds nodev too.  */
  return add_node (plan, &n, nodes_dir, SBX_PLAN_BIND_RW, m->destination);
}

void
sbx_plan_node_free (struct sbx_plan_node *n)
{
  free (n->source);
  free (n->fs_name);
  free (n->fs_options);
  memset (n, 0, sizeof *n);
}

/* The node of D the runner makes, the I-th, at NODES_DIR/I.  */
static int
plan_node (const struct sbx_linux *lx, const struct sbx_device *d, size_t i,
           const char *nodes_dir, struct sbx_plan *plan, struct sbx_error *err)
{
  struct sbx_plan_node n = { .type = d->type,
                             .index = i,
                             .major = d->major,
                             .minor = d->minor,
                             .mode = d->file_mode };
  if (host_id (lx->uid_mappings, lx->n_uid_mappings, d->uid, &n.uid) < 0)
    return sbx_refuse_path (err, -EINVAL,
                            "linux.devices[%zu].uid: %u is not mapped by "
                            "linux.uidMappings",
                            i, d->uid);
  if (host_id (lx->gid_mappings, lx->n_gid_mappings, d->gid, &n.gid) < 0)
    return sbx_refuse_path (err, -EINVAL,
                            "linux.devices[%zu].gid: %u is not mapped by "
                            "linux.gidMappings",
                            i, d->gid);
  if (asprintf (&n.source, "%s/%zu", nodes_dir, i) < 0)
    return -ENOMEM;
  return add_node (plan, &n, nodes_dir, SBX_PLAN_BIND_DEV, d->path);
}

/* D's own node on the host, at the same path.  */
static int
host_node (const struct sbx_host_facts *host, const struct sbx_device *d,
           size_t i, struct sbx_plan *plan, struct sbx_error *err)
{
  uint32_t major = 0, minor = 0;
  char type = host->path_node
                  ? host->path_node (d->path, &major, &minor, host->path_ctx)
                  : 0;
  if (type != d->type || major != d->major || minor != d->minor)
    {
      char numbers[32] = "";
      if (d->type != 'p')
        snprintf (numbers, sizeof numbers, " %u:%u", d->major, d->minor);
      return sbx_refuse_path (
          err, -EPERM,
          "linux.devices[%zu]: %s is not %s%s on the host; "
          "only root can make a device node, and unprivileged "
          "the host's node at the same path is bound instead",
          i, d->path, type_name (d->type), numbers);
    }
  return plan_add (plan, SBX_PLAN_BIND_DEV, SBX_WHY_OCI_MOUNT, d->path,
                   d->path)
             ? 0
             : -ENOMEM;
}

int
policy_devices (const struct sbx_spec *spec, const struct sbx_host_facts *host,
                struct sbx_plan *plan, struct sbx_error *err)
{
  const struct sbx_linux *lx = &spec->linux_;
  if (lx->n_devices > 0 && plan->agent)
    return sbx_refuse_path (
        err, -EPERM,
        "linux.devices: an agent policy gets no device node "
        "beyond its minimal /dev; only a container (root.path "
        "other than \"/\") may list one");
  int r = 0;
  for (size_t i = 0; r == 0 && i < lx->n_devices; i++)
    r = host->nodes_dir
            ? plan_node (lx, &lx->devices[i], i, host->nodes_dir, plan, err)
            : host_node (host, &lx->devices[i], i, plan, err);
  return r;
}
