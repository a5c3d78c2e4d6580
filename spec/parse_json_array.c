/* Collections: arrays of strings, arrays of objects, string maps.  */
#include "spec/parse_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
json_strv (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
           jstr_check check, struct strv *out)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, key, flags, &v, &mark);
  if (r <= 0)
    return r;
  bool non_empty = flags & JSON_NON_EMPTY;
  if (!YAJL_IS_ARRAY (v) || (non_empty && v->u.array.len == 0))
    return jfail (c, non_empty ? "expected a non-empty array of strings"
                               : "expected an array of strings");
  for (size_t i = 0; i < v->u.array.len; i++)
    {
      yajl_val item = v->u.array.values[i];
      size_t item_mark = jpath_push_index (c, i);
      if (!YAJL_IS_STRING (item))
        return jfail (c, "expected a string");
      const char *complaint = check ? check (item->u.string) : NULL;
      if (complaint)
        return jfail (c, "%s", complaint);
      if (strv_push (out, item->u.string) < 0)
        return jfail_nomem (c);
      jpath_pop (c, item_mark);
    }
  jpath_pop (c, mark);
  return 1;
}

int
json_object_array (struct sbx_jctx *c, yajl_val obj, const char *key,
                   unsigned flags, size_t size, jitem_parse parse_item,
                   void **items, size_t *n)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, key, flags, &v, &mark);
  if (r <= 0)
    return r;
  if (!YAJL_IS_ARRAY (v))
    return jfail (c, "expected an array");
  size_t len = v->u.array.len;
  if (len > 0)
    {
      *items = calloc (len, size);
      if (*items == NULL)
        return jfail_nomem (c);
      /* Counted before filling: sbx_spec_free walks zeroed items fine.  */
      *n = len;
    }
  for (size_t i = 0; i < len; i++)
    {
      yajl_val item = v->u.array.values[i];
      size_t item_mark = jpath_push_index (c, i);
      if (!YAJL_IS_OBJECT (item))
        return jfail (c, "expected an object");
      r = parse_item (c, item, *items, i);
      if (r < 0)
        return r;
      jpath_pop (c, item_mark);
    }
  jpath_pop (c, mark);
  return 1;
}

static int
compare_keys (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Sorted, so a map of a million keys is not a trillion comparisons.  */
static int
check_unique_keys (struct sbx_jctx *c, yajl_val v)
{
  size_t len = v->u.object.len;
  if (len < 2)
    return 0;
  const char **keys = malloc (len * sizeof *keys);
  if (keys == NULL)
    return jfail_nomem (c);
  memcpy (keys, v->u.object.keys, len * sizeof *keys);
  qsort (keys, len, sizeof *keys, compare_keys);
  for (size_t i = 1; i < len; i++)
    if (strcmp (keys[i - 1], keys[i]) == 0)
      {
        jpath_push_key (c, keys[i]);
        free (keys);
        return jfail (c, "duplicate key");
      }
  free (keys);
  return 0;
}

int
json_kv (struct sbx_jctx *c, yajl_val obj, const char *key,
         struct sbx_kv **out, size_t *n)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, key, 0, &v, &mark);
  if (r <= 0)
    return r;
  if (!YAJL_IS_OBJECT (v))
    return jfail (c, "expected an object");
  r = check_unique_keys (c, v);
  if (r < 0)
    return r;
  size_t len = v->u.object.len;
  if (len > 0)
    {
      *out = calloc (len, sizeof **out);
      if (*out == NULL)
        return jfail_nomem (c);
      *n = len;
    }
  for (size_t i = 0; i < len; i++)
    {
      yajl_val value = v->u.object.values[i];
      size_t item_mark = jpath_push_key (c, v->u.object.keys[i]);
      if (!YAJL_IS_STRING (value))
        return jfail (c, "expected a string");
      (*out)[i].key = strdup (v->u.object.keys[i]);
      (*out)[i].value = strdup (value->u.string);
      if ((*out)[i].key == NULL || (*out)[i].value == NULL)
        return jfail_nomem (c);
      jpath_pop (c, item_mark);
    }
  jpath_pop (c, mark);
  return 1;
}
