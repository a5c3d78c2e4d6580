/* `exec` runs from a sealed in-memory copy of sbx-oci, never from the
   host's file (the runc CVE-2019-5736 pattern).

   The process `exec` forks into a sandbox is sbx-oci until it execs the
   command, so /proc/PID/exe of it, or of a command that is
   /proc/self/exe (a `#!/proc/self/exe` script, a symlink to it, the very
   path), names the sbx-oci binary.  A process of the sandbox that opens it
   with O_PATH can reopen it for writing through /proc/self/fd/N once no
   one executes it, and replace the host's sbx-oci, which root later runs.
   Running from a memfd sealed against every write, growth and shrink,
   the only file such a process can reach is that copy, which nobody can
   change.  (exec.c makes the joining process non-dumpable as well, which
   keeps a sandbox's process from opening /proc/PID/exe of it at all.)  */
#ifndef SBX_SEALED_SELF_H
#define SBX_SEALED_SELF_H

#include "common/error.h"

/* If this process does not already run from the sealed copy, make one of
   /proc/self/exe and re-execute it with the same arguments, environment
   and descriptors: it returns only on failure.  Returns 0 when this
   process is that copy already.  */
int sbx_run_from_sealed_copy (struct sbx_error *err);

#endif
