/* process.rlimits applied for real, in forked children.  */
#include "runtime/linux/confine/rlimits.h"
#include "tests/unit/in_child.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static bool
limit_is (int resource, rlim_t soft, rlim_t hard)
{
  struct rlimit lim;
  return getrlimit (resource, &lim) == 0 && lim.rlim_cur == soft
         && lim.rlim_max == hard;
}

static int
apply_two (struct sbx_error *err)
{
  const struct sbx_rlimit rl[] = {
    { .type = "RLIMIT_NOFILE",
      .resource = RLIMIT_NOFILE,
      .soft = 42,
      .hard = 42 },
    { .type = "RLIMIT_CORE", .resource = RLIMIT_CORE, .soft = 0, .hard = 0 },
  };
  if (sbx_rlimits_apply (rl, 2, err) < 0)
    return 1;
  if (!limit_is (RLIMIT_NOFILE, 42, 42))
    return 2;
  return limit_is (RLIMIT_CORE, 0, 0) ? 0 : 3;
}

static int
soft_above_hard (struct sbx_error *err)
{
  const struct sbx_rlimit rl[] = {
    { .type = "RLIMIT_NPROC",
      .resource = RLIMIT_NPROC,
      .soft = 10,
      .hard = 5 },
  };
  return sbx_rlimits_apply (rl, 1, err) == -EINVAL ? 0 : 1;
}

/* Lower the hard limit, give up root, then ask for it back: EPERM.  */
static int
raise_unprivileged (struct sbx_error *err)
{
  const struct rlimit low = { 64, 64 };
  if (setrlimit (RLIMIT_NOFILE, &low) < 0)
    return 2;
  if (getuid () == 0 && (setgid (65534) < 0 || setuid (65534) < 0))
    return 3;
  const struct sbx_rlimit rl[] = {
    { .type = "RLIMIT_CORE", .resource = RLIMIT_CORE, .soft = 0, .hard = 0 },
    { .type = "RLIMIT_NOFILE",
      .resource = RLIMIT_NOFILE,
      .soft = 128,
      .hard = 128 },
  };
  return sbx_rlimits_apply (rl, 2, err) == -EPERM ? 0 : 1;
}

/* The case in_rlimit_case runs: set before the fork, so the child has it.  */
static int (*rlimit_case) (struct sbx_error *err);

static int
run_rlimit_case (char *msg, size_t len)
{
  struct sbx_error err = { 0 };
  int status = rlimit_case (&err);
  snprintf (msg, len, "%s", err.msg);
  return status;
}

/* Run FN in a child; its error message (or "") comes back in MSG and its
   exit status is returned.  */
static int
in_rlimit_child (int (*fn) (struct sbx_error *err), char *msg, size_t len)
{
  rlimit_case = fn;
  return in_child (run_rlimit_case, msg, len);
}

int
main (void)
{
  char msg[SBX_ERROR_MSG_MAX];
  int r = in_rlimit_child (apply_two, msg, sizeof msg);
  if (!tap_ok (r == 0, "RLIMIT_NOFILE 42/42 and RLIMIT_CORE 0 applied"))
    printf ("# status %d: %s\n", r, msg);

  r = in_rlimit_child (soft_above_hard, msg, sizeof msg);
  tap_ok (r == 0, "soft above hard refused");
  tap_streq (msg,
             "process.rlimits[0]: RLIMIT_NPROC soft limit 10 is above its "
             "hard limit 5",
             "  message names the entry");

  r = in_rlimit_child (raise_unprivileged, msg, sizeof msg);
  tap_ok (r == 0, "raising a hard limit without privilege fails");
  tap_streq (msg,
             "process.rlimits[1]: cannot set RLIMIT_NOFILE to soft 128, "
             "hard 128: Operation not permitted (raising a hard limit needs "
             "CAP_SYS_RESOURCE)",
             "  message names the entry and the reason");

  struct sbx_error err = { 0 };
  tap_ok (sbx_rlimits_apply (NULL, 0, &err) == 0, "no rlimits: nothing to do");
  return tap_done ();
}
