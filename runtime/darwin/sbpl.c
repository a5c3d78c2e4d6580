/* The Seatbelt profile generator: see sbpl.h.
 *
 * Layout of every profile:
 *   a comment naming sbx-oci, the mode and the network level;
 *   (version 1) (allow default);
 *   the network rules, first, so that the daemon-socket denies that come
 *   later in plan order win over a loopback or allow rule;
 *   the blanket file-write deny (not in danger-full-access) and the devices
 *   every tool writes to;
 *   one rule per plan entry, in plan order: the last matching rule wins in
 *   SBPL as the last mount wins on Linux.  */
#include "runtime/darwin/sbpl.h"

#include "common/cleanup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Character devices that every tool opens for writing; allowed again after
   the blanket deny.  /dev/fd only re-opens descriptors the process already
   holds.  Terminals other than /dev/tty (/dev/ttys*) are not listed: a
   process keeps the terminal it inherited, but does not get to open
   another one of the same user.  */
static const char *const write_devices[] = {
  "/dev/null",   "/dev/zero",    "/dev/tty",
  "/dev/random", "/dev/urandom", "/dev/dtracehelper",
};

struct profile
{
  FILE *f;
  const struct sbx_plan *plan;
  const struct sbx_macos_paths *paths;
  struct sbx_error *err;
};

static const char *
why_name (enum sbx_plan_why why)
{
  static const char *const names[] = {
    [SBX_WHY_ROOT] = "root",
    [SBX_WHY_SYSTEM] = "system",
    [SBX_WHY_OCI_MOUNT] = "mount",
    [SBX_WHY_WORKSPACE] = "workspace",
    [SBX_WHY_TEMP] = "temp",
    [SBX_WHY_PROTECTED] = "protected",
    [SBX_WHY_CREDENTIAL] = "credential",
    [SBX_WHY_SOCKET] = "socket",
    [SBX_WHY_ALIAS] = "alias",
    [SBX_WHY_MASKED] = "masked",
    [SBX_WHY_READONLY] = "readonly",
  };
  if ((size_t) why < sizeof names / sizeof names[0] && names[why])
    return names[why];
  return "plan";
}

/* The canonical form of PATH, from plan entry INDEX.  */
static int
canonical_path (struct profile *pr, size_t index, const char *path, char **out)
{
  int r = sbx_macos_path_canonical (pr->paths, path, out, pr->err);
  if (r < 0)
    sbx_error_prefix (pr->err, "plan mount %zu", index);
  return r;
}

/* The canonical PATH of plan entry INDEX as a quoted SBPL string.  */
static int
quoted_path (struct profile *pr, size_t index, const char *path, char **out)
{
  cleanup_free char *canonical = NULL;
  int r = canonical_path (pr, index, path, &canonical);
  if (r < 0)
    return r;
  r = sbx_sbpl_quote (canonical, out, pr->err);
  if (r < 0)
    sbx_error_prefix (pr->err, "plan mount %zu", index);
  return r;
}

static void
emit_header (struct profile *pr)
{
  const struct sbx_plan *plan = pr->plan;
  fprintf (pr->f,
           "; sbx-oci seatbelt profile: mode %s, network %s\n"
           "; rules follow the plan in order; in SBPL the last matching "
           "rule wins\n"
           "(version 1)\n"
           "(allow default)\n",
           sbx_mode_name (plan->mode), sbx_net_name (plan->network));
}

static void
emit_network (struct profile *pr)
{
  FILE *f = pr->f;
  switch (pr->plan->network)
    {
    case SBX_NET_ALLOW:
      fputs ("; network: allow, no rule\n", f);
      break;
    case SBX_NET_DENY:
      fputs ("; network: deny, unix-domain sockets included\n"
             "(deny network*)\n",
             f);
      break;
    case SBX_NET_LOOPBACK:
      /* No network namespace on macOS: "localhost" is the host's own
         loopback, not a private one as on Linux.  */
      fputs ("; network: loopback; macOS has no private loopback, so "
             "services listening\n"
             "; on the host's localhost are reachable from the sandbox\n"
             "(deny network*)\n"
             "(allow network-outbound (remote ip \"localhost:*\"))\n"
             "(allow network-inbound (local ip \"localhost:*\"))\n"
             "(allow network-bind (local ip \"localhost:*\"))\n",
             f);
      break;
    default:
      break;
    }
}

static void
emit_file_baseline (struct profile *pr)
{
  FILE *f = pr->f;
  if (pr->plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    {
      fputs ("; files: danger-full-access, no blanket write deny\n", f);
      return;
    }
  fputs ("; files: every write is denied unless a rule below grants it\n"
         "(deny file-write*)\n"
         "(allow file-write*",
         f);
  for (size_t i = 0; i < sizeof write_devices / sizeof write_devices[0]; i++)
    fprintf (f, "\n  (literal \"%s\")", write_devices[i]);
  fputs ("\n  (subpath \"/dev/fd\")) ; devices\n", f);
}

static bool
is_write_grant (enum sbx_plan_op op)
{
  return op == SBX_PLAN_BIND_RW || op == SBX_PLAN_BIND_DEV
         || op == SBX_PLAN_TMPFS;
}

/* Whether CHILD lies strictly below PARENT (both clean, absolute).  */
static bool
is_strictly_below (const char *child, const char *parent)
{
  size_t n = strlen (parent);
  if (strcmp (parent, "/") == 0)
    return child[0] == '/' && child[1] != '\0';
  return strncmp (child, parent, n) == 0 && child[n] == '/';
}

/* A read-only seal of DEST, as bwrap's --remount-ro: it seals the mount at
   DEST and not the mounts below it, so the write grants below DEST stay
   writable whatever their place in the plan.  */
static int
emit_seal (struct profile *pr, size_t index, const char *qdest)
{
  const struct sbx_plan *plan = pr->plan;
  cleanup_free char *dest = NULL;
  int r = canonical_path (pr, index, plan->mounts[index].dest, &dest);
  if (r < 0)
    return r;
  fprintf (pr->f, "(deny file-write* (require-all (subpath %s)", qdest);
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (!is_write_grant (m->op))
        continue;
      cleanup_free char *grant = NULL;
      cleanup_free char *qgrant = NULL;
      r = canonical_path (pr, i, m->dest, &grant);
      if (r < 0)
        return r;
      if (!is_strictly_below (grant, dest))
        continue;
      r = sbx_sbpl_quote (grant, &qgrant, pr->err);
      if (r < 0)
        return sbx_error_prefix (pr->err, "plan mount %zu", i);
      fprintf (pr->f, "\n  (require-not (subpath %s))", qgrant);
    }
  fprintf (pr->f, ")) ; %s: sealed read-only\n",
           why_name (plan->mounts[index].why));
  return 0;
}

/* Binds cannot move a path on macOS: a bind is expressible only where the
   host path and the sandbox path are the same.  */
static int
check_bind_in_place (struct profile *pr, size_t index)
{
  const struct sbx_plan_mount *m = &pr->plan->mounts[index];
  if (m->source == NULL || strcmp (m->source, m->dest) == 0)
    return 0;
  return sbx_fail (pr->err, -ENOTSUP,
                   "plan mount %zu: seatbelt cannot show '%s' at '%s' (no "
                   "bind mounts on macOS); mount it at the same path",
                   index, m->source, m->dest);
}

static int
emit_entry (struct profile *pr, size_t index)
{
  const struct sbx_plan_mount *m = &pr->plan->mounts[index];
  const char *why = why_name (m->why);
  FILE *f = pr->f;
  cleanup_free char *q = NULL;
  int r;

  /* What a fresh /proc, /dev, mqueue or a mount point does on Linux has no
     Seatbelt counterpart; the devices are in the baseline.  The root is
     the host itself, read-only through the blanket deny.  */
  if (m->op == SBX_PLAN_PROC || m->op == SBX_PLAN_DEV
      || m->op == SBX_PLAN_MQUEUE || m->op == SBX_PLAN_DIR
      || m->why == SBX_WHY_ROOT)
    return 0;
  if (m->op == SBX_PLAN_BIND_RO || m->op == SBX_PLAN_BIND_RW
      || m->op == SBX_PLAN_BIND_DEV)
    {
      r = check_bind_in_place (pr, index);
      if (r < 0)
        return r;
    }
  r = quoted_path (pr, index, m->dest, &q);
  if (r < 0)
    return r;
  switch (m->op)
    {
    case SBX_PLAN_BIND_RW:
    case SBX_PLAN_BIND_DEV:
      fprintf (f, "(allow file-read* file-write* (subpath %s)) ; %s: write\n",
               q, why);
      break;
    case SBX_PLAN_TMPFS:
      fprintf (f,
               "; %s: a private tmpfs on Linux; on macOS the shared host "
               "directory is granted\n"
               "(allow file-read* file-write* (subpath %s)) ; %s: write\n",
               why, q, why);
      break;
    case SBX_PLAN_BIND_RO:
      fprintf (f, "(deny file-write* (subpath %s)) ; %s: read-only\n", q, why);
      break;
    case SBX_PLAN_HIDE_DIR:
      fprintf (f, "(deny file-read* file-write* (subpath %s)) ; %s: hidden\n",
               q, why);
      break;
    case SBX_PLAN_HIDE_FILE:
      fprintf (f, "(deny file-read* file-write* (literal %s)) ; %s: hidden\n",
               q, why);
      /* Connecting to a unix socket is a network operation, not a write.  */
      if (m->why == SBX_WHY_SOCKET)
        fprintf (f,
                 "(deny network-outbound (remote unix-socket (path-literal "
                 "%s))) ; %s: no connect\n",
                 q, why);
      break;
    case SBX_PLAN_REMOUNT_RO:
      return emit_seal (pr, index, q);
    default:
      return sbx_fail (pr->err, -EINVAL,
                       "plan mount %zu: unknown operation %d", index,
                       (int) m->op);
    }
  return 0;
}

static int
check_plan (const struct sbx_plan *plan, struct sbx_error *err)
{
  if (!plan->agent)
    return sbx_fail (err, -ENOTSUP,
                     "root.path '%s': the seatbelt backend runs host "
                     "commands only and cannot give a container its own "
                     "root filesystem; use root.path \"/\" or the linux "
                     "backend",
                     plan->root ? plan->root : "(none)");
  if (plan->mode == SBX_MODE_UNSET)
    return sbx_fail (err, -EINVAL,
                     "plan has no mode; resolve the policy "
                     "before generating a profile");
  if (plan->network == SBX_NET_UNSET)
    return sbx_fail (err, -EINVAL,
                     "plan has no network level; resolve the "
                     "policy before generating a profile");
  return 0;
}

int
sbx_sbpl_profile (const struct sbx_plan *plan,
                  const struct sbx_macos_paths *paths, char **out,
                  struct sbx_error *err)
{
  int r = check_plan (plan, err);
  if (r < 0)
    return r;
  cleanup_free char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  if (f == NULL)
    return sbx_fail_errno (err, -errno, "open_memstream");
  struct profile pr = { .f = f, .plan = plan, .paths = paths, .err = err };
  emit_header (&pr);
  emit_network (&pr);
  emit_file_baseline (&pr);
  for (size_t i = 0; i < plan->n_mounts && r == 0; i++)
    r = emit_entry (&pr, i);
  bool write_failed = ferror (f) != 0;
  if (fclose (f) != 0 || write_failed)
    return sbx_fail (err, -ENOMEM, "writing the seatbelt profile failed");
  if (r < 0)
    return r;
  *out = steal_pointer (&text);
  return 0;
}
