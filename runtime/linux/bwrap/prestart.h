/* bubblewrap started before the plan is made.  bwrap's own start-up (the
   exec, its dynamic loader and glibc's) is as long as sbx-oci's planning
   on the VMs measured (docs/benchmarks.md), and the two need not follow
   each other: bwrap reads its options from a pipe (--args), and its
   command can be fixed in advance, the Landlock helper reading its own
   arguments from a memfd (landlock_helper.c, -a).  So `run` starts the
   runner first, plans while bwrap starts, then writes the options.

   Only for what such a runner can be: a runner takes no step before its
   exec that depends on the plan (no joined namespace, mount namespace,
   supplementary groups, resource limits, user namespace of sbx-oci's),
   its descriptors are fixed before the plan exists (its status pipe, its
   options, two seccomp programs, the helper and the helper's arguments,
   each consumed by bwrap or the helper), and the plan holds no bind source
   open, which bwrap would need in its own table (docs/design.md says why
   a /proc/PID/fd link of sbx-oci's will not do).  A plan that does not
   fit is run the ordinary way, and the early bwrap is killed before it
   read anything (sbx_prestart_take).  */
#ifndef SBX_PRESTART_H
#define SBX_PRESTART_H

#include <stdbool.h>
#include <sys/types.h>

#include "common/error.h"
#include "runtime/linux/bwrap/spawn.h"
#include "runtime/linux/supervise/run_guard.h"

enum
{
  SBX_PRESTART_STATUS,
  SBX_PRESTART_OPTIONS,
  SBX_PRESTART_SECCOMP,
  SBX_PRESTART_SECCOMP_NET,
  SBX_PRESTART_HELPER,
  SBX_PRESTART_HELPER_ARGS,
  SBX_PRESTART_FDS
};

struct sbx_prestart
{
  pid_t pid; /* the runner, bwrap now, waiting for its options; 0: none */
  const char *runner; /* sbx_probe_runner_found's, which stays */
  int preserve_fds;
  int at[SBX_PRESTART_FDS];   /* the numbers bwrap has them at */
  int ours[SBX_PRESTART_FDS]; /* sbx-oci's ends: the status pipe's to read,
                                 the others' to write; -1 where none */
  struct sbx_run_guard guard; /* told the runner's process group */
};

/* PS is no prestart (what sbx_prestart_release expects at least).  */
void sbx_prestart_init (struct sbx_prestart *ps);

/* Start bwrap at RUNNER (sbx_probe_runner_found's, kept as it is) before
   the plan is made, with PRESERVE_FDS passed through as sbx_bwrap_spawn
   would; PS->pid is 0 when it could not be started (the run then starts
   its runner as usual).  */
void sbx_bwrap_prestart (const char *runner, int preserve_fds,
                         struct sbx_prestart *ps);

/* REQ's runner from PS when REQ fits it: 0 with OUT filled (PS->pid
   handed over), or a negative errno with ERR (the prestart ended); 1 when
   it does not fit, the prestart ended and REQ is the caller's to start. */
int sbx_prestart_take (struct sbx_prestart *ps,
                       const struct sbx_spawn_request *req,
                       struct sbx_spawned *out, struct sbx_error *err);

/* Move PS's guard to *G (the run's, to stop); false when it has none. */
bool sbx_prestart_take_guard (struct sbx_prestart *ps,
                              struct sbx_run_guard *g);

/* End PS, if it was not taken: its guard, then its runner (killed, as it
   still reads its options), and close PS's ends.  */
void sbx_prestart_release (struct sbx_prestart *ps);

#endif
