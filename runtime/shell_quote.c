#include "runtime/shell_quote.h"

#include <string.h>

void
sbx_shell_quote (FILE *out, const char *s)
{
  if (s[0] != '\0'
      && strspn (s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789-_./=:,+@%")
             == strlen (s))
    {
      fputs (s, out);
      return;
    }
  fputc ('\'', out);
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    if (*p == '\'')
      fputs ("'\\''", out);
    /* A control character is never written raw (this is read on a
       terminal): printf makes it, which every POSIX shell runs.  A
       newline stays, as $(...) would drop it; inside the quotes it is
       the word's, and on a terminal only a line break.  */
    else if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
      fprintf (out, "'\"$(printf '\\%03o')\"'", *p);
    else
      fputc (*p, out);
  fputc ('\'', out);
}
