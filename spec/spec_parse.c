/* sbx_spec_parse: JSON text -> struct sbx_spec.  This file checks the text
   itself, then reads the top level (ociVersion, root, mounts, hostname,
   annotations, hooks) and hands each other section to its own parser.  */
#include "spec/spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "spec/parse_json.h"
#include "spec/parse_sections.h"

/* yajl_tree_free recurses once per level: deeper input would overflow the
   stack.  Real configs nest about six levels.  */
#define MAX_NESTING 128

struct text_check
{
  unsigned depth;
  const char *refusal; /* why the scan stopped, or NULL */
};

static int
check_open (void *ctx)
{
  struct text_check *t = ctx;
  if (++t->depth <= MAX_NESTING)
    return 1;
  t->refusal = "nested deeper than 128 levels";
  return 0;
}

static int
check_close (void *ctx)
{
  ((struct text_check *) ctx)->depth--;
  return 1;
}

/* yajl_tree stores strings NUL-terminated: "a\u0000b" would silently read
   as "a", a different path than the one written.  */
static int
check_string (void *ctx, const unsigned char *s, size_t len)
{
  struct text_check *t = ctx;
  if (memchr (s, '\0', len) == NULL)
    return 1;
  t->refusal = "\\u0000 in a string is not supported";
  return 0;
}

static const yajl_callbacks text_callbacks = {
  .yajl_string = check_string,
  .yajl_start_map = check_open,
  .yajl_map_key = check_string,
  .yajl_end_map = check_close,
  .yajl_start_array = check_open,
  .yajl_end_array = check_close,
};

/* Fail with "invalid JSON: WHAT at line L, column C" for the byte at
   OFFSET.  WHAT comes from yajl and ends in a newline: one line, printable
   ASCII, for logs.  */
static int
fail_invalid_json (struct sbx_error *err, const char *what, const char *json,
                   size_t offset)
{
  char line[256];
  size_t len = 0;
  for (const char *p = what; *p && len < sizeof line - 1; p++)
    if (*p >= ' ' && *p < 0x7f)
      line[len++] = *p;
  line[len] = '\0';
  size_t lineno = 1, column = 1;
  for (size_t i = 0; i < offset; i++, column++)
    if (json[i] == '\n')
      {
        lineno++;
        column = 0;
      }
  return sbx_refuse (err, -EINVAL, NULL,
                     "invalid JSON: %s at line %zu, column %zu", line, lineno,
                     column);
}

/* Check the whole text with yajl's streaming parser, which does not
   recurse, before building the
   tree.  A NUL byte anywhere fails here, so the NUL-terminated copy handed
   to yajl_tree_parse is the whole text.  */
static int
check_text (const char *json, size_t len, struct sbx_error *err)
{
  struct text_check t = { 0 };
  yajl_handle h = yajl_alloc (&text_callbacks, NULL, &t);
  if (h == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* JSON has no comments, and runc and crun refuse them: a config that
     runs here must not be refused there.  */
  yajl_config (h, yajl_allow_comments, 0);
  size_t offset = len;
  yajl_status st = yajl_parse (h, (const unsigned char *) json, len);
  /* yajl counts the byte it stopped at as consumed.  */
  if (st != yajl_status_ok && yajl_get_bytes_consumed (h) > 0)
    offset = yajl_get_bytes_consumed (h) - 1;
  else
    st = yajl_complete_parse (h); /* fails only at the end of the text */
  int r = 0;
  if (t.refusal)
    r = fail_invalid_json (err, t.refusal, json, offset);
  else if (st != yajl_status_ok)
    {
      unsigned char *msg
          = yajl_get_error (h, 0, (const unsigned char *) json, len);
      r = fail_invalid_json (err, msg ? (const char *) msg : "parse error",
                             json, offset);
      yajl_free_error (h, msg);
    }
  yajl_free (h);
  return r;
}

static void
tree_freep (yajl_val *v)
{
  yajl_tree_free (*v);
}

int
sbx_json_parse_object (const char *json, size_t len, yajl_val *out,
                       struct sbx_error *err)
{
  int r = check_text (json, len, err);
  if (r < 0)
    return r;
  cleanup_free char *text = malloc (len + 1);
  if (text == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  memcpy (text, json, len);
  text[len] = '\0';
  char msg[256] = "";
  *out = yajl_tree_parse (text, msg, sizeof msg);
  /* The text passed check_text: only memory can run out here.  */
  if (*out == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (!YAJL_IS_OBJECT (*out))
    return sbx_refuse (err, -EINVAL, NULL,
                       "expected a JSON object at the top level");
  return 0;
}

/* ---- top-level sections ---------------------------------------------------
 */

static int
parse_root (struct sbx_jctx *c, yajl_val top, struct sbx_spec *spec)
{
  yajl_val root;
  size_t mark;
  int r = json_object (c, top, "root", JSON_REQUIRED, &root, &mark);
  if (r < 0)
    return r;
  r = json_bundle_path (c, root, "path", JSON_REQUIRED, &spec->root_path);
  if (r >= 0)
    r = json_bool (c, root, "readonly", 0, &spec->root_readonly);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static int
parse_mount (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_mount *m = (struct sbx_mount *) items + i;
  int r
      = json_dest_path (c, obj, "destination", JSON_REQUIRED, &m->destination);
  if (r >= 0)
    r = json_string (c, obj, "type", 0, &m->type);
  if (r >= 0)
    r = json_strv (c, obj, "options", 0, NULL, &m->options);
  if (r < 0)
    return r;
  if (!sbx_mount_is_bind (m))
    return json_string (c, obj, "source", 0, &m->source);
  /* A bind source names a host path: relative means relative to the
     bundle, as runc and crun read it.  */
  r = json_bundle_path (c, obj, "source", 0, &m->source);
  if (r == 0)
    {
      jpath_push_key (c, "source");
      return jfail (c, "required for a bind mount");
    }
  return r;
}

static int
parse_mounts (struct sbx_jctx *c, yajl_val top, struct sbx_spec *spec)
{
  void *items = NULL;
  int r = json_object_array (c, top, "mounts", 0, sizeof *spec->mounts,
                             parse_mount, &items, &spec->n_mounts);
  spec->mounts = items;
  return r;
}

static int
parse_hook (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_hook *h = (struct sbx_hook *) items + i;
  int64_t timeout = 0;
  int r = json_abs_path (c, obj, "path", JSON_REQUIRED, &h->path);
  if (r >= 0)
    r = json_strv (c, obj, "args", 0, NULL, &h->args);
  if (r >= 0)
    r = json_strv (c, obj, "env", 0, NULL, &h->env);
  if (r >= 0)
    r = json_i64 (c, obj, "timeout", 0, 1, INT32_MAX, &timeout);
  h->timeout = (int) timeout;
  return r;
}

static int
parse_hook_list (struct sbx_jctx *c, yajl_val hooks, const char *key,
                 struct sbx_hook_list *list)
{
  void *items = NULL;
  int r = json_object_array (c, hooks, key, 0, sizeof *list->v, parse_hook,
                             &items, &list->n);
  list->v = items;
  return r;
}

static int
parse_hooks (struct sbx_jctx *c, yajl_val top, struct sbx_hooks *hooks)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, top, "hooks", 0, &obj, &mark);
  if (r <= 0)
    return r;
  for (int p = 0; r >= 0 && p < SBX_HOOK_PHASE_N; p++)
    r = parse_hook_list (c, obj, sbx_hook_phase_name (p), &hooks->phase[p]);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

/* "process", "linux" and "sbx": optional objects with their own parsers.  */
static int
parse_sections (struct sbx_jctx *c, yajl_val top, struct sbx_spec *spec)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, top, "process", 0, &obj, &mark);
  if (r > 0)
    {
      spec->has_process = true;
      r = sbx_parse_process (c, obj, &spec->process);
      jpath_pop (c, mark);
    }
  if (r >= 0 && (r = json_object (c, top, "linux", 0, &obj, &mark)) > 0)
    {
      spec->has_linux = true;
      r = sbx_parse_linux (c, obj, &spec->linux_);
      jpath_pop (c, mark);
    }
  if (r >= 0 && (r = json_object (c, top, "sbx", 0, &obj, &mark)) > 0)
    {
      spec->ext.present = true;
      r = sbx_parse_ext (c, obj, &spec->ext);
      jpath_pop (c, mark);
    }
  return r < 0 ? r : 0;
}

static int
parse_top (struct sbx_jctx *c, yajl_val top, struct sbx_spec *spec)
{
  int r
      = json_string (c, top, "ociVersion", JSON_REQUIRED, &spec->oci_version);
  if (r >= 0)
    r = parse_root (c, top, spec);
  if (r >= 0)
    r = parse_mounts (c, top, spec);
  if (r >= 0)
    r = json_string (c, top, "hostname", 0, &spec->hostname);
  if (r >= 0)
    r = json_kv (c, top, "annotations", &spec->annotations,
                 &spec->n_annotations);
  if (r >= 0)
    r = parse_hooks (c, top, &spec->hooks);
  if (r >= 0)
    r = parse_sections (c, top, spec);
  return r < 0 ? r : 0;
}

int
sbx_spec_parse (const char *json, size_t len, const char *bundle,
                struct sbx_spec **out, struct sbx_error *err)
{
  *out = NULL;
  if (bundle == NULL || bundle[0] != '/')
    return sbx_fail (err, -EINVAL, "bundle: expected an absolute path");
  __attribute__ ((cleanup (tree_freep))) yajl_val tree = NULL;
  int r = sbx_json_parse_object (json, len, &tree, err);
  if (r < 0)
    return r;
  cleanup_spec struct sbx_spec *spec = calloc (1, sizeof *spec);
  if (spec == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  sbx_ext_init (&spec->ext);
  spec->bundle = sbx_path_normalize (bundle);
  if (spec->bundle == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  struct sbx_jctx c = { .err = err, .bundle = spec->bundle };
  r = parse_top (&c, tree, spec);
  if (r == 0)
    r = sbx_spec_check_unknown (&c, tree, &spec->ignored);
  free (c.lookups);
  if (r < 0)
    return r;
  if (sbx_spec_collect_fields (tree, &spec->fields) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  *out = steal_pointer (&spec);
  return 0;
}
