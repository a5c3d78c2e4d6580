/* Widening needs the operator's approval.
 *
 * An agent config can narrow what sbx grants by default, never widen it by
 * itself: anything beyond "the workspace, hardened, no host network, the
 * default filter" must also be named in an approval the operator passes on
 * the command line (--approve FILE).  A JSON payload alone — for example
 * one an agent composed — can therefore never carry a widening.  Each
 * widening has a token; the approval file lists tokens, one per line.  */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/path.h"
#include "spec/policy.h"

static int
need (const struct strv *approved, const char *token, const char *field,
      const char *what, struct sbx_error *err)
{
  if (approved && strv_contains (approved, token))
    return 0;
  return sbx_fail (err, -EPERM,
                   "%s: %s widens the default agent policy and needs the "
                   "operator's approval: pass --approve FILE with a line "
                   "\"%s\"",
                   field, what, token);
}

static bool
inside_workspace (const struct sbx_ext *x, const char *path)
{
  return x->mode == SBX_MODE_WORKSPACE_WRITE && x->workspace
         && sbx_path_is_under (path, x->workspace);
}

static int
check_paths (const struct sbx_spec *spec, const struct strv *approved,
             struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  const struct strv *lists[2] = { &x->writable_roots, &x->temp_roots };
  const char *names[2] = { "sbx.writableRoots", "sbx.tempRoots" };
  char field[64];
  int r = 0;
  for (int k = 0; r == 0 && k < 2; k++)
    for (size_t i = 0; r == 0 && i < lists[k]->n; i++)
      if (!inside_workspace (x, lists[k]->v[i]))
        {
          snprintf (field, sizeof field, "%s[%zu]", names[k], i);
          r = need (approved, lists[k]->v[i], field,
                    "a writable path outside the workspace", err);
        }
  for (size_t i = 0; r == 0 && i < spec->n_mounts; i++)
    {
      const struct sbx_mount *m = &spec->mounts[i];
      if (!sbx_mount_is_writable_bind (m)
          || inside_workspace (x, m->destination))
        continue;
      snprintf (field, sizeof field, "mounts[%zu]", i);
      r = need (approved, m->destination, field,
                "a writable bind outside the workspace", err);
    }
  return r;
}

int
sbx_policy_check_approvals (const struct sbx_spec *spec,
                            const struct sbx_plan *plan,
                            const struct strv *approved, struct sbx_error *err)
{
  if (!plan->agent)
    return 0; /* containers: the rootfs is the boundary, OCI decides */
  const struct sbx_ext *x = &spec->ext;
  int r = 0;
  if (plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    r = need (approved, "danger-full-access", "sbx.mode",
              "\"danger-full-access\"", err);
  if (r == 0 && plan->network == SBX_NET_ALLOW)
    r = need (approved, "network", "sbx.network", "the host network", err);
  if (r == 0 && !x->hardened_defaults)
    r = need (approved, "hardened-defaults-off", "sbx.hardenedDefaults",
              "turning hardened defaults off", err);
  if (r == 0 && x->protected_paths_set)
    r = need (approved, "protected-paths", "sbx.protectedPaths",
              "replacing the protected paths", err);
  if (r == 0 && x->allow_user_namespaces)
    r = need (approved, "user-namespaces", "sbx.allowUserNamespaces",
              "user namespaces", err);
  if (r == 0 && x->allow_launch_services)
    r = need (approved, "launch-services", "sbx.allowLaunchServices",
              "letting macOS's LaunchServices and AppleEvents start code "
              "outside the sandbox",
              err);
  if (r == 0 && spec->linux_.seccomp)
    r = need (approved, "seccomp", "linux.seccomp",
              "replacing the default seccomp filter", err);
  return r == 0 ? check_paths (spec, approved, err) : r;
}
