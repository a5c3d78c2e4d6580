/* `sbx-oci features`: the OCI features document (runtime-spec
   features.md) - what this build honours, not what it merely parses.  */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/json_gen.h"
#include "runtime/cli.h"
#include "runtime/linux/confine/capabilities.h"
#include "runtime/linux/confine/seccomp.h"

static int
key_list (yajl_gen g, const char *key, const char *const *names)
{
  int r = sbx_json_key (g, key) ?: sbx_json_open (g, true);
  for (size_t i = 0; r == 0 && names[i]; i++)
    r = sbx_json_str (g, names[i]);
  return r ?: sbx_json_close (g, true);
}

static int
linux_features (yajl_gen g)
{
  /* bwrap makes these; it has no time namespace.  */
  static const char *const namespaces[]
      = { "cgroup", "ipc", "mount", "network", "pid", "user", "uts", NULL };
  static const char *const none[] = { NULL };
  struct strv caps = { 0 };
  int r = sbx_caps_known (&caps);
  r = r ?: sbx_json_key (g, "linux") ?: sbx_json_open (g, false);
  r = r ?: key_list (g, "namespaces", namespaces);
  r = r ?: key_list (g, "capabilities", (const char *const *) caps.v);
  r = r ?: sbx_json_key (g, "cgroup") ?: sbx_json_open (g, false);
  r = r ?: sbx_json_key_bool (g, "v1", true);
  r = r ?: sbx_json_key_bool (g, "v2", true);
  r = r ?: sbx_json_key_bool (g, "systemd", false);
  r = r ?: sbx_json_key_bool (g, "systemdUser", false);
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_key (g, "seccomp") ?: sbx_json_open (g, false);
  r = r ?: sbx_json_key_bool (g, "enabled", true);
  r = r ?: key_list (g, "actions", sbx_seccomp_actions);
  r = r ?: key_list (g, "operators", sbx_seccomp_operators);
  r = r ?: key_list (g, "archs", sbx_seccomp_architectures);
  r = r ?: key_list (g, "knownFlags", sbx_seccomp_flags);
  /* bwrap installs the program itself and cannot pass flags.  */
  r = r ?: key_list (g, "supportedFlags", none);
  r = r ?: sbx_json_close (g, false);
  /* Supported by this build (sbx-oci-init takes both labels); whether
     this host's module is on is create's to find out.  */
  r = r ?: sbx_json_key (g, "apparmor") ?: sbx_json_open (g, false);
  r = r ?: sbx_json_key_bool (g, "enabled", true);
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_key (g, "selinux") ?: sbx_json_open (g, false);
  r = r ?: sbx_json_key_bool (g, "enabled", true);
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_close (g, false);
  strv_free (&caps);
  return r;
}

static int
features_json (yajl_gen g)
{
  /* startContainer would have to run inside the sandbox before the
     command, which bwrap offers no step for.  */
  const char *hooks[SBX_HOOK_PHASE_N + 1] = { NULL };
  for (int p = 0, n = 0; p < SBX_HOOK_PHASE_N; p++)
    if (p != SBX_HOOK_START_CONTAINER)
      hooks[n++] = sbx_hook_phase_name (p);
  static const char *const mount_options[]
      = { "bind", "rbind", "ro", "rw", NULL };
  int r = sbx_json_open (g, false);
  r = r ?: sbx_json_key_str (g, "ociVersionMin", "1.0.0");
  r = r ?: sbx_json_key_str (g, "ociVersionMax", SBX_OCI_VERSION);
  r = r ?: key_list (g, "hooks", hooks);
  r = r ?: key_list (g, "mountOptions", mount_options);
  r = r ?: linux_features (g);
  r = r ?: sbx_json_key (g, "annotations") ?: sbx_json_open (g, false);
  r = r ?: sbx_json_key_str (g, "org.sbx-oci.runner", "bubblewrap");
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_key (g, "org.sbx-oci") ?: sbx_json_open (g, false);
  r = r ?: sbx_json_key_str (g, "runner", "bubblewrap");
  r = r ?: sbx_json_key_bool (g, "pauseSupported", false);
  r = r ?: sbx_json_key_bool (g, "updateSupported", false);
  r = r ?: sbx_json_close (g, false);
  return r ?: sbx_json_close (g, false);
}

int
sbx_cmd_features (struct sbx_context *g, int argc, char **argv,
                  struct sbx_error *err)
{
  (void) g, (void) argv;
  if (argc != 1)
    return sbx_fail_usage (err, "features: takes no arguments");
  yajl_gen gen = sbx_json_new (true);
  char *text = NULL;
  size_t len;
  int r = gen ? features_json (gen) : -ENOMEM;
  r = r ?: sbx_json_finish (gen, &text, &len);
  if (gen)
    yajl_gen_free (gen);
  if (r < 0)
    return sbx_fail (err, r, "cannot format the features");
  fwrite (text, 1, len, stdout);
  free (text);
  return 0;
}
