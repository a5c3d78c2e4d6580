/* The supervision loop of a foreground `run`: forwards signals to the
   sandbox, enforces the wall clock and the sampled limits, learns how
   the command ended, and sweeps whatever was re-parented to sbx (a child
   subreaper) on the way. */
#ifndef SBX_BWRAP_SUPERVISE_H
#define SBX_BWRAP_SUPERVISE_H

#include "runtime/linux/supervise/limits.h"
#include "runtime/linux/bwrap/spawn.h"
#include "runtime/outcome.h"

/* SIGNAL_FD: a signalfd for SIGCHLD and the forwarded signals (all that
   would end sbx-oci by default but SIGPIPE), blocked
   before the runner was spawned so none is lost.  */
/* LIM: a MONITOR mechanism is sampled here and breaches end the run.  */
int sbx_bwrap_supervise (struct sbx_spawned *sp, const struct sbx_plan *plan,
                         struct sbx_limits *lim, int signal_fd,
                         struct sbx_outcome *out, struct sbx_error *err);

/* The signals a foreground run forwards to its sandbox.  */
void sbx_bwrap_supervise_signals (sigset_t *set);

#endif
