/* The exec engine (exec_join.c): a new process in a running container's
   namespaces, under the confinement its sandbox was created with.  */
#ifndef SBX_EXEC_JOIN_H
#define SBX_EXEC_JOIN_H

#include <stdbool.h>

#include "common/error.h"
#include "common/file_io.h"
#include "common/strv.h"
#include "runtime/context.h"

/* What `sbx-oci exec` was asked for.  */
struct sbx_exec_request
{
  const char *id;
  const char *process_file; /* --process: the process object; NULL: ARGS */
  struct strv args;         /* the command, when there is no process file */
  struct sbx_file_dest pid_file; /* --pid-file, opened before the process */
  const char *cwd;
  struct strv env; /* --env K=V, over the process's own */
  bool detach;
  bool tty;
  const char *console_socket;
  int preserve_fds;
  const char *process_label; /* --process-label: SELinux; NULL: none */
  const char *apparmor;      /* --apparmor: a profile; NULL: none */
};

/* Run REQ's process in container REQ->id.  Returns the process's exit
   status (0 when detached), or a negative errno with ERR.  */
int sbx_container_exec (const struct sbx_context *g,
                        const struct sbx_exec_request *req,
                        struct sbx_error *err);

#endif
