/* `sbx-oci spec`: a valid starting config.json, for a container (as
   `runc spec` writes) or, with --agent, an agent policy for a workspace. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "common/json_gen.h"
#include "common/utf8.h"
#include "config.h"
#include "runtime/cli.h"
#include "spec/spec.h"

struct spec_options
{
  const char *bundle;
  bool agent;
  const char *workspace;
  const char *mode;
};

static int
strv_of (struct strv *sv, const char *const *items)
{
  for (size_t i = 0; items[i]; i++)
    if (strv_push (sv, items[i]) < 0)
      return -ENOMEM;
  return 0;
}

static int
gen_process (yajl_gen g, const struct spec_options *o)
{
  static const char *const agent_args[] = { "sh", "-c", "pwd; ls", NULL };
  static const char *const container_args[] = { "sh", NULL };
  static const char *const env[] = {
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "TERM=xterm",
    NULL,
  };
  cleanup_strv struct strv args = { 0 }, envs = { 0 };
  int r = strv_of (&args, o->agent ? agent_args : container_args);
  if (r == 0 && !o->agent)
    r = strv_of (&envs, env);
  if (r == 0)
    r = sbx_json_key (g, "process");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_bool (g, "terminal", false);
  if (r == 0)
    r = sbx_json_key (g, "user");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_int (g, "uid", o->agent ? (long long) getuid () : 0);
  if (r == 0)
    r = sbx_json_key_int (g, "gid", o->agent ? (long long) getgid () : 0);
  if (r == 0)
    r = sbx_json_close (g, false);
  if (r == 0)
    r = sbx_json_key_strv (g, "args", &args);
  if (r == 0)
    r = sbx_json_key_strv (g, "env", &envs);
  if (r == 0)
    r = sbx_json_key_str (g, "cwd", o->agent ? o->workspace : "/");
  if (r == 0)
    r = sbx_json_key_bool (g, "noNewPrivileges", true);
  return r < 0 ? r : sbx_json_close (g, false);
}

static int
gen_namespaces (yajl_gen g, bool agent)
{
  static const char *const ns[]
      = { "pid", "network", "ipc", "uts", "mount", NULL };
  int r = sbx_json_key (g, "linux");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key (g, "namespaces");
  if (r == 0)
    r = sbx_json_open (g, true);
  for (size_t i = 0; r == 0 && ns[i]; i++)
    {
      r = sbx_json_open (g, false);
      if (r == 0)
        r = sbx_json_key_str (g, "type", ns[i]);
      if (r == 0)
        r = sbx_json_close (g, false);
    }
  if (r == 0)
    r = sbx_json_close (g, true);
  if (r == 0 && !agent)
    {
      static const char *const masked[]
          = { "/proc/kcore", "/proc/keys", "/proc/timer_list", NULL };
      cleanup_strv struct strv m = { 0 };
      r = strv_of (&m, masked);
      if (r == 0)
        r = sbx_json_key_strv (g, "maskedPaths", &m);
    }
  return r < 0 ? r : sbx_json_close (g, false);
}

static int
gen_container_mounts (yajl_gen g)
{
  static const char *const mounts[][3] = {
    { "/proc", "proc", "proc" },        { "/dev", "tmpfs", "tmpfs" },
    { "/dev/pts", "devpts", "devpts" }, { "/dev/shm", "tmpfs", "shm" },
    { "/sys", "sysfs", "sysfs" },
  };
  int r = sbx_json_key (g, "mounts");
  if (r == 0)
    r = sbx_json_open (g, true);
  for (size_t i = 0; r == 0 && i < sizeof mounts / sizeof *mounts; i++)
    {
      r = sbx_json_open (g, false);
      if (r == 0)
        r = sbx_json_key_str (g, "destination", mounts[i][0]);
      if (r == 0)
        r = sbx_json_key_str (g, "type", mounts[i][1]);
      if (r == 0)
        r = sbx_json_key_str (g, "source", mounts[i][2]);
      if (r == 0)
        r = sbx_json_close (g, false);
    }
  return r < 0 ? r : sbx_json_close (g, true);
}

static int
gen_ext (yajl_gen g, const struct spec_options *o)
{
  int r = sbx_json_key (g, "sbx");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "mode", o->mode);
  if (r == 0)
    r = sbx_json_key_str (g, "workspace", o->workspace);
  if (r == 0)
    r = sbx_json_key_str (g, "network", "deny");
  /* danger-full-access confines nothing and is reported as "none": a
     higher requirement would make the written config refuse itself.  */
  if (r == 0)
    r = sbx_json_key_str (
        g, "requireEnforcement",
        strcmp (o->mode, "danger-full-access") == 0 ? "none" : "partial");
  if (r == 0)
    r = sbx_json_key (g, "limits");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_int (g, "wallClockSeconds", 600);
  if (r == 0)
    r = sbx_json_close (g, false);
  return r < 0 ? r : sbx_json_close (g, false);
}

static int
gen_config (yajl_gen g, const struct spec_options *o)
{
  int r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "ociVersion", SBX_OCI_VERSION);
  if (r == 0)
    r = gen_process (g, o);
  if (r == 0)
    r = sbx_json_key (g, "root");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "path", o->agent ? "/" : "rootfs");
  if (r == 0)
    r = sbx_json_key_bool (g, "readonly", true);
  if (r == 0)
    r = sbx_json_close (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "hostname", o->agent ? "sbx" : "container");
  if (r == 0 && !o->agent)
    r = gen_container_mounts (g);
  if (r == 0)
    r = gen_namespaces (g, o->agent);
  if (r == 0 && o->agent)
    r = gen_ext (g, o);
  return r < 0 ? r : sbx_json_close (g, false);
}

static int
parse_spec_options (int argc, char **argv, struct spec_options *o,
                    struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "bundle", required_argument, NULL, 'b' },
    { "agent", no_argument, NULL, 'a' },
    { "workspace", required_argument, NULL, 'w' },
    { "mode", required_argument, NULL, 'm' },
    { "rootless", no_argument, NULL, 'r' },
    { NULL, 0, NULL, 0 },
  };
  int c;
  while ((c = getopt_long (argc, argv, "b:", longopts, NULL)) != -1)
    switch (c)
      {
      case 'b':
        o->bundle = optarg;
        break;
      case 'a':
        o->agent = true;
        break;
      case 'w':
        o->workspace = optarg;
        break;
      case 'm':
        o->mode = optarg;
        break;
      case 'r':
        break;
      default:
        return sbx_fail_usage (err, "spec: unknown option (see --help)");
      }
  /* What only --agent reads would otherwise be silently ignored.  */
  if (!o->agent && (o->workspace || o->mode))
    return sbx_fail (err, -EINVAL, "spec --%s: only with --agent",
                     o->workspace ? "workspace" : "mode");
  if (o->agent && (o->workspace == NULL || o->workspace[0] != '/'))
    return sbx_fail (err, -EINVAL,
                     "spec --agent: --workspace must name an absolute "
                     "directory");
  struct stat st;
  if (o->agent && (stat (o->workspace, &st) < 0 || !S_ISDIR (st.st_mode)))
    return sbx_fail (err, -EINVAL,
                     "spec --workspace %s: not an existing directory (make "
                     "it first)",
                     o->workspace);
  if (o->agent && !sbx_utf8_valid (o->workspace))
    return sbx_fail (err, -EINVAL,
                     "spec --workspace %s: not valid UTF-8, which the "
                     "config (JSON) cannot name",
                     o->workspace);
  if (o->mode && strcmp (o->mode, "read-only") != 0
      && strcmp (o->mode, "workspace-write") != 0
      && strcmp (o->mode, "danger-full-access") != 0)
    return sbx_fail (err, -EINVAL,
                     "--mode: expected read-only, workspace-write or "
                     "danger-full-access, not \"%s\"",
                     o->mode);
  return 0;
}

int
sbx_cmd_spec (struct sbx_context *g, int argc, char **argv,
              struct sbx_error *err)
{
  (void) g;
  struct spec_options o = { .bundle = "." };
  int r = sbx_usage_result (parse_spec_options (argc, argv, &o, err), err);
  if (r < 0)
    return r;
  if (o.mode == NULL)
    o.mode = "workspace-write";
  cleanup_free char *path = NULL, *text = NULL;
  size_t len = 0;
  if (asprintf (&path, "%s/config.json", o.bundle) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (access (path, F_OK) == 0)
    return sbx_fail (err, -EEXIST, "%s: already exists (remove it first)",
                     path);
  yajl_gen j = sbx_json_new (true);
  r = j ? gen_config (j, &o) : -ENOMEM;
  if (r == 0)
    r = sbx_json_finish (j, &text, &len);
  if (j)
    yajl_gen_free (j);
  if (r < 0)
    return sbx_fail (err, r, "cannot generate config.json");
  /* Never write a config the parser would refuse.  */
  cleanup_spec struct sbx_spec *check = NULL;
  if (sbx_spec_parse (text, len, "/", &check, err) < 0)
    return sbx_error_prefix (err, "spec: the config it would write");
  r = sbx_write_file_atomic (path, text, len, 0644, err);
  return r < 0 ? r : 0;
}
