/* Test helper: hand-filled host facts for policy resolution and the bwrap
   argument builder.  The host's paths come from small tables (one shared,
   one per test) instead of lstat(2), so the tests do no host I/O.  */
#ifndef SBX_TEST_FAKE_HOST_H
#define SBX_TEST_FAKE_HOST_H

#include "policy/host_facts.h"
#include "policy/policy.h"
#include "spec/spec.h"

#include <stdio.h>
#include <string.h>

struct fake_path
{
  const char *path;
  enum sbx_path_kind kind;
};

/* What every fake host has: a user's home with a workspace, credential
   stores, a docker socket, a container rootfs and the kernel's files.  */
static const struct fake_path fake_base_paths[] = {
  { "/", SBX_PATH_DIR },
  { "/home/u", SBX_PATH_DIR },
  { "/home/u/ws", SBX_PATH_DIR },
  { "/home/u/.ssh", SBX_PATH_DIR },
  { "/home/u/.npmrc", SBX_PATH_FILE },
  { "/run/docker.sock", SBX_PATH_SOCKET },
  { "/repo", SBX_PATH_DIR },
  { "/repo/vendor", SBX_PATH_DIR },
  { "/repo/vendor/cache", SBX_PATH_DIR },
  { "/data", SBX_PATH_DIR },
  { "/bundle/rootfs", SBX_PATH_DIR },
  { "/bundle/rootfs/etc", SBX_PATH_DIR },
  { "/bundle/rootfs/usr", SBX_PATH_DIR },
  { "/proc/kcore", SBX_PATH_FILE },
  { "/proc/keys", SBX_PATH_FILE },
  { "/proc/acpi", SBX_PATH_DIR },
  { "/proc/sys", SBX_PATH_DIR },
  { "/sys/firmware", SBX_PATH_DIR },
  { NULL, SBX_PATH_ABSENT },
};

static enum sbx_path_kind
fake_lookup (const struct fake_path *table, const char *path, bool *found)
{
  for (size_t i = 0; table && table[i].path; i++)
    if (strcmp (table[i].path, path) == 0)
      {
        *found = true;
        return table[i].kind;
      }
  return SBX_PATH_ABSENT;
}

/* CTX is a per-test table (may be NULL) that overrides the base one.  */
static enum sbx_path_kind
fake_path_kind (const char *path, void *ctx)
{
  bool found = false;
  enum sbx_path_kind k = fake_lookup (ctx, path, &found);
  return found ? k : fake_lookup (fake_base_paths, path, &found);
}

/* The host's device nodes: /dev/zero, /dev/null and /dev/tty, and a
   FIFO.  */
static char
fake_path_node (const char *path, uint32_t *major, uint32_t *minor, void *ctx)
{
  (void) ctx;
  static const struct
  {
    const char *path;
    char type;
    uint32_t major, minor;
  } nodes[] = { { "/dev/zero", 'c', 1, 5 },
                { "/dev/null", 'c', 1, 3 },
                { "/dev/tty", 'c', 5, 0 },
                { "/run/fifo", 'p', 0, 0 } };
  for (size_t i = 0; i < sizeof nodes / sizeof *nodes; i++)
    if (strcmp (nodes[i].path, path) == 0)
      {
        *major = nodes[i].major;
        *minor = nodes[i].minor;
        return nodes[i].type;
      }
  return 0;
}

static char *fake_environ[] = {
  "PATH=/usr/bin:/bin",
  "HOME=/home/u",
  "LANG=C.UTF-8",
  "LC_ALL=C.UTF-8",
  "TERM=xterm",
  "USER=u",
  "EDITOR=vi",
  "GITHUB_TOKEN=ghp_x",
  "AWS_SECRET_ACCESS_KEY=aws_x",
  "MY_API_KEY=key_x",
  "db_password=pw_x",
  "TMPDIR=/var/tmp/host",
  NULL,
};

/* An unprivileged caller (uid 1000) with bubblewrap 0.8.0.  */
static inline struct sbx_host_facts
fake_host (const struct fake_path *extra)
{
  return (struct sbx_host_facts){
    .runner_path = "/usr/bin/bwrap",
    .runner_version = { 0, 8, 0 },
    .uid = 1000,
    .gid = 1000,
    .home = "/home/u",
    .initial_userns = true,
    .userns_ok = true,
    .private_proc_ok = true,
    .environ = fake_environ,
    .path_kind = fake_path_kind,
    .path_ctx = (void *) extra,
    .path_node = fake_path_node,
  };
}

/* Parse JSON (bundle "/bundle") and resolve it against HOST.  On failure
   ERR says why and *PLAN stays NULL.  */
static inline int
fake_resolve_json (const char *json, const struct sbx_host_facts *host,
                   struct sbx_plan **plan, struct sbx_error *err)
{
  struct sbx_spec *spec = NULL;
  *plan = NULL;
  int r = sbx_spec_parse (json, strlen (json), "/bundle", &spec, err);
  if (r == 0)
    r = sbx_policy_resolve (spec, host, NULL, plan, err);
  sbx_spec_free (spec);
  return r;
}

/* The agent config every test starts from: the host read-only as "/",
   running `true` in /home/u/ws, with the entries MOUNTS of "mounts" and
   the members SBX of the "sbx" object.  */
#define AGENT_JSON(MOUNTS, SBX)                                               \
  "{\"ociVersion\": \"1.2.0\", \"mounts\": [" MOUNTS "], "                    \
  "\"root\": {\"path\": \"/\", "                                              \
  "\"readonly\": true}, \"process\": {\"args\": [\"true\"], "                 \
  "\"cwd\": \"/home/u/ws\", \"user\": {\"uid\": 1000, \"gid\": 1000}}, "      \
  "\"sbx\": {" SBX "}}"

#endif
