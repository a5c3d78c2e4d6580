/* Dotted key paths ("process.user.uid"), as the config's walkers name
   what they find.  */
#pragma once

#include <stddef.h>
#include <string.h>

/* Append ".KEY" (or KEY to an empty path) at LEN of PATH (SIZE bytes):
   the new length, or 0 when it does not fit (PATH then ends at LEN).
   Not snprintf: every key of a config goes through here, and a printf
   per key was a fifth of what parsing one cost (callgrind).  */
static inline size_t
sbx_key_path_append (char *path, size_t len, size_t size, const char *key)
{
  size_t dot = len > 0, n = dot + strlen (key);
  path[len] = '\0';
  if (n >= size - len)
    return 0;
  if (dot)
    path[len] = '.';
  memcpy (path + len + dot, key, n - dot + 1);
  return len + n;
}
