#include "runtime/linux/state/kept_policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "common/cleanup.h"
#include "common/host_root.h"
#include "common/file_io.h"
#include "common/json_gen.h"
#include "common/utf8.h"
#include "runtime/host_paths.h"
#include "policy/ceiling.h"
#include "runtime/linux/bwrap/probe.h"
#include "runtime/linux/confine/landlock_rules.h"
#include "runtime/linux/container/sandbox.h"

/* The "landlock" list: a rule argument that is not UTF-8 (a path of
   the host's, any bytes) as {"hex": ...} (sbx_kept_policy_write).  */
static int
put_rule_args (yajl_gen g, const struct strv *args)
{
  int r = sbx_json_key (g, "landlock") ?: sbx_json_open (g, true);
  for (size_t i = 0; r == 0 && i < args->n; i++)
    {
      const char *a = args->v[i];
      if (sbx_utf8_valid (a))
        {
          r = sbx_json_str (g, a);
          continue;
        }
      cleanup_free char *hex = malloc (2 * strlen (a) + 1);
      if (hex == NULL)
        return -ENOMEM;
      for (size_t k = 0; a[k]; k++)
        snprintf (hex + 2 * k, 3, "%02x", (unsigned char) a[k]);
      r = sbx_json_open (g, false) ?: sbx_json_key_str (g, "hex", hex)
                                       ?: sbx_json_close (g, false);
    }
  return r ?: sbx_json_close (g, true);
}

/* {"trust": "ceiling" | "operator", "approvals": [TOKEN...],
   "initIds": BOOL, "landlock": [ARG...]}: JSON, so that a token is read
   back exactly as it was approved.  "initIds" is plan->init_ids: the
   container's command took its identity and five capability sets from
   sbx-oci-init, so exec's process takes them the same way
   (capabilities.h, sbx_caps_decide).  "landlock" is the helper's rule
   arguments, from -A to before "--" (runtime/linux/confine/
   landlock_rules.h), when the sandbox has the Landlock layer: exec's
   processes get the same domain.  A rule path is the host's, any bytes
   (a directory the sandbox named): one that is not UTF-8, which a JSON
   string cannot carry, is kept as {"hex": "2f746d70..."}.  */
int
sbx_kept_policy_write (const struct sbx_container *c,
                       const struct sbx_plan *plan, struct sbx_error *err)
{
  cleanup_free char *path = sbx_state_file (c, SBX_KEPT_POLICY);
  cleanup_free char *text = NULL;
  size_t len = 0;
  yajl_gen g = sbx_json_new (false);
  int r = g && path ? sbx_json_open (g, false) : -ENOMEM;
  r = r
          ?: sbx_json_key_str (g, "trust",
                               plan->under_ceiling ? "ceiling" : "operator");
  r = r ?: sbx_json_key_strv (g, "approvals", &plan->approvals);
  r = r ?: sbx_json_key_bool (g, "initIds", plan->init_ids);
  cleanup_strv struct strv rules = { 0 };
  if (r == 0 && plan->enforcement.landlock_abi > 0)
    {
      r = sbx_landlock_args (plan, -1, false, &rules) < 0 ? -ENOMEM : 0;
      if (r == 0)
        {
          /* Without the helper's name and the closing "--".  */
          struct strv kept = { rules.v + 1, rules.n - 2 };
          r = put_rule_args (g, &kept);
        }
    }
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_finish (g, &text, &len);
  if (g)
    yajl_gen_free (g);
  if (r < 0)
    return sbx_fail (err, -ENOMEM, "cannot format the kept policy");
  return sbx_write_file_atomic_at (c->dir_fd, SBX_KEPT_POLICY, path, text, len,
                                   0600, err);
}

/* The strings of LIST (NULL: none) onto OUT.  */
static int
read_strings (const char *path, yajl_val list, struct strv *out,
              struct sbx_error *err)
{
  for (size_t i = 0; list && i < YAJL_GET_ARRAY (list)->len; i++)
    {
      yajl_val t = YAJL_GET_ARRAY (list)->values[i];
      if (!YAJL_IS_STRING (t))
        return sbx_fail (err, -EINVAL, "%s: corrupt kept policy", path);
      if (strv_push (out, YAJL_GET_STRING (t)) < 0)
        return sbx_fail (err, -ENOMEM, "out of memory");
    }
  return 0;
}

static int
hex_digit (char c)
{
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                : -1;
}

/* The bytes a {"hex": ...} rule argument names (put_rule_args), or NULL
   when it names none (empty, odd, not lower-case hex, or a NUL).  */
static char *
unhex (yajl_val arg)
{
  static const char *k_hex[] = { "hex", NULL };
  yajl_val v = yajl_tree_get (arg, k_hex, yajl_t_string);
  const char *hex = v ? YAJL_GET_STRING (v) : "";
  size_t n = strlen (hex) / 2;
  char *out = n > 0 && strlen (hex) % 2 == 0 ? malloc (n + 1) : NULL;
  for (size_t i = 0; out && i < n; i++)
    {
      int hi = hex_digit (hex[2 * i]), lo = hex_digit (hex[2 * i + 1]);
      if (hi < 0 || lo < 0 || (hi | lo) == 0)
        {
          free (out);
          return NULL;
        }
      out[i] = (char) (hi << 4 | lo);
      out[i + 1] = '\0';
    }
  return out;
}

/* The rule arguments of LIST (NULL: none) onto OUT.  */
static int
read_rule_args (const char *path, yajl_val list, struct strv *out,
                struct sbx_error *err)
{
  for (size_t i = 0; list && i < YAJL_GET_ARRAY (list)->len; i++)
    {
      yajl_val t = YAJL_GET_ARRAY (list)->values[i];
      cleanup_free char *bytes = YAJL_IS_OBJECT (t) ? unhex (t) : NULL;
      const char *arg = YAJL_IS_STRING (t) ? YAJL_GET_STRING (t) : bytes;
      if (arg == NULL)
        return sbx_fail (err, -EINVAL, "%s: corrupt kept policy", path);
      if (strv_push (out, arg) < 0)
        return sbx_fail (err, -ENOMEM, "out of memory");
    }
  return 0;
}

/* What create decided, read back.  */
struct kept
{
  bool under;    /* the config was held to the operator's ceiling */
  bool init_ids; /* plan->init_ids */
  struct sbx_ceiling ceiling;
};

static int
parse_kept (const char *path, const char *text, struct kept *k,
            struct strv *landlock, struct sbx_error *err)
{
  static const char *k_trust[] = { "trust", NULL };
  static const char *k_init_ids[] = { "initIds", NULL };
  static const char *k_approvals[] = { "approvals", NULL };
  static const char *k_landlock[] = { "landlock", NULL };
  yajl_val doc = yajl_tree_parse (text, NULL, 0);
  yajl_val trust = yajl_tree_get (doc, k_trust, yajl_t_string);
  yajl_val list = yajl_tree_get (doc, k_approvals, yajl_t_array);
  int r = 0;
  if (trust == NULL || list == NULL)
    r = sbx_fail (err, -EINVAL, "%s: corrupt kept policy", path);
  else
    {
      /* Anything but "operator" is held to the ceiling.  */
      const char *t = YAJL_GET_STRING (trust);
      k->under = t == NULL || strcmp (t, "operator") != 0;
      /* Absent (an older sbx-oci's): the one set, as exec gave then.  */
      k->init_ids
          = YAJL_IS_TRUE (yajl_tree_get (doc, k_init_ids, yajl_t_true));
    }
  r = r ?: read_strings (path, list, &k->ceiling.approvals, err);
  r = r
          ?: read_rule_args (path,
                             yajl_tree_get (doc, k_landlock, yajl_t_array),
                             landlock, err);
  yajl_tree_free (doc);
  return r;
}

static int
read_kept (const struct sbx_container *c, struct kept *k,
           struct strv *landlock, struct sbx_error *err)
{
  cleanup_free char *path = sbx_state_file (c, SBX_KEPT_POLICY);
  cleanup_free char *text = NULL;
  size_t len = 0;
  if (path == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  int r = sbx_read_file_at (c->dir_fd, SBX_KEPT_POLICY, path, 1u << 20, &text,
                            &len, err);
  if (r == -ENOENT)
    return sbx_fail (err, -EPERM,
                     "cannot exec in container \"%s\": %s is missing (made "
                     "by an older sbx-oci?): re-create the container",
                     c->id, path);
  return r ?: parse_kept (path, text, k, landlock, err);
}

int
sbx_kept_policy_exec (const struct sbx_context *g,
                      const struct sbx_container *c,
                      const struct sbx_spec *spec, struct sbx_plan **out,
                      struct strv *landlock, struct sbx_error *err)
{
  struct kept k = { .under = true };
  int r = read_kept (c, &k, landlock, err);
  if (r == 0)
    {
      /* The exec caller's identity and limits: the same caller as
         create's (the state root is its own).  */
      struct sbx_host_facts host = {
        .is_root = sbx_runs_as_root (),
        .host_root = sbx_host_root (),
        .uid = geteuid (),
        .gid = getegid (),
        .rlimit_hard = sbx_host_rlimit_hard,
        .approved = &k.ceiling.approvals,
      };
      sbx_probe_label_modules (&host);
      r = sbx_policy_exec (spec, &host, k.under ? &k.ceiling : NULL, out, err);
    }
  if (r == 0)
    {
      (*out)->init_ids = k.init_ids;
      sbx_report_env_dropped (g, *out);
    }
  sbx_ceiling_free (&k.ceiling);
  return r;
}
