/* Well-formed UTF-8, as JSON readers and terminals take it.  What a
   config says is UTF-8 already (its JSON was read); what the host names
   (a file a sandbox made, a bundle's directory, an inherited environment
   name) can be any bytes.  */
#ifndef SBX_UTF8_H
#define SBX_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the well-formed UTF-8 character at P: 1 for an ASCII
   byte other than NUL, 2 to 4 for a sequence with no overlong form, no
   surrogate and nothing past U+10FFFF; 0 at NUL or a byte that starts no
   such sequence (the sequence may not be cut short by the NUL).  */
size_t sbx_utf8_char (const unsigned char *p);

/* Whether S is well-formed UTF-8 throughout.  */
bool sbx_utf8_valid (const char *s);

/* A copy of S, to be freed, with each byte outside well-formed UTF-8
   written as the four characters \xHH (as messages show it); NULL when
   out of memory.  */
char *sbx_utf8_repaired_dup (const char *s);

#endif
