/* The operator's ceiling from the command line: --ceiling FILE (the JSON
   of policy/ceiling.h) plus the tokens of any --approve FILE.  Shared by
   every backend.  */
#ifndef SBX_CEILING_LOAD_H
#define SBX_CEILING_LOAD_H

#include "runtime/context.h"
#include "policy/ceiling.h"

/* Fill *OUT and return 1 when the operator named a ceiling; return 0 (the
   config is the operator's own, as with runc) when it did not.  Each
   workspace is resolved on the host: it must exist, be a directory, and
   is recorded with its symbolic links resolved, so what the config is
   compared against is what will be mounted.  The --approve tokens land in
   OUT->approvals either way: without a ceiling they still say what of the
   operator's own world a sandbox may see ("env:NAME", "socket:PATH",
   "port:N").  */
int sbx_ceiling_load (const struct sbx_context *g, struct sbx_ceiling *out,
                      struct sbx_error *err);

#endif
