/* Waiting while the stopping signals are held (common/signal_hold.h).
   A step that holds them must still be stoppable when what it waits for
   never comes: a console socket whose listener never accepts, a runner
   that hangs.  Held alone, a caller's SIGTERM would wait with it, and
   SIGKILL (which leaves the step half-done) would be the only way out.  */
#ifndef SBX_STOP_WAIT_H
#define SBX_STOP_WAIT_H

#include <sys/types.h>

/* Wait up to TIMEOUT_MS (-1: for good) for EVENTS on FD (FD < 0: a
   pause), or for a held signal that would end sbx-oci on the release
   (one it ignores would not): 1 when FD is ready, 0 at the timeout,
   -EINTR for the signal, or -errno.  The signal stays pending, for the
   step to undo what it made and the release to act on.  */
int sbx_wait_unless_stopped (int fd, short events, int timeout_ms);

/* Reap the child PID into *STATUS, unless such a signal comes first: then
   it is killed (SIGKILL) and reaped all the same, and -EINTR.  0, or
   -errno.  */
int sbx_reap_unless_stopped (pid_t pid, int *status);

#endif
