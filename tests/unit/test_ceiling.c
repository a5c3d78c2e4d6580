/* Under the operator's ceiling an untrusted config may only narrow: every
   field it sets is on an allow-list, widenings need their token, values
   stay under the ceiling.  Without a ceiling the config is trusted.  */
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdlib.h>

#include "policy/ceiling.h"

/* TOKEN: the approval that lets it run; else REFUSAL: a refusal no token
   lifts (a phrase of it); neither: it runs under the ceiling.  */
struct ceiling_case
{
  const char *name;
  const char *json;
  const char *token;
  const char *refusal;
  /* With TOKEN approved, a refusal that remains (a phrase of it); NULL:
     it runs.  */
  const char *approved_refusal;
};

#define WS "\"mode\": \"workspace-write\", \"workspace\": \"/home/u/ws\""
#define DENY WS ", \"network\": \"deny\""
#define BIND(SRC, DST, OPT)                                                   \
  "{\"destination\": \"" DST "\", \"type\": \"bind\", \"source\": \"" SRC     \
  "\", \"options\": [\"" OPT "\"]}"
#define WITH_PROCESS(FIELDS, PROCESS)                                         \
  "{\"ociVersion\": \"1.2.0\", " FIELDS "\"root\": {\"path\": \"/\", "        \
  "\"readonly\": true}, \"process\": {\"args\": [\"true\"], "                 \
  "\"cwd\": \"/home/u/ws\"" PROCESS "}, \"sbx\": {" DENY "}}"
#define WITH(FIELDS) WITH_PROCESS (FIELDS ", ", "")

static const struct ceiling_case cases[] = {
  { "the default agent policy", AGENT_JSON ("", DENY), NULL, NULL },
  { "read-only",
    AGENT_JSON ("", "\"mode\": \"read-only\", \"network\": "
                    "\"deny\""),
    NULL, NULL },
  { "a deny layer in the workspace",
    AGENT_JSON ("{\"destination\": \"/home/u/ws/v\", \"type\": \"tmpfs\", "
                "\"options\": [\"ro\"]}",
                DENY),
    NULL, NULL },
  { "a writable bind inside the workspace",
    AGENT_JSON (BIND ("/home/u/ws/a", "/home/u/ws/b", "rw"), DENY), NULL,
    NULL },
  { "danger-full-access",
    AGENT_JSON ("", "\"mode\": \"danger-full-access\", \"network\": "
                    "\"deny\""),
    NULL, "above the ceiling's maxMode" },
  { "the host network", AGENT_JSON ("", WS ", \"network\": \"allow\""), NULL,
    "above the ceiling's maxNetwork" },
  { "no network namespace",
    WITH ("\"linux\": {\"namespaces\": [{\"type\": \"pid\"}, "
          "{\"type\": \"mount\"}]}, \"mounts\": []")
    /* sbx.network "deny" wins over the namespace list: it still runs */,
    NULL, NULL },
  { "\"/\" as the workspace",
    AGENT_JSON ("", "\"mode\": \"workspace-write\", \"workspace\": \"/\", "
                    "\"network\": \"deny\""),
    NULL, "not one of the ceiling's workspaces" },
  { "a parent of the workspace",
    AGENT_JSON ("", "\"mode\": \"workspace-write\", \"workspace\": "
                    "\"/home/u\", \"network\": \"deny\""),
    NULL, "not one of the ceiling's workspaces" },
  { "a container rootfs",
    "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
    "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\"}}",
    NULL, "container rootfs is refused" },
  { "hardened defaults off",
    AGENT_JSON ("", DENY ", \"hardenedDefaults\": false"),
    "hardened-defaults-off", NULL },
  { "alias masking off",
    AGENT_JSON ("", DENY ", \"aliasMasking\": {\"enabled\": false}"),
    "alias-masking-off", NULL },
  { "its own protected paths",
    AGENT_JSON ("", DENY ", \"protectedPaths\": []"), "protected-paths",
    NULL },
  { "user namespaces", AGENT_JSON ("", DENY ", \"allowUserNamespaces\": true"),
    "user-namespaces", NULL },
  { "the whole environment",
    AGENT_JSON ("", DENY ", \"env\": {\"mode\": \"inherit\"}"), "env-inherit",
    NULL },
  { "a variable of the caller's",
    AGENT_JSON ("", DENY ", \"env\": {\"allow\": [\"EDITOR\"]}"), "env:EDITOR",
    NULL },
  { "a writable root outside the workspaces",
    AGENT_JSON ("", DENY ", \"writableRoots\": [\"/data\"]"), "/data", NULL },
  { "a writable bind of /etc into the workspace",
    AGENT_JSON (BIND ("/etc", "/home/u/ws/etc", "rw"), DENY), "/etc", NULL },
  { "a read-only bind of ~/.ssh into the workspace",
    AGENT_JSON (BIND ("/home/u/.ssh", "/home/u/ws/k", "ro"), DENY),
    "/home/u/.ssh", NULL, "which hardened defaults hide" },
  { "a bind through a symlink planted in the workspace",
    AGENT_JSON (BIND ("/home/u/ws/link/x", "/home/u/ws/y", "rw"), DENY), NULL,
    "is a symbolic link" },
  { "the workspace bound writable inside itself",
    AGENT_JSON (BIND ("/home/u/ws", "/home/u/ws/sub", "rw"), DENY), NULL,
    "would make the protected" },
  { "hooks", WITH ("\"hooks\": {\"poststop\": [{\"path\": \"/bin/true\"}]}"),
    "hooks", NULL },
  { "capabilities",
    WITH_PROCESS ("", ", \"capabilities\": {\"bounding\": "
                      "[\"CAP_DAC_READ_SEARCH\"]}"),
    "capabilities", NULL },
  { "the host's PID namespace",
    WITH ("\"linux\": {\"namespaces\": [{\"type\": \"network\"}, "
          "{\"type\": \"mount\"}]}"),
    "host-pid", NULL },
  { "joining a network namespace",
    WITH ("\"linux\": {\"namespaces\": [{\"type\": \"pid\"}, {\"type\": "
          "\"network\", \"path\": \"/proc/1/ns/net\"}]}"),
    "namespace-join", NULL },
  { "joining a pid namespace",
    WITH ("\"linux\": {\"namespaces\": [{\"type\": \"pid\", \"path\": "
          "\"/proc/1/ns/pid\"}]}"),
    "namespace-join", NULL, "keeps PID, IPC and UTS namespaces of its own" },
  { "a sysctl",
    WITH ("\"linux\": {\"sysctl\": {\"net.ipv4.ip_forward\": \"1\"}}"),
    "sysctl", NULL },
  { "a resource limit above the caller's",
    WITH_PROCESS ("", ", \"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", "
                      "\"hard\": 1048576, \"soft\": 1048576}]"),
    "rlimits", NULL },
  /* A limit that only narrows what the sandbox may use needs nothing.  */
  { "a huge page limit",
    WITH ("\"linux\": {\"resources\": {\"hugepageLimits\": [{\"pageSize\": "
          "\"2MB\", \"limit\": 0}]}}"),
    NULL, NULL },
  /* A class id or a priority is a tag the host's firewall and traffic
     control may act on (iptables -m cgroup --cgroup): a sandbox that
     picks its own could take a tag the host trusts.  */
  { "a network class id",
    WITH ("\"linux\": {\"resources\": {\"network\": {\"classID\": "
          "1048577}}}"),
    "net-class", NULL },
  { "network priorities",
    WITH ("\"linux\": {\"resources\": {\"network\": {\"priorities\": "
          "[{\"name\": \"eth0\", \"priority\": 7}]}}}"),
    "net-class", NULL },
  /* A node the agent names is a host device it may open: no token lifts
     that; only the operator's own config may list one.  */
  { "a device node",
    WITH ("\"linux\": {\"devices\": [{\"path\": \"/dev/sda\", "
          "\"type\": \"b\", \"major\": 8, \"minor\": 0}]}"),
    NULL, "linux.devices: not a field an untrusted config may set" },
  { "a field the allow-list does not know", WITH ("\"domainname\": \"x\""),
    NULL, "domainname: not a field an untrusted config may set" },
  /* A misspelt sbx key no longer gets this far: the parser refuses it
     for every config (test_spec_parse, "unknown key sbx.").  */
};

static const struct fake_path ceiling_paths[] = {
  { "/home/u/ws/link", SBX_PATH_SYMLINK },
  { "/home/u/ws/.git", SBX_PATH_DIR },
  { "/home/u/ws/.git/config", SBX_PATH_FILE },
  { "/home/u/ws/a", SBX_PATH_DIR },
  { "/home/u/ws/b", SBX_PATH_DIR },
  { "/home/u/ws/k", SBX_PATH_DIR },
  { "/home/u/ws/y", SBX_PATH_DIR },
  { "/home/u/ws/sub", SBX_PATH_DIR },
  { "/home/u/ws/etc", SBX_PATH_DIR },
  { "/etc", SBX_PATH_DIR },
  { NULL, SBX_PATH_ABSENT },
};

/* A caller whose hard limits are all 0: any limit is above them.  */
static uint64_t
no_limit_above_zero (int resource)
{
  (void) resource;
  return 0;
}

static int
check (const char *json, const struct sbx_ceiling *ceiling,
       struct sbx_error *err)
{
  struct sbx_host_facts host = fake_host (ceiling_paths);
  host.rlimit_hard = no_limit_above_zero;
  struct sbx_spec *spec = NULL;
  struct sbx_plan *plan = NULL;
  int r = sbx_spec_parse (json, strlen (json), "/bundle", &spec, err);
  if (r == 0)
    r = sbx_policy_resolve (spec, &host, ceiling, &plan, err);
  if (r == 0 && plan->under_ceiling != (ceiling != NULL))
    r = sbx_fail (err, -EINVAL, "the plan does not record the trust");
  sbx_plan_free (plan);
  sbx_spec_free (spec);
  return r;
}

static void
ceiling_with (struct sbx_ceiling *c, const char *token)
{
  const char *json = "{\"workspaces\": [\"/home/u/ws\"], \"maxMode\": "
                     "\"workspace-write\", \"maxNetwork\": \"deny\"}";
  struct sbx_error err = { 0 };
  if (sbx_ceiling_parse (json, strlen (json), c, &err) < 0)
    {
      printf ("Bail out! ceiling: %s\n", err.msg);
      exit (1);
    }
  strv_push (&c->approvals, "something-else");
  if (token)
    strv_push (&c->approvals, token);
}

static void
check_case (const struct ceiling_case *c)
{
  struct sbx_ceiling none, right;
  struct sbx_error err = { 0 };
  ceiling_with (&none, NULL);
  ceiling_with (&right, c->token);
  int r = check (c->json, &none, &err);
  if (c->token == NULL && c->refusal == NULL)
    tap_ok (r == 0, "%s: runs under the ceiling (%s)", c->name, err.msg);
  else if (c->refusal)
    tap_ok (r == -EPERM && strstr (err.msg, c->refusal),
            "%s: refused, \"%s\" (%s)", c->name, c->refusal, err.msg);
  else
    {
      char want[256];
      snprintf (want, sizeof want, "add \"%s\" to the ceiling's", c->token);
      tap_ok (r == -EPERM && strstr (err.msg, want),
              "%s: refused, naming the token \"%s\" (%s)", c->name, c->token,
              err.msg);
      sbx_error_clear (&err);
      r = check (c->json, &right, &err);
      if (c->approved_refusal)
        tap_ok (r == -EPERM && strstr (err.msg, c->approved_refusal),
                "%s: approved, still refused: \"%s\" (%s)", c->name,
                c->approved_refusal, err.msg);
      else
        tap_ok (r == 0, "%s: runs with \"%s\" approved (%s)", c->name,
                c->token, err.msg);
    }
  sbx_error_clear (&err);
  sbx_ceiling_free (&none);
  sbx_ceiling_free (&right);
}

/* Without a ceiling the config is the operator's own (as with runc): the
   widenings run, the plan says so.  */
static void
trusted_config (void)
{
  struct sbx_error err = { 0 };
  int r = check (AGENT_JSON ("", WS ", \"network\": \"allow\", "
                                    "\"hardenedDefaults\": false"),
                 NULL, &err);
  tap_ok (r == 0, "no ceiling: the operator's own config widens (%s)",
          err.msg);
}

/* Without sbx.network a sandbox that joins a network namespace is in it
   and reaches what it reaches: "allow", above a ceiling's "loopback".
   The adversarial review found it reported as "loopback", so under such
   a ceiling, while it reached the host's services.  */
static void
joined_network_is_allow (void)
{
  const char *json = "{\"workspaces\": [\"/home/u/ws\"], \"maxMode\": "
                     "\"workspace-write\", \"maxNetwork\": \"loopback\", "
                     "\"approve\": [\"namespace-join\"]}";
  struct sbx_ceiling c;
  struct sbx_error err = { 0 };
  if (sbx_ceiling_parse (json, strlen (json), &c, &err) < 0)
    {
      printf ("Bail out! ceiling: %s\n", err.msg);
      exit (1);
    }
  int r = check (
      "{\"ociVersion\": \"1.2.0\", \"linux\": {\"namespaces\": [{\"type\": "
      "\"pid\"}, {\"type\": \"network\", \"path\": \"/proc/1/ns/net\"}]}, "
      "\"root\": {\"path\": \"/\", \"readonly\": true}, \"process\": "
      "{\"args\": [\"true\"], \"cwd\": \"/home/u/ws\"}, \"sbx\": {" WS "}}",
      &c, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "network \"allow\" is above"),
          "a joined network namespace is \"allow\", above maxNetwork "
          "\"loopback\" (%s)",
          err.msg);
  sbx_ceiling_free (&c);
}

/* "devices", the token older ceilings approved device nodes with, grants
   none now.  */
static void
device_token_grants_nothing (void)
{
  struct sbx_ceiling c;
  struct sbx_error err = { 0 };
  ceiling_with (&c, "devices");
  int r = check (WITH ("\"linux\": {\"devices\": [{\"path\": "
                       "\"/dev/zero\", \"type\": \"c\", \"major\": 1, "
                       "\"minor\": 5}]}"),
                 &c, &err);
  tap_ok (r == -EPERM
              && strstr (err.msg, "linux.devices: not a field an untrusted"),
          "linux.devices stays refused with \"devices\" approved (%s)",
          err.msg);
  sbx_ceiling_free (&c);
}

/* A read-only bind of a hidden store stays refused even approved: the
   ceiling's token approves the path, hardened defaults still hide it.  */
static void
hidden_store_stays_hidden (void)
{
  struct sbx_ceiling c;
  ceiling_with (&c, "/home/u/.ssh");
  struct sbx_error err = { 0 };
  int r
      = check (AGENT_JSON (BIND ("/home/u/.ssh", "/home/u/ws/k", "ro"), DENY),
               &c, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "hardened defaults hide"),
          "an approved bind of ~/.ssh is still refused (%s)", err.msg);
  sbx_ceiling_free (&c);
}

/* Where a private /proc cannot be mounted, the host's is bound in: the
   host's processes are visible as with the host's PID namespace, so it
   takes the same approval.  */
static void
host_proc_needs_host_pid (void)
{
  const char *json = AGENT_JSON ("", DENY);
  for (int approved = 0; approved < 2; approved++)
    {
      struct sbx_ceiling c;
      ceiling_with (&c, approved ? "host-pid" : NULL);
      struct sbx_host_facts host = fake_host (ceiling_paths);
      host.private_proc_ok = false;
      struct sbx_spec *spec = NULL;
      struct sbx_plan *plan = NULL;
      struct sbx_error err = { 0 };
      int r = sbx_spec_parse (json, strlen (json), "/bundle", &spec, &err);
      if (r == 0)
        r = sbx_policy_resolve (spec, &host, &c, &plan, &err);
      if (approved)
        tap_ok (r == 0, "the host's /proc runs with \"host-pid\" (%s)",
                err.msg);
      else
        tap_ok (r == -EPERM && strstr (err.msg, "add \"host-pid\""),
                "the host's /proc (no private one here) needs \"host-pid\" "
                "(%s)",
                err.msg);
      sbx_plan_free (plan);
      sbx_spec_free (spec);
      sbx_error_clear (&err);
      sbx_ceiling_free (&c);
    }
}

/* The ceiling is refused before requireEnforcement is looked at.  */
static void
policy_before_enforcement (void)
{
  struct sbx_ceiling c;
  ceiling_with (&c, NULL);
  struct sbx_error err = { 0 };
  int r = check (AGENT_JSON ("", WS ", \"network\": \"allow\", "
                                    "\"requireEnforcement\": \"full\""),
                 &c, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "maxNetwork"),
          "a refusal names the ceiling before requireEnforcement (%s)",
          err.msg);
  sbx_ceiling_free (&c);
}

static void
ceiling_file (void)
{
  static const struct
  {
    const char *json, *complaint;
  } bad[] = {
    { "{\"workspace\": [\"/w\"]}", "workspace: unknown key" },
    { "{\"workspaces\": [\"w\"]}", "workspaces[0]: expected an absolute" },
    { "{\"maxMode\": \"workspace-write\"}", "needs at least one workspace" },
    { "{\"approve\": [\"a b\"]}", "approve[0]: expected a token" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    {
      struct sbx_ceiling c;
      struct sbx_error err = { 0 };
      int r = sbx_ceiling_parse (bad[i].json, strlen (bad[i].json), &c, &err);
      tap_ok (r < 0 && strstr (err.msg, bad[i].complaint),
              "ceiling file %s: \"%s\" (%s)", bad[i].json, bad[i].complaint,
              err.msg);
    }
  struct sbx_ceiling c;
  struct sbx_error err = { 0 };
  tap_ok (sbx_ceiling_parse ("{}", 2, &c, &err) == 0
              && c.max_mode == SBX_MODE_READ_ONLY
              && c.max_network == SBX_NET_DENY,
          "an empty ceiling allows read-only and no network");
  sbx_ceiling_free (&c);
}

/* A key too long to spell as a path: the operator's own config parses as
   it always did; under a ceiling it is a field nobody allowed.  */
static void
overlong_key (void)
{
  char key[700], json[2048];
  memset (key, 'k', sizeof key - 1);
  key[sizeof key - 1] = '\0';
  snprintf (json, sizeof json,
            "{\"ociVersion\": \"1.2.0\", \"x\": {\"%s\": 1}, "
            "\"root\": {\"path\": \"/\", \"readonly\": true}, "
            "\"process\": {\"args\": [\"true\"], \"cwd\": \"/home/u/ws\"}, "
            "\"sbx\": {" DENY "}}",
            key);
  struct sbx_error err = { 0 };
  tap_ok (check (json, NULL, &err) == 0,
          "an over-long key: the operator's config runs (%s)", err.msg);
  sbx_error_clear (&err);
  struct sbx_ceiling c;
  ceiling_with (&c, NULL);
  int r = check (json, &c, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "not a field"),
          "an over-long key: refused under a ceiling (%s)", err.msg);
  sbx_ceiling_free (&c);
  /* Inside sbx, which sbx-oci owns, it is an unknown key: refused for
     every config, as a misspelt one is (it was ignored).  */
  snprintf (json, sizeof json,
            "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/\", "
            "\"readonly\": true}, \"process\": {\"args\": [\"true\"], "
            "\"cwd\": \"/home/u/ws\"}, \"sbx\": {\"%s\": 1, " DENY "}}",
            key);
  sbx_error_clear (&err);
  r = check (json, NULL, &err);
  tap_ok (r == -EINVAL && err.kind == SBX_ERROR_REFUSED
              && strstr (err.msg, "sbx: an unknown key of 699 bytes"),
          "an over-long key inside sbx: refused (%s)", err.msg);
}

/* As root, a range of ids would make the config act as host uids the
   ceiling never granted: refused even with "id-mappings" approved; the
   caller's own id alone, approved, still runs.  */
static void
id_ranges_stay_refused (void)
{
  struct sbx_ceiling c;
  ceiling_with (&c, "id-mappings");
  struct sbx_host_facts host = fake_host (ceiling_paths);
  host.is_root = host.host_root = host.caller_is_root_here = true;
  host.uid = host.gid = 0;
  static const char *const maps[] = {
    "{\"containerID\": 0, \"hostID\": 100000, \"size\": 65536}",
    "{\"containerID\": 0, \"hostID\": 0, \"size\": 1}",
  };
  for (int own = 0; own < 2; own++)
    {
      char json[1024];
      snprintf (json, sizeof json,
                WITH ("\"linux\": {\"namespaces\": [{\"type\": "
                      "\"pid\"}, {\"type\": \"mount\"}, {\"type\": "
                      "\"user\"}], \"uidMappings\": [%s], "
                      "\"gidMappings\": [%s]}"),
                maps[own], maps[own]);
      struct sbx_error err = { 0 };
      struct sbx_spec *spec = NULL;
      struct sbx_plan *plan = NULL;
      int r = sbx_spec_parse (json, strlen (json), "/bundle", &spec, &err);
      if (r == 0)
        r = sbx_policy_resolve (spec, &host, &c, &plan, &err);
      if (own)
        tap_ok (r == 0, "root: the caller's own id alone, approved, runs (%s)",
                err.msg);
      else
        tap_ok (r == -EPERM
                    && strcmp (err.msg,
                               "linux.uidMappings[0]: a range of host ids is "
                               "not granted by a ceiling; under one only "
                               "the caller's own id can be mapped, with "
                               "size 1")
                           == 0,
                "root: a range stays refused with \"id-mappings\" approved "
                "(%s)",
                err.msg);
      sbx_plan_free (plan);
      sbx_spec_free (spec);
    }
  sbx_ceiling_free (&c);
}

int
main (void)
{
  overlong_key ();
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    check_case (&cases[i]);
  trusted_config ();
  device_token_grants_nothing ();
  joined_network_is_allow ();
  hidden_store_stays_hidden ();
  id_ranges_stay_refused ();
  host_proc_needs_host_pid ();
  policy_before_enforcement ();
  ceiling_file ();
  return tap_done ();
}
