/* The supervision loop of a foreground `run`: forwards signals to the
   sandbox, enforces the wall clock and the sampled limits, learns how
   the command ended, and sweeps whatever was re-parented to sbx (a child
   subreaper) on the way. */
#ifndef SBX_BWRAP_SUPERVISE_H
#define SBX_BWRAP_SUPERVISE_H

#include <signal.h>
#include <stdbool.h>

#include "runtime/linux/supervise/limits.h"
#include "runtime/linux/bwrap/spawn.h"
#include "runtime/outcome.h"

/* How long a sandbox (`run`) or an exec'd process has to end after a
   forwarded SIGINT, SIGTERM, SIGHUP or SIGQUIT before it is killed, as
   `docker stop` gives a container: the command may clean up, but a
   caller that asked it to stop gets it stopped (a command that ignores
   the signal, or one that had not started yet when it was forwarded,
   would otherwise run on).  */
#define SBX_STOP_GRACE_MS 10000

/* SIG is one of those stopping signals (the grace starts with the first). */
static inline bool
sbx_signal_stops (int sig)
{
  return sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT;
}

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
