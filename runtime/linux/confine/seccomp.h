/* OCI linux.seccomp -> a classic BPF program for bwrap's `--seccomp FD`.
 *
 * bwrap reads the program from the fd and installs it with
 * prctl(PR_SET_SECCOMP) as the last step before execvp() of the command
 * (and in its pid-1 reaper), after every mount and namespace step: a filter
 * may refuse mount(2) without breaking bwrap's own setup.  */
#ifndef SBX_LINUX_SECCOMP_H
#define SBX_LINUX_SECCOMP_H

#include <stdbool.h>

#include "common/error.h"
#include "common/strv.h"
#include "spec/spec.h"

/* Exactly the names sbx_seccomp_compile accepts, NULL-terminated, for
   `sbx-oci features`.  */
extern const char *const sbx_seccomp_actions[];
extern const char *const sbx_seccomp_operators[];
extern const char *const sbx_seccomp_architectures[];
extern const char *const sbx_seccomp_flags[];

/* Compile SC with libseccomp.  Returns a sealed memfd (O_CLOEXEC set, offset
   0) holding the program, or a negative errno-style code with ERR naming
   the JSON path, e.g.
   `linux.seccomp.syscalls[3].action: unsupported action "SCMP_ACT_FOO"`.
   As runc and crun do: syscall names unknown to this libseccomp are
   skipped, a rule whose action equals the default action is skipped,
   SCMP_ACT_ERRNO/SCMP_ACT_TRACE without errnoRet return EPERM, and a rule
   whose args name one index twice becomes one rule per arg (OR, not AND:
   libseccomp refuses two conditions on one argument).  */
int sbx_seccomp_compile (const struct sbx_seccomp *sc, struct sbx_error *err);

/* Append to NOTES one line per way the loaded filter differs from what SC
   asked that sbx_seccomp_compile cannot fix: today, the flags, which bwrap
   cannot pass to the kernel.  Returns 0 or -ENOMEM.  */
int sbx_seccomp_notes (const struct sbx_seccomp *sc, struct strv *notes);

/* The default filter for agent sandboxes (see seccomp_agent_default.c for
   the list and the reasons).  *OUT is allocated like the parser's model and
   released with sbx_seccomp_free.  */
int sbx_seccomp_agent_default (bool allow_user_namespaces,
                               struct sbx_seccomp **out,
                               struct sbx_error *err);

/* The filter added for network "deny" on top of any other: sockets of
   any family but AF_UNIX fail with EAFNOSUPPORT (socket, socketpair,
   socketcall), io_uring with ENOSYS.  */
int sbx_seccomp_network_deny (struct sbx_seccomp **out, struct sbx_error *err);

#endif
