/* The built-in seccomp filters: an agent's default one
 * (seccomp_agent_default.c) and network "deny"'s.  They are not the config's
 * to get wrong, and they are the same for every run, so they are compiled when
 * sbx-oci is built, by the compiler a config's own filter goes through
 * (seccomp.c, run by seccomp_builtin_gen.c), and a run only copies their
 * bytes.  Compiled at run time instead, they cost every agent run 0.3 ms here,
 * 0.4 ms of CPU and 30 page faults, even overlapped with bwrap's start-up
 * (tests/bench/run_bench.sh).  */
#ifndef SBX_LINUX_SECCOMP_BUILTIN_H
#define SBX_LINUX_SECCOMP_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "policy/policy.h"

enum sbx_builtin_filter
{
  SBX_FILTER_AGENT,        /* user namespaces and mounts refused */
  SBX_FILTER_AGENT_USERNS, /* sbx.allowUserNamespaces: they are not */
  SBX_FILTER_NET_DENY,
  SBX_FILTER_COUNT
};

/* A compiled program: LEN bytes of struct sock_filter.  */
struct sbx_bpf
{
  const unsigned char *code;
  size_t len;
};

/* Generated at build time (seccomp_builtin_gen.c), by enum value.  */
extern const struct sbx_bpf sbx_builtin_filters[SBX_FILTER_COUNT];

/* The definition of filter WHICH, as the build compiles it (in
   seccomp_agent_default.c; released with sbx_seccomp_free).  */
struct sbx_seccomp;
int sbx_builtin_filter_define (enum sbx_builtin_filter which,
                               struct sbx_seccomp **out,
                               struct sbx_error *err);

/* The built-in program of an agent default CHOICE (SBX_FILTERS_AGENT or
   SBX_FILTERS_AGENT_USERNS).  */
enum sbx_builtin_filter sbx_agent_filter (enum sbx_filter_choice choice);

/* A pipe holding filter WHICH whole, its write end already closed: what
   bwrap's --add-seccomp-fd reads.  Returns the read end (O_CLOEXEC) or a
   negative errno with ERR filled.  */
int sbx_builtin_filter_fd (enum sbx_builtin_filter which,
                           struct sbx_error *err);

#endif
