#include "runtime/shell_quote.h"

#include <string.h>

#include "common/error.h"

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
  for (const unsigned char *p = (const unsigned char *) s; *p;)
    {
      size_t text = sbx_text_char (p);
      if (*p == '\'')
        fputs ("'\\''", out);
      /* What is not text (a control character, a C1 one, a byte of
         invalid UTF-8) is never written raw, as this is read on a
         terminal: printf makes it, which every POSIX shell runs.  A
         newline stays, as $(...) would drop it; inside the quotes it is
         the word's, and on a terminal only a line break.  */
      else if (text == 0 && *p != '\n')
        fprintf (out, "'\"$(printf '\\%03o')\"'", *p);
      else
        fwrite (p, 1, text ? text : 1, out);
      p += text ? text : 1;
    }
  fputc ('\'', out);
}
