/* Typed getters over yajl_tree values, for the config.json parser only.
 *
 * Every getter keeps the JSON path of the value it looks at in a struct
 * sbx_jctx, so a failure reads "process.args[2]: expected a string".
 * Field getters return 1 when the field is present, 0 when it is absent
 * (JSON null counts as absent, as in runc) and a negative errno-style value
 * after filling the error.  Values land directly in the caller's struct, so
 * whatever was stored before a failure is freed by sbx_spec_free.  */
#ifndef SBX_PARSE_JSON_H
#define SBX_PARSE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_tree.h>

#include "common/error.h"
#include "common/strv.h"
#include "spec/spec.h"

#define SBX_JPATH_MAX 512

/* One key a parser looked for in an object, found or not: the keys of
   an object that no parser asked for are the ones sbx-oci ignores
   (spec_unknown.c).  */
struct sbx_jlookup
{
  yajl_val obj;
  const char *key; /* the parser's own string, never freed */
};

struct sbx_jctx
{
  struct sbx_error *err;
  const char *bundle; /* absolute, normalized */
  char path[SBX_JPATH_MAX];
  size_t len;
  struct sbx_jlookup *lookups; /* every json_field call, in order */
  size_t n_lookups, cap_lookups;
  bool lookups_lost; /* out of memory: no key may be called unknown */
};

/* Flags of the field getters.  */
enum
{
  JSON_REQUIRED = 1 << 0,  /* absent -> "required" */
  JSON_NON_EMPTY = 1 << 1, /* json_strv: [] is refused */
};

/* The path stack.  Push returns a mark; pop restores the mark.  */
size_t jpath_push_key (struct sbx_jctx *c, const char *key);
size_t jpath_push_index (struct sbx_jctx *c, size_t index);
void jpath_pop (struct sbx_jctx *c, size_t mark);

/* Fail with "PATH: what"; the path is never empty (top-level keys are
   pushed like any other).  */
int jfail (struct sbx_jctx *c, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));
int jfail_nomem (struct sbx_jctx *c);

/* Write S into BUF as a one-line, double-quoted JSON string, shortened to
   about 64 bytes: user text in a message must never break the line (policy
   messages quote config values with it too).  */
const char *jquote (const char *s, char *buf, size_t size);
#define JQUOTE_MAX 80

/* Record that a parser looked for KEY in OBJ (json_field does).  */
void jnote_lookup (struct sbx_jctx *c, yajl_val obj, const char *key);

/* Look up KEY in OBJ (an object).  When found, push KEY and return 1 with
   the path left pushed: the caller pops MARK when done.  */
int json_field (struct sbx_jctx *c, yajl_val obj, const char *key,
                unsigned flags, yajl_val *out, size_t *mark);
/* Like json_field, and the value must be an object.  */
int json_object (struct sbx_jctx *c, yajl_val obj, const char *key,
                 unsigned flags, yajl_val *out, size_t *mark);

int json_string (struct sbx_jctx *c, yajl_val obj, const char *key,
                 unsigned flags, char **out);
/* A mount destination: absolute, written normally ("//a/./b/" reads as
   "/a/b": every check compares the text), and without "..", whose
   meaning depends on the links on the way.  */
int json_dest_path (struct sbx_jctx *c, yajl_val obj, const char *key,
                    unsigned flags, char **out);
/* A security label or profile: a string, where "" (how podman and CRI
   write "no label") is none, as absent is.  */
int json_label (struct sbx_jctx *c, yajl_val obj, const char *key, char **out);
int json_abs_path (struct sbx_jctx *c, yajl_val obj, const char *key,
                   unsigned flags, char **out);
/* A path that resolves against the bundle when relative; normalized.  */
int json_bundle_path (struct sbx_jctx *c, yajl_val obj, const char *key,
                      unsigned flags, char **out);
int json_bool (struct sbx_jctx *c, yajl_val obj, const char *key,
               unsigned flags, bool *out);
int json_u32 (struct sbx_jctx *c, yajl_val obj, const char *key,
              unsigned flags, uint32_t min, uint32_t max, uint32_t *out);
int json_u64 (struct sbx_jctx *c, yajl_val obj, const char *key,
              unsigned flags, uint64_t *out);
/* As json_u64, in [MIN, MAX].  */
int json_u64_range (struct sbx_jctx *c, yajl_val obj, const char *key,
                    unsigned flags, uint64_t min, uint64_t max, uint64_t *out);
int json_i64 (struct sbx_jctx *c, yajl_val obj, const char *key,
              unsigned flags, int64_t min, int64_t max, int64_t *out);

/* Value getters: V is the value at the current path.  */
int jv_u64 (struct sbx_jctx *c, yajl_val v, uint64_t min, uint64_t max,
            uint64_t *out);
int jv_i64 (struct sbx_jctx *c, yajl_val v, int64_t min, int64_t max,
            int64_t *out);
/* A number of seconds > 0, fractions allowed, rounded up to whole
   milliseconds, exactly (no binary floating point on the way).  */
int jv_seconds_to_ms (struct sbx_jctx *c, yajl_val v, uint64_t max_seconds,
                      uint64_t *ms);

/* A string-valued enum: NAMES[i] maps to VALUES[i].  */
struct jenum
{
  const char *name;
  int value;
};
int json_enum (struct sbx_jctx *c, yajl_val obj, const char *key,
               unsigned flags, const struct jenum *table, size_t n, int *out);
int jv_enum (struct sbx_jctx *c, yajl_val v, const struct jenum *table,
             size_t n, int *out);

/* An array of strings.  CHECK, when not NULL, returns NULL for a good
   element or the complaint for a bad one ("expected an absolute path").  */
typedef const char *(*jstr_check) (const char *s);
int json_strv (struct sbx_jctx *c, yajl_val obj, const char *key,
               unsigned flags, jstr_check check, struct strv *out);
/* An absolute path, and a non-empty one (relative to the bundle): either
   with no control character.  */
const char *jcheck_abs_path (const char *s);
const char *jcheck_path (const char *s);

/* An object whose values are all strings, in file order.  */
int json_kv (struct sbx_jctx *c, yajl_val obj, const char *key,
             struct sbx_kv **out, size_t *n);

/* An array of objects, parsed into *ITEMS (N zeroed elements of SIZE bytes,
   owned by the caller even on failure).  PARSE_ITEM gets element I with the
   path at KEY[I]; it may look at the items before I (duplicate checks).  */
typedef int (*jitem_parse) (struct sbx_jctx *c, yajl_val item, void *items,
                            size_t i);
int json_object_array (struct sbx_jctx *c, yajl_val obj, const char *key,
                       unsigned flags, size_t size, jitem_parse parse_item,
                       void **items, size_t *n);

#endif
