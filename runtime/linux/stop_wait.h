/* Waiting while the stopping signals are held (common/signal_hold.h).
   A step that holds them must still be stoppable when what it waits for
   never comes: a console socket whose listener never accepts, a runner
   that hangs.  Held alone, a caller's SIGTERM would wait with it, and
   SIGKILL (which leaves the step half-done) would be the only way out.
   The signal stays pending throughout, for the step to undo what it
   made and the release to act on.  */
#ifndef SBX_STOP_WAIT_H
#define SBX_STOP_WAIT_H

#include <sys/types.h>

#include "common/error.h"

/* The held signal that came and would end sbx-oci on the release, or 0:
   one it ignores (SIG_IGN) would not, though the kernel queues it.  */
int sbx_stop_pending (void);

/* -EINTR, ERR naming the signal, when sbx_stop_pending has one; else 0. */
int sbx_stop_requested (struct sbx_error *err);

/* Wait up to TIMEOUT_MS (-1: for good) for EVENTS on FD (FD < 0: a
   pause), or for a stop (sbx_stop_pending): 1 when FD is ready, 0 at
   the timeout, -EINTR for the stop, or -errno.  */
int sbx_wait_unless_stopped (int fd, short events, int timeout_ms);

/* Reap the child PID into *STATUS, unless a stop comes first: then it is
   killed (SIGKILL) and reaped all the same, and -EINTR.  0, or -errno. */
int sbx_reap_unless_stopped (pid_t pid, int *status);

#endif
