/* Applying linux.sysctl to a held sandbox, from outside it.  */
#ifndef SBX_SYSCTL_H
#define SBX_SYSCTL_H

#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"
#include "spec/spec.h"

/* Write each KV (checked by the policy: net.* or IPC keys only) into the
   namespaces of PID, which must be set up and not yet running its
   command.  */
int sbx_sysctl_apply (pid_t pid, const struct sbx_kv *kv, size_t n,
                      struct sbx_error *err);

#endif
