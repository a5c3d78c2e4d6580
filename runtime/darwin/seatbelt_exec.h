/* Run a command under a Seatbelt profile (macOS only).  */
#ifndef SBX_SEATBELT_EXEC_H
#define SBX_SEATBELT_EXEC_H

#include "common/error.h"

#define SBX_SANDBOX_EXEC "/usr/bin/sandbox-exec"

/* Replace the process with sandbox-exec -p PROFILE -- ARGV..., environment
   ENVP.  Returns only on failure.  */
int sbx_seatbelt_exec (const char *profile, char *const argv[],
                       char *const envp[], struct sbx_error *err);

#endif
