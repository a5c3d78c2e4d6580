/* The Seatbelt profile generator: see sbpl.h.
 *
 * Layout of every profile:
 *   a comment naming sbx-oci, the mode and the network level;
 *   (version 1) (allow default);
 *   the network rules, first, so that the daemon-socket denies that come
 *   later win over a loopback or allow rule;
 *   the baseline (sbpl_host.c): LaunchServices and AppleEvents denied, the
 *   blanket write deny (not in danger-full-access), the devices, ptys and
 *   Apple's per-user temporary and cache directories;
 *   one rule per plan entry, in plan order: the last matching rule wins in
 *   SBPL as the last mount wins on Linux;
 *   macOS's own daemon sockets and tmux's (sbpl_host.c);
 *   the ancestors of every protected path, which may not move
 *   (sbpl_ancestors.c): no config layer may re-open them.  */
#include "runtime/darwin/sbpl.h"

#include "common/cleanup.h"
#include "runtime/darwin/sbpl_emit.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int
prefix_error (struct profile *pr, size_t index)
{
  if (index == SIZE_MAX)
    return sbx_error_prefix (pr->err, "seatbelt host path");
  return sbx_error_prefix (pr->err, "plan mount %zu", index);
}

int
sbpl_canonical (struct profile *pr, size_t index, const char *path, char **out)
{
  int r = sbx_macos_path_canonical (&pr->host->paths, path, out, pr->err);
  return r < 0 ? prefix_error (pr, index) : 0;
}

int
sbpl_quote_path (struct profile *pr, size_t index, const char *canon,
                 char **out)
{
  size_t len = strlen (canon);
  if (len > SBX_SBPL_PATH_MAX)
    {
      sbx_fail (pr->err, -E2BIG,
                "path '%.48s...' is %zu bytes; seatbelt profiles name paths "
                "of at most %d bytes (macOS MAXPATHLEN), give a shorter one",
                canon, len, SBX_SBPL_PATH_MAX);
      return prefix_error (pr, index);
    }
  pr->path_bytes += len;
  int r = sbx_sbpl_quote (canon, out, pr->err);
  return r < 0 ? prefix_error (pr, index) : 0;
}

int
sbpl_quoted (struct profile *pr, size_t index, const char *path, char **out)
{
  cleanup_free char *canon = NULL;
  int r = sbpl_canonical (pr, index, path, &canon);
  return r < 0 ? r : sbpl_quote_path (pr, index, canon, out);
}

bool
sbpl_is_below (const char *child, const char *parent)
{
  size_t n = strlen (parent);
  if (strcmp (parent, "/") == 0)
    return child[0] == '/' && child[1] != '\0';
  return strncmp (child, parent, n) == 0 && child[n] == '/';
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
      /* SBPL names no address but "*" and "localhost" (sandbox-exec:
         "host must be * or localhost in network address", navikt/cplt#223),
         so 127.0.0.1 and ::1 cannot be spelt, and neither can Java's
         IPv4-mapped ::ffff:127.0.0.1: matching it would take "*:*", every
         address (openai/codex#42925), so it stays refused.  Whether a
         "localhost" bind admits the any-address only a Mac can tell; an
         inbound connection must therefore come from localhost to localhost
         (the stricter reading: a listener on the any-address answers no
         one outside).  No network namespace on macOS: "localhost" is the
         host's own loopback.  */
      fputs ("; network: loopback; macOS has no private loopback, so "
             "services listening\n"
             "; on the host's localhost are reachable from the sandbox; "
             "SBPL cannot name\n"
             "; ::ffff:127.0.0.1, so IPv4-mapped loopback (Java) is "
             "refused\n"
             "(deny network*)\n"
             "(allow network-outbound (remote ip \"localhost:*\"))\n"
             "(allow network-inbound (require-all (local ip \"localhost:*\")\n"
             "  (remote ip \"localhost:*\")))\n"
             "(allow network-bind (local ip \"localhost:*\"))\n",
             f);
      break;
    default:
      break;
    }
}

static bool
is_write_grant (enum sbx_plan_op op)
{
  return op == SBX_PLAN_BIND_RW || op == SBX_PLAN_BIND_DEV
         || op == SBX_PLAN_TMPFS;
}

/* A read-only seal of DEST, as bwrap's --remount-ro: it seals the mount at
   DEST and not the mounts below it, so the write grants below DEST stay
   writable whatever their place in the plan.  With no grant below, the
   rule is a plain filter: a require-all of one filter has no anchor in
   the profiles that run on Macs.  */
static int
emit_seal (struct profile *pr, size_t index, const char *qdest)
{
  const struct sbx_plan *plan = pr->plan;
  cleanup_free char *dest = NULL;
  int r = sbpl_canonical (pr, index, plan->mounts[index].dest, &dest);
  if (r < 0)
    return r;
  cleanup_strv struct strv below = { 0 };
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (!is_write_grant (m->op))
        continue;
      cleanup_free char *grant = NULL;
      cleanup_free char *qgrant = NULL;
      r = sbpl_canonical (pr, i, m->dest, &grant);
      if (r == 0 && sbpl_is_below (grant, dest))
        r = sbpl_quote_path (pr, i, grant, &qgrant);
      if (r < 0)
        return r;
      if (qgrant && strv_push (&below, qgrant) < 0)
        return sbx_fail (pr->err, -ENOMEM, "out of memory");
    }
  const char *why = why_name (plan->mounts[index].why);
  if (below.n == 0)
    {
      fprintf (pr->f,
               "(deny " SBPL_WRITE " (subpath %s)) ; %s: sealed "
               "read-only\n",
               qdest, why);
      return sbpl_guard (pr, dest);
    }
  fprintf (pr->f, "(deny " SBPL_WRITE " (require-all (subpath %s)", qdest);
  for (size_t i = 0; i < below.n; i++)
    fprintf (pr->f, "\n  (require-not (subpath %s))", below.v[i]);
  fprintf (pr->f, ")) ; %s: sealed read-only\n", why);
  return sbpl_guard (pr, dest);
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

/* The latest hidden directory before entry INDEX that holds CANON, or
   NULL: a grant nested in it must be reachable by path.  */
static int
hiding_parent (struct profile *pr, size_t index, const char *canon, char **out)
{
  *out = NULL;
  for (size_t i = index; i-- > 0;)
    {
      const struct sbx_plan_mount *m = &pr->plan->mounts[i];
      if (m->op != SBX_PLAN_HIDE_DIR)
        continue;
      cleanup_free char *hidden = NULL;
      int r = sbpl_canonical (pr, i, m->dest, &hidden);
      if (r < 0)
        return r;
      if (sbpl_is_below (canon, hidden))
        {
          *out = steal_pointer (&hidden);
          return 0;
        }
    }
  return 0;
}

static int
emit_grant (struct profile *pr, size_t index, const char *canon, const char *q)
{
  const struct sbx_plan_mount *m = &pr->plan->mounts[index];
  const char *why = why_name (m->why);
  if (m->op == SBX_PLAN_TMPFS)
    fprintf (pr->f,
             "; %s: a private tmpfs on Linux; on macOS the shared "
             "host directory is granted\n",
             why);
  fprintf (pr->f,
           "(allow file-read* " SBPL_WRITE " (subpath %s)) ; %s: "
           "write\n",
           q, why);
  cleanup_free char *top = NULL;
  int r = hiding_parent (pr, index, canon, &top);
  if (r == 0 && top)
    r = sbpl_emit_ancestor_metadata (pr, canon, top);
  return r;
}

/* A hidden path cannot read as empty under Seatbelt, as it does on Linux
   (an empty tmpfs, /dev/null): a deny fails with EPERM.  Its own metadata
   stays readable, so that `ls -l`, `stat` and `realpath` see an entry
   that exists, as on Linux, and only opening it fails; its contents, a
   directory's names and extended attributes stay denied.  */
static int
emit_hide (struct profile *pr, size_t index, const char *canon, const char *q)
{
  const struct sbx_plan_mount *m = &pr->plan->mounts[index];
  const char *why = why_name (m->why);
  bool dir = m->op == SBX_PLAN_HIDE_DIR;
  fprintf (pr->f, "(deny file-read* " SBPL_WRITE " (%s %s)) ; %s: hidden\n",
           dir ? "subpath" : "literal", q, why);
  fprintf (pr->f,
           "(allow file-read-metadata (literal %s)) ; %s: stat "
           "only\n",
           q, why);
  /* Connecting to a unix socket is a network operation, not a write.  */
  if (m->why == SBX_WHY_SOCKET && !dir)
    fprintf (pr->f,
             "(deny network-outbound (remote unix-socket (path-literal "
             "%s))) ; %s: no connect\n",
             q, why);
  return sbpl_guard (pr, canon);
}

static int
emit_entry (struct profile *pr, size_t index)
{
  const struct sbx_plan_mount *m = &pr->plan->mounts[index];
  cleanup_free char *canon = NULL;
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
  r = sbpl_canonical (pr, index, m->dest, &canon);
  if (r == 0)
    r = sbpl_quote_path (pr, index, canon, &q);
  if (r < 0)
    return r;
  switch (m->op)
    {
    case SBX_PLAN_BIND_RW:
    case SBX_PLAN_BIND_DEV:
    case SBX_PLAN_TMPFS:
      return emit_grant (pr, index, canon, q);
    case SBX_PLAN_BIND_RO:
      fprintf (pr->f, "(deny " SBPL_WRITE " (subpath %s)) ; %s: read-only\n",
               q, why_name (m->why));
      return sbpl_guard (pr, canon);
    case SBX_PLAN_HIDE_DIR:
    case SBX_PLAN_HIDE_FILE:
      return emit_hide (pr, index, canon, q);
    case SBX_PLAN_REMOUNT_RO:
      return emit_seal (pr, index, q);
    default:
      return sbx_fail (pr->err, -EINVAL,
                       "plan mount %zu: unknown operation %d", index,
                       (int) m->op);
    }
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

static int
emit_all (struct profile *pr)
{
  emit_header (pr);
  emit_network (pr);
  int r = sbpl_emit_baseline (pr);
  for (size_t i = 0; i < pr->plan->n_mounts && r == 0; i++)
    r = emit_entry (pr, i);
  if (r == 0)
    r = sbpl_emit_host_hides (pr);
  if (r == 0)
    r = sbpl_emit_guards (pr);
  if (r == 0 && pr->path_bytes > SBX_SBPL_PATH_BYTES_MAX)
    r = sbx_fail (pr->err, -E2BIG,
                  "the seatbelt profile names %zu bytes of paths; "
                  "sandbox-exec compiles at most %d, so hide or grant "
                  "fewer paths",
                  pr->path_bytes, SBX_SBPL_PATH_BYTES_MAX);
  return r;
}

int
sbx_sbpl_profile (const struct sbx_plan *plan,
                  const struct sbx_sbpl_host *host, char **out,
                  struct sbx_error *err)
{
  static const struct sbx_sbpl_host no_host = { .uid = -1 };
  int r = check_plan (plan, err);
  if (r < 0)
    return r;
  cleanup_free char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  if (f == NULL)
    return sbx_fail_errno (err, -errno, "open_memstream");
  struct profile pr
      = { .f = f, .plan = plan, .host = host ? host : &no_host, .err = err };
  r = emit_all (&pr);
  strv_free (&pr.guarded);
  bool write_failed = ferror (f) != 0;
  if (fclose (f) != 0 || write_failed)
    return sbx_fail (err, -ENOMEM, "writing the seatbelt profile failed");
  if (r < 0)
    return r;
  *out = steal_pointer (&text);
  return 0;
}
