/* OCI process.rlimits, applied in the child that is about to exec bwrap, so
   that bwrap and the sandbox inherit them.  */
#ifndef SBX_LINUX_RLIMITS_H
#define SBX_LINUX_RLIMITS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "spec/spec.h"

/* setrlimit() each of RL[0..N) (its `resource`, named by its `type`), in
   order.  Stops at the first failure, with ERR naming process.rlimits[I]
   and the reason, e.g. `process.rlimits[1]: cannot set RLIMIT_NOFILE to
   soft 4096, hard 4096: Operation not permitted (raising a hard limit needs
   CAP_SYS_RESOURCE)`.  */
int sbx_rlimits_apply (const struct sbx_rlimit *rl, size_t n,
                       struct sbx_error *err);

/* Since Linux 5.14 RLIMIT_NPROC counts the processes of one uid in one
   user namespace (ucounts), so set inside the sandbox's own user namespace
   it caps the sandbox's processes, threads included, without a cgroup:
   past LIMIT, fork and clone fail with EAGAIN, and no process in there
   may raise a hard limit (that needs CAP_SYS_RESOURCE of the host).  It
   must be set after the namespace exists: the namespace keeps its
   creator's limit for the host-wide count of the uid, which other
   processes of the caller share.  So it is set on the sandbox's first
   process while that one waits on --block-fd, before it starts the
   command: `run` gives RUNNER, bwrap, whose one child that is.  */
int sbx_rlimit_sandbox_nproc (pid_t runner, uint64_t limit,
                              struct sbx_error *err);

/* The same on the held sandbox's first process PID itself (`create`,
   which knows it from bwrap's status).  */
int sbx_rlimit_set_nproc (pid_t pid, uint64_t limit, struct sbx_error *err);

#endif
