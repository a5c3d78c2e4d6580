/* Validate OCI capability names and collapse the five OCI sets into the
   single set bwrap can give (see capabilities.h).  */
#include "runtime/linux/confine/capabilities.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(CAP_LAST_CAP < 64, "capability sets are kept in a uint64_t");

/* Every capability of <linux/capability.h>, as OCI spells it.  Our own
   table, not libcap-ng's: that library's one object file also brings
   getpwuid and initgroups, which a static sbx-oci cannot link cleanly,
   and a constructor that costs every start four prctls and a procfs
   read.  The compiler checks each name against the kernel's headers, and
   the assertion below fails the build when they gain a capability.  */
#define NAME(cap) [CAP_##cap] = "CAP_" #cap
static const char *const cap_names[] = {
  NAME (CHOWN),
  NAME (DAC_OVERRIDE),
  NAME (DAC_READ_SEARCH),
  NAME (FOWNER),
  NAME (FSETID),
  NAME (KILL),
  NAME (SETGID),
  NAME (SETUID),
  NAME (SETPCAP),
  NAME (LINUX_IMMUTABLE),
  NAME (NET_BIND_SERVICE),
  NAME (NET_BROADCAST),
  NAME (NET_ADMIN),
  NAME (NET_RAW),
  NAME (IPC_LOCK),
  NAME (IPC_OWNER),
  NAME (SYS_MODULE),
  NAME (SYS_RAWIO),
  NAME (SYS_CHROOT),
  NAME (SYS_PTRACE),
  NAME (SYS_PACCT),
  NAME (SYS_ADMIN),
  NAME (SYS_BOOT),
  NAME (SYS_NICE),
  NAME (SYS_RESOURCE),
  NAME (SYS_TIME),
  NAME (SYS_TTY_CONFIG),
  NAME (MKNOD),
  NAME (LEASE),
  NAME (AUDIT_WRITE),
  NAME (AUDIT_CONTROL),
  NAME (SETFCAP),
  NAME (MAC_OVERRIDE),
  NAME (MAC_ADMIN),
  NAME (SYSLOG),
  NAME (WAKE_ALARM),
  NAME (BLOCK_SUSPEND),
  NAME (AUDIT_READ),
  NAME (PERFMON),
  NAME (BPF),
  NAME (CHECKPOINT_RESTORE),
};
#undef NAME
_Static_assert(sizeof cap_names / sizeof *cap_names == CAP_LAST_CAP + 1,
               "<linux/capability.h> knows a capability cap_names lacks");

/* Every name at once, comma-separated.  */
#define CAP_LIST_MAX ((CAP_LAST_CAP + 1) * 32)

#define BIT(cap) (UINT64_C (1) << (cap))

/* OCI's spelling of capability CAP ("CAP_NET_BIND_SERVICE"), or NULL if
   this build does not know CAP.  */
static const char *
cap_oci_name (int cap)
{
  return cap >= 0 && cap <= CAP_LAST_CAP ? cap_names[cap] : NULL;
}

/* The number of OCI name NAME, or -1.  Only the exact OCI spelling counts,
   as in runc: "cap_chown" and "CHOWN" are unknown.  */
static int
cap_from_oci_name (const char *name)
{
  for (int cap = 0; cap <= CAP_LAST_CAP; cap++)
    if (strcmp (cap_names[cap], name) == 0)
      return cap;
  return -1;
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
      const char *name = cap_oci_name (cap);
      if (!(set & BIT (cap)) || name == NULL)
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
      const char *name = cap_oci_name (cap);
      if ((set & BIT (cap)) && name && strv_push (out, name) < 0)
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
               struct sbx_error *err)
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
  return r ?: parse_set (&caps->ambient, "ambient", &out->ambient, err);
}

int
sbx_caps_known (struct strv *out)
{
  return push_names (out, CAP_LAST_CAP == 63 ? UINT64_MAX
                                             : BIT (CAP_LAST_CAP + 1) - 1);
}

int
sbx_caps_set_exact (const struct strv *names)
{
  uint64_t keep = 0;
  for (size_t i = 0; i < names->n; i++)
    {
      int cap = cap_from_oci_name (names->v[i]);
      if (cap >= 0)
        keep |= BIT (cap);
    }
  /* The bounding set first: trimming it needs CAP_SETPCAP, which the
     capset below may drop.  The kernel may know capabilities this build
     does not; they are outside KEEP, so they go too.  */
  for (int cap = 0; cap < 64 && prctl (PR_CAPBSET_READ, cap, 0, 0, 0) >= 0;
       cap++)
    if (!(keep & BIT (cap)) && prctl (PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
      return -errno;
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
    {
      uint32_t word = (uint32_t) (keep >> (32 * i));
      data[i] = (struct __user_cap_data_struct){ word, word, word };
    }
  return syscall (SYS_capset, &hdr, data) < 0 ? -errno : 0;
}
