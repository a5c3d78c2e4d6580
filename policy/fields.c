/* The JSON paths a config.json sets, for the ceiling's allow-list
   (policy/ceiling_gate.c): the parser skips what it does not know, as OCI
   asks, so only the raw tree can say what a config tried to set.  */
#include <errno.h>
#include <string.h>

#include "common/key_path.h"
#include "spec/parse_sections.h"

/* Maps whose keys are data, not fields: their own path is recorded, what
   is inside is not (annotations are free-form; a sysctl or hook is gated
   as a whole).  */
static bool
opaque (const char *path)
{
  static const char *const maps[] = { "annotations", "linux.sysctl" };
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    if (strcmp (path, maps[i]) == 0)
      return true;
  return false;
}

/* A key path longer than the buffer is recorded as one no allow-list
   knows: refused under a ceiling, harmless for the operator's own config,
   which the parser alone judges.  */
#define TOO_LONG "(a key path longer than 511 bytes)"

static int
note_too_long (struct strv *out)
{
  if (strv_contains (out, TOO_LONG))
    return 0;
  return strv_push (out, TOO_LONG) < 0 ? -ENOMEM : 0;
}

static int
walk (yajl_val v, char *path, size_t len, size_t size, struct strv *out)
{
  if (YAJL_IS_ARRAY (v))
    {
      if (len + 2 >= size)
        return note_too_long (out);
      memcpy (path + len, "[]", 3);
      for (size_t i = 0; i < v->u.array.len; i++)
        {
          int r = walk (v->u.array.values[i], path, len + 2, size, out);
          if (r < 0)
            return r;
        }
      path[len] = '\0';
      return 0;
    }
  if (!YAJL_IS_OBJECT (v) || opaque (path))
    return 0;
  for (size_t i = 0; i < v->u.object.len; i++)
    {
      size_t end = sbx_key_path_append (path, len, size, v->u.object.keys[i]);
      if (end == 0)
        {
          if (note_too_long (out) < 0)
            return -ENOMEM;
          continue;
        }
      if (!strv_contains (out, path) && strv_push (out, path) < 0)
        return -ENOMEM;
      int r = walk (v->u.object.values[i], path, end, size, out);
      if (r < 0)
        return r;
      path[len] = '\0';
    }
  return 0;
}

int
sbx_spec_collect_fields (yajl_val top, struct strv *out)
{
  char path[SBX_JPATH_MAX] = "";
  return walk (top, path, 0, sizeof path, out);
}
