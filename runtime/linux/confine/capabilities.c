/* Validate OCI capability names and collapse the five OCI sets into the
   single set bwrap can give (see capabilities.h).  */
#include "runtime/linux/confine/capabilities.h"

#include <cap-ng.h>
#include <ctype.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

/* Sets are kept as masks, here and in sbx-oci-init's -c argument.  The
   names are libcap-ng's, whose table follows the headers of its own
   build: numbers are walked up to these headers' CAP_LAST_CAP, and the
   unit test checks that libcap-ng names every one of them.  */
_Static_assert(CAP_LAST_CAP < 64, "capability sets are kept in a uint64_t");

#define CAP_PREFIX "CAP_"
/* "CAP_" + libcap-ng's longest name ("checkpoint_restore"), with room to
   spare.  */
#define CAP_NAME_MAX 32
/* Every name at once, comma-separated.  */
#define CAP_LIST_MAX ((CAP_LAST_CAP + 1) * (CAP_NAME_MAX + 2))

#define BIT(cap) (UINT64_C (1) << (cap))

/* OCI's spelling of capability CAP in BUF ("CAP_NET_BIND_SERVICE";
   libcap-ng's is "net_bind_service"): where the two spellings meet.
   False if CAP is unknown: beyond these headers, beyond the running
   kernel (libcap-ng names nothing above the cap_last_cap it reads when
   the program starts), or missing from libcap-ng's table (for such a
   number it makes up "cap_41", which names nothing).  */
static bool
cap_oci_name (int cap, char buf[CAP_NAME_MAX])
{
  const char *name = cap >= 0 && cap <= CAP_LAST_CAP
                         ? capng_capability_to_name ((unsigned) cap)
                         : NULL;
  if (name == NULL || capng_name_to_capability (name) != cap)
    return false;
  int n = snprintf (buf, CAP_NAME_MAX, CAP_PREFIX "%s", name);
  if (n < 0 || n >= CAP_NAME_MAX)
    return false;
  for (int i = 0; i < n; i++)
    buf[i] = (char) toupper ((unsigned char) buf[i]);
  return true;
}

/* The number of OCI name NAME, or -1.  Only the exact OCI spelling counts,
   as in runc: libcap-ng ignores case, so the number must give NAME back
   ("cap_chown", "CAP_Chown" and "CHOWN" are unknown).  */
static int
cap_from_oci_name (const char *name)
{
  char canonical[CAP_NAME_MAX];
  if (strncmp (name, CAP_PREFIX, strlen (CAP_PREFIX)) != 0)
    return -1;
  int cap = capng_name_to_capability (name + strlen (CAP_PREFIX));
  if (!cap_oci_name (cap, canonical) || strcmp (canonical, name) != 0)
    return -1;
  return cap;
}

static int
parse_set (const struct strv *names, const char *set, uint64_t *mask,
           struct sbx_error *err)
{
  *mask = 0;
  for (size_t i = 0; i < names->n; i++)
    {
      int cap = cap_from_oci_name (names->v[i]);
      if (cap < 0)
        return sbx_refuse_path (
            err, -EINVAL,
            "process.capabilities.%s[%zu]: unknown capability "
            "\"%s\"",
            set, i, names->v[i]);
      *mask |= BIT (cap);
    }
  return 0;
}

/* "CAP_A, CAP_B" for the capabilities in SET.  */
static void
format_caps (uint64_t set, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int cap = 0; cap <= CAP_LAST_CAP && used < len; cap++)
    {
      char name[CAP_NAME_MAX];
      if (!(set & BIT (cap)) || !cap_oci_name (cap, name))
        continue;
      int n
          = snprintf (buf + used, len - used, "%s%s", used ? ", " : "", name);
      used += n > 0 ? (size_t) n : 0;
    }
}

/* Push "process.capabilities[.SET]: CAPS WHAT" when CAPS is not empty.  */
static int
note_caps (struct strv *notes, const char *set, uint64_t caps,
           const char *what)
{
  char list[CAP_LIST_MAX];
  if (caps == 0)
    return 0;
  format_caps (caps, list, sizeof list);
  return strv_pushf (notes, "process.capabilities%s%s: %s %s", set ? "." : "",
                     set ? set : "", list, what);
}

/* The five OCI sets, in the order of set_names.  */
enum
{
  BND,
  EFF,
  INH,
  PRM,
  AMB,
  N_SETS
};
static const char *const set_names[N_SETS] = {
  "bounding", "effective", "inheritable", "permitted", "ambient",
};

/* One line per difference between the sets asked for and KEEP, which bwrap
   gives as effective, permitted, inheritable and ambient at once.  */
static int
note_differences (const uint64_t set[N_SETS], uint64_t keep,
                  struct strv *notes)
{
  static const char *const one_set = "added (bwrap gives one set for all)";
  static const char *const not_permitted = "not permitted: not granted";
  int r = note_caps (notes, "permitted", set[PRM] & ~set[BND],
                     "not in the bounding set: not granted");
  r = r < 0 ? r
            : note_caps (notes, "bounding", set[BND] & ~keep,
                         "not permitted: cannot be gained later either "
                         "(bwrap sets no_new_privs)");
  static const int others[] = { EFF, INH, AMB };
  for (int i = 0; i < 3 && r >= 0; i++)
    {
      int s = others[i];
      r = note_caps (notes, set_names[s], keep & ~set[s], one_set);
      r = r < 0
              ? r
              : note_caps (notes, set_names[s], set[s] & ~keep, not_permitted);
    }
  return r;
}

static int
push_names (struct strv *out, uint64_t set)
{
  for (int cap = 0; cap <= CAP_LAST_CAP; cap++)
    {
      char name[CAP_NAME_MAX];
      if ((set & BIT (cap)) && cap_oci_name (cap, name)
          && strv_push (out, name) < 0)
        return -ENOMEM;
    }
  return 0;
}

int
sbx_caps_plan (const struct sbx_capabilities *caps, bool privileged,
               struct strv *keep, struct strv *notes, struct sbx_error *err)
{
  const struct strv *sets[N_SETS]
      = { &caps->bounding, &caps->effective, &caps->inheritable,
          &caps->permitted, &caps->ambient };
  uint64_t mask[N_SETS], requested = 0;
  if (!caps->present)
    return 0;
  for (int i = 0; i < N_SETS; i++)
    {
      int r = parse_set (sets[i], set_names[i], &mask[i], err);
      if (r < 0)
        return r;
      requested |= mask[i];
    }
  int r;
  if (!privileged)
    r = note_caps (notes, NULL, requested,
                   "requested but the caller is unprivileged: none granted");
  else
    {
      uint64_t granted = mask[PRM] & mask[BND];
      r = note_differences (mask, granted, notes);
      r = r < 0 ? r : push_names (keep, granted);
    }
  if (r < 0)
    return sbx_fail (err, -ENOMEM, "process.capabilities: out of memory");
  return 0;
}

int
sbx_caps_sets (const struct sbx_capabilities *caps, struct sbx_cap_sets *out,
               struct strv *notes, struct sbx_error *err)
{
  *out = (struct sbx_cap_sets){ 0 };
  if (!caps->present)
    return 0;
  int r = parse_set (&caps->bounding, "bounding", &out->bounding, err);
  r = r ?: parse_set (&caps->effective, "effective", &out->effective, err);
  r = r ?: parse_set (&caps->permitted, "permitted", &out->permitted, err);
  r = r
          ?: parse_set (&caps->inheritable, "inheritable", &out->inheritable,
                        err);
  r = r ?: parse_set (&caps->ambient, "ambient", &out->ambient, err);
  return r
             ?: note_caps (notes, "ambient",
                           out->ambient & ~(out->permitted & out->inheritable),
                           "not raised: the kernel raises only what is "
                           "permitted and inheritable (runc and crun skip "
                           "them too)");
}

int
sbx_caps_decide (const struct sbx_capabilities *caps, bool by_init,
                 bool privileged, struct sbx_caps_decision *out,
                 struct strv *notes, struct sbx_error *err)
{
  out->by_sets = by_init;
  if (by_init)
    return sbx_caps_sets (caps, &out->sets, notes, err);
  return sbx_caps_plan (caps, privileged, &out->keep, notes, err);
}

void
sbx_caps_decision_free (struct sbx_caps_decision *d)
{
  strv_free (&d->keep);
}

int
sbx_caps_known (struct strv *out)
{
  return push_names (out, CAP_LAST_CAP == 63 ? UINT64_MAX
                                             : BIT (CAP_LAST_CAP + 1) - 1);
}

int
sbx_caps_trim_bounding (uint64_t keep)
{
  /* By prctl, not capng_apply's CAPNG_SELECT_BOUNDS: that reads
     /proc/TID/status, here the sandbox's /proc, which a sandbox holding
     CAP_SYS_ADMIN can mount over (a FIFO there would hold exec before its
     command).  The kernel may know capabilities libcap-ng does not; they
     are outside KEEP, so they go too.  */
  for (int cap = 0; cap < 64 && prctl (PR_CAPBSET_READ, cap, 0, 0, 0) >= 0;
       cap++)
    if (!(keep & BIT (cap)) && prctl (PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
      return -errno;
  return 0;
}

int
sbx_caps_set_sets (const struct sbx_cap_sets *s)
{
  /* None of libcap-ng's calls here allocates or reads a file: capng_clear
     asks the kernel's capability version and this thread's id (the
     handler libcap-ng registers with pthread_atfork makes a forked child
     ask again), the rest works on its state until the capset and the
     ambient prctls.  So this is safe in a forked child, as it must be
     (exec_join.c).  */
  capng_clear (CAPNG_SELECT_ALL);
  const struct
  {
    uint64_t set;
    capng_type_t type;
  } each[] = { { s->effective, CAPNG_EFFECTIVE },
               { s->permitted, CAPNG_PERMITTED },
               { s->inheritable, CAPNG_INHERITABLE },
               { s->ambient & s->permitted & s->inheritable, CAPNG_AMBIENT } };
  for (size_t i = 0; i < sizeof each / sizeof *each; i++)
    for (int cap = 0; cap < 64; cap++)
      if ((each[i].set & BIT (cap))
          && capng_update (CAPNG_ADD, each[i].type, (unsigned) cap) < 0)
        return -(errno = EINVAL);
  /* capng_apply fails without setting errno when libcap-ng could not
     read the process's state; the caller reports errno.  */
  errno = EPERM;
  if (capng_apply (CAPNG_SELECT_CAPS) < 0
      || capng_apply (CAPNG_SELECT_AMBIENT) < 0)
    return -errno;
  return 0;
}

int
sbx_caps_set_exact (const struct strv *names)
{
  struct sbx_cap_sets s = { 0 };
  for (size_t i = 0; i < names->n; i++)
    {
      int cap = cap_from_oci_name (names->v[i]);
      if (cap >= 0)
        s.bounding |= BIT (cap);
    }
  s.effective = s.permitted = s.inheritable = s.bounding;
  return sbx_caps_trim_bounding (s.bounding) ?: sbx_caps_set_sets (&s);
}
