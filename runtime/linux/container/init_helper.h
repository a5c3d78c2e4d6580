/* Where sbx-oci-init (init_main.c) comes from: the file next to the
   running sbx-oci (a build directory, or an installation that keeps both
   in one place), else SBX_LIBEXECDIR's, copied into a sealed memfd that
   bwrap executes as /proc/self/fd/N.  A sealed copy, as for `exec`
   (sealed_self.h): a process of the container that reaches the file
   through /proc/1/exe before the command's exec finds a copy nobody can
   change, never the host's file.  */
#ifndef SBX_INIT_HELPER_H
#define SBX_INIT_HELPER_H

#include "common/error.h"

/* The sealed copy's fd (close-on-exec), or -errno with ERR set naming the
   places looked at and the fix.  */
int sbx_init_helper_open (struct sbx_error *err);

#endif
