/* The Landlock helper sbx-oci carries (its bytes are built in), as a
   sealed memfd that bubblewrap can exec through /proc/self/fd/N: nothing
   on disk to find, replace or race.  */
#ifndef SBX_LANDLOCK_HELPER_FD_H
#define SBX_LANDLOCK_HELPER_FD_H

#include "common/error.h"

/* A close-on-exec descriptor of a sealed copy of the helper, or a
   negative errno (ERR filled).  */
int sbx_landlock_helper_fd (struct sbx_error *err);

/* The helper as an executable file at PATH, for a dry run's command line
   (--seccomp-dir).  Returns 0 or a negative errno (ERR filled).  */
int sbx_landlock_helper_write (const char *path, struct sbx_error *err);

#endif
