/* Golden tests of the translation: config.json text -> sbx_spec_parse ->
   sbx_policy_resolve (against hand-filled host facts) -> sbx_bwrap_args,
   the argv joined with spaces and compared with tests/golden/bwrap/NAME.args
   (SBX_UPDATE_GOLDEN=1 rewrites them).  Then the order properties no golden
   file states by itself, and the configs that must be refused.  */
#include "runtime/linux/bwrap/bwrap_args.h"
#include "tests/unit/fake_host.h"
#include "tests/unit/golden.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS "\"mode\": \"workspace-write\", \"workspace\": \"/home/u/ws\""
#define NESTED                                                                \
  "{\"destination\": \"/repo\", \"type\": \"bind\", \"source\": \"/repo\", "  \
  "\"options\": [\"rbind\", \"rw\"]}, "                                       \
  "{\"destination\": \"/repo/vendor\", \"type\": \"tmpfs\", "                 \
  "\"options\": [\"ro\"]}, "                                                  \
  "{\"destination\": \"/repo/vendor/cache\", \"type\": \"bind\", "            \
  "\"source\": \"/repo/vendor/cache\", \"options\": [\"rbind\", \"rw\"]}"

#define CONTAINER_JSON_NS(UTS_IPC)                                            \
  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\", "             \
  "\"readonly\": true}, \"hostname\": \"box\", "                              \
  "\"process\": {\"args\": [\"sh\", \"-c\", \"echo hi\"], \"cwd\": \"/\", "   \
  "\"env\": [\"PATH=/bin\", \"TERM=dumb\"], "                                 \
  "\"user\": {\"uid\": 1000, \"gid\": 1000}}, "                               \
  "\"mounts\": ["                                                             \
  "{\"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\"}, "  \
  "{\"destination\": \"/dev\", \"type\": \"tmpfs\", \"source\": \"tmpfs\", "  \
  "\"options\": [\"nosuid\", \"mode=755\", \"size=65536k\"]}, "               \
  "{\"destination\": \"/dev/pts\", \"type\": \"devpts\"}, "                   \
  "{\"destination\": \"/dev/shm\", \"type\": \"tmpfs\", "                     \
  "\"options\": [\"mode=1777\", \"size=64m\"]}, "                             \
  "{\"destination\": \"/dev/mqueue\", \"type\": \"mqueue\"}, "                \
  "{\"destination\": \"/sys\", \"type\": \"sysfs\", \"options\": [\"ro\"]}, " \
  "{\"destination\": \"/data\", \"type\": \"bind\", \"source\": \"/data\", "  \
  "\"options\": [\"rbind\", \"ro\"]}], "                                      \
  "\"linux\": {\"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"mount\"}, " \
  "{\"type\": \"network\"}, " UTS_IPC "], "                                   \
  "\"maskedPaths\": [\"/proc/kcore\", \"/proc/acpi\", \"/proc/missing\", "    \
  "\"/sys/firmware\"], "                                                      \
  "\"readonlyPaths\": [\"/proc/sys\", \"/etc\", \"/usr/missing\"]}}"
#define CONTAINER_JSON                                                        \
  CONTAINER_JSON_NS ("{\"type\": \"uts\"}, {\"type\": \"ipc\"}")
/* A Kubernetes pod's container: the pod's UTS and IPC namespaces.  */
#define POD_CONTAINER_JSON                                                    \
  CONTAINER_JSON_NS ("{\"type\": \"uts\", \"path\": \"/proc/7/ns/uts\"}, "    \
                     "{\"type\": \"ipc\", \"path\": \"/proc/7/ns/ipc\"}")

/* A container with three nodes: the host's /dev/zero and /dev/null under
   their own names (what an unprivileged caller can bind) and a FIFO.  */
#define DEVICES_JSON(ZERO_DEST)                                               \
  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "            \
  "\"process\": {\"args\": [\"sh\"], \"cwd\": \"/\"}, "                       \
  "\"mounts\": [{\"destination\": \"/dev\", \"type\": \"tmpfs\", "            \
  "\"source\": \"tmpfs\"}], "                                                 \
  "\"linux\": {\"devices\": ["                                                \
  "{\"path\": \"" ZERO_DEST "\", \"type\": \"c\", \"major\": 1, "             \
  "\"minor\": 5, \"fileMode\": 416, \"uid\": 12, \"gid\": 34}, "              \
  "{\"path\": \"/dev/null\", \"type\": \"c\", \"major\": 1, \"minor\": 3}, "  \
  "{\"path\": \"/run/fifo\", \"type\": \"p\"}]}}"

/* Protected metadata that exists in the workspace.  */
static const struct fake_path protected_present[] = {
  { "/home/u/ws/.git", SBX_PATH_DIR },
  { "/home/u/ws/.git/hooks", SBX_PATH_DIR },
  { "/home/u/ws/.git/config", SBX_PATH_FILE },
  { "/home/u/ws/.bashrc", SBX_PATH_FILE },
  { NULL, SBX_PATH_ABSENT },
};

/* A host without the credential stores and the socket.  */
static const struct fake_path bare_home[] = {
  { "/home/u/.ssh", SBX_PATH_ABSENT },
  { "/home/u/.npmrc", SBX_PATH_ABSENT },
  { "/run/docker.sock", SBX_PATH_ABSENT },
  { NULL, SBX_PATH_ABSENT },
};

struct golden_case
{
  const char *name;
  const char *json;
  const struct fake_path *paths;
  bool is_root;
  const char *mqueue_dir; /* as the runtime passes for a joined IPC ns */
  const char *nodes_dir;  /* where root's runner makes device nodes */
};

static const struct golden_case golden_cases[] = {
  { "agent-read-only",
    AGENT_JSON ("", "\"mode\": \"read-only\", \"network\": \"deny\""), NULL },
  { "agent-workspace-write", AGENT_JSON ("", WS ", \"network\": \"deny\""),
    NULL },
  { "agent-danger-full-access",
    AGENT_JSON ("", "\"mode\": \"danger-full-access\", "
                    "\"network\": \"allow\""),
    NULL },
  { "agent-nested-carve-outs", AGENT_JSON (NESTED, WS), NULL },
  { "agent-protected-present", AGENT_JSON ("", WS), protected_present },
  { "agent-protected-absent", AGENT_JSON ("", WS), bare_home },
  { "agent-hardened-off", AGENT_JSON ("", WS ", \"hardenedDefaults\": false"),
    NULL },
  { "agent-network-deny", AGENT_JSON ("", WS ", \"network\": \"deny\""),
    bare_home },
  { "agent-network-loopback",
    AGENT_JSON ("", WS ", \"network\": \"loopback\""), bare_home },
  { "agent-network-allow", AGENT_JSON ("", WS ", \"network\": \"allow\""),
    bare_home },
  { "container-rootfs", CONTAINER_JSON, NULL },
  { "container-rootfs-as-root", CONTAINER_JSON, NULL, true },
  { "container-pod-namespaces", POD_CONTAINER_JSON, NULL, true,
    "/run/sbx-oci/mqueue" },
  { "container-devices-as-root", DEVICES_JSON ("/dev/myzero"), NULL, true,
    NULL, "/run/sbx-oci/+devices" },
  { "container-devices-host-nodes", DEVICES_JSON ("/dev/zero"), NULL },
};

static char *
join_argv (const struct strv *argv)
{
  size_t len = 1;
  for (size_t i = 0; i < argv->n; i++)
    len += strlen (argv->v[i]) + 1;
  char *s = calloc (1, len);
  if (s == NULL)
    abort ();
  for (size_t i = 0; i < argv->n; i++)
    {
      if (i > 0)
        strcat (s, " ");
      strcat (s, argv->v[i]);
    }
  strcat (s, "\n");
  return s;
}

/* Resolve and translate JSON as an unprivileged caller (or root) would,
   with the fds `run` passes.  Returns the argv, or NULL with ERR filled.  */
static int
translate_with (const char *json, const struct fake_path *paths, bool is_root,
                const char *mqueue_dir, const char *nodes_dir,
                struct strv *argv, struct sbx_error *err)
{
  struct sbx_host_facts host = fake_host (paths);
  host.is_root = host.host_root = host.caller_is_root_here = is_root;
  host.nodes_dir = nodes_dir;
  if (is_root)
    host.uid = host.gid = 0;
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (json, &host, &plan, err);
  if (r < 0)
    return r;
  /* CAP_CHOWN: the one set bwrap keeps, or, where sbx-oci-init takes
     the identity, CAP_CHOWN (bit 0) in bounding, effective and
     permitted.  */
  struct sbx_caps_decision caps
      = { .by_sets = plan->init_ids,
          .sets = { .bounding = 1, .effective = 1, .permitted = 1 } };
  if (strv_push (&caps.keep, "CAP_CHOWN") < 0)
    abort ();
  struct sbx_bwrap_opts opts
      = { .die_with_parent = true, .caps = &caps, .mqueue_dir = mqueue_dir };
  struct sbx_bwrap_fds fds = { .json_status = 3,
                               .info = -1,
                               .block = -1,
                               .seccomp = 4,
                               .seccomp_net = -1,
                               .userns_block = -1,
                               .args = -1,
                               .init = -1,
                               .init_report = -1,
                               .init_started = -1,
                               .pidns = -1,
                               .landlock = -1 };
  r = sbx_bwrap_args (plan, &host, &fds, &opts, argv, err);
  sbx_caps_decision_free (&caps);
  sbx_plan_free (plan);
  return r;
}

static int
translate (const char *json, const struct fake_path *paths, bool is_root,
           struct strv *argv, struct sbx_error *err)
{
  return translate_with (json, paths, is_root, NULL, NULL, argv, err);
}

static void
test_golden (const char *root)
{
  for (size_t i = 0; i < sizeof golden_cases / sizeof *golden_cases; i++)
    {
      const struct golden_case *c = &golden_cases[i];
      struct sbx_error err = { 0 };
      struct strv argv = { 0 };
      int r = translate_with (c->json, c->paths, c->is_root, c->mqueue_dir,
                              c->nodes_dir, &argv, &err);
      if (tap_ok (r == 0, "%s: translated", c->name))
        {
          char *got = join_argv (&argv);
          check_golden (root, "bwrap", c->name, "args", got);
          free (got);
        }
      else
        printf ("# error %d: %s\n", r, err.msg);
      strv_free (&argv);
    }
}

/* Index of the first argument equal to A followed by B, or -1.  */
static long
find_pair (const struct strv *argv, const char *a, const char *b)
{
  for (size_t i = 0; i + 1 < argv->n; i++)
    if (strcmp (argv->v[i], a) == 0 && strcmp (argv->v[i + 1], b) == 0)
      return (long) i;
  return -1;
}

/* The highest index of any write grant (--bind).  */
static long
last_grant (const struct strv *argv)
{
  long last = -1;
  for (size_t i = 0; i < argv->n; i++)
    if (strcmp (argv->v[i], "--bind") == 0)
      last = (long) i;
  return last;
}

/* ARGV joined from index FROM on.  */
static char *
join_from (const struct strv *argv, size_t from)
{
  struct strv tail = { argv->v + from, argv->n - from, 0 };
  return join_argv (&tail);
}

/* The Landlock helper's command line, from the plan's grants: after
   bwrap's "--", before the command; the nested carve-out gets no rule of
   its own (the write grant on /repo covers it, the mount holds it).  */
static void
test_landlock (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  host.landlock_abi = 7;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  int r = fake_resolve_json (AGENT_JSON (NESTED, WS), &host, &plan, &err);
  tap_ok (r == 0, "landlock: resolved (%s)", err.msg);
  if (r < 0)
    return;
  tap_ok (plan->enforcement.landlock_abi == 7, "landlock: the plan has ABI 7");
  struct strv argv = { 0 };
  struct sbx_bwrap_fds fds = SBX_BWRAP_NO_FDS;
  fds.landlock = 9;
  struct sbx_bwrap_opts opts = { 0 };
  r = sbx_bwrap_args (plan, &host, &fds, &opts, &argv, &err);
  long dash = find_pair (&argv, "--", "/proc/self/fd/9");
  char *tail = dash >= 0 ? join_from (&argv, (size_t) dash) : NULL;
  tap_ok (tail != NULL
              && strstr (tail, "-- /proc/self/fd/9 -f 9 -A 7 -r / ") == tail,
          "landlock: bwrap execs the helper's memfd, read beneath /");
  tap_ok (tail && strstr (tail, " -w /repo ") && strstr (tail, " -w /tmp ")
              && strstr (tail, " -w /repo/vendor/cache ")
              && strstr (tail, " -d /dev/null ")
              && strstr (tail, " -- true\n"),
          "landlock: writes beneath the grants and /tmp, then the command");
  tap_ok (tail && strstr (tail, " -r /repo/vendor ") == NULL
              && strstr (tail, " -w /repo/vendor ") == NULL
              && strstr (tail, " /home/u/.ssh") == NULL,
          "landlock: hidden places get no rule (the mount layer holds them)");
  tap_ok (tail && strstr (tail, " -M /repo/vendor -m /repo/vendor/cache "),
          "landlock: the mounts below a writable root are checked in place "
          "(-M read-only, -m)");
  free (tail);
  strv_free (&argv);
  sbx_plan_free (plan);
  host.landlock_abi = 4;
  r = fake_resolve_json (AGENT_JSON ("", WS), &host, &plan, &err);
  bool said = false;
  for (size_t i = 0; r == 0 && i < plan->enforcement.reasons.n; i++)
    said |= strstr (plan->enforcement.reasons.v[i], "ABI 4 lacks the "
                                                    "ioctl-dev right")
            != NULL;
  tap_ok (said, "landlock ABI 4: the missing ioctl-dev right is a reason");
  sbx_plan_free (plan);
  r = fake_resolve_json (AGENT_JSON ("", WS ", \"landlock\": false"), &host,
                         &plan, &err);
  tap_ok (r == -EINVAL && strstr (err.msg, "sbx.landlock"),
          "landlock: an agent cannot turn it off (%s)", err.msg);
  plan = NULL;
  sbx_error_clear (&err);
}

/* A joined pid namespace (root): bwrap enters it from the descriptor
   the runner passes (--pidns), so that the sandbox's --proc is that
   namespace's; it makes no pid namespace and is not its pid 1.  */
static void
test_pid_join (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  host.is_root = host.host_root = host.caller_is_root_here = true;
  host.uid = host.gid = 0;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  int r = fake_resolve_json (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, \"mounts\": "
      "[{\"destination\": \"/proc\", \"type\": \"proc\", \"source\": "
      "\"proc\"}], \"linux\": {\"namespaces\": [{\"type\": \"pid\", "
      "\"path\": \"/proc/7/ns/pid\"}, {\"type\": \"mount\"}]}}",
      &host, &plan, &err);
  tap_ok (r == 0, "pid join: resolved (%s)", err.msg);
  if (r < 0)
    return;
  struct strv argv = { 0 };
  struct sbx_bwrap_fds fds = SBX_BWRAP_NO_FDS;
  fds.pidns = 9;
  struct sbx_bwrap_opts opts = { 0 };
  r = sbx_bwrap_args (plan, &host, &fds, &opts, &argv, &err);
  tap_ok (r == 0 && find_pair (&argv, "--pidns", "9") >= 0
              && find_pair (&argv, "--proc", "/proc") >= 0,
          "pid join: bwrap enters the namespace on fd 9 and mounts its "
          "/proc (%s)",
          err.msg);
  bool made = false;
  for (size_t i = 0; i < argv.n; i++)
    made |= strcmp (argv.v[i], "--unshare-pid") == 0
            || strcmp (argv.v[i], "--unshare-user") == 0;
  tap_ok (r == 0 && !made, "pid join: no pid or user namespace is made");
  strv_free (&argv);
  sbx_plan_free (plan);
}

/* A container's labels: the mount label to bwrap's --file-label, the
   process labels to sbx-oci-init, which takes them at the command's exec
   (after "--", before the command).  */
static void
test_labels (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  host.is_root = host.host_root = host.caller_is_root_here = true;
  host.uid = host.gid = 0;
  host.selinux = host.apparmor = true;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  int r = fake_resolve_json (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", "
      "\"selinuxLabel\": \"u:r:container_t:s0:c1,c2\", "
      "\"apparmorProfile\": \"containers-default\"}, \"mounts\": "
      "[{\"destination\": \"/proc\", \"type\": \"proc\", \"source\": "
      "\"proc\"}], \"linux\": {\"mountLabel\": "
      "\"u:object_r:container_file_t:s0:c1,c2\"}}",
      &host, &plan, &err);
  tap_ok (r == 0, "labels: resolved (%s)", err.msg);
  if (r < 0)
    return;
  struct strv argv = { 0 };
  struct sbx_bwrap_fds fds = SBX_BWRAP_NO_FDS;
  struct sbx_bwrap_opts opts = { 0 };
  r = sbx_bwrap_args (plan, &host, &fds, &opts, &argv, &err);
  long dashdash = -1, init = -1;
  for (size_t i = 0; i < argv.n; i++)
    if (dashdash < 0 && strcmp (argv.v[i], "--") == 0)
      dashdash = (long) i;
    else if (dashdash >= 0 && strcmp (argv.v[i], "sbx-oci-init") == 0)
      init = (long) i;
  long file = find_pair (&argv, "--file-label",
                         "u:object_r:container_file_t:s0:c1,c2");
  long se = find_pair (&argv, "-Z", "u:r:container_t:s0:c1,c2");
  long aa = find_pair (&argv, "-P", "containers-default");
  tap_ok (r == 0 && file >= 0 && file < dashdash,
          "labels: linux.mountLabel is bwrap's --file-label");
  tap_ok (r == 0 && init > dashdash && se > init && aa > init,
          "labels: the process labels go to sbx-oci-init");
  strv_free (&argv);
  sbx_plan_free (plan);
}

static void
test_order (void)
{
  struct sbx_error err = { 0 };
  struct strv argv = { 0 };
  int r = translate (AGENT_JSON (NESTED, WS), NULL, false, &argv, &err);
  tap_ok (r == 0, "nested carve-outs: translated (%s)", err.msg);
  long deny = find_pair (&argv, "--tmpfs", "/repo/vendor");
  long cache = find_pair (&argv, "/repo/vendor/cache", "/repo/vendor/cache");
  long repo = find_pair (&argv, "/repo", "/repo");
  long seal = find_pair (&argv, "--remount-ro", "/repo/vendor");
  tap_ok (repo >= 0 && deny > repo && cache > deny,
          "nested carve-outs: /repo, then the deny, then the cache, in order");
  tap_ok (seal > last_grant (&argv) && seal > cache,
          "nested carve-outs: the deny's seal comes after every grant");
  strv_free (&argv);

  r = translate (CONTAINER_JSON, NULL, false, &argv, &err);
  tap_ok (r == 0, "container: translated (%s)", err.msg);
  long root_seal = find_pair (&argv, "--remount-ro", "/");
  long dashdash = -1; /* the first "--": bwrap's options end there */
  for (size_t i = 0; dashdash < 0 && i < argv.n; i++)
    if (strcmp (argv.v[i], "--") == 0)
      dashdash = (long) i;
  tap_ok (root_seal >= 0 && root_seal + 2 == dashdash - 2,
          "container: root.readonly seals \"/\" last, after every mount");
  strv_free (&argv);
}

static void
expect_refusal (const char *json, const struct fake_path *paths, int code,
                const char *needle, const char *name)
{
  struct sbx_error err = { 0 };
  struct strv argv = { 0 };
  int r = translate (json, paths, false, &argv, &err);
  tap_ok (r == code, "%s: refused with %d (got %d)", name, code, r);
  if (!tap_ok (strstr (err.msg, needle) != NULL, "%s: message names it", name))
    printf ("# message: %s\n# wanted:  %s\n", err.msg, needle);
  tap_ok (argv.n == 0, "%s: no command line", name);
  strv_free (&argv);
}

static const struct fake_path symlinked_ws[] = {
  { "/home/u/ws/link", SBX_PATH_SYMLINK },
  { "/home/u/ws/link/cache", SBX_PATH_DIR },
  { NULL, SBX_PATH_ABSENT },
};

static void
test_refusals (void)
{
  expect_refusal (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, \"linux\": "
      "{\"namespaces\": [{\"type\": \"user\"}], \"uidMappings\": "
      "[{\"containerID\": 0, \"hostID\": 100000, \"size\": 65536}]}}",
      NULL, -ENOTSUP,
      "linux.uidMappings[0]: only root can map a range of ids (bubblewrap "
      "maps an unprivileged caller's own id, 1000, to one id)",
      "uid mapping of a range");
  expect_refusal (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, \"linux\": "
      "{\"namespaces\": [{\"type\": \"user\"}], \"gidMappings\": "
      "[{\"containerID\": 0, \"hostID\": 1000, \"size\": 1}, "
      "{\"containerID\": 1, \"hostID\": 100000, \"size\": 1}]}}",
      NULL, -ENOTSUP, "linux.gidMappings[1]: only root can map a range",
      "two gid mappings");
  expect_refusal (
      AGENT_JSON ("{\"destination\": \"/home/u/ws/link/cache\", \"type\": "
                  "\"tmpfs\", \"options\": [\"ro\"]}",
                  WS),
      symlinked_ws, -ELOOP,
      "mount destination /home/u/ws/link/cache has a symbolic link "
      "component inside the bind of /home/u/ws: refused",
      "symlink below a writable root, runner 0.8.0");
  /* A read-only bind is no safer: bwrap 0.8 creates the mount point
     through the link, on the host (second review).  */
  expect_refusal (
      AGENT_JSON ("{\"destination\": \"/home/u/ws/link/cache\", \"type\": "
                  "\"tmpfs\", \"options\": [\"ro\"]}",
                  "\"mode\": \"read-only\", \"workspace\": \"/home/u/ws\", "
                  "\"network\": \"deny\""),
      symlinked_ws, -ELOOP,
      "mount destination /home/u/ws/link/cache has a symbolic link "
      "component inside the bind of /home/u/ws: refused",
      "symlink below a read-only bind, runner 0.8.0");
  /* Unprivileged, only the host's own node at the same path can be
     bound: one of another number, or none, is refused.  */
  expect_refusal (DEVICES_JSON ("/dev/null/../myzero"), NULL, -EINVAL,
                  "linux.devices[0].path: expected a path without \"..\"",
                  "a device path with \"..\"");
  expect_refusal (DEVICES_JSON ("/dev/myzero"), NULL, -EPERM,
                  "linux.devices[0]: /dev/myzero is not character device 1:5 "
                  "on the host",
                  "a device node unprivileged, none on the host");
  expect_refusal (DEVICES_JSON ("/dev/tty"), NULL, -EPERM,
                  "linux.devices[0]: /dev/tty is not character device 1:5 "
                  "on the host",
                  "a device node unprivileged, another on the host");
  expect_refusal (AGENT_JSON ("", WS ", \"network\": \"deny\"}, "
                                     "\"linux\": {\"devices\": [{\"path\": "
                                     "\"/dev/zero\", \"type\": \"c\", "
                                     "\"major\": 1, \"minor\": 5}]"),
                  NULL, -EPERM,
                  "linux.devices: an agent policy gets no device node",
                  "a device node in an agent policy");
  expect_refusal (AGENT_JSON ("", WS ", \"network\": \"deny\", "
                                     "\"requireEnforcement\": \"full\""),
                  NULL, -EPERM,
                  "sbx.requireEnforcement: \"full\" is required but this "
                  "sandbox would get \"partial\" (bubblewrap 0.8.0 is older "
                  "than 0.12.0",
                  "requireEnforcement full on an old runner");
}

/* A host whose own /etc and /home exist next to the rootfs's /etc.  */
static const struct fake_path host_and_rootfs[] = {
  { "/etc", SBX_PATH_DIR },
  { "/home", SBX_PATH_DIR },
  { NULL, SBX_PATH_ABSENT },
};

/* readonlyPaths and maskedPaths name paths in the container's rootfs, not
   the host's.  */
static void
test_container_paths (void)
{
  struct sbx_error err = { 0 };
  struct strv argv = { 0 };
  int r = translate (CONTAINER_JSON, host_and_rootfs, false, &argv, &err);
  tap_ok (r == 0, "container on a host with /etc: translated (%s)", err.msg);
  tap_ok (find_pair (&argv, "/bundle/rootfs/etc", "/etc") >= 0
              && find_pair (&argv, "/etc", "/etc") < 0,
          "readonlyPaths /etc binds the rootfs's /etc, not the host's");
  strv_free (&argv);
}

/* A rootfs with a directory to mask and a directory and a file inside it. */
static const struct fake_path nested_masks[] = {
  { "/bundle/rootfs/m", SBX_PATH_DIR },
  { "/bundle/rootfs/m/sub", SBX_PATH_DIR },
  { "/bundle/rootfs/m/file", SBX_PATH_FILE },
  { NULL, SBX_PATH_ABSENT },
};

/* A masked path inside an already hidden directory does not exist in the
   container: masking it would make bwrap create its mount point inside
   the hidden directory, which would then list it.  */
static void
test_nested_masks (void)
{
  struct sbx_error err = { 0 };
  struct strv argv = { 0 };
  int r = translate ("{\"ociVersion\": \"1.2.0\", "
                     "\"root\": {\"path\": \"rootfs\"}, "
                     "\"process\": {\"args\": [\"sh\"], \"cwd\": \"/\"}, "
                     "\"linux\": {\"maskedPaths\": [\"/m\", \"/m/sub\", "
                     "\"/m/file\"]}}",
                     nested_masks, false, &argv, &err);
  tap_ok (r == 0, "nested maskedPaths: translated (%s)", err.msg);
  tap_ok (find_pair (&argv, "--tmpfs", "/m") >= 0,
          "nested maskedPaths: the outer directory is hidden");
  bool inner = false;
  for (size_t i = 0; i < argv.n; i++)
    if (strcmp (argv.v[i], "/m/sub") == 0
        || strcmp (argv.v[i], "/m/file") == 0)
      inner = true;
  tap_ok (!inner, "nested maskedPaths: nothing is mounted inside it");
  strv_free (&argv);
}

int
main (void)
{
  const char *root = getenv ("SBX_SOURCE_ROOT");
  if (tap_ok (root != NULL, "SBX_SOURCE_ROOT names the source tree"))
    test_golden (root);
  test_order ();
  test_pid_join ();
  test_labels ();
  test_landlock ();
  test_refusals ();
  test_container_paths ();
  test_nested_masks ();
  return tap_done ();
}
