/* Golden tests of the Seatbelt generator: a table of hand-built plans, each
   compared with tests/golden/sbpl/NAME.sb (SBX_UPDATE_GOLDEN=1 rewrites
   them) and checked by the structural checker; then the plans Seatbelt
   cannot express, which must fail with a clear error.  */
#include "runtime/darwin/sbpl.h"
#include "tests/unit/golden.h"
#include "tests/unit/sbpl_check.h"
#include "tests/unit/sbpl_fake_paths.h"
#include "tests/unit/sbpl_plan.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int resolver_calls;
static const struct sbx_macos_paths fake_paths
    = { fake_resolve, &resolver_calls };

static void
build_read_only (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_READ_ONLY, SBX_NET_DENY);
  tp_agent_base (p, true);
  tp_hardened (p);
}

static void
build_workspace_write (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_LOOPBACK);
  tp_agent_base (p, true);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/ws");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/extra");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_TEMP, "/var/folders/zz/xy_1/T");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, "/Users/me/ws/.git/hooks");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, "/Users/me/ws/.bashrc");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_ALIAS, "/Users/me/ws/hardlink.txt");
  tp_hardened (p);
  tp_dest (p, SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET,
           "/Users/me/.colima/default/docker.sock");
}

static void
build_danger_full_access (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_DANGER_FULL_ACCESS, SBX_NET_ALLOW);
  tp_agent_base (p, false);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/");
  tp_hardened (p);
}

static void
build_danger_plain (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_DANGER_FULL_ACCESS, SBX_NET_ALLOW);
  tp_agent_base (p, false);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/");
}

/* /repo write, /repo/vendor deny, /repo/vendor/cache write, then the
   seal of the hidden directory, which must not take the cache back.  */
static void
build_nested_layers (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_DENY);
  tp_agent_base (p, true);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/repo");
  tp_dest (p, SBX_PLAN_HIDE_DIR, SBX_WHY_OCI_MOUNT, "/repo/vendor");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT, "/repo/vendor/cache");
  tp_dest (p, SBX_PLAN_HIDE_FILE, SBX_WHY_OCI_MOUNT, "/repo/.env");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, "/repo/.git/hooks");
  tp_dest (p, SBX_PLAN_REMOUNT_RO, SBX_WHY_OCI_MOUNT, "/repo/vendor");
}

static void
build_net (struct sbx_plan *p, enum sbx_net net)
{
  tp_init (p, SBX_MODE_WORKSPACE_WRITE, net);
  tp_agent_base (p, true);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/ws");
}

static void
build_net_deny (struct sbx_plan *p)
{
  build_net (p, SBX_NET_DENY);
}

static void
build_net_loopback (struct sbx_plan *p)
{
  build_net (p, SBX_NET_LOOPBACK);
}

static void
build_net_allow (struct sbx_plan *p)
{
  build_net (p, SBX_NET_ALLOW);
}

static void
build_hardened_off (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_ALLOW);
  tp_agent_base (p, true);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/ws");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, "/Users/me/ws/.git/hooks");
}

/* /tmp granted as a temp root: no private tmpfs, a write grant instead.  */
static void
build_tmp_granted (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_READ_ONLY, SBX_NET_DENY);
  tp_agent_base (p, false);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_TEMP, "/tmp");
}

static void
build_escaping (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_DENY);
  tp_agent_base (p, true);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/we\"ird\\dir");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/line\nbreak");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/tab\tand\rcr");
  tp_dest (p, SBX_PLAN_HIDE_FILE, SBX_WHY_CREDENTIAL,
           "/Users/me/x\")) (allow default) (allow file-write* (subpath \"/");
  tp_dest (p, SBX_PLAN_HIDE_DIR, SBX_WHY_CREDENTIAL,
           "/Users/me/Caf\xc3\xa9 ;x");
}

static void
build_canonical (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_DENY);
  tp_agent_base (p, true);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, FAKE_LINK);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_TEMP, "/var/folders/zz/xy_1/T/");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_TEMP, "/tmp/sbx-new");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT, "//Users/me//link/./out");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, FAKE_LINK "/.git/hooks");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_READONLY, "/etc/hosts");
  tp_dest (p, SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, "/var/run/docker.sock");
}

static const struct
{
  const char *name;
  void (*build) (struct sbx_plan *);
} golden_cases[] = {
  { "read_only", build_read_only },
  { "workspace_write", build_workspace_write },
  { "danger_full_access", build_danger_full_access },
  { "danger_plain", build_danger_plain },
  { "nested_layers", build_nested_layers },
  { "net_deny", build_net_deny },
  { "net_loopback", build_net_loopback },
  { "net_allow", build_net_allow },
  { "hardened_off", build_hardened_off },
  { "tmp_granted", build_tmp_granted },
  { "escaping", build_escaping },
  { "canonical", build_canonical },
};

static void
test_golden (const char *root)
{
  for (size_t i = 0; i < sizeof golden_cases / sizeof golden_cases[0]; i++)
    {
      struct sbx_plan plan;
      struct sbx_error err = { 0 };
      char *profile = NULL;
      golden_cases[i].build (&plan);
      int r = sbx_sbpl_profile (&plan, &fake_paths, &profile, &err);
      if (!tap_ok (r == 0, "%s: profile generated", golden_cases[i].name))
        printf ("# error %d: %s\n", r, err.msg);
      else
        {
          struct sx_reader rd;
          if (!tap_ok (sbpl_check (&rd, profile), "%s: profile well-formed",
                       golden_cases[i].name))
            printf ("# %s\n", rd.why);
          check_golden (root, "sbpl", golden_cases[i].name, "sb", profile);
        }
      free (profile);
      tp_free (&plan);
    }
}

/* Generate for PLAN, expect failure CODE with a message containing NEEDLE,
   and no profile.  */
static void
expect_failure (struct sbx_plan *plan, int code, const char *needle,
                const char *name)
{
  struct sbx_error err = { 0 };
  char *profile = NULL;
  int r = sbx_sbpl_profile (plan, &fake_paths, &profile, &err);
  if (!tap_ok (r == code && profile == NULL && strstr (err.msg, needle)
                   && !strchr (err.msg, '\n'),
               "%s", name))
    printf ("# got %d (want %d): %s\n", r, code, err.msg);
  free (profile);
  tp_free (plan);
}

static void
test_failures (void)
{
  struct sbx_plan p;

  tp_init (&p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_DENY);
  p.agent = false;
  free (p.root);
  p.root = tp_strdup ("/var/lib/sbx/ctr/rootfs");
  tp_bind (&p, SBX_PLAN_BIND_RO, SBX_WHY_ROOT, "/");
  expect_failure (&p, -ENOTSUP,
                  "root.path '/var/lib/sbx/ctr/rootfs': the seatbelt backend "
                  "runs host commands only",
                  "a container plan is refused, naming root.path");

  build_net (&p, SBX_NET_DENY);
  tp_add (&p, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT, "/Users/me/data", "/data");
  expect_failure (&p, -ENOTSUP,
                  "plan mount 5: seatbelt cannot show '/Users/me/data' at "
                  "'/data'",
                  "a bind that moves a path is refused");

  build_net (&p, SBX_NET_DENY);
  tp_dest (&p, SBX_PLAN_HIDE_FILE, SBX_WHY_CREDENTIAL, "/Users/me/a\x1b[0m");
  expect_failure (&p, -EINVAL,
                  "plan mount 5: path contains control character 0x1b",
                  "a control character in a path is refused");

  build_net (&p, SBX_NET_DENY);
  tp_bind (&p, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT, "relative/dir");
  expect_failure (&p, -EINVAL,
                  "plan mount 5: path 'relative/dir' is not "
                  "absolute",
                  "a relative path is refused");

  build_net (&p, SBX_NET_DENY);
  tp_dest (&p, SBX_PLAN_HIDE_DIR, SBX_WHY_OCI_MOUNT, "/Users/me/ws/../.ssh");
  expect_failure (&p, -EINVAL, "contains '..'", "a '..' path is refused");

  build_net (&p, SBX_NET_DENY);
  tp_dest (&p, SBX_PLAN_HIDE_DIR, SBX_WHY_OCI_MOUNT, FAKE_FORBIDDEN "/x");
  expect_failure (&p, -EACCES,
                  "plan mount 5: resolve '/Users/me/forbidden/x': Permission "
                  "denied",
                  "a resolver failure other than absence is reported");

  build_net (&p, SBX_NET_DENY);
  p.mode = SBX_MODE_UNSET;
  expect_failure (&p, -EINVAL, "plan has no mode", "an unset mode is refused");

  build_net (&p, SBX_NET_UNSET);
  expect_failure (&p, -EINVAL, "plan has no network level",
                  "an unset network level is refused");
}

int
main (void)
{
  const char *root = getenv ("SBX_SOURCE_ROOT");
  if (!tap_ok (root != NULL, "SBX_SOURCE_ROOT names the source tree"))
    return tap_done ();
  test_golden (root);
  test_failures ();
  tap_ok (resolver_calls > 0, "every path went through the resolver");
  return tap_done ();
}
