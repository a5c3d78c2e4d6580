/* Starting `sandbox-exec -p PROFILE -- ARGV...` as a child of sbx-oci.
   Plain POSIX (fork, exec, pipes), so it is built and tested on Linux too
   against a stand-in for sandbox-exec.  */
#ifndef SBX_SEATBELT_SPAWN_H
#define SBX_SEATBELT_SPAWN_H

#include <sys/types.h>

#include "common/error.h"

struct sbx_seatbelt_command
{
  const char *sandbox_exec; /* the runner's absolute path */
  const char *profile;      /* the SBPL text */
  char *const *argv;        /* the command, NULL-terminated */
  char *const *envp;        /* exactly the command's environment */
  const char *cwd;          /* where the command starts */
  int preserve_fds;         /* fds 3 .. 3+N-1 are passed on */
};

/* Fork and exec CMD in a new process group led by the child (*PID).  The
   child keeps stdin, stdout, stderr and the preserved fds, nothing else,
   and has the default disposition and an empty mask for FORWARDED (what
   the caller blocked and caught).  A runner that cannot be started, or a
   cwd that cannot be entered, is an error here, never a child status: the
   command did not run.  */
int sbx_seatbelt_spawn (const struct sbx_seatbelt_command *cmd,
                        const int *forwarded, size_t n_forwarded, pid_t *pid,
                        struct sbx_error *err);

#endif
