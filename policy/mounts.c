/* OCI "mounts" entries as grant layers, the container case (a real rootfs
   as "/"), masked and read-only paths, and the final seals.  */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "spec/parse_json.h"
#include "policy/build.h"

/* Refuse mounts[INDEX].PART (PART[ITEM] when ITEM >= 0).  */
static int __attribute__ ((format (printf, 6, 7)))
mount_refuse (struct sbx_error *err, int code, size_t index, const char *part,
              long item, const char *fmt, ...)
{
  char field[SBX_ERROR_FIELD_MAX], why[SBX_ERROR_MSG_MAX];
  if (item >= 0)
    snprintf (field, sizeof field, "mounts[%zu].%s[%ld]", index, part, item);
  else
    snprintf (field, sizeof field, "mounts[%zu].%s", index, part);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  return sbx_refuse (err, code, field, "%s", why);
}

static bool
has_option (const struct sbx_mount *m, const char *opt)
{
  return strv_contains (&m->options, opt);
}

/* "size=64m" and "mode=1777" as the kernel's tmpfs reads them.  */
static int
tmpfs_options (const struct sbx_mount *m, size_t index,
               struct sbx_plan_mount *pm, struct sbx_error *err)
{
  for (size_t i = 0; i < m->options.n; i++)
    {
      const char *o = m->options.v[i];
      char *end = NULL, quoted[JQUOTE_MAX];
      if (strncmp (o, "size=", 5) == 0)
        {
          unsigned long long v = strtoull (o + 5, &end, 10);
          int shift = 0;
          switch (*end)
            {
            case 'k':
            case 'K':
              shift = 10;
              end++;
              break;
            case 'm':
            case 'M':
              shift = 20;
              end++;
              break;
            case 'g':
            case 'G':
              shift = 30;
              end++;
              break;
            }
          if (end == o + 5 || *end != '\0' || v > (1ULL << (62 - shift)))
            return mount_refuse (err, -EINVAL, index, "options", (long) i,
                                 "invalid size %s",
                                 jquote (o + 5, quoted, sizeof quoted));
          pm->size = (int64_t) (v << shift);
        }
      else if (strncmp (o, "mode=", 5) == 0)
        {
          unsigned long v = strtoul (o + 5, &end, 8);
          if (end == o + 5 || *end != '\0' || v > 07777)
            return mount_refuse (err, -EINVAL, index, "options", (long) i,
                                 "invalid mode %s",
                                 jquote (o + 5, quoted, sizeof quoted));
          pm->perms = (int) v;
        }
    }
  return 0;
}

/* In the agent case "/" is the host's, read-only: bwrap cannot create a
   missing mount point there, so say which one is missing before it fails. */
static int
check_agent_dest (const struct sbx_host_facts *host,
                  const struct sbx_plan *plan, const char *dest, size_t index,
                  struct sbx_error *err)
{
  if (!plan->agent || host_path_kind (host, dest) != SBX_PATH_ABSENT
      || plan_dest_inside_tmpfs (plan, dest))
    return 0;
  return mount_refuse (err, -ENOENT, index, "destination", -1,
                       "%s does not exist on the host (the sandbox's / is "
                       "the host's, read-only: create it first)",
                       dest);
}

static int
bind_layer (const struct sbx_mount *m, const struct sbx_host_facts *host,
            size_t index, struct sbx_plan *plan, struct sbx_error *err)
{
  /* parse_mount has refused a bind mount without a source.  */
  if (host_path_kind (host, m->source) == SBX_PATH_ABSENT)
    return mount_refuse (err, -ENOENT, index, "source", -1,
                         "%s does not exist", m->source);
  int r = check_agent_dest (host, plan, m->destination, index, err);
  if (r < 0)
    return r;
  /* bwrap's binds are nosuid always, nodev unless --dev-bind, and keep
     the source mount's noexec; they cannot be made noexec.  */
  if (has_option (m, "noexec")
      && (r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                        "mounts[%zu].options: noexec on %s: bubblewrap "
                        "cannot make a bind noexec; not applied",
                        index, m->destination))
             < 0)
    return r;
  enum sbx_plan_op op
      = has_option (m, "ro") ? SBX_PLAN_BIND_RO : SBX_PLAN_BIND_RW;
  if (op == SBX_PLAN_BIND_RW && !plan->agent && has_option (m, "dev"))
    op = SBX_PLAN_BIND_DEV;
  return plan_add (plan, op, SBX_WHY_OCI_MOUNT, m->source, m->destination)
             ? 0
             : -ENOMEM;
}

/* DEST is /dev, written with or without trailing slashes.  */
static bool
is_dev (const char *dest)
{
  size_t n = strlen (dest);
  while (n > 1 && dest[n - 1] == '/')
    n--;
  return n == 4 && strncmp (dest, "/dev", 4) == 0;
}

/* A read-only tmpfs is how OCI says "hidden": an empty, unwritable layer. */
static int
tmpfs_layer (const struct sbx_linux *lx, const struct sbx_mount *m,
             const struct sbx_host_facts *host, size_t index,
             struct sbx_plan *plan, struct sbx_error *err)
{
  const char *dest = m->destination;
  /* The container's minimal /dev stands where the config lists its /dev
     tmpfs, so /proc, /dev and the rest appear in the config's order.  */
  if (!plan->agent && is_dev (dest))
    return plan_add (plan, SBX_PLAN_DEV, SBX_WHY_SYSTEM, NULL, "/dev")
               ? 0
               : -ENOMEM;
  if (has_option (m, "ro"))
    {
      enum sbx_path_kind kind
          = plan->agent ? host_path_kind (host, dest) : SBX_PATH_DIR;
      if (kind == SBX_PATH_ABSENT && !plan_dest_inside_tmpfs (plan, dest))
        return 0; /* nothing to hide */
      enum sbx_plan_op op = kind == SBX_PATH_DIR || kind == SBX_PATH_ABSENT
                                ? SBX_PLAN_HIDE_DIR
                                : SBX_PLAN_HIDE_FILE;
      return plan_add (plan, op, SBX_WHY_OCI_MOUNT, NULL, dest) ? 0 : -ENOMEM;
    }
  int r = check_agent_dest (host, plan, dest, index, err);
  if (r < 0)
    return r;
  /* Size and mode are checked for either maker; bwrap takes them from
     the plan, the runner as the config writes them.  */
  struct sbx_plan_mount pm = { .perms = -1 };
  r = tmpfs_options (m, index, &pm, err);
  if (r < 0)
    return r;
  /* bwrap names its tmpfs "tmpfs" and takes only a size and a mode: as
     root the runner mounts the config's own (runner_nodes.c), uid ranges
     included.  */
  if (!plan->agent && host->nodes_dir)
    return policy_runner_tmpfs (lx, m, index, host->nodes_dir, plan, err);
  if (has_option (m, "noexec")
      && (r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                        "mounts[%zu].options: noexec on %s: bubblewrap's "
                        "tmpfs cannot be made noexec; only root's runner "
                        "mounts the config's own",
                        index, dest))
             < 0)
    return r;
  struct sbx_plan_mount *added
      = plan_add (plan, SBX_PLAN_TMPFS, SBX_WHY_OCI_MOUNT, NULL, dest);
  if (added == NULL)
    return -ENOMEM;
  added->size = pm.size;
  added->perms = pm.perms;
  return 0;
}

/* An IPC namespace of the sandbox's own, or a joined one, gets a fresh
   mqueue (a joined one's is mounted by the runner:
   runtime/linux/container/sandbox.c). The host's, shared, too, when the
   host's root runs the sandbox; otherwise nobody here may mount it, and the
   host's /dev/mqueue, if there is one, is bound instead: the same queues.  */
static int
mqueue_layer (const struct sbx_host_facts *host, const char *dest,
              struct sbx_plan *plan)
{
  if (plan->unshare[SBX_NS_IPC] || plan->join[SBX_NS_IPC] || host->host_root)
    return plan_add (plan, SBX_PLAN_MQUEUE, SBX_WHY_OCI_MOUNT, NULL, dest)
               ? 0
               : -ENOMEM;
  struct sbx_plan_mount *pm = plan_add (
      plan, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT, "/dev/mqueue", dest);
  if (pm == NULL)
    return -ENOMEM;
  pm->optional = true;
  return 0;
}

static int
special_layer (const struct sbx_mount *m, const struct sbx_host_facts *host,
               size_t index, struct sbx_plan *plan, struct sbx_error *err)
{
  const char *t = m->type, *dest = m->destination;
  enum sbx_plan_op op;
  const char *source = NULL;
  char quoted[JQUOTE_MAX];
  if (strcmp (t, "proc") == 0)
    return plan_add_proc (plan, SBX_WHY_OCI_MOUNT, dest);
  if (strcmp (t, "mqueue") == 0)
    return mqueue_layer (host, dest, plan);
  if (strcmp (t, "devpts") == 0)
    return 0; /* bwrap's /dev carries its own devpts instance */
  else if (strcmp (t, "sysfs") == 0)
    op = SBX_PLAN_BIND_RO, source = "/sys";
  else if (strcmp (t, "cgroup") == 0 || strcmp (t, "cgroup2") == 0)
    op = SBX_PLAN_BIND_RO, source = "/sys/fs/cgroup";
  else
    return mount_refuse (err, -ENOTSUP, index, "type", -1,
                         "unsupported mount type %s (supported: bind, "
                         "tmpfs, proc, sysfs, devpts, mqueue, cgroup)",
                         jquote (t, quoted, sizeof quoted));
  return plan_add (plan, op, SBX_WHY_OCI_MOUNT, source, dest) ? 0 : -ENOMEM;
}

/* The files below /proc a config may mount over, as runc's
   checkProcMount allows them (lxcfs' views).  */
static const char *const proc_files[] = {
  "/proc/cpuinfo",
  "/proc/diskstats",
  "/proc/meminfo",
  "/proc/stat",
  "/proc/swaps",
  "/proc/uptime",
  "/proc/loadavg",
  "/proc/slabinfo",
  "/proc/sys/kernel/ns_last_pid",
  "/proc/sys/kernel/domainname",
};

/* /proc is the kernel's: sbx-oci-init writes the command's labels
   there, and a file mounted over one (the review's bind over
   /proc/1/task/1/attr/exec) took the label while the command ran without
   it.  So /proc itself only as procfs, and below it only lxcfs' files.  */
static int
check_proc_dest (const struct sbx_mount *m, size_t index,
                 struct sbx_error *err)
{
  const char *d = m->destination;
  if (!sbx_path_is_under (d, "/proc"))
    return 0;
  if (strcmp (d, "/proc") == 0)
    return m->type && strcmp (m->type, "proc") == 0
               ? 0
               : mount_refuse (err, -EPERM, index, "destination", -1,
                               "/proc takes only a proc mount");
  for (size_t i = 0; i < sizeof proc_files / sizeof *proc_files; i++)
    if (strcmp (d, proc_files[i]) == 0)
      return 0;
  return mount_refuse (err, -EPERM, index, "destination", -1,
                       "%s lies in /proc, where only lxcfs' files (%s, ...) "
                       "may be mounted, as runc allows",
                       d, proc_files[0]);
}

int
policy_oci_mount (const struct sbx_spec *spec,
                  const struct sbx_host_facts *host, size_t index,
                  struct sbx_plan *plan, struct sbx_error *err)
{
  const struct sbx_mount *m = &spec->mounts[index];
  int r = check_proc_dest (m, index, err);
  if (r < 0)
    return r;
  if (sbx_mount_is_bind (m))
    return bind_layer (m, host, index, plan, err);
  if (m->type == NULL)
    return mount_refuse (err, -EINVAL, index, "type", -1,
                         "required unless options say \"bind\"");
  if (strcmp (m->type, "tmpfs") == 0)
    return tmpfs_layer (&spec->linux_, m, host, index, plan, err);
  return special_layer (m, host, index, plan, err);
}

/* Where the container's own PATH lives on the host.  PATH is absolute, so
   it is joined as relative: an absolute join would name the host's.  */
static char *
rootfs_path (const struct sbx_spec *spec, const char *path)
{
  while (*path == '/')
    path++;
  return sbx_path_join (spec->root_path, path[0] ? path : ".");
}

/* Paths below /proc and /sys are the kernel's; the rest live in the
   container's rootfs.  */
static enum sbx_path_kind
container_path_kind (const struct sbx_spec *spec,
                     const struct sbx_host_facts *host, const char *path)
{
  if (sbx_path_is_under (path, "/proc") || sbx_path_is_under (path, "/sys"))
    return host_path_kind (host, path);
  cleanup_free char *p = rootfs_path (spec, path);
  return p ? host_path_kind (host, p) : SBX_PATH_ABSENT;
}

/* Whether the innermost mount above PATH already hides it: then PATH does
   not exist in the container, and masking it would make bwrap create its
   mount point inside the hidden, empty directory.  */
static bool
inside_hidden_dir (const struct sbx_plan *plan, const char *path)
{
  for (size_t i = plan->n_mounts; i-- > 0;)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (sbx_path_is_under (path, m->dest) && strcmp (path, m->dest) != 0)
        return m->op == SBX_PLAN_HIDE_DIR;
    }
  return false;
}

static int
mask_path (const struct sbx_spec *spec, const struct sbx_host_facts *host,
           const char *path, enum sbx_plan_why why, struct sbx_plan *plan)
{
  enum sbx_path_kind kind = container_path_kind (spec, host, path);
  if (kind == SBX_PATH_ABSENT || kind == SBX_PATH_SYMLINK
      || inside_hidden_dir (plan, path))
    return 0; /* OCI: a path that does not exist is not masked */
  enum sbx_plan_op op
      = kind == SBX_PATH_DIR ? SBX_PLAN_HIDE_DIR : SBX_PLAN_HIDE_FILE;
  return plan_add (plan, op, why, NULL, path) ? 0 : -ENOMEM;
}

/* plan_add_proc already seals these read-only.  */
static bool
proc_already_readonly (const char *path)
{
  static const char *const ro[]
      = { "/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus" };
  for (size_t i = 0; i < sizeof ro / sizeof *ro; i++)
    if (sbx_path_is_under (path, ro[i]))
      return true;
  return false;
}

static int
readonly_path (const struct sbx_spec *spec, const struct sbx_host_facts *host,
               const char *path, struct sbx_plan *plan)
{
  if (proc_already_readonly (path))
    return 0;
  /* Binding the host's /proc or /sys entry would show the host's, not the
     sandbox's (bwrap-oci's mistake); hiding it is the honest subset.  */
  if (sbx_path_is_under (path, "/proc") || sbx_path_is_under (path, "/sys"))
    return mask_path (spec, host, path, SBX_WHY_READONLY, plan);
  if (container_path_kind (spec, host, path) == SBX_PATH_ABSENT)
    return 0;
  cleanup_free char *src = rootfs_path (spec, path);
  if (src == NULL)
    return -ENOMEM;
  return plan_add (plan, SBX_PLAN_BIND_RO, SBX_WHY_READONLY, src, path)
             ? 0
             : -ENOMEM;
}

static bool
has_dev_tmpfs (const struct sbx_spec *spec)
{
  for (size_t i = 0; i < spec->n_mounts; i++)
    {
      const struct sbx_mount *m = &spec->mounts[i];
      if (!sbx_mount_is_bind (m) && m->type && strcmp (m->type, "tmpfs") == 0
          && is_dev (m->destination))
        return true;
    }
  return false;
}

int
policy_container_mounts (const struct sbx_spec *spec,
                         const struct sbx_host_facts *host,
                         struct sbx_plan *plan, struct sbx_error *err)
{
  if (host_path_kind (host, spec->root_path) != SBX_PATH_DIR)
    return sbx_refuse (err, -ENOENT, "root.path", "%s is not a directory",
                       spec->root_path);
  /* Writable first so bwrap can create mount points; sealed at the end
     when root.readonly asks for it, as runc does.  */
  if (!plan_add (plan, SBX_PLAN_BIND_RW, SBX_WHY_ROOT, spec->root_path, "/"))
    return -ENOMEM;
  /* Without a /dev tmpfs in the config, the minimal /dev comes first so
     that the config's mounts below /dev land on it.  */
  if (!has_dev_tmpfs (spec)
      && !plan_add (plan, SBX_PLAN_DEV, SBX_WHY_SYSTEM, NULL, "/dev"))
    return -ENOMEM;
  plan->root_readonly = spec->root_readonly;
  int r = 0;
  for (size_t i = 0; r == 0 && i < spec->n_mounts; i++)
    r = policy_oci_mount (spec, host, i, plan, err);
  /* After the mounts, as runc makes them, so a /dev tmpfs holds them.  */
  if (r == 0)
    r = policy_devices (spec, host, plan, err);
  const struct sbx_linux *lx = &spec->linux_;
  for (size_t i = 0; r == 0 && i < lx->masked_paths.n; i++)
    r = mask_path (spec, host, lx->masked_paths.v[i], SBX_WHY_MASKED, plan);
  for (size_t i = 0; r == 0 && i < lx->readonly_paths.n; i++)
    r = readonly_path (spec, host, lx->readonly_paths.v[i], plan);
  return r;
}

int
policy_seal_hidden (struct sbx_plan *plan)
{
  size_t n = plan->n_mounts;
  for (size_t i = 0; i < n; i++)
    if (plan->mounts[i].op == SBX_PLAN_HIDE_DIR)
      {
        /* The dest string survives plan_add's realloc of the array.  */
        const struct sbx_plan_mount *hidden = &plan->mounts[i];
        if (!plan_add (plan, SBX_PLAN_REMOUNT_RO, hidden->why, NULL,
                       hidden->dest))
          return -ENOMEM;
      }
  if (!plan->agent && plan->root_readonly
      && !plan_add (plan, SBX_PLAN_REMOUNT_RO, SBX_WHY_ROOT, NULL, "/"))
    return -ENOMEM;
  return 0;
}
