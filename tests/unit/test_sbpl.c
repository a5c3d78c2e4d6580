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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What runtime/darwin/sbpl_emit.h calls SBPL_WRITE.  */
#define SBPL_WRITE_TEST "file-write* file-write-setugid file-write-mode"

static int resolver_calls;

/* A Mac as the golden profiles see it: confstr's per-user directories,
   the home, uid 501, hardened defaults on.  */
static const struct sbx_sbpl_host fake_host = {
  .paths = { fake_resolve, &resolver_calls },
  .home = "/Users/me",
  .user_temp_dir = "/var/folders/zz/xy_1/T/",
  .user_cache_dir = "/var/folders/zz/xy_1/C/",
  .uid = 501,
  .hardened = true,
};

/* The same with sbx.hardenedDefaults off: no engine sockets hidden.  */
static const struct sbx_sbpl_host fake_host_soft = {
  .paths = { fake_resolve, &resolver_calls },
  .home = "/Users/me",
  .user_temp_dir = "/var/folders/zz/xy_1/T/",
  .user_cache_dir = "/var/folders/zz/xy_1/C/",
  .uid = 501,
  .hardened = false,
};

static void
build_read_only (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_READ_ONLY, SBX_NET_DENY);
  tp_agent_base (p, true);
  tp_hardened (p);
  tp_seal_hidden (p);
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
  tp_seal_hidden (p);
}

static void
build_danger_full_access (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_DANGER_FULL_ACCESS, SBX_NET_ALLOW);
  tp_agent_base (p, false);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/");
  tp_hardened (p);
  tp_seal_hidden (p);
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
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT,
           "/System/Volumes/Data/Users/me/data");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT, "/home/me/proj");
}

/* The rename bypass: a protected .git/config and hooks in
   the workspace, and a hard-link alias; their ancestors must not move.  */
static void
build_rename_guard (struct sbx_plan *p)
{
  tp_init (p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_DENY);
  tp_agent_base (p, true);
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/Users/me/ws");
  tp_bind (p, SBX_PLAN_BIND_RW, SBX_WHY_PROTECTED, "/Users/me/ws/.git");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, "/Users/me/ws/.git/hooks");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, "/Users/me/ws/.git/config");
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_ALIAS, "/Users/me/ws/src/linked.c");
}

/* The table tests/macos/first-run.sh feeds to the real sandbox-exec.  */
static const struct
{
  const char *name;
  void (*build) (struct sbx_plan *);
  const struct sbx_sbpl_host *host;
} golden_cases[] = {
  { "read_only", build_read_only, &fake_host },
  { "workspace_write", build_workspace_write, &fake_host },
  { "danger_full_access", build_danger_full_access, &fake_host },
  { "danger_plain", build_danger_plain, &fake_host_soft },
  { "nested_layers", build_nested_layers, &fake_host },
  { "net_deny", build_net_deny, &fake_host },
  { "net_loopback", build_net_loopback, &fake_host },
  { "net_allow", build_net_allow, &fake_host },
  { "hardened_off", build_hardened_off, &fake_host_soft },
  { "tmp_granted", build_tmp_granted, &fake_host },
  { "escaping", build_escaping, &fake_host },
  { "canonical", build_canonical, &fake_host },
  { "rename_guard", build_rename_guard, &fake_host_soft },
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
      int r = sbx_sbpl_profile (&plan, golden_cases[i].host, &profile, &err);
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
  int r = sbx_sbpl_profile (plan, &fake_host, &profile, &err);
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

/* The profile of BUILD on HOST, or NULL.  */
static char *
profile_of (void (*build) (struct sbx_plan *),
            const struct sbx_sbpl_host *host)
{
  struct sbx_plan plan;
  struct sbx_error err = { 0 };
  char *profile = NULL;
  build (&plan);
  if (sbx_sbpl_profile (&plan, host, &profile, &err) < 0)
    printf ("# %s\n", err.msg);
  tp_free (&plan);
  return profile;
}

/* Whether NEEDLE occurs in HAY after the last occurrence of AFTER.  */
static bool
comes_after (const char *hay, const char *needle, const char *after)
{
  const char *last = NULL;
  for (const char *p = hay; (p = strstr (p, after)) != NULL; p++)
    last = p;
  const char *n = strstr (hay, needle);
  return n && last && n > last;
}

/* The Seatbelt rules of the macOS review, each beside the anchor it follows.
 */
static void
test_anchored_rules (void)
{
  char *ws = profile_of (build_workspace_write, &fake_host);
  char *nest = profile_of (build_nested_layers, &fake_host);
  char *guard = profile_of (build_rename_guard, &fake_host_soft);
  char *loop = profile_of (build_net_loopback, &fake_host);
  char *danger = profile_of (build_danger_full_access, &fake_host);
  if (!tap_ok (ws && nest && guard && loop && danger, "profiles generated"))
    goto out;
  /* 2. Homebrew's sandbox.rb and Codex's base policy: /dev/ptmx and
     /dev/ttys* writable (Codex adds file-ioctl).  */
  tap_ok (strstr (ws, "(allow file-read* file-write* file-ioctl\n"
                      "  (literal \"/dev/ptmx\")\n"
                      "  (regex #\"^/dev/ttys[0-9]+$\"))"),
          "ptys: /dev/ptmx and /dev/ttys* read, write, ioctl");
  /* 3. Homebrew allows ^/private/var/folders/[^/]+/[^/]+/[C,T]/.  */
  tap_ok (strstr (ws, "(subpath \"/private/var/folders/zz/xy_1/T\")) ; "
                      "user temp: write")
              && strstr (ws, "(subpath \"/private/var/folders/zz/xy_1/C\"))"
                             " ; user cache: write"),
          "apple's per-user temp and cache directories are writable");
  /* 5. Codex and the peer start from (deny default): no lsopen, no
     appleevent-send.  */
  struct sbx_sbpl_host opted = fake_host;
  opted.launch_services = true;
  char *lsopen = profile_of (build_read_only, &opted);
  tap_ok (lsopen && !strstr (lsopen, "(deny lsopen)")
              && !strstr (lsopen, "(deny appleevent-send)")
              && !strstr (lsopen, "(deny mach-lookup"),
          "sbx.allowLaunchServices (approved) lifts the three denies");
  free (lsopen);
  tap_ok (strstr (danger, "(deny lsopen)\n(deny appleevent-send)\n")
              && strstr (danger, "(global-name \"com.apple.coreservices."
                                 "launchservicesd\")"),
          "launchservices and appleevents denied, even with full access");
  /* 6. The peer's generateMoveBlockingRules: no unlink of an ancestor,
     after every grant.  */
  tap_ok (strstr (guard, "(deny file-write-unlink\n"
                         "  (literal \"/Users/me/ws/.git\")\n"
                         "  (literal \"/Users/me/ws\")"),
          "rename guard: .git and the workspace cannot move");
  tap_ok (strstr (guard, "(literal \"/Users/me/ws/src\")"),
          "rename guard: an alias's directory cannot move");
  tap_ok (comes_after (guard, "(deny file-write-unlink", "(allow "),
          "rename guard: after every grant, so none re-opens it");
  /* 7. macOS's engine sockets, the symlink and its own spelling.  */
  tap_ok (strstr (ws, "(deny file-read* " SBPL_WRITE_TEST
                      " (subpath \"/Users/me/.docker/run\"))")
              && strstr (ws, "(deny network-outbound (subpath "
                             "\"/Users/me/.orbstack/run\"))")
              && strstr (ws, "(subpath \"/Users/me/.colima\")")
              && strstr (ws, "(path-literal \"/Users/me/.rd/docker.sock\")")
              && strstr (ws, "(subpath \"/private/var/folders/zz/xy_1/T/"
                             "podman\")")
              && strstr (ws, "(subpath \"/private/tmp/tmux-501\")"),
          "docker desktop, colima, orbstack, rancher, podman, tmux hidden");
  /* 8. A grant nested in a hide keeps the way to it stat-able.  */
  tap_ok (strstr (nest, "(allow file-read-metadata\n"
                        "  (literal \"/repo/vendor\")) ; the way to a "
                        "nested grant"),
          "nested grant: the hidden parent's metadata is readable");
  tap_ok (strstr (nest, "(allow file-read-metadata (literal \"/repo/.env\"))"),
          "a hidden file stays stat-able; its contents are denied");
  /* 9. Homebrew #13404: setugid and mode outside file-write*.  */
  tap_ok (strstr (ws, "(deny file-write* file-write-setugid "
                      "file-write-mode)\n"),
          "blanket deny names file-write-setugid and file-write-mode");
  tap_ok (strstr (nest, "(deny " SBPL_WRITE_TEST " (subpath \"/repo/.git/"
                        "hooks\"))"),
          "a read-only path denies chmod too");
  /* 10. Loopback: an inbound connection from localhost to localhost.  */
  tap_ok (strstr (loop, "(allow network-inbound (require-all (local ip "
                        "\"localhost:*\")\n  (remote ip \"localhost:*\")))")
              && !strstr (loop, "\"*:"),
          "loopback: inbound from localhost only, no any-address rule");
out:
  free (ws);
  free (nest);
  free (guard);
  free (loop);
  free (danger);
}

static void
test_limits (void)
{
  struct sbx_plan p;
  char long_path[1100] = "/Users/me/";
  memset (long_path + 10, 'a', 1014);
  long_path[1024] = '\0'; /* 1024 bytes: one over MAXPATHLEN - 1 */
  build_net (&p, SBX_NET_DENY);
  tp_dest (&p, SBX_PLAN_HIDE_DIR, SBX_WHY_OCI_MOUNT, long_path);
  expect_failure (&p, -E2BIG,
                  "is 1024 bytes; seatbelt profiles name paths of at most "
                  "1023 bytes",
                  "a path longer than macOS's MAXPATHLEN is refused");
  long_path[1023] = '\0';
  build_net (&p, SBX_NET_DENY);
  tp_dest (&p, SBX_PLAN_HIDE_DIR, SBX_WHY_OCI_MOUNT, long_path);
  struct sbx_error err = { 0 };
  char *profile = NULL;
  tap_ok (sbx_sbpl_profile (&p, &fake_host, &profile, &err) == 0,
          "a path of 1023 bytes is accepted");
  free (profile);
  tp_free (&p);

  build_net (&p, SBX_NET_DENY);
  for (int i = 0; i < 300; i++)
    {
      char path[1024];
      snprintf (path, sizeof path, "/Users/me/%04d/%s", i, long_path + 800);
      tp_dest (&p, SBX_PLAN_HIDE_FILE, SBX_WHY_OCI_MOUNT, path);
    }
  expect_failure (&p, -E2BIG, "sandbox-exec compiles at most 65535",
                  "a profile naming more than 65535 bytes of paths is "
                  "refused");
}

int
main (void)
{
  const char *root = getenv ("SBX_SOURCE_ROOT");
  if (!tap_ok (root != NULL, "SBX_SOURCE_ROOT names the source tree"))
    return tap_done ();
  test_golden (root);
  test_anchored_rules ();
  test_failures ();
  test_limits ();
  tap_ok (resolver_calls > 0, "every path went through the resolver");
  return tap_done ();
}
