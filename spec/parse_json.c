#include "spec/parse_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/path.h"

/* ---- the path ------------------------------------------------------------
 */

/* Appends S, cut where the path is full.  Every key of a config passes
   here: a printf per key was most of what parsing cost (callgrind).  */
static void
jpath_append (struct sbx_jctx *c, const char *s)
{
  size_t room = sizeof c->path - 1 - c->len;
  size_t n = strnlen (s, room);
  memcpy (c->path + c->len, s, n);
  c->len += n;
  c->path[c->len] = '\0';
}

static bool
is_identifier (const char *s)
{
  if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
    return false;
  for (; *s; s++)
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')
          || (*s >= '0' && *s <= '9')))
      return false;
  return true;
}

size_t
jpath_push_key (struct sbx_jctx *c, const char *key)
{
  size_t mark = c->len;
  if (is_identifier (key))
    {
      jpath_append (c, c->len ? "." : "");
      jpath_append (c, key);
    }
  else
    {
      /* Keys like "org.opencontainers.x" would read as nested objects.  */
      char quoted[JQUOTE_MAX];
      jpath_append (c, "[");
      jpath_append (c, jquote (key, quoted, sizeof quoted));
      jpath_append (c, "]");
    }
  return mark;
}

size_t
jpath_push_index (struct sbx_jctx *c, size_t index)
{
  size_t mark = c->len;
  char n[32];
  snprintf (n, sizeof n, "[%zu]", index);
  jpath_append (c, n);
  return mark;
}

void
jpath_pop (struct sbx_jctx *c, size_t mark)
{
  c->len = mark;
  c->path[mark] = '\0';
}

int
jfail (struct sbx_jctx *c, const char *fmt, ...)
{
  char what[SBX_ERROR_MSG_MAX];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (what, sizeof what, fmt, ap);
  va_end (ap);
  char field[SBX_ERROR_FIELD_MAX];
  snprintf (field, sizeof field, "%.*s", (int) c->len, c->path);
  return sbx_refuse (c->err, -EINVAL, c->len ? field : NULL, "%s", what);
}

int
jfail_nomem (struct sbx_jctx *c)
{
  return sbx_fail (c->err, -ENOMEM, "out of memory");
}

const char *
jquote (const char *s, char *buf, size_t size)
{
  /* Room after LIMIT for one escape (6), "..." (3), '"' and NUL.  */
  size_t len = 0, limit = size - 11;
  buf[len++] = '"';
  for (; *s && len < limit; s++)
    {
      unsigned char ch = (unsigned char) *s;
      if (ch == '"' || ch == '\\')
        len += snprintf (buf + len, size - len, "\\%c", ch);
      else if (ch < 0x20 || ch == 0x7f)
        len += snprintf (buf + len, size - len, "\\u%04x", ch);
      else
        buf[len++] = (char) ch;
    }
  if (*s)
    {
      /* Stopped inside a UTF-8 sequence: drop its first bytes too.  */
      if (((unsigned char) *s & 0xc0) == 0x80)
        {
          while (len > 1 && ((unsigned char) buf[len - 1] & 0xc0) == 0x80)
            len--;
          if (len > 1)
            len--;
        }
      memcpy (buf + len, "...", 3);
      len += 3;
    }
  buf[len++] = '"';
  buf[len] = '\0';
  return buf;
}

/* ---- lookup --------------------------------------------------------------
 */

void
jnote_lookup (struct sbx_jctx *c, yajl_val obj, const char *key)
{
  if (c->n_lookups == c->cap_lookups)
    {
      size_t cap = c->cap_lookups ? 2 * c->cap_lookups : 64;
      struct sbx_jlookup *more = realloc (c->lookups, cap * sizeof *more);
      if (more == NULL)
        {
          c->lookups_lost = true;
          return;
        }
      c->lookups = more;
      c->cap_lookups = cap;
    }
  c->lookups[c->n_lookups++] = (struct sbx_jlookup){ obj, key };
}

int
json_field (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
            yajl_val *out, size_t *mark)
{
  yajl_val found = NULL;
  bool seen = false;
  jnote_lookup (c, obj, key);
  *mark = jpath_push_key (c, key);
  for (size_t i = 0; i < obj->u.object.len; i++)
    {
      if (strcmp (obj->u.object.keys[i], key) != 0)
        continue;
      /* Parsers disagree on which duplicate wins; refuse to guess.  */
      if (seen)
        return jfail (c, "duplicate key");
      seen = true;
      found = obj->u.object.values[i];
    }
  if (found == NULL || YAJL_IS_NULL (found))
    {
      if (flags & JSON_REQUIRED)
        return jfail (c, "required");
      jpath_pop (c, *mark);
      return 0;
    }
  *out = found;
  return 1;
}

int
json_object (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
             yajl_val *out, size_t *mark)
{
  int r = json_field (c, obj, key, flags, out, mark);
  if (r > 0 && !YAJL_IS_OBJECT (*out))
    return jfail (c, "expected an object");
  return r;
}

/* ---- strings and booleans ----------------------------------------------- */

/* Look up KEY and require a string: the start of every string getter.  */
static int
json_string_field (struct sbx_jctx *c, yajl_val obj, const char *key,
                   unsigned flags, const char **s, size_t *mark)
{
  yajl_val v;
  int r = json_field (c, obj, key, flags, &v, mark);
  if (r <= 0)
    return r;
  if (!YAJL_IS_STRING (v))
    return jfail (c, "expected a string");
  *s = v->u.string;
  return 1;
}

/* Replace *OUT with VALUE (ours; NULL when its allocation failed) and pop
   MARK: the end of every string getter.  */
static int
jstore_string (struct sbx_jctx *c, char *value, char **out, size_t mark)
{
  if (value == NULL)
    return jfail_nomem (c);
  free (*out);
  *out = value;
  jpath_pop (c, mark);
  return 1;
}

int
json_string (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
             char **out)
{
  const char *s = NULL;
  size_t mark;
  int r = json_string_field (c, obj, key, flags, &s, &mark);
  if (r <= 0)
    return r;
  return jstore_string (c, strdup (s), out, mark);
}

/* A control character (C0, DEL, C1) in a path a config names: bubblewrap
   names a path it cannot use in its own message, which reaches the
   operator's terminal as it is.  The document was UTF-8, so a byte that
   is not text is a control.  */
static const char *
jcheck_path_text (const char *s)
{
  for (size_t len; *s; s += len)
    if ((len = sbx_text_char ((const unsigned char *) s)) == 0)
      return "a control character is not allowed in a path";
  return NULL;
}

const char *
jcheck_abs_path (const char *s)
{
  return s[0] == '/' ? jcheck_path_text (s) : "expected an absolute path";
}

const char *
jcheck_path (const char *s)
{
  return s[0] ? jcheck_path_text (s) : "expected a non-empty string";
}

/* The string at KEY, which must be an absolute path: 1 with *S and MARK
   (the path left pushed), 0 when absent, or the failure.  */
static int
abs_path_field (struct sbx_jctx *c, yajl_val obj, const char *key,
                unsigned flags, const char **s, size_t *mark)
{
  int r = json_string_field (c, obj, key, flags, s, mark);
  if (r <= 0)
    return r;
  const char *complaint = jcheck_abs_path (*s);
  return complaint ? jfail (c, "%s", complaint) : 1;
}

int
json_dest_path (struct sbx_jctx *c, yajl_val obj, const char *key,
                unsigned flags, char **out)
{
  const char *s = NULL;
  size_t mark;
  int r = abs_path_field (c, obj, key, flags, &s, &mark);
  if (r <= 0)
    return r;
  for (const char *p = s; (p = strstr (p, "..")); p += 2)
    if (p[-1] == '/' && (p[2] == '/' || p[2] == '\0'))
      return jfail (c, "\"..\" is not allowed in a destination");
  return jstore_string (c, sbx_path_normalize (s), out, mark);
}

int
json_label (struct sbx_jctx *c, yajl_val obj, const char *key, char **out)
{
  int r = json_string (c, obj, key, 0, out);
  if (r > 0 && (*out)[0] == '\0')
    {
      free (*out);
      *out = NULL;
    }
  return r;
}

int
json_abs_path (struct sbx_jctx *c, yajl_val obj, const char *key,
               unsigned flags, char **out)
{
  const char *s = NULL;
  size_t mark;
  int r = abs_path_field (c, obj, key, flags, &s, &mark);
  if (r <= 0)
    return r;
  return jstore_string (c, strdup (s), out, mark);
}

int
json_bundle_path (struct sbx_jctx *c, yajl_val obj, const char *key,
                  unsigned flags, char **out)
{
  const char *s = NULL;
  size_t mark;
  int r = json_string_field (c, obj, key, flags, &s, &mark);
  if (r <= 0)
    return r;
  const char *complaint = jcheck_path (s);
  if (complaint)
    return jfail (c, "%s", complaint);
  return jstore_string (c, sbx_path_join (c->bundle, s), out, mark);
}

int
json_bool (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
           bool *out)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, key, flags, &v, &mark);
  if (r <= 0)
    return r;
  if (!YAJL_IS_TRUE (v) && !YAJL_IS_FALSE (v))
    return jfail (c, "expected a boolean");
  *out = YAJL_IS_TRUE (v);
  jpath_pop (c, mark);
  return 1;
}

/* ---- enums ---------------------------------------------------------------
 */

int
jv_enum (struct sbx_jctx *c, yajl_val v, const struct jenum *table, size_t n,
         int *out)
{
  if (!YAJL_IS_STRING (v))
    return jfail (c, "expected a string");
  for (size_t i = 0; i < n; i++)
    if (strcmp (v->u.string, table[i].name) == 0)
      {
        *out = table[i].value;
        return 0;
      }
  char names[SBX_ERROR_MSG_MAX / 2] = "", quoted[JQUOTE_MAX];
  size_t len = 0;
  for (size_t i = 0; i < n && len < sizeof names; i++)
    len += snprintf (names + len, sizeof names - len, "%s%s", i ? ", " : "",
                     table[i].name);
  return jfail (c, "unknown value %s (expected one of: %s)",
                jquote (v->u.string, quoted, sizeof quoted), names);
}

int
json_enum (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
           const struct jenum *table, size_t n, int *out)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, key, flags, &v, &mark);
  if (r <= 0)
    return r;
  r = jv_enum (c, v, table, n, out);
  jpath_pop (c, mark);
  return r < 0 ? r : 1;
}
