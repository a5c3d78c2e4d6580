/* Running from a sealed in-memory copy of an executable, never from the
   host's file (the runc CVE-2019-5736 pattern).

   A command exec'd by a process that is sbx-oci, when the command is
   /proc/self/exe (a `#!/proc/self/exe` script, a symlink to it, the very
   path), is the sbx-oci binary, and so is /proc/PID/exe of that process.
   A process of the sandbox that opens it with O_PATH can reopen it for
   writing through /proc/self/fd/N once no one executes it, and replace
   the host's sbx-oci, which root later runs.  Running from a memfd sealed
   against every write, growth and shrink, the only file such a process can
   reach is that copy, which nobody can change.  `exec` needs this only
   where it execs the command itself (no Landlock layer; otherwise the
   Landlock helper, itself a sealed memfd, does: exec_join.c), and
   sbx-oci-init always runs so (init_helper.h).  */
#ifndef SBX_SEALED_SELF_H
#define SBX_SEALED_SELF_H

#include "common/error.h"

/* If this process does not already run from the sealed copy, make one of
   /proc/self/exe and re-execute it with the same arguments, environment
   and descriptors: it returns only on failure.  Returns 0 when this
   process is that copy already.  */
int sbx_run_from_sealed_copy (struct sbx_error *err);

/* A sealed, close-on-exec memfd copy of the executable file FD (its
   loaded part): the copy's fd, or -errno.  Also what sbx-oci-init is run
   from (init_helper.h).  */
int sbx_sealed_copy (int fd);

#endif
