/* The supervision loop of `run` under Seatbelt.  macOS gives no PID
   namespace, no cgroup, no pidfd and no signalfd, so this is plain POSIX:
   signals arrive through a self-pipe, the command is the sandbox-exec
   child itself, and termination ends its process group plus the
   descendants a sample of the process table found (process_sample.h).  */
#ifndef SBX_SEATBELT_SUPERVISE_H
#define SBX_SEATBELT_SUPERVISE_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "runtime/darwin/seatbelt_spawn.h"
#include "runtime/outcome.h"

#define SBX_SEATBELT_N_SIGNALS 7 /* SIGCHLD and the six forwarded */

struct sbx_seatbelt_watch
{
  int pipe[2];
  sigset_t old_mask;
  struct sigaction old[SBX_SEATBELT_N_SIGNALS];
};

/* Catch SIGCHLD and the signals a run forwards (SIGINT, SIGTERM, SIGHUP,
   SIGQUIT, SIGUSR1, SIGUSR2), blocked until the child is spawned so none
   is lost.  */
int sbx_seatbelt_watch_start (struct sbx_seatbelt_watch *w,
                              struct sbx_error *err);

/* Spawn CMD (seatbelt_spawn.h) and supervise it until it ends: forward
   the signals to its process group, end it when WALL_CLOCK_MS (0 = none)
   has passed, then end what is left of its group.  OUT says how the
   command ended.  An error means the command never ran.  */
int sbx_seatbelt_supervise (struct sbx_seatbelt_watch *w,
                            const struct sbx_seatbelt_command *cmd,
                            uint64_t wall_clock_ms, struct sbx_outcome *out,
                            struct sbx_error *err);

/* Restore the signal dispositions and the mask; close the pipe.  */
void sbx_seatbelt_watch_stop (struct sbx_seatbelt_watch *w);

#endif
