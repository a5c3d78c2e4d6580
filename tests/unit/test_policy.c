/* The environment rules of policy resolution: containers get exactly
   process.env; agents get an allow-list (or inherit) with credential-shaped
   names always dropped, and the variables that tell a nested tool it is
   inside a sandbox.  */
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sbx_plan *
resolve (const char *json, const char *what)
{
  struct sbx_host_facts host = fake_host (NULL);
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (json, &host, &plan, &err);
  if (!tap_ok (r == 0, "%s: resolved", what))
    printf ("# error %d: %s\n", r, err.msg);
  return plan;
}

static void
test_container_env (void)
{
  struct sbx_plan *plan = resolve (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", \"env\": "
      "[\"PATH=/bin\", \"GITHUB_TOKEN=given\", \"A=1\"]}}",
      "container");
  if (plan == NULL)
    return;
  tap_ok (plan->env.n == 3,
          "container: exactly the 3 entries of process.env "
          "(got %zu)",
          plan->env.n);
  tap_streq (plan->env.n > 1 ? plan->env.v[1] : NULL, "GITHUB_TOKEN=given",
             "container: process.env kept as written, in order");
  tap_ok (strv_env_value (plan->env.v, "HOME") == NULL
              && strv_env_value (plan->env.v, "TMPDIR") == NULL
              && strv_env_value (plan->env.v, "SBX_OCI_SANDBOX") == NULL,
          "container: nothing from the caller or sbx added");
  sbx_plan_free (plan);
}

static const char *const secrets[] = {
  "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "MY_API_KEY", "db_password", NULL,
};

static void
check_agent_common (const struct sbx_plan *plan, const char *mode,
                    const char *what)
{
  for (size_t i = 0; secrets[i]; i++)
    tap_ok (strv_env_value (plan->env.v, secrets[i]) == NULL, "%s: %s dropped",
            what, secrets[i]);
  tap_streq (strv_env_value (plan->env.v, "SBX_OCI_SANDBOX"), "bwrap",
             "SBX_OCI_SANDBOX names the backend");
  tap_streq (strv_env_value (plan->env.v, "SBX_OCI_SANDBOX_MODE"), mode,
             "SBX_OCI_SANDBOX_MODE names the mode");
  tap_streq (strv_env_value (plan->env.v, "TMPDIR"), "/tmp",
             "TMPDIR is the private /tmp, not the host's");
  tap_streq (strv_env_value (plan->env.v, "LC_ALL"), "C.UTF-8", "LC_* kept");
  tap_streq (strv_env_value (plan->env.v, "HOME"), "/home/u", "HOME kept");
}

static void
test_agent_allow_list (void)
{
  struct sbx_plan *plan = resolve (
      AGENT_JSON ("", "\"mode\": \"workspace-write\", \"workspace\": "
                      "\"/home/u/ws\", \"env\": {\"allow\": [\"EDITOR\", "
                      "\"MY_API_KEY\"]}"),
      "agent allow-list");
  if (plan == NULL)
    return;
  check_agent_common (plan, "workspace-write", "allow-list");
  tap_streq (strv_env_value (plan->env.v, "EDITOR"), "vi",
             "allow-list: a name the config "
             "allows is kept");
  tap_ok (strv_env_value (plan->env.v, "USER") != NULL,
          "allow-list: USER kept");
  sbx_plan_free (plan);

  plan = resolve (AGENT_JSON ("", "\"mode\": \"read-only\""),
                  "agent default allow-list");
  if (plan == NULL)
    return;
  tap_ok (strv_env_value (plan->env.v, "EDITOR") == NULL,
          "allow-list: an unlisted name is dropped");
  tap_streq (strv_env_value (plan->env.v, "PATH"), "/usr/bin:/bin",
             "allow-list: PATH kept");
  check_agent_common (plan, "read-only", "default allow-list");
  sbx_plan_free (plan);
}

static void
test_agent_inherit (void)
{
  struct sbx_plan *plan = resolve (
      AGENT_JSON ("", "\"mode\": \"workspace-write\", \"workspace\": "
                      "\"/home/u/ws\", \"env\": {\"mode\": \"inherit\"}"),
      "agent inherit");
  if (plan == NULL)
    return;
  tap_streq (strv_env_value (plan->env.v, "EDITOR"), "vi",
             "inherit: an unlisted name kept");
  check_agent_common (plan, "workspace-write", "inherit");
  sbx_plan_free (plan);
}

/* The agent config of several cases: /home/u/ws writable, no network.  */
static const char ws_agent_json[]
    = AGENT_JSON ("", "\"mode\": \"workspace-write\", "
                      "\"workspace\": \"/home/u/ws\", \"network\": \"deny\"");

static bool
has_reason (const struct sbx_plan *plan, const char *part)
{
  for (size_t i = 0; i < plan->enforcement.reasons.n; i++)
    if (strstr (plan->enforcement.reasons.v[i], part))
      return true;
  return false;
}

/* The restricted rung: when a private /proc does not mount, every other
   layer stays and the report says partial, with the reason.  */
/* Without a pid namespace nothing but sbx-oci holds the tree: killed
   itself, a process that left the sandbox's session outlives it (the
   adversarial review's setsid'd sleep).  The report says so.  */
static void
test_termination_gap (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  const char *with = AGENT_JSON ("", "\"mode\": \"workspace-write\", "
                                     "\"workspace\": \"/home/u/ws\", "
                                     "\"network\": \"deny\"");
  const char *without
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/\", "
        "\"readonly\": true}, \"process\": {\"args\": [\"true\"], "
        "\"cwd\": \"/\"}, \"linux\": {\"namespaces\": [{\"type\": "
        "\"mount\"}]}}";
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  tap_ok (fake_resolve_json (with, &host, &plan, &err) == 0
              && !has_reason (plan, "no pid namespace holds"),
          "termination: a pid namespace, no reason (%s)", err.msg);
  sbx_plan_free (plan);
  plan = NULL;
  tap_ok (fake_resolve_json (without, &host, &plan, &err) == 0
              && has_reason (plan, "no pid namespace holds"),
          "termination: no pid namespace, the reason (%s)", err.msg);
  sbx_plan_free (plan);
}

static void
test_restricted_rung (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  host.private_proc_ok = false;
  const char *json = ws_agent_json;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  tap_ok (fake_resolve_json (json, &host, &plan, &err) == 0,
          "restricted rung: resolves (%s)", err.msg);
  if (plan == NULL)
    return;
  bool proc_bound = false, workspace = false;
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      proc_bound |= m->op == SBX_PLAN_BIND_RO && !strcmp (m->dest, "/proc");
      workspace
          |= m->op == SBX_PLAN_BIND_RW && !strcmp (m->dest, "/home/u/ws");
    }
  tap_ok (proc_bound, "restricted rung: the host's /proc, read-only");
  tap_ok (workspace, "restricted rung: the other layers stay");
  tap_ok (plan->enforcement.level == SBX_LEVEL_PARTIAL
              && has_reason (plan, "private /proc could not be mounted"),
          "restricted rung: reported partial, with the reason");
  sbx_plan_free (plan);
  /* And a config that requires full refuses to run on it.  */
  json = AGENT_JSON ("", "\"mode\": \"read-only\", \"network\": \"deny\", "
                         "\"requireEnforcement\": \"full\"");
  sbx_error_clear (&err);
  tap_ok (fake_resolve_json (json, &host, &plan, &err) == -EPERM
              && strstr (err.msg, "run `sbx-oci check`"),
          "restricted rung: requireEnforcement full refuses (%s)", err.msg);
}

/* With no home known, the credential stores cannot be hidden: the report
   says so instead of claiming them hidden.  */
static void
test_no_home (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  const char *json = ws_agent_json;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  fake_resolve_json (json, &host, &plan, &err);
  tap_ok (plan && !has_reason (plan, "no home directory is known"),
          "a known home: no gap about it");
  sbx_plan_free (plan);
  host.home = NULL;
  plan = NULL;
  tap_ok (fake_resolve_json (json, &host, &plan, &err) == 0 && plan
              && plan->enforcement.filesystem == SBX_LEVEL_PARTIAL
              && has_reason (plan, "no home directory is known"),
          "no home: filesystem partial, and the reason names it");
  sbx_plan_free (plan);
  /* HOME relative or empty (no home), the account's known: its stores
     are hidden, and there is no gap to report.  */
  host.account_home = "/home/u";
  plan = NULL;
  tap_ok (fake_resolve_json (json, &host, &plan, &err) == 0 && plan
              && !has_reason (plan, "no home directory is known"),
          "no HOME but the account's home: no gap about it");
  bool hidden = false;
  for (size_t i = 0; plan && i < plan->n_mounts; i++)
    hidden |= plan->mounts[i].why == SBX_WHY_CREDENTIAL
              && strncmp (plan->mounts[i].dest, "/home/u/", 8) == 0;
  tap_ok (hidden, "  and the account's home's stores are hidden");
  sbx_plan_free (plan);
}

/* Resolve JSON and expect a refusal whose message starts with PREFIX.  */
static void
expect_refused (const char *json, const char *prefix, const char *what)
{
  struct sbx_host_facts host = fake_host (NULL);
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (json, &host, &plan, &err);
  tap_ok (r < 0 && strncmp (err.msg, prefix, strlen (prefix)) == 0,
          "%s: refused as \"%s...\" (got \"%s\")", what, prefix, err.msg);
  sbx_plan_free (plan);
}

/* linux.sysctl: only what a namespace of the container holds.  */
static void
test_sysctl (void)
{
  static const struct
  {
    const char *namespaces, *sysctl, *error; /* NULL: accepted */
  } rows[] = {
    { "network", "\"net.ipv4.ping_group_range\": \"0 0\"", NULL },
    { "ipc", "\"kernel.shmmax\": \"65536\", \"fs.mqueue.msg_max\": \"5\"",
      NULL },
    { "ipc", "\"net.core.somaxconn\": \"77\"",
      "linux.sysctl.net.core.somaxconn: the container shares the host's "
      "network namespace" },
    { "network", "\"kernel.shmmax\": \"65536\"",
      "linux.sysctl.kernel.shmmax: the container shares the host's IPC" },
    { "network\"}, {\"type\": \"ipc", "\"kernel.pid_max\": \"9\"",
      "linux.sysctl.kernel.pid_max: not held by a namespace" },
    { "network\"}, {\"type\": \"uts", "\"kernel.hostname\": \"x\"",
      "linux.sysctl.kernel.hostname: not held by a namespace" },
    { "network", "\"net/../../x\": \"1\"",
      "linux.sysctl: \"net/../../x\" is not a sysctl name" },
    { "network", "\"net..ipv4\": \"1\"",
      "linux.sysctl: \"net..ipv4\" is not a sysctl name" },
    { "network", "\"net.ipv4.\": \"1\"",
      "linux.sysctl: \"net.ipv4.\" is not a sysctl name" },
    { "network", "\"net.core.somaxconn\": \"1\\n2\"",
      "linux.sysctl.net.core.somaxconn: the value holds a newline" },
    /* A bad name is quoted as JSON: the message stays one line.  */
    { "network", "\"a\\nb\\u001b\": \"1\"",
      "linux.sysctl: \"a\\u000ab\\u001b\" is not a sysctl name" },
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    {
      char json[1024];
      snprintf (json, sizeof json,
                "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": "
                "\"rootfs\"}, \"process\": {\"args\": [\"true\"], \"cwd\": "
                "\"/\"}, \"linux\": {\"namespaces\": [{\"type\": \"%s\"}], "
                "\"sysctl\": {%s}}}",
                rows[i].namespaces, rows[i].sysctl);
      char what[256];
      snprintf (what, sizeof what, "sysctl {%s} with %s", rows[i].sysctl,
                rows[i].namespaces);
      if (rows[i].error)
        {
          expect_refused (json, rows[i].error, what);
          continue;
        }
      struct sbx_host_facts host = fake_host (NULL);
      struct sbx_error err = { 0 };
      struct sbx_plan *plan = NULL;
      tap_ok (fake_resolve_json (json, &host, &plan, &err) == 0,
              "%s: accepted (%s)", what, err.msg);
      sbx_plan_free (plan);
    }
}

/* Mount values named in a refusal are quoted as JSON: one line.  */
static void
test_mount_values_quoted (void)
{
  expect_refused (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, \"mounts\": "
      "[{\"destination\": \"/m\", \"type\": \"x\\ny\"}]}",
      "mounts[0].type: unsupported mount type \"x\\u000ay\" (supported:",
      "a mount type with a newline");
  expect_refused (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, \"mounts\": "
      "[{\"destination\": \"/t\", \"type\": \"tmpfs\", \"options\": "
      "[\"size=1\\n\"]}]}",
      "mounts[0].options[0]: invalid size \"1\\u000a\"",
      "a tmpfs size with a newline");
}

/* Namespaces joined by path: network, ipc and uts take the place of the
   ones bwrap would make; the others, and ipc/uts for agents, refused.  */
static void
test_namespace_paths (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"hostname\": \"h\", \"process\": {\"args\": [\"true\"], \"cwd\": "
      "\"/\"}, \"linux\": {\"namespaces\": [{\"type\": \"pid\"}, {\"type\": "
      "\"ipc\", \"path\": \"/proc/7/ns/ipc\"}, {\"type\": \"uts\", "
      "\"path\": \"/proc/7/ns/uts\"}]}}",
      &host, &plan, &err);
  tap_ok (r == 0 && plan && plan->join[SBX_NS_IPC] && plan->join[SBX_NS_UTS]
              && !plan->unshare[SBX_NS_IPC] && !plan->unshare[SBX_NS_UTS],
          "ipc and uts paths are joined, not made (%s)", err.msg);
  tap_ok (plan && plan->hostname == NULL,
          "a joined uts namespace keeps its hostname");
  sbx_plan_free (plan);
  expect_refused (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, \"linux\": "
      "{\"namespaces\": [{\"type\": \"user\", \"path\": "
      "\"/proc/7/ns/user\"}]}}",
      "linux.namespaces[0].path: joining an existing namespace is "
      "supported for",
      "a user path");
  expect_refused (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/\", \"readonly\": "
      "true}, \"process\": {\"args\": [\"true\"], \"cwd\": \"/home/u/ws\"}, "
      "\"linux\": {\"namespaces\": [{\"type\": \"ipc\", \"path\": "
      "\"/proc/7/ns/ipc\"}]}, \"sbx\": {\"mode\": \"read-only\"}}",
      "linux.namespaces[0].path: an agent policy keeps PID, IPC and UTS "
      "namespaces of its own",
      "an agent's ipc path");
}

/* A PID namespace joined by path (podman's --pid container:X): root's
   bwrap enters it, so no namespace is made; an unprivileged caller, a
   user namespace of the sandbox's own or an agent is refused.  */
static void
test_pid_namespace_path (void)
{
#define PID_JOIN(NS)                                                          \
  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "            \
  "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, \"mounts\": "         \
  "[{\"destination\": \"/proc\", \"type\": \"proc\", \"source\": "            \
  "\"proc\"}], "                                                              \
  "\"linux\": {\"namespaces\": [" NS "{\"type\": \"pid\", \"path\": "         \
  "\"/proc/7/ns/pid\"}]}}"
  struct sbx_host_facts host = fake_host (NULL);
  host.is_root = host.host_root = host.caller_is_root_here = true;
  host.uid = host.gid = 0;
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (PID_JOIN (""), &host, &plan, &err);
  tap_ok (r == 0 && plan && plan->join[SBX_NS_PID]
              && strcmp (plan->join[SBX_NS_PID], "/proc/7/ns/pid") == 0
              && !plan->unshare[SBX_NS_PID],
          "root: a pid path is joined, not made (%s)", err.msg);
  sbx_plan_free (plan);
  plan = NULL;
  sbx_error_clear (&err);
  r = fake_resolve_json (PID_JOIN ("{\"type\": \"user\"}, "), &host, &plan,
                         &err);
  tap_ok (r == -ENOTSUP
              && strstr (err.msg, "linux.namespaces[1].path: a pid "
                                  "namespace can be joined only by root "
                                  "without a user namespace"),
          "root with a user namespace: a pid path is refused (%s)", err.msg);
  sbx_plan_free (plan);
  sbx_error_clear (&err);
  expect_refused (PID_JOIN (""),
                  "linux.namespaces[0].path: a pid namespace can be joined "
                  "only by root without a user namespace",
                  "an unprivileged caller's pid path");
  expect_refused (
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/\", \"readonly\": "
      "true}, \"process\": {\"args\": [\"true\"], \"cwd\": \"/home/u/ws\"}, "
      "\"linux\": {\"namespaces\": [{\"type\": \"pid\", \"path\": "
      "\"/proc/7/ns/pid\"}]}, \"sbx\": {\"mode\": \"read-only\"}}",
      "linux.namespaces[0].path: an agent policy keeps PID, IPC and UTS "
      "namespaces of its own",
      "an agent's pid path");
#undef PID_JOIN
}

/* process.user.additionalGids: exactly those for root's containers (the
   identity map keeps them), reported as not applied otherwise.  */
static void
test_supplementary_groups (void)
{
  const char *json
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
        "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", \"user\": "
        "{\"uid\": 0, \"gid\": 0, \"additionalGids\": [10, 20]}}}";
  struct sbx_host_facts host = fake_host (NULL);
  host.is_root = host.host_root = host.caller_is_root_here = true;
  host.uid = host.gid = 0;
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (json, &host, &plan, &err);
  tap_ok (r == 0 && plan && plan->set_groups && plan->n_groups == 2
              && plan->groups[0] == 10 && plan->groups[1] == 20,
          "root's container: exactly additionalGids (%s)", err.msg);
  sbx_plan_free (plan);
  plan = NULL;
  host = fake_host (NULL);
  r = fake_resolve_json (json, &host, &plan, &err);
  bool said = false;
  for (size_t i = 0; plan && i < plan->enforcement.reasons.n; i++)
    said |= strstr (plan->enforcement.reasons.v[i],
                    "process.user.additionalGids")
            != NULL;
  tap_ok (r == 0 && plan && !plan->set_groups && said,
          "an unprivileged caller's: not applied, and said so");
  sbx_plan_free (plan);
}

/* A root caller's container with /proc and no user namespace of its own:
   sbx-oci-init takes uid, gid and groups in the caller's user namespace,
   no gap is reported; with a user namespace asked for, the old rules.  */
static void
test_init_takes_identity (void)
{
  const char *json
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
        "\"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\"}], "
        "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", \"user\": "
        "{\"uid\": 1000, \"gid\": 1001, \"additionalGids\": [7]}}}";
  struct sbx_host_facts host = fake_host (NULL);
  host.is_root = host.host_root = host.caller_is_root_here = true;
  host.uid = host.gid = 0;
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (json, &host, &plan, &err);
  bool gap = false;
  for (size_t i = 0; plan && i < plan->enforcement.reasons.n; i++)
    gap |= strstr (plan->enforcement.reasons.v[i], "process.user") != NULL;
  tap_ok (r == 0 && plan && plan->init && plan->init_ids
              && !plan->unshare[SBX_NS_USER] && plan->uid == 1000
              && plan->gid == 1001 && plan->n_groups == 1
              && plan->groups[0] == 7 && !plan->set_groups && !gap,
          "root's container: sbx-oci-init takes uid, gid and groups, no "
          "user namespace, no gap (%s)",
          err.msg);
  sbx_plan_free (plan);
  plan = NULL;
  host = fake_host (NULL);
  r = fake_resolve_json (json, &host, &plan, &err);
  tap_ok (r == 0 && plan && plan->init && !plan->init_ids,
          "an unprivileged caller's: sbx-oci-init, without the identity");
  sbx_plan_free (plan);
}

/* linux.rootfsPropagation: one of OCI's names, decided for root's
   container; an unknown name and anyone else's non-slave value refused,
   naming the field.  */
static void
test_root_propagation (void)
{
  static const char fmt[]
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"%s\"}, "
        "\"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\"}], "
        "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, "
        "\"linux\": {\"rootfsPropagation\": \"%s\"}}";
  static const struct
  {
    const char *root, *value;
    bool is_root;
    int status; /* 0, or the refusal */
    enum sbx_propagation_kind kind;
    bool recursive;
  } cases[] = {
    { "rootfs", "rprivate", true, 0, SBX_PROPAGATION_PRIVATE, true },
    { "rootfs", "shared", true, 0, SBX_PROPAGATION_SHARED, false },
    { "rootfs", "unbindable", true, 0, SBX_PROPAGATION_UNBINDABLE, false },
    { "rootfs", "rslave", false, 0, SBX_PROPAGATION_KEEP, false },
    { "rootfs", "private", false, -ENOTSUP, 0, false },
    { "/", "private", true, -ENOTSUP, 0, false },
    { "rootfs", "bogus", true, -EINVAL, 0, false },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      char json[512];
      snprintf (json, sizeof json, fmt, cases[i].root, cases[i].value);
      struct sbx_host_facts host = fake_host (NULL);
      host.is_root = host.host_root = host.caller_is_root_here
          = cases[i].is_root;
      struct sbx_error err = { 0 };
      struct sbx_plan *plan = NULL;
      int r = fake_resolve_json (json, &host, &plan, &err);
      bool ok = cases[i].status
                    ? r == cases[i].status
                          && strcmp (err.field, "linux.rootfsPropagation") == 0
                    : r == 0 && plan->root_propagation.kind == cases[i].kind
                          && plan->root_propagation.recursive
                                 == cases[i].recursive;
      tap_ok (ok, "rootfsPropagation %s, root %s, %s: %s (%s)", cases[i].value,
              cases[i].root, cases[i].is_root ? "as root" : "unprivileged",
              cases[i].status ? "refused" : "decided", err.msg);
      sbx_plan_free (plan);
    }
}

/* Labels: kept for a container with /proc where the module is on;
   refused, naming the field and why, where it is off, for an agent, and
   without /proc (sbx-oci-init, which applies them, needs it).  */
static void
test_labels (void)
{
  static const char fmt[]
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"%s\"}, "
        "\"mounts\": [%s], "
        "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", %s}, "
        "\"linux\": {\"mountLabel\": \"%s\"}}";
  static const char proc[]
      = "{\"destination\": \"/proc\", \"type\": \"proc\"}";
  static const struct
  {
    const char *root, *mounts, *process, *mount_label;
    bool selinux, apparmor;
    const char *refused; /* the field, or NULL: kept */
    const char *why;     /* in the refusal */
  } cases[] = {
    { "rootfs", proc, "\"selinuxLabel\": \"s\"", "m", true, false, NULL, "" },
    { "rootfs", proc, "\"apparmorProfile\": \"p\"", "", false, true, NULL,
      "" },
    { "rootfs", proc, "\"selinuxLabel\": \"s\"", "", false, true,
      "process.selinuxLabel", "SELinux is not enabled on this host" },
    { "rootfs", proc, "\"apparmorProfile\": \"p\"", "", true, false,
      "process.apparmorProfile", "AppArmor is not enabled on this host" },
    { "rootfs", proc, "\"selinuxLabel\": \"\"", "m", false, false,
      "linux.mountLabel", "SELinux is not enabled" },
    { "rootfs", "", "\"selinuxLabel\": \"s\"", "", true, false,
      "process.selinuxLabel", "mount /proc or remove it" },
    { "/", proc, "\"apparmorProfile\": \"p\"", "", true, true,
      "process.apparmorProfile", "an agent sandbox takes no label" },
    { "rootfs", proc, "\"selinuxLabel\": \"a\\\",mode=777\"", "", true, false,
      "process.selinuxLabel", "a quote or a control character" },
    { "rootfs", proc, "\"selinuxLabel\": \"s\"},\"sbx\": {\"landlock\": true",
      "", true, false, "process.selinuxLabel", "the Landlock helper" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      char json[1024];
      snprintf (json, sizeof json, fmt, cases[i].root, cases[i].mounts,
                cases[i].process, cases[i].mount_label);
      struct sbx_host_facts host = fake_host (NULL);
      host.is_root = host.host_root = host.caller_is_root_here = true;
      host.selinux = cases[i].selinux;
      host.apparmor = cases[i].apparmor;
      struct sbx_error err = { 0 };
      struct sbx_plan *plan = NULL;
      int r = fake_resolve_json (json, &host, &plan, &err);
      bool ok
          = cases[i].refused
                ? (r == -ENOTSUP || r == -EINVAL)
                      && strcmp (err.field, cases[i].refused) == 0
                      && strstr (err.msg, cases[i].why)
                : r == 0
                      && (strstr (cases[i].process, "selinux")
                              ? plan->selinux_label
                                    && strcmp (plan->selinux_label, "s") == 0
                              : plan->apparmor_profile
                                    && strcmp (plan->apparmor_profile, "p")
                                           == 0)
                      && (cases[i].mount_label[0]
                              ? plan->mount_label
                                    && strcmp (plan->mount_label, "m") == 0
                              : plan->mount_label == NULL);
      tap_ok (ok, "labels %zu: %s (%s)", i,
              cases[i].refused ? "refused" : "kept", err.msg);
      sbx_plan_free (plan);
    }
}

/* Mounts below /proc: only /proc itself as procfs and lxcfs' files, as
   runc allows; a file over a task's attr/exec (where sbx-oci-init writes
   the command's label) refused, naming the entry.  */
static void
test_proc_dests (void)
{
  static const char fmt[]
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
        "\"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\"}, "
        "%s], \"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}}";
  static const struct
  {
    const char *mount;
    bool ok;
  } cases[] = {
    { "{\"destination\": \"/proc/1/task/1/attr/exec\", \"type\": "
      "\"bind\", \"source\": \"/proc/sys/kernel/hostname\", "
      "\"options\": [\"bind\"]}",
      false },
    { "{\"destination\": \"/proc\", \"type\": \"tmpfs\"}", false },
    { "{\"destination\": \"/proc/cpuinfo\", \"type\": \"bind\", "
      "\"source\": \"/proc/cpuinfo\", \"options\": [\"bind\"]}",
      true },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      char json[1024];
      static const struct fake_path cpuinfo[] = {
        { "/proc/cpuinfo", SBX_PATH_FILE },
        { NULL, SBX_PATH_ABSENT },
      };
      snprintf (json, sizeof json, fmt, cases[i].mount);
      struct sbx_host_facts host = fake_host (cpuinfo);
      host.is_root = host.host_root = host.caller_is_root_here = true;
      struct sbx_error err = { 0 };
      struct sbx_plan *plan = NULL;
      int r = fake_resolve_json (json, &host, &plan, &err);
      tap_ok (cases[i].ok
                  ? r == 0
                  : r == -EPERM
                        && strcmp (err.field, "mounts[1].destination") == 0,
              "a mount below /proc, case %zu: %s (%s)", i,
              cases[i].ok ? "taken" : "refused", err.msg);
      sbx_plan_free (plan);
    }
}

/* One decision for the sandbox and for exec into it: which seccomp
   programs run (sbx_policy_filters, recorded in the plan).  */
static void
test_filters (void)
{
  static const struct
  {
    const char *json, *what;
    enum sbx_filter_choice main;
    bool net_deny;
  } cases[] = {
    { AGENT_JSON ("", "\"network\": \"deny\""), "an agent, network deny",
      SBX_FILTERS_AGENT, true },
    { AGENT_JSON ("", "\"network\": \"loopback\", "
                      "\"allowUserNamespaces\": true"),
      "an agent allowing user namespaces", SBX_FILTERS_AGENT_USERNS, false },
    { "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}}",
      "a container without a filter", SBX_FILTERS_NONE, false },
    { "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
      "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, "
      "\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\"}}}",
      "a container with its own filter", SBX_FILTERS_CONFIG, false },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      struct sbx_plan *plan = resolve (cases[i].json, cases[i].what);
      tap_ok (plan && plan->filters.main == cases[i].main
                  && plan->filters.net_deny == cases[i].net_deny,
              "%s: the plan's filters", cases[i].what);
      sbx_plan_free (plan);
    }
}

/* Without --bind-fd the runner mounts bind sources by path: said, and the
   filesystem level is partial; with it, nothing is said.  */
static void
test_bind_fd_gap (void)
{
  const char *json = ws_agent_json;
  for (int has = 0; has < 2; has++)
    {
      struct sbx_host_facts host = fake_host (NULL);
      host.runner_bind_fd = has;
      struct sbx_error err = { 0 };
      struct sbx_plan *plan = NULL;
      int r = fake_resolve_json (json, &host, &plan, &err);
      bool said = false;
      for (size_t i = 0; plan && i < plan->enforcement.reasons.n; i++)
        said
            |= strstr (plan->enforcement.reasons.v[i], "no --bind-fd") != NULL;
      tap_ok (
          r == 0 && said == !has
              && (has || plan->enforcement.filesystem == SBX_LEVEL_PARTIAL),
          "a runner %s --bind-fd: %s", has ? "with" : "without",
          has ? "no reason" : "the reason, and filesystem partial");
      sbx_plan_free (plan);
    }
}

/* Gaps that only the integration suites met, where this host's
   bubblewrap (0.8.0, a gap of its own) keeps every run partial: on a
   host with nothing else to report, each alone makes the file system
   partial.  */
static void
test_walk_and_home_gaps (void)
{
  static const struct fake_path paths[] = {
    { "/home/u/ws/.bashrc", SBX_PATH_FILE },
    { NULL, SBX_PATH_ABSENT },
  };
  struct sbx_host_facts host = fake_host (paths);
  host.runner_version[0] = 1;
  host.runner_bind_fd = true;
  host.landlock_abi = 7;
  const char *json = ws_agent_json;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  fake_resolve_json (json, &host, &plan, &err);
  tap_ok (plan && plan->enforcement.filesystem == SBX_LEVEL_FULL,
          "a host with nothing to report: filesystem full");
  sbx_plan_free (plan);
  host.alias_gap = "hard-link aliases: the alias walk stopped at its bound";
  plan = NULL;
  fake_resolve_json (json, &host, &plan, &err);
  tap_ok (plan && plan->enforcement.filesystem == SBX_LEVEL_PARTIAL
              && has_reason (plan, "stopped at its bound"),
          "a walk cut short: filesystem partial, with the reason");
  sbx_plan_free (plan);
  host.alias_gap = NULL;
  host.home = "/home/u/ws";
  plan = NULL;
  fake_resolve_json (json, &host, &plan, &err);
  tap_ok (plan && plan->enforcement.filesystem == SBX_LEVEL_PARTIAL
              && has_reason (plan, "the home /home/u/ws is writable and "
                                   "lacks .bash_profile"),
          "the workspace is the home: what it lacks makes it partial");
  sbx_plan_free (plan);
}

/* A container that shares the caller's IPC namespace and lists an mqueue
   mount: the host's root mounts a fresh one (the namespace is its own to
   mount in); root of a rootless user namespace may not (the host IPC
   namespace is not its namespace's), so the host's /dev/mqueue is bound,
   the same queues.  */
static void
test_mqueue_by_root (void)
{
  const char *json
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
        "\"mounts\": [{\"destination\": \"/dev/mqueue\", \"type\": "
        "\"mqueue\"}], \"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, "
        "\"linux\": {\"namespaces\": [{\"type\": \"mount\"}]}}";
  for (int host_root = 1; host_root >= 0; host_root--)
    {
      struct sbx_host_facts host = fake_host (NULL);
      host.is_root = host.host_root = host.caller_is_root_here = true;
      host.host_root = host_root;
      host.uid = host.gid = 0;
      struct sbx_error err = { 0 };
      struct sbx_plan *plan = NULL;
      int r = fake_resolve_json (json, &host, &plan, &err);
      const struct sbx_plan_mount *mq = NULL;
      for (size_t i = 0; plan && i < plan->n_mounts; i++)
        if (strcmp (plan->mounts[i].dest, "/dev/mqueue") == 0)
          mq = &plan->mounts[i];
      tap_ok (r == 0 && mq
                  && (host_root
                          ? mq->op == SBX_PLAN_MQUEUE
                          : mq->op == SBX_PLAN_BIND_RW && mq->source
                                && strcmp (mq->source, "/dev/mqueue") == 0),
              "%s: the host IPC namespace's mqueue is %s (%s)",
              host_root ? "the host's root" : "a user namespace's root",
              host_root ? "mounted" : "bound from the host", err.msg);
      sbx_plan_free (plan);
    }
}

/* RLIMIT_NPROC holds a sandbox only where its ids are not host uid 0,
   which the kernel exempts: not for root's sandbox in root's user
   namespace, nor in one that maps root's own id, nor for a caller whose
   uid is the host's 0, nor where sbx-oci cannot tell (outside the
   initial user namespace); yes for an unprivileged caller's and a range
   of other ids.  */
static void
test_nproc_rlimit_holds (void)
{
#define NPROC_CONFIG(LINUX)                                                   \
  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "            \
  "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}, "                     \
  "\"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\"}], "          \
  "\"linux\": {\"resources\": {\"pids\": {\"limit\": 64}}" LINUX "}}"
#define NPROC_RANGE(HOST)                                                     \
  ", \"namespaces\": [{\"type\": \"user\"}], \"uidMappings\": "               \
  "[{\"containerID\": 0, \"hostID\": " HOST ", \"size\": 65536}], "           \
  "\"gidMappings\": [{\"containerID\": 0, \"hostID\": " HOST                  \
  ", \"size\": 65536}]"
  enum who
  {
    USER,        /* uid 1000 of the host's namespace */
    HOST_ROOT,   /* the host's root */
    NS_ROOT,     /* rootless podman's root: no id of its is the host's 0 */
    MAPPED_ROOT, /* uid 1000 of `unshare --map-user=1000`, run by root */
  };
  static const struct
  {
    const char *what, *json;
    enum who who;
    bool holds;
  } cases[] = {
    { "an unprivileged caller's sandbox", NPROC_CONFIG (""), USER, true },
    { "root's, in root's user namespace", NPROC_CONFIG (""), HOST_ROOT,
      false },
    { "root's, ids 100000-165535", NPROC_CONFIG (NPROC_RANGE ("100000")),
      HOST_ROOT, true },
    { "root's, in a user namespace of the config's with no map",
      NPROC_CONFIG (", \"namespaces\": [{\"type\": \"user\"}]"), HOST_ROOT,
      false },
    { "a rootless namespace's root's (its parent may be nested)",
      NPROC_CONFIG (""), NS_ROOT, false },
    { "a caller whose uid is the host's root", NPROC_CONFIG (""), MAPPED_ROOT,
      false },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      enum who who = cases[i].who;
      struct sbx_host_facts host = fake_host (NULL);
      host.is_root = who == HOST_ROOT || who == NS_ROOT;
      host.host_root = who == HOST_ROOT;
      host.caller_is_root_here = who == HOST_ROOT || who == MAPPED_ROOT;
      host.initial_userns = who == USER || who == HOST_ROOT;
      host.root_uid_here = who == NS_ROOT ? -1 : who == MAPPED_ROOT ? 1000 : 0;
      if (host.is_root)
        host.uid = host.gid = 0;
      struct sbx_error err = { 0 };
      struct sbx_plan *plan = NULL;
      int r = fake_resolve_json (cases[i].json, &host, &plan, &err);
      tap_ok (r == 0 && plan && plan->nproc_rlimit_holds == cases[i].holds,
              "%s: RLIMIT_NPROC %s (%s)", cases[i].what,
              cases[i].holds ? "holds" : "does not hold", err.msg);
      sbx_plan_free (plan);
    }
#undef NPROC_RANGE
#undef NPROC_CONFIG
}

int
main (void)
{
  test_filters ();
  test_walk_and_home_gaps ();
  test_bind_fd_gap ();
  test_supplementary_groups ();
  test_init_takes_identity ();
  test_mqueue_by_root ();
  test_nproc_rlimit_holds ();
  test_root_propagation ();
  test_labels ();
  test_proc_dests ();
  test_sysctl ();
  test_mount_values_quoted ();
  test_namespace_paths ();
  test_pid_namespace_path ();
  test_restricted_rung ();
  test_termination_gap ();
  test_no_home ();
  test_container_env ();
  test_agent_allow_list ();
  test_agent_inherit ();
  return tap_done ();
}
