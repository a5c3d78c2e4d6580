#ifndef SBX_SHELL_QUOTE_H
#define SBX_SHELL_QUOTE_H

#include <stdio.h>

/* Print S so that a POSIX shell reads it back as exactly S, with no
   control character but a newline written raw.  */
void sbx_shell_quote (FILE *out, const char *s);

#endif
