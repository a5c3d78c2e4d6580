/* The "sbx" extension object: what OCI cannot say (mode, network reach,
   protected paths, env mode, alias masking, enforcement, limits).  */
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "spec/parse_json.h"
#include "spec/parse_sections.h"

#define ARRAY_LEN(a) (sizeof (a) / sizeof *(a))

/* Wall clock limits are at most 2^32-1 s, so a deadline in nanoseconds
   still fits in 64 bits.  */
#define MAX_WALL_CLOCK_SECONDS UINT32_MAX
#define MAX_ALIAS_DEPTH 64
#define MAX_SAMPLE_INTERVAL_MS 60000

void
sbx_ext_init (struct sbx_ext *ext)
{
  ext->hardened_defaults = true;
  ext->alias_masking = true;
  ext->alias_max_entries = SBX_ALIAS_MAX_ENTRIES_DEFAULT;
  ext->alias_max_depth = SBX_ALIAS_MAX_DEPTH_DEFAULT;
  ext->require_enforcement = SBX_LEVEL_NONE;
  ext->sample_interval_ms = SBX_SAMPLE_INTERVAL_MS_DEFAULT;
}

static const char *
check_variable_name (const char *s)
{
  return s[0] && !strchr (s, '=') ? NULL
                                  : "expected a variable name without '='";
}

/* Protected paths name metadata inside every writable root (".git"):
   never above it, never the root itself.  */
static const char *
check_protected_path (const char *s)
{
  const char *complaint = "expected a relative path such as \".git\"";
  bool has_name = false;
  const char *control = s[0] ? jcheck_path (s) : NULL;
  if (control || s[0] == '/')
    return control ? control : complaint;
  for (const char *p = s; *p;)
    {
      size_t n = strcspn (p, "/");
      if (n == 2 && p[0] == '.' && p[1] == '.')
        return "must not contain \"..\"";
      has_name |= n > 1 || (n == 1 && p[0] != '.');
      p += n + (p[n] == '/');
    }
  return has_name ? NULL : complaint;
}

/* Replace each path by its normalized form, resolved against the bundle
   when AGAINST_BUNDLE.  */
static int
rewrite_paths (struct sbx_jctx *c, struct strv *paths, bool against_bundle)
{
  for (size_t i = 0; i < paths->n; i++)
    {
      char *p = against_bundle ? sbx_path_join (c->bundle, paths->v[i])
                               : sbx_path_normalize (paths->v[i]);
      if (p == NULL)
        return jfail_nomem (c);
      free (paths->v[i]);
      paths->v[i] = p;
    }
  return 0;
}

static int
parse_roots (struct sbx_jctx *c, yajl_val obj, const char *key,
             struct strv *roots)
{
  int r = json_strv (c, obj, key, 0, jcheck_path, roots);
  return r > 0 ? rewrite_paths (c, roots, true) : r;
}

static int
parse_env (struct sbx_jctx *c, yajl_val sbx, struct sbx_ext *ext)
{
  yajl_val obj;
  size_t mark;
  int mode = SBX_ENV_UNSET;
  int r = json_object (c, sbx, "env", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = json_enum (c, obj, "mode", 0, sbx_env_mode_jenum, SBX_ENV_MODE_JENUM_N,
                 &mode);
  ext->env_mode = (enum sbx_env_mode) mode;
  if (r >= 0)
    r = json_strv (c, obj, "allow", 0, check_variable_name, &ext->env_allow);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static int
parse_alias_masking (struct sbx_jctx *c, yajl_val sbx, struct sbx_ext *ext)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, sbx, "aliasMasking", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = json_bool (c, obj, "enabled", 0, &ext->alias_masking);
  if (r >= 0)
    r = json_u32 (c, obj, "maxEntries", 0, 1, UINT32_MAX,
                  &ext->alias_max_entries);
  if (r >= 0)
    r = json_u32 (c, obj, "maxDepth", 0, 1, MAX_ALIAS_DEPTH,
                  &ext->alias_max_depth);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static int
parse_limits (struct sbx_jctx *c, yajl_val sbx, struct sbx_ext *ext)
{
  yajl_val obj, v;
  size_t mark, wall_mark;
  int r = json_object (c, sbx, "limits", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = json_field (c, obj, "wallClockSeconds", 0, &v, &wall_mark);
  if (r > 0)
    {
      r = jv_seconds_to_ms (c, v, MAX_WALL_CLOCK_SECONDS, &ext->wall_clock_ms);
      jpath_pop (c, wall_mark);
    }
  if (r >= 0)
    r = json_u32 (c, obj, "sampleIntervalMs", 0, 1, MAX_SAMPLE_INTERVAL_MS,
                  &ext->sample_interval_ms);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static int
parse_enums (struct sbx_jctx *c, yajl_val obj, struct sbx_ext *ext)
{
  int mode = SBX_MODE_UNSET, level = SBX_LEVEL_NONE;
  int r
      = json_enum (c, obj, "mode", 0, sbx_mode_jenum, SBX_MODE_JENUM_N, &mode);
  if (r >= 0)
    r = sbx_parse_network (c, obj, ext);
  if (r >= 0)
    r = json_enum (c, obj, "requireEnforcement", 0, sbx_level_jenum,
                   SBX_LEVEL_JENUM_N, &level);
  ext->mode = (enum sbx_mode) mode;
  ext->require_enforcement = (enum sbx_level) level;
  return r;
}

int
sbx_parse_ext (struct sbx_jctx *c, yajl_val obj, struct sbx_ext *ext)
{
  int r = parse_enums (c, obj, ext);
  if (r >= 0)
    r = json_bundle_path (c, obj, "workspace", 0, &ext->workspace);
  if (r >= 0)
    r = parse_roots (c, obj, "writableRoots", &ext->writable_roots);
  if (r >= 0)
    r = parse_roots (c, obj, "tempRoots", &ext->temp_roots);
  if (r >= 0)
    r = parse_env (c, obj, ext);
  if (r >= 0)
    r = json_strv (c, obj, "protectedPaths", 0, check_protected_path,
                   &ext->protected_paths);
  ext->protected_paths_set = r > 0;
  if (r > 0)
    r = rewrite_paths (c, &ext->protected_paths, false);
  if (r >= 0)
    r = json_bool (c, obj, "hardenedDefaults", 0, &ext->hardened_defaults);
  if (r >= 0)
    r = parse_alias_masking (c, obj, ext);
  if (r >= 0)
    r = parse_limits (c, obj, ext);
  if (r >= 0)
    r = json_bool (c, obj, "allowUserNamespaces", 0,
                   &ext->allow_user_namespaces);
  if (r >= 0)
    r = json_bool (c, obj, "landlock", 0, &ext->landlock);
  ext->landlock_set = r > 0;
  if (r >= 0)
    r = json_bool (c, obj, "allowLaunchServices", 0,
                   &ext->allow_launch_services);
  if (r < 0)
    return r;
  if (ext->mode == SBX_MODE_WORKSPACE_WRITE && ext->workspace == NULL)
    {
      jpath_push_key (c, "workspace");
      return jfail (c, "required when sbx.mode is \"workspace-write\"");
    }
  return 0;
}
