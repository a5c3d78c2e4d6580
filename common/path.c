#include "common/path.h"

#include <stdlib.h>
#include <string.h>

/* Drop the last component of OUT (LEN bytes, no trailing slash) and return
   the new length.  For a relative path that is empty or already ends in
   "..", there is nothing to drop: return (size_t) -1 so the caller keeps
   the "..".  */
static size_t
drop_last_component (const char *out, size_t len, bool absolute)
{
  size_t floor = absolute ? 1 : 0;
  if (len <= floor)
    return absolute ? len : (size_t) -1;
  size_t start = len;
  while (start > floor && out[start - 1] != '/')
    start--;
  if (!absolute && len - start == 2 && memcmp (out + start, "..", 2) == 0)
    return (size_t) -1;
  /* Remove the separator too, except the root's own "/".  */
  return start > floor ? start - 1 : floor;
}

/* PATH normalized into OUT, which has room for strlen (PATH) + 2 bytes
   and may be PATH itself: what is written never passes what was read,
   except "" -> ".".  */
static void
normalize_into (char *out, const char *path)
{
  bool absolute = path[0] == '/';
  size_t len = 0;
  if (absolute)
    out[len++] = '/';

  const char *p = path;
  while (*p)
    {
      while (*p == '/')
        p++;
      const char *end = p;
      while (*end && *end != '/')
        end++;
      size_t n = end - p, shorter;
      if (n == 0 || (n == 1 && p[0] == '.'))
        ;
      else if (n == 2 && p[0] == '.' && p[1] == '.'
               && (shorter = drop_last_component (out, len, absolute))
                      != (size_t) -1)
        len = shorter;
      else
        {
          if (len > 0 && out[len - 1] != '/')
            out[len++] = '/';
          memmove (out + len, p, n);
          len += n;
        }
      p = end;
    }
  if (len == 0)
    out[len++] = '.';
  out[len] = '\0';
}

char *
sbx_path_normalize (const char *path)
{
  char *out = malloc (strlen (path) + 2);
  if (out)
    normalize_into (out, path);
  return out;
}

char *
sbx_path_join (const char *base, const char *rel)
{
  if (rel[0] == '/')
    return sbx_path_normalize (rel);
  /* Normalized where it was joined: one allocation, as planning joins a
     few hundred paths a run.  */
  size_t nb = strlen (base), nr = strlen (rel);
  char *joined = malloc (nb + nr + 2);
  if (joined == NULL)
    return NULL;
  memcpy (joined, base, nb);
  joined[nb] = '/';
  memcpy (joined + nb + 1, rel, nr + 1);
  normalize_into (joined, joined);
  return joined;
}

bool
sbx_path_is_under (const char *path, const char *root)
{
  size_t n = strlen (root);
  if (n == 1 && root[0] == '/')
    return path[0] == '/';
  return strncmp (path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}
