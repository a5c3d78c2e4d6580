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
  for (; *s; s++)
    if (*s == '\'')
      fputs ("'\\''", out);
    else
      fputc (*s, out);
  fputc ('\'', out);
}
