/* The host probe: finds the runner and learns what this host lets a
   sandbox have, once.  The answer is cached in the state root, keyed by
   what would change it (runner path, size and mtime; kernel release), so
   later runs pay for a stat, not for launching test sandboxes.  */
#ifndef SBX_PROBE_H
#define SBX_PROBE_H

#include "common/error.h"
#include "policy/host_facts.h"

struct sbx_probe
{
  struct sbx_host_facts facts;
  /* What the facts' paths point to, the probe's own: on the heap, as a
     run zeroes its probe twice and each page of a VM's stack is dear
     the first time (docs/benchmarks.md).  */
  char *runner_path, *home, *account_home;
};

/* RUNNER: a path named by the operator (--runner or SBX_OCI_RUNNER), or
   NULL to look for bwrap in the usual absolute places (PATH may be unset:
   podman calls `kill` and `delete` with an empty environment).
   CACHE_FD: the checked state root (runtime/state_root.h) that keeps the
   cache, or -1 for no cache; a cache file that is not the caller's own
   regular file is not believed.  */
int sbx_probe_host (const char *runner, int cache_fd, struct sbx_probe *out,
                    struct sbx_error *err);

/* What sbx_probe_host kept, freed, whether it succeeded or not.  */
void sbx_probe_release (struct sbx_probe *p);

/* The runner the operator named (RUNNER, else SBX_OCI_RUNNER), or NULL;
   the first bwrap of the usual places that can be executed, or NULL
   (looked for once a process).  */
const char *sbx_probe_named_runner (const char *runner);
const char *sbx_probe_runner_found (void);

/* The Landlock ABI the kernel offers, 0 for none: one system call a
   process, never kept beyond it (a kernel booted with another lsm= list
   keeps its release).  */
int sbx_probe_landlock_abi (void);

/* F->selinux and F->apparmor: whether this host's modules take labels.  */
void sbx_probe_label_modules (struct sbx_host_facts *f);

#endif
