#include "common/utf8.h"

#include <stdio.h>
#include <stdlib.h>

size_t
sbx_utf8_char (const unsigned char *p)
{
  if (*p < 0x80)
    return *p != 0;
  /* The length its lead byte announces, and the range its second byte
     must fall in (no overlong form, no surrogate, nothing past
     U+10FFFF).  */
  size_t len = *p >= 0xc2 && *p <= 0xdf   ? 2
               : *p >= 0xe0 && *p <= 0xef ? 3
               : *p >= 0xf0 && *p <= 0xf4 ? 4
                                          : 0;
  unsigned char lo = *p == 0xe0 ? 0xa0 : *p == 0xf0 ? 0x90 : 0x80;
  unsigned char hi = *p == 0xed ? 0x9f : *p == 0xf4 ? 0x8f : 0xbf;
  if (len == 0 || p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < len; i++)
    if (p[i] < 0x80 || p[i] > 0xbf)
      return 0;
  return len;
}

bool
sbx_utf8_valid (const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  for (size_t len; *p; p += len)
    if ((len = sbx_utf8_char (p)) == 0)
      return false;
  return true;
}

char *
sbx_utf8_repaired_dup (const char *s)
{
  size_t size = 1;
  for (const unsigned char *p = (const unsigned char *) s; *p;)
    {
      size_t len = sbx_utf8_char (p);
      size += len ? len : 4;
      p += len ? len : 1;
    }
  char *out = malloc (size), *o = out;
  for (const unsigned char *p = (const unsigned char *) s; out && *p;)
    {
      size_t len = sbx_utf8_char (p);
      if (len == 0)
        o += snprintf (o, 5, "\\x%02x", *p++);
      for (; len > 0; len--)
        *o++ = (char) *p++;
    }
  if (out)
    *o = '\0';
  return out;
}
