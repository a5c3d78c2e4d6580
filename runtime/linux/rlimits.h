/* OCI process.rlimits, applied in the child that is about to exec bwrap, so
   that bwrap and the sandbox inherit them.  */
#ifndef SBX_LINUX_RLIMITS_H
#define SBX_LINUX_RLIMITS_H

#include <stddef.h>

#include "common/error.h"
#include "spec/spec.h"

/* setrlimit() each of RL[0..N) (its `resource`, named by its `type`), in
   order.  Stops at the first failure, with ERR naming process.rlimits[I]
   and the reason, e.g. `process.rlimits[1]: cannot set RLIMIT_NOFILE to
   soft 4096, hard 4096: Operation not permitted (raising a hard limit needs
   CAP_SYS_RESOURCE)`.  */
int sbx_rlimits_apply (const struct sbx_rlimit *rl, size_t n,
                       struct sbx_error *err);

#endif
