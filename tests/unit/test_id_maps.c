/* linux.uidMappings / gidMappings as root: sbx makes the user namespace
   with the config's ranges as its maps, the runner enters it, and
   sbx-oci-init takes process.user inside; the ids the process takes (and
   container id 0, which sets the sandbox up) must be mapped, and a range
   is root's and a container's alone.  */
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"

#define CONTAINER(USER, LINUX)                                                \
  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "            \
  "\"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\"}], "          \
  "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", \"user\": {" USER      \
  "}}, \"linux\": {" LINUX "}}"
#define USERNS                                                                \
  "\"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"mount\"}, "             \
  "{\"type\": \"user\"}], "
#define RANGE(KEY)                                                            \
  "\"" KEY "\": [{\"containerID\": 0, \"hostID\": 100000, \"size\": 65536}]"
#define BOTH RANGE ("uidMappings") ", " RANGE ("gidMappings")
#define ROOT_USER "\"uid\": 0, \"gid\": 0"

static struct sbx_host_facts
root_host (void)
{
  struct sbx_host_facts host = fake_host (NULL);
  host.is_root = host.host_root = host.caller_is_root_here = true;
  host.uid = host.gid = 0;
  return host;
}

static struct sbx_plan *
resolve_as (const struct sbx_host_facts *host, const char *json,
            struct sbx_error *err)
{
  struct sbx_plan *plan = NULL;
  if (fake_resolve_json (json, host, &plan, err) < 0)
    return NULL;
  return plan;
}

static bool
reason_names (const struct sbx_plan *plan, const char *needle)
{
  for (size_t i = 0; i < plan->enforcement.reasons.n; i++)
    if (strstr (plan->enforcement.reasons.v[i], needle))
      return true;
  return false;
}

static void
test_range_as_root (void)
{
  struct sbx_host_facts host = root_host ();
  struct sbx_error err = { 0 };
  struct sbx_plan *plan
      = resolve_as (&host, CONTAINER (ROOT_USER, USERNS BOTH), &err);
  tap_ok (plan && plan->unshare[SBX_NS_USER] && plan->enter_userns
              && plan->init_ids && !plan->set_ids && plan->uid == 0
              && plan->gid == 0 && plan->uid_map
              && strcmp (plan->uid_map, "0 100000 65536\n") == 0
              && plan->gid_map
              && strcmp (plan->gid_map, "0 100000 65536\n") == 0,
          "root: the config's range is the sandbox's uid and gid map (%s)",
          err.msg);
  tap_ok (plan && !reason_names (plan, "process.user"),
          "root: no identity gap is reported");
  sbx_plan_free (plan);

  plan = resolve_as (
      &host,
      CONTAINER (ROOT_USER, USERNS
                 "\"uidMappings\": [{\"containerID\": 0, \"hostID\": "
                 "100000, \"size\": 1000}, {\"containerID\": 1000, "
                 "\"hostID\": 200000, \"size\": 10}], " RANGE ("gidMappings")),
      &err);
  tap_ok (plan && plan->uid_map
              && strcmp (plan->uid_map, "0 100000 1000\n1000 200000 10\n")
                     == 0,
          "root: one line per mapping, in order (%s)", err.msg);
  sbx_plan_free (plan);
}

/* sbx-oci-init takes uid, gid and groups inside the namespace: as the
   container's ids.  */
static void
test_mapped_user_and_groups (void)
{
  struct sbx_host_facts host = root_host ();
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = resolve_as (
      &host,
      CONTAINER ("\"uid\": 1000, \"gid\": 1001, \"additionalGids\": [10, 20]",
                 USERNS BOTH),
      &err);
  tap_ok (plan && plan->init_ids && plan->uid == 1000 && plan->gid == 1001
              && !plan->set_groups && plan->n_groups == 2
              && plan->groups[0] == 10 && plan->groups[1] == 20,
          "root: sbx-oci-init takes uid 1000, gid 1001, groups 10 20 (%s)",
          err.msg);
  tap_ok (plan && !reason_names (plan, "process.user"),
          "root: a mapped uid other than 0 is no gap");
  sbx_plan_free (plan);
}

static void
expect_refused (const struct sbx_host_facts *host, const char *json,
                const char *want, const char *what)
{
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = resolve_as (host, json, &err);
  if (!tap_ok (plan == NULL && strcmp (err.msg, want) == 0, "%s: refused",
               what))
    printf ("# got:  %s\n# want: %s\n", err.msg, want);
  sbx_plan_free (plan);
}

static void
test_refusals (void)
{
  struct sbx_host_facts root = root_host ();
  expect_refused (&root, CONTAINER ("\"uid\": 70000, \"gid\": 0", USERNS BOTH),
                  "process.user.uid: 70000 has no mapping in "
                  "linux.uidMappings",
                  "an unmapped uid");
  expect_refused (&root, CONTAINER ("\"uid\": 0, \"gid\": 70000", USERNS BOTH),
                  "process.user.gid: 70000 has no mapping in "
                  "linux.gidMappings",
                  "an unmapped gid");
  expect_refused (
      &root,
      CONTAINER ("\"uid\": 0, \"gid\": 0, \"additionalGids\": [10, 70000]",
                 USERNS BOTH),
      "process.user.additionalGids[1]: 70000 has no mapping in "
      "linux.gidMappings",
      "an unmapped additional gid");
  expect_refused (
      &root,
      CONTAINER (
          ROOT_USER, USERNS
          "\"uidMappings\": [{\"containerID\": 1, "
          "\"hostID\": 100001, \"size\": 65535}], " RANGE ("gidMappings")),
      "linux.uidMappings: no entry maps container id 0 (sbx-oci sets the "
      "sandbox up as uid and gid 0 inside)",
      "no mapping of container id 0");
  expect_refused (&root,
                  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": "
                  "\"rootfs\"}, \"process\": {\"args\": [\"true\"], "
                  "\"cwd\": \"/\"}, \"linux\": {" USERNS BOTH "}}",
                  "linux.uidMappings: needs /proc mounted in the "
                  "container (sbx-oci-init takes process.user inside the "
                  "mapped user namespace)",
                  "no /proc in the container");
  expect_refused (&root, CONTAINER (ROOT_USER, USERNS RANGE ("uidMappings")),
                  "linux.gidMappings: required with linux.uidMappings (the "
                  "sandbox's user namespace maps both)",
                  "uid mappings alone");
  expect_refused (&root, CONTAINER (ROOT_USER, USERNS RANGE ("gidMappings")),
                  "linux.uidMappings: required with linux.gidMappings (the "
                  "sandbox's user namespace maps both)",
                  "gid mappings alone");
  expect_refused (&root,
                  CONTAINER (ROOT_USER, "\"namespaces\": [{\"type\": "
                                        "\"pid\"}], " BOTH),
                  "linux.uidMappings: given without a user namespace (add "
                  "{\"type\": \"user\"} to linux.namespaces)",
                  "mappings without a user namespace");
  /* Host root mapped inside: the workload would be host uid 0 while its
     uid reads otherwise (the review's {1 -> 0} entry).  */
  expect_refused (
      &root,
      CONTAINER ("\"uid\": 1, \"gid\": 0", USERNS
                 "\"uidMappings\": [{\"containerID\": 0, "
                 "\"hostID\": 100000, \"size\": 1}, {\"containerID\": "
                 "1, \"hostID\": 0, \"size\": 1}], " RANGE ("gidMappings")),
      "linux.uidMappings[1]: maps host id 0, the host's root, into the "
      "container; a range's namespace keeps the host's root out",
      "host uid 0 in a range");
  expect_refused (
      &root,
      CONTAINER (ROOT_USER,
                 USERNS RANGE ("uidMappings") ", \"gidMappings\": "
                                              "[{\"containerID\": 0, "
                                              "\"hostID\": 0, \"size\": "
                                              "65536}]"),
      "linux.gidMappings[0]: maps host id 0, the host's root, into the "
      "container; a range's namespace keeps the host's root out",
      "host gid 0 in a range");
  /* Rootless podman's root, whose namespace maps no id to the host's
     root: its id 0 is the user's own, and --userns=keep-id maps it.  */
  struct sbx_host_facts ns_root = root_host ();
  ns_root.host_root = ns_root.caller_is_root_here = false;
  ns_root.root_uid_here = ns_root.root_gid_here = -1;
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = resolve_as (
      &ns_root,
      CONTAINER (ROOT_USER,
                 USERNS "\"uidMappings\": [{\"containerID\": 0, "
                        "\"hostID\": 1, \"size\": 1000}, {\"containerID\": "
                        "1000, \"hostID\": 0, \"size\": 1}], "
                        "\"gidMappings\": [{\"containerID\": 0, "
                        "\"hostID\": 0, \"size\": 1000}]"),
      &err);
  tap_ok (plan != NULL, "a namespace's root maps its id 0 (keep-id) (%s)",
          err.msg);
  sbx_plan_free (plan);
  /* ... and where the namespace's uid 1000 is the host's root
     (`unshare --map-user=1000` by root), 1000 is kept out.  */
  ns_root.root_uid_here = 1000;
  expect_refused (&ns_root,
                  CONTAINER (ROOT_USER,
                             USERNS "\"uidMappings\": "
                                    "[{\"containerID\": 0, "
                                    "\"hostID\": 500, \"size\": "
                                    "1000}], " RANGE ("gidMappings")),
                  "linux.uidMappings[0]: maps host id 1000, the host's root, "
                  "into the container; a range's namespace keeps the host's "
                  "root out",
                  "the host's root at another id of the namespace");
  struct sbx_host_facts user = fake_host (NULL);
  expect_refused (
      &user, CONTAINER ("\"uid\": 0, \"gid\": 0", USERNS BOTH),
      "linux.uidMappings[0]: only root can map a range of ids (bubblewrap "
      "maps an unprivileged caller's own id, 1000, to one id); use "
      "{\"hostID\": 1000, \"size\": 1}",
      "an unprivileged caller's range");
}

/* An agent's sandbox runs as the caller: no range of host ids, even for
   root.  */
static void
test_agent_refused (void)
{
  struct sbx_host_facts root = root_host ();
  expect_refused (
      &root,
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/\", \"readonly\": "
      "true}, \"process\": {\"args\": [\"true\"], \"cwd\": \"/home/u/ws\", "
      "\"user\": {\"uid\": 0, \"gid\": 0}}, \"linux\": {" USERNS BOTH
      "}, \"sbx\": {\"mode\": \"read-only\"}}",
      "linux.uidMappings[0]: an agent policy runs as the caller's own id; "
      "a range of host ids is for containers only",
      "an agent's range, as root");
}

/* The kernel reads a map in one write of less than a page.  */
static void
test_map_text_bound (void)
{
  cleanup_free char *json = NULL;
  size_t size = 0;
  FILE *f = open_memstream (&json, &size);
  fputs ("{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
         "\"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\"}], "
         "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", \"user\": "
         "{" ROOT_USER "}}, \"linux\": {" USERNS RANGE (
             "gidMappings") ", \"uidMappings\": [",
         f);
  for (int i = 0; i < 300; i++)
    fprintf (f, "%s{\"containerID\": %d, \"hostID\": %u, \"size\": 1}",
             i ? ", " : "", i, 4000000000u + (unsigned) i);
  fputs ("]}}", f);
  fclose (f);
  struct sbx_host_facts root = root_host ();
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = resolve_as (&root, json, &err);
  tap_ok (plan == NULL && strstr (err.msg, "linux.uidMappings: the map is ")
              && strstr (err.msg, "the kernel reads at most 4095"),
          "a map longer than a page is refused (%s)", err.msg);
  sbx_plan_free (plan);
}

#define RANGE_TMPFS(OPTIONS)                                                  \
  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "            \
  "\"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\"}, "           \
  "{\"destination\": \"/run\", \"type\": \"tmpfs\", \"source\": \"run\", "    \
  "\"options\": [" OPTIONS "]}], "                                            \
  "\"process\": {\"args\": [\"true\"], \"cwd\": \"/\", \"user\": "            \
  "{" ROOT_USER "}}, \"linux\": {" USERNS BOTH                                \
  ", \"devices\": [{\"path\": \"/dev/myzero\", \"type\": \"c\", "             \
  "\"major\": 1, \"minor\": 5, \"uid\": 7, \"gid\": 8}]}}"

/* The runner's tmpfs of JSON has WANT for its options.  */
static void
expect_tmpfs_options (const struct sbx_host_facts *host, const char *json,
                      const char *want, const char *what)
{
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = resolve_as (host, json, &err);
  const char *got = "none";
  for (size_t i = 0; plan && i < plan->n_nodes; i++)
    if (plan->nodes[i].type == 't')
      got = plan->nodes[i].fs_options;
  tap_ok (strcmp (got, want) == 0, "%s (%s%s)", what, got, err.msg);
  sbx_plan_free (plan);
}

/* What root's runner makes for a range's container (a tmpfs, a node) it
   makes from the host's side: owned by the host ids the container's map
   to, the container's root when the config names no owner, as bwrap's
   tmpfs made inside would be.  */
static void
test_runner_owners (void)
{
  struct sbx_host_facts host = root_host ();
  host.nodes_dir = "/run/sbx-oci/+devices";
  struct sbx_error err = { 0 };
  struct sbx_plan *plan
      = resolve_as (&host, RANGE_TMPFS ("\"mode=755\""), &err);
  const struct sbx_plan_node *tmpfs = NULL, *node = NULL;
  for (size_t i = 0; plan && i < plan->n_nodes; i++)
    *(plan->nodes[i].type == 't' ? &tmpfs : &node) = &plan->nodes[i];
  tap_ok (tmpfs
              && strcmp (tmpfs->fs_options, "mode=755,uid=100000,gid=100000")
                     == 0,
          "range: the runner's tmpfs belongs to the container's root (%s%s)",
          tmpfs ? tmpfs->fs_options : "none", err.msg);
  tap_ok (node && node->uid == 100007 && node->gid == 100008,
          "range: a device node belongs to the host ids of its uid and gid");
  sbx_plan_free (plan);
  expect_tmpfs_options (&host, RANGE_TMPFS ("\"uid=5\", \"gid=6\""),
                        "uid=100005,gid=100006",
                        "range: a tmpfs's uid= and gid= are the container's "
                        "ids");
  expect_tmpfs_options (&host, RANGE_TMPFS ("\"uid=010\", \"gid=+0x10\""),
                        "uid=100008,gid=100016",
                        "range: uid= and gid= read as the kernel reads them: "
                        "010 is 8, +0x10 is 16");
  expect_refused (&host, RANGE_TMPFS ("\"mode=755\", \"uid=70000\""),
                  "mounts[1].options[1]: 70000 is not mapped by "
                  "linux.uidMappings",
                  "range: a tmpfs owner no map covers");
  expect_refused (&host, RANGE_TMPFS ("\"gid=-1\""),
                  "mounts[1].options[0]: gid= takes an id",
                  "range: a tmpfs owner that is no id");
}

/* The terminal's owner (policy/terminal.c): the process's uid and the
   devpts mount's gid=, through the config's maps, as root; nothing to
   give as anyone else.  */
#define PTS_GID5                                                              \
  "{\"destination\": \"/dev/pts\", \"type\": \"devpts\", "                    \
  "\"source\": \"devpts\", \"options\": [\"newinstance\", \"gid=5\"]}"
static void
terminal_owner (const char *json, bool as_root, int64_t owner[2])
{
  struct sbx_spec *spec = NULL;
  struct sbx_error err = { 0 };
  owner[0] = owner[1] = -2;
  if (sbx_spec_parse (json, strlen (json), "/bundle", &spec, &err) < 0)
    {
      tap_ok (false, "parses: %s", err.msg);
      return;
    }
  sbx_policy_terminal_owner (spec, &spec->process.user, as_root, owner);
  sbx_spec_free (spec);
}

static void
test_terminal_owner (void)
{
  int64_t o[2];
  const char *with_pts
      = "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
        "\"mounts\": [" PTS_GID5 "], \"process\": {\"args\": [\"true\"], "
        "\"cwd\": \"/\", \"user\": {\"uid\": 1000, \"gid\": 1001}}, "
        "\"linux\": {" USERNS BOTH "}}";
  terminal_owner (with_pts, true, o);
  tap_ok (o[0] == 101000 && o[1] == 100005,
          "terminal: uid 1000 and gid=5 through the maps: %lld:%lld",
          (long long) o[0], (long long) o[1]);
  terminal_owner (CONTAINER ("\"uid\": 1000, \"gid\": 1001", ""), true, o);
  tap_ok (o[0] == 1000 && o[1] == -1,
          "terminal: no maps, no gid=: the uid alone: %lld:%lld",
          (long long) o[0], (long long) o[1]);
  terminal_owner (with_pts, false, o);
  tap_ok (
      o[0] == -1 && o[1] == -1,
      "terminal: a process bwrap maps (no init_ids) gives nothing: %lld:%lld",
      (long long) o[0], (long long) o[1]);
}

int
main (void)
{
  test_range_as_root ();
  test_mapped_user_and_groups ();
  test_refusals ();
  test_runner_owners ();
  test_agent_refused ();
  test_map_text_bound ();
  test_terminal_owner ();
  return tap_done ();
}
