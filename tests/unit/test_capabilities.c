/* process.capabilities -> the one set bwrap gives, with notes.  */
#include "runtime/linux/confine/capabilities.h"
#include "tests/unit/in_child.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <unistd.h>

/* Fill SET from the comma-separated NAMES.  */
static void
set_of (struct strv *set, const char *names)
{
  char *copy = strdup (names), *save = NULL;
  for (char *n = strtok_r (copy, ",", &save); n;
       n = strtok_r (NULL, ",", &save))
    strv_push (set, n);
  free (copy);
}

struct result
{
  int r;
  struct strv keep, notes;
  struct sbx_error err;
};

static void
plan (struct result *res, bool privileged, const char *bounding,
      const char *effective, const char *inheritable, const char *permitted,
      const char *ambient)
{
  struct sbx_capabilities caps = { .present = true };
  set_of (&caps.bounding, bounding);
  set_of (&caps.effective, effective);
  set_of (&caps.inheritable, inheritable);
  set_of (&caps.permitted, permitted);
  set_of (&caps.ambient, ambient);
  *res = (struct result){ 0 };
  res->r
      = sbx_caps_plan (&caps, privileged, &res->keep, &res->notes, &res->err);
  strv_free (&caps.bounding);
  strv_free (&caps.effective);
  strv_free (&caps.inheritable);
  strv_free (&caps.permitted);
  strv_free (&caps.ambient);
}

static void
result_free (struct result *res)
{
  strv_free (&res->keep);
  strv_free (&res->notes);
}

/* KEEP joined with commas, for comparison.  */
static const char *
joined (const struct strv *sv)
{
  static char buf[4096];
  buf[0] = '\0';
  for (size_t i = 0; i < sv->n; i++)
    {
      if (i)
        strcat (buf, ",");
      strcat (buf, sv->v[i]);
    }
  return buf;
}

static void
test_unknown_names (void)
{
  struct result res;
  plan (&res, true, "CAP_CHOWN,CAP_KILL,CAP_FOO", "", "", "", "");
  tap_ok (res.r == -EINVAL, "unknown capability refused");
  tap_streq (res.err.msg,
             "process.capabilities.bounding[2]: unknown capability "
             "\"CAP_FOO\"",
             "  names the set, the index and the name");
  result_free (&res);

  plan (&res, true, "", "", "", "", "CAP_CHOWN,cap_kill");
  tap_streq (res.err.msg,
             "process.capabilities.ambient[1]: unknown capability "
             "\"cap_kill\"",
             "lower-case spelling refused, as runc does");
  result_free (&res);

  plan (&res, true, "", "", "", "CHOWN", "");
  tap_streq (res.err.msg,
             "process.capabilities.permitted[0]: unknown capability "
             "\"CHOWN\"",
             "name without CAP_ refused");
  result_free (&res);

  /* libcap-ng compares names without case and has none for a number.  */
  plan (&res, true, "", "CAP_Chown", "", "", "");
  tap_streq (res.err.msg,
             "process.capabilities.effective[0]: unknown capability "
             "\"CAP_Chown\"",
             "mixed-case spelling refused");
  result_free (&res);

  plan (&res, true, "", "", "CAP_0", "", "");
  tap_streq (res.err.msg,
             "process.capabilities.inheritable[0]: unknown capability "
             "\"CAP_0\"",
             "a number is no name");
  result_free (&res);

  /* What libcap-ng calls a number above its table.  */
  plan (&res, true, "CAP_CAP_41", "", "", "", "");
  tap_streq (res.err.msg,
             "process.capabilities.bounding[0]: unknown capability "
             "\"CAP_CAP_41\"",
             "libcap-ng's made-up name for it refused");
  result_free (&res);

  plan (&res, false, "CAP_BOGUS", "", "", "", "");
  tap_ok (res.r == -EINVAL,
          "names are validated for unprivileged callers too");
  result_free (&res);
}

static void
test_mapping (void)
{
  struct result res;
  /* What podman and Docker write: bounding = effective = permitted.  */
  plan (&res, true, "CAP_KILL,CAP_CHOWN", "CAP_KILL,CAP_CHOWN", "",
        "CAP_CHOWN,CAP_KILL", "");
  tap_ok (res.r == 0, "typical container set accepted");
  tap_streq (joined (&res.keep), "CAP_CHOWN,CAP_KILL",
             "keep is in capability-number order");
  tap_ok (res.notes.n == 2, "two notes: inheritable and ambient get the set");
  tap_streq (res.notes.n ? res.notes.v[0] : NULL,
             "process.capabilities.inheritable: CAP_CHOWN, CAP_KILL added "
             "(bwrap gives one set for all)",
             "  inheritable note");
  result_free (&res);

  /* All five equal: nothing to say.  */
  plan (&res, true, "CAP_NET_RAW", "CAP_NET_RAW", "CAP_NET_RAW", "CAP_NET_RAW",
        "CAP_NET_RAW");
  tap_ok (res.r == 0 && res.notes.n == 0
              && strcmp (joined (&res.keep), "CAP_NET_RAW") == 0,
          "five equal sets: keep them, no note");
  result_free (&res);

  /* permitted outside bounding, effective not permitted, bounding wider. */
  plan (&res, true, "CAP_CHOWN,CAP_SETUID,CAP_SYS_ADMIN",
        "CAP_CHOWN,CAP_NET_ADMIN", "CAP_CHOWN", "CAP_CHOWN,CAP_MKNOD",
        "CAP_CHOWN");
  tap_streq (joined (&res.keep), "CAP_CHOWN", "keep = permitted ∩ bounding");
  tap_streq (joined (&res.notes),
             "process.capabilities.permitted: CAP_MKNOD not in the bounding "
             "set: not granted,"
             "process.capabilities.bounding: CAP_SETUID, CAP_SYS_ADMIN not "
             "permitted: cannot be gained later either (bwrap sets "
             "no_new_privs),"
             "process.capabilities.effective: CAP_NET_ADMIN not permitted: "
             "not granted",
             "one note per difference");
  result_free (&res);

  plan (&res, true, "", "", "", "", "");
  tap_ok (res.r == 0 && res.keep.n == 0 && res.notes.n == 0,
          "all sets empty: nothing kept, nothing to say");
  result_free (&res);

  struct sbx_capabilities absent = { .present = false };
  struct strv keep = { 0 }, notes = { 0 };
  struct sbx_error err = { 0 };
  tap_ok (sbx_caps_plan (&absent, true, &keep, &notes, &err) == 0
              && keep.n == 0 && notes.n == 0,
          "absent capabilities: nothing kept, nothing to say");
}

static void
test_unprivileged (void)
{
  struct result res;
  plan (&res, false, "CAP_KILL,CAP_CHOWN", "CAP_KILL", "", "CAP_KILL",
        "CAP_NET_BIND_SERVICE");
  tap_ok (res.r == 0 && res.keep.n == 0, "unprivileged: nothing kept");
  tap_streq (joined (&res.notes),
             "process.capabilities: CAP_CHOWN, CAP_KILL, "
             "CAP_NET_BIND_SERVICE requested but the caller is "
             "unprivileged: none granted",
             "  one note listing every requested capability");
  result_free (&res);

  plan (&res, false, "", "", "", "", "");
  tap_ok (res.r == 0 && res.notes.n == 0, "unprivileged, none asked: silent");
  result_free (&res);
}

/* The last capability of the running kernel, or CAP_LAST_CAP.  */
static int
kernel_last_cap (void)
{
  FILE *f = fopen ("/proc/sys/kernel/cap_last_cap", "re");
  int last = CAP_LAST_CAP;
  if (f && fscanf (f, "%d", &last) != 1)
    last = CAP_LAST_CAP;
  if (f)
    fclose (f);
  return last;
}

static void
test_known (void)
{
  struct strv known = { 0 };
  /* libcap-ng's table follows the headers of its own build: this says
     that it names every capability of ours, as far as the kernel has
     them.  */
  int last
      = kernel_last_cap () < CAP_LAST_CAP ? kernel_last_cap () : CAP_LAST_CAP;
  int r = sbx_caps_known (&known);
  tap_ok (r == 0 && known.n == (size_t) last + 1,
          "every capability up to CAP_LAST_CAP the kernel has is known "
          "(%zu of %d)",
          known.n, last + 1);
  tap_streq (known.n ? known.v[0] : NULL, "CAP_CHOWN", "  first is CAP_CHOWN");
  tap_ok (strv_contains (&known, "CAP_NET_BIND_SERVICE")
              && strv_contains (&known, "CAP_SYS_ADMIN"),
          "  OCI spelling");
  /* Every name listed is accepted by the planner.  */
  struct sbx_capabilities caps = { .present = true, .bounding = known };
  struct strv keep = { 0 }, notes = { 0 };
  struct sbx_error err = { 0 };
  tap_ok (sbx_caps_plan (&caps, true, &keep, &notes, &err) == 0,
          "every known name is accepted");
  strv_free (&notes);
  strv_free (&keep);
  strv_free (&known);
}

/* What exec does as uid 0: the bounding set trimmed, then effective,
   permitted and inheritable set to exactly the names.  Root only, in a
   child that keeps the result.  */
static int
set_exact_child (char *out, size_t len)
{
  struct strv names = { 0 };
  strv_push (&names, "CAP_CHOWN");
  strv_push (&names, "CAP_KILL");
  int r = sbx_caps_set_exact (&names);
  strv_free (&names);
  FILE *f = fopen ("/proc/self/status", "re");
  char line[256];
  size_t used = 0;
  while (f && fgets (line, sizeof line, f))
    if (strncmp (line, "Cap", 3) == 0 && strncmp (line, "CapAmb", 6) != 0)
      used += (size_t) snprintf (out + used, len - used, "%s", line);
  if (f)
    fclose (f);
  return r < 0 ? -r : 0;
}

static void
test_set_exact (void)
{
  if (geteuid () != 0)
    {
      printf ("ok %d # SKIP sbx_caps_set_exact needs root\n", ++tap_count);
      return;
    }
  char out[1024];
  int status = in_child (set_exact_child, out, sizeof out);
  tap_ok (status == 0, "set_exact as root succeeds (%d)", status);
  /* CAP_CHOWN is bit 0, CAP_KILL bit 5: 0x21 in every set.  */
  tap_streq (out,
             "CapInh:\t0000000000000021\nCapPrm:\t0000000000000021\n"
             "CapEff:\t0000000000000021\nCapBnd:\t0000000000000021\n",
             "  exactly CHOWN and KILL, bounding set included");
}

int
main (void)
{
  test_unknown_names ();
  test_mapping ();
  test_unprivileged ();
  test_known ();
  test_set_exact ();
  return tap_done ();
}
