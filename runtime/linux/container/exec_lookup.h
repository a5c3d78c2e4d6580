/* Finding the command before the sandbox starts, so that "not found" and
   "not executable" are reported in runc's words (podman maps them to 127
   and 126) instead of as a failed sandbox.  */
#ifndef SBX_EXEC_LOOKUP_H
#define SBX_EXEC_LOOKUP_H

#include "common/error.h"

/* Look ARGV0 up as execvp would inside ROOT (a host directory that will be
   the sandbox's "/"), with PATH and CWD as the sandbox will have them.
   Symlinks resolve inside ROOT.  Returns 0, -ENOENT ("executable file not
   found in $PATH") or -EACCES ("permission denied").  */
int sbx_exec_lookup (const char *root, const char *argv0, const char *path,
                     const char *cwd, struct sbx_error *err);

/* The exit status a lookup failure maps to: 127 or 126.  */
int sbx_exec_lookup_status (int code);

#endif
