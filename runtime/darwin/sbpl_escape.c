/* SBPL string literals.  A path is data: whatever bytes it holds, it must
   not end its string early and become profile text.  */
#include "runtime/darwin/sbpl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The escape for C inside an SBPL string, or NULL when C stands for itself.
   These escapes mean the same in TinyScheme (which SBPL grew from) and in
   R7RS.  */
static const char *
escape_for (unsigned char c)
{
  switch (c)
    {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\t':
      return "\\t";
    case '\r':
      return "\\r";
    default:
      return NULL;
    }
}

int
sbx_sbpl_quote (const char *s, char **out, struct sbx_error *err)
{
  size_t len = strlen (s);
  /* Worst case every byte doubles, plus the quotes and the NUL.  */
  char *q = malloc (2 * len + 3);
  if (q == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  size_t n = 0;
  q[n++] = '"';
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      const char *esc = escape_for (*p);
      if (esc != NULL)
        {
          q[n++] = esc[0];
          q[n++] = esc[1];
        }
      else if (*p < 0x20 || *p == 0x7f)
        {
          free (q);
          return sbx_fail (err, -EINVAL,
                           "path contains control character 0x%02x at byte "
                           "%zu; seatbelt profiles cannot name it safely, "
                           "rename the path",
                           *p, (size_t) (p - (const unsigned char *) s));
        }
      else
        q[n++] = (char) *p;
    }
  q[n++] = '"';
  q[n] = '\0';
  *out = q;
  return 0;
}
