#include "common/json_gen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/utf8.h"

static int
status (yajl_gen_status s)
{
  return s == yajl_gen_status_ok ? 0 : -EINVAL;
}

yajl_gen
sbx_json_new (bool pretty)
{
  yajl_gen g = yajl_gen_alloc (NULL);
  if (g && pretty)
    {
      yajl_gen_config (g, yajl_gen_beautify, 1);
      yajl_gen_config (g, yajl_gen_indent_string, "  ");
    }
  return g;
}

/* yajl writes the bytes it is given, and its reader, as any strict one,
   refuses a document with invalid UTF-8 in it: a byte of a name the host
   gave (an inherited environment name, a file's) that is not is written
   as \xHH, as messages show it, so that the document stays readable.
   What must be read back exactly is checked or encoded before it gets
   here (the bundle's path, spec_load.c; the kept rule paths,
   kept_policy.c).  */
int
sbx_json_str (yajl_gen g, const char *s)
{
  if (s == NULL)
    return status (yajl_gen_null (g));
  if (sbx_utf8_valid (s))
    return status (yajl_gen_string (g, (const unsigned char *) s, strlen (s)));
  cleanup_free char *text = sbx_utf8_repaired_dup (s);
  if (text == NULL)
    return -ENOMEM;
  return status (
      yajl_gen_string (g, (const unsigned char *) text, strlen (text)));
}

int
sbx_json_key (yajl_gen g, const char *key)
{
  return sbx_json_str (g, key);
}

int
sbx_json_key_str (yajl_gen g, const char *key, const char *value)
{
  int r = sbx_json_key (g, key);
  return r < 0 ? r : sbx_json_str (g, value);
}

int
sbx_json_key_int (yajl_gen g, const char *key, long long value)
{
  int r = sbx_json_key (g, key);
  return r < 0 ? r : status (yajl_gen_integer (g, value));
}

int
sbx_json_key_bool (yajl_gen g, const char *key, bool value)
{
  int r = sbx_json_key (g, key);
  return r < 0 ? r : status (yajl_gen_bool (g, value));
}

int
sbx_json_open (yajl_gen g, bool array)
{
  return status (array ? yajl_gen_array_open (g) : yajl_gen_map_open (g));
}

int
sbx_json_close (yajl_gen g, bool array)
{
  return status (array ? yajl_gen_array_close (g) : yajl_gen_map_close (g));
}

int
sbx_json_key_strv (yajl_gen g, const char *key, const struct strv *v)
{
  int r = sbx_json_key (g, key);
  if (r == 0)
    r = sbx_json_open (g, true);
  for (size_t i = 0; r == 0 && i < v->n; i++)
    r = sbx_json_str (g, v->v[i]);
  return r < 0 ? r : sbx_json_close (g, true);
}

int
sbx_json_finish (yajl_gen g, char **out, size_t *len)
{
  const unsigned char *buf;
  size_t n;
  if (yajl_gen_get_buf (g, &buf, &n) != yajl_gen_status_ok)
    return -EINVAL;
  char *copy = malloc (n + 2);
  if (copy == NULL)
    return -ENOMEM;
  memcpy (copy, buf, n);
  if (n == 0 || copy[n - 1] != '\n')
    copy[n++] = '\n';
  copy[n] = '\0';
  *out = copy;
  if (len)
    *len = n;
  return 0;
}

int
sbx_json_copy (yajl_gen g, yajl_val v)
{
  int r = 0;
  if (v == NULL || YAJL_IS_NULL (v))
    return yajl_gen_null (g) == yajl_gen_status_ok ? 0 : -EINVAL;
  if (YAJL_IS_STRING (v))
    return sbx_json_str (g, YAJL_GET_STRING (v));
  if (YAJL_IS_NUMBER (v))
    return yajl_gen_number (g, YAJL_GET_NUMBER (v),
                            strlen (YAJL_GET_NUMBER (v)))
                   == yajl_gen_status_ok
               ? 0
               : -EINVAL;
  if (YAJL_IS_TRUE (v) || YAJL_IS_FALSE (v))
    return yajl_gen_bool (g, YAJL_IS_TRUE (v)) == yajl_gen_status_ok ? 0
                                                                     : -EINVAL;
  bool array = YAJL_IS_ARRAY (v);
  r = sbx_json_open (g, array);
  size_t n = array ? v->u.array.len : v->u.object.len;
  for (size_t i = 0; r == 0 && i < n; i++)
    {
      if (!array)
        r = sbx_json_key (g, v->u.object.keys[i]);
      if (r == 0)
        r = sbx_json_copy (g, array ? v->u.array.values[i]
                                    : v->u.object.values[i]);
    }
  return r < 0 ? r : sbx_json_close (g, array);
}
