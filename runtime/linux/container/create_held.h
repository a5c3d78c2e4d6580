/* The create engine (create_held.c): a sandbox set up and held before its
   command's exec, recorded in the state store, for `start` to release.  */
#ifndef SBX_CREATE_HELD_H
#define SBX_CREATE_HELD_H

#include "common/error.h"
#include "common/file_io.h"
#include "runtime/context.h"

/* What `sbx-oci create` was asked for.  */
struct sbx_create_request
{
  const char *id;
  const char *bundle;
  struct sbx_file_dest pid_file; /* --pid-file (.path NULL: none),
                                    opened before anything is set up */
  const char *console_socket;    /* NULL: none (process.terminal needs one) */
  int preserve_fds;              /* the caller's 3 .. 3+N-1 pass in */
};

/* Create container REQ->id from REQ->bundle.  Returns 0, or a negative
   errno with ERR and nothing left behind (no state directory, cgroup or
   process).  */
int sbx_container_create (const struct sbx_context *g,
                          const struct sbx_create_request *req,
                          struct sbx_error *err);

#endif
