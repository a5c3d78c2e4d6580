/* Keys no parser asked for.  In the `sbx` extension they are refused,
   with the closest name the parser knows ("did you mean ...?"): sbx-oci
   owns that object, and a misspelt requireEnforcement or hardenedDefaults
   would otherwise silently be the default.  Elsewhere they are what OCI
   asks a runtime to ignore, and they are listed (the outcome's
   "ignoredFields"), never silently dropped.
 *
 * An object is judged only if a parser looked anything up in it (a map of
 * free-form keys, such as annotations, is read whole and never is), and
 * the known names are exactly the ones looked up: a field added to a
 * parser is known here without a second list to keep.  */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/key_path.h"
#include "spec/parse_sections.h"

static bool
looked_up (const struct sbx_jctx *c, yajl_val obj, const char *key,
           bool *judged)
{
  for (size_t i = 0; i < c->n_lookups; i++)
    if (c->lookups[i].obj == obj)
      {
        *judged = true;
        if (strcmp (c->lookups[i].key, key) == 0)
          return true;
      }
  return false;
}

/* Edit distance, ignoring case; long keys are cut to 63 bytes.  */
static size_t
distance (const char *a, const char *b)
{
  size_t la = strnlen (a, 63), lb = strnlen (b, 63), row[64];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++)
    {
      size_t diag = row[0];
      row[0] = i;
      for (size_t j = 1; j <= lb; j++)
        {
          size_t up = row[j];
          int same = (a[i - 1] | 0x20) == (b[j - 1] | 0x20);
          size_t best = diag + !same;
          if (up + 1 < best)
            best = up + 1;
          if (row[j - 1] + 1 < best)
            best = row[j - 1] + 1;
          row[j] = best;
          diag = up;
        }
    }
  return row[lb];
}

/* The known key of OBJ closest to KEY, or NULL when none is close.  */
static const char *
closest (const struct sbx_jctx *c, yajl_val obj, const char *key)
{
  const char *best = NULL;
  size_t best_d = strlen (key) / 3 + 2;
  for (size_t i = 0; i < c->n_lookups; i++)
    if (c->lookups[i].obj == obj)
      {
        /* A key cut short ("wallClock" for "wallClockSeconds") is
           as near as its missing tail allows.  */
        const char *known = c->lookups[i].key;
        char head[64];
        snprintf (head, sizeof head, "%.*s", (int) strlen (key), known);
        size_t d = distance (key, known), dh = distance (key, head) + 1;
        d = dh < d && strlen (key) >= 4 ? dh : d;
        if (d < best_d)
          {
            best_d = d;
            best = c->lookups[i].key;
          }
      }
  return best;
}

struct walk
{
  struct sbx_jctx *c;
  struct strv *ignored;
  char path[SBX_JPATH_MAX];
};

static int walk_value (struct walk *w, yajl_val v, size_t len, bool owned);

static int
unknown_key (struct walk *w, yajl_val obj, const char *key, bool owned)
{
  if (!owned)
    return strv_contains (w->ignored, w->path)
                   || strv_push (w->ignored, w->path) == 0
               ? 0
               : sbx_fail (w->c->err, -ENOMEM, "out of memory");
  const char *near = closest (w->c, obj, key);
  if (near)
    return sbx_refuse (w->c->err, -EINVAL, w->path,
                       "unknown key, did you mean %s?", near);
  return sbx_refuse (w->c->err, -EINVAL, w->path,
                     "unknown key: sbx-oci has no such setting (see "
                     "sbx-oci-config(5))");
}

static int
walk_object (struct walk *w, yajl_val v, size_t len, bool owned)
{
  for (size_t i = 0; i < v->u.object.len; i++)
    {
      const char *key = v->u.object.keys[i];
      size_t end = sbx_key_path_append (w->path, len, sizeof w->path, key);
      bool sbx = owned || (len == 0 && strcmp (key, "sbx") == 0);
      /* Too long to name: outside sbx, spec_fields.c records it; inside,
         no key of sbx-oci's is that long, so it is refused as unknown.  */
      if (end == 0 && owned)
        return sbx_refuse (w->c->err, -EINVAL, w->path,
                           "an unknown key of %zu bytes: sbx-oci has no "
                           "such setting",
                           strlen (key));
      if (end == 0)
        continue;
      bool judged = false, known = looked_up (w->c, v, key, &judged);
      int r = 0;
      if (judged && !known)
        r = unknown_key (w, v, key, owned);
      else
        r = walk_value (w, v->u.object.values[i], end, sbx);
      w->path[len] = '\0';
      if (r < 0)
        return r;
    }
  return 0;
}

static int
walk_value (struct walk *w, yajl_val v, size_t len, bool owned)
{
  if (YAJL_IS_OBJECT (v))
    return walk_object (w, v, len, owned);
  if (!YAJL_IS_ARRAY (v))
    return 0;
  for (size_t i = 0; i < v->u.array.len; i++)
    {
      int n = snprintf (w->path + len, sizeof w->path - len, "[%zu]", i);
      if (n < 0 || (size_t) n >= sizeof w->path - len)
        return 0;
      int r = walk_value (w, v->u.array.values[i], len + (size_t) n, owned);
      w->path[len] = '\0';
      if (r < 0)
        return r;
    }
  return 0;
}

int
sbx_spec_check_unknown (struct sbx_jctx *c, yajl_val top, struct strv *ignored)
{
  if (c->lookups_lost)
    return 0;
  struct walk w = { .c = c, .ignored = ignored };
  return walk_value (&w, top, 0, false);
}
