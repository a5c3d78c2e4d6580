/* A step that must not be left half-done (a file written and renamed
   into place, a container marked started and released, a cgroup frozen
   and thawed) holds the signals that would end sbx-oci by default, so
   that one that comes meanwhile ends it after the step, not inside it.
   SIGKILL cannot be held: what it leaves is what `delete --force` and
   the next run's sweep are for.  */
#ifndef SBX_SIGNAL_HOLD_H
#define SBX_SIGNAL_HOLD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The signals held: all whose default action ends the process, but the
   ones a fault raises, SIGABRT and the job-control ones.  */
void sbx_signals_held_set (sigset_t *set);

/* Hold them, keeping the mask as it was in *OLD (NULL: the caller kept
   it before).  */
void sbx_signals_hold (sigset_t *old);

/* Put the mask back as it was: a signal that came meanwhile is acted on
   now.  */
void sbx_signals_release (const sigset_t *old);

/* Whether the process ignores S (SIG_IGN): held, the kernel queues it
   all the same, yet the release drops it.  */
bool sbx_signal_ignored (int s);

/* The first signal of SET that came while held and waits for the
   release, or 0: a step that is to end then undoes what it made instead.
   One the process ignores (SIG_IGN) is none: the kernel queues a held
   signal even when it is ignored, and nohup's SIGHUP stopped a create. */
int sbx_signals_pending_in (const sigset_t *set);

/* write(2) of BUF to FD, retried on EINTR, where a reader that has gone
   is an error (-EPIPE), not a SIGPIPE that ends sbx-oci: the number of
   bytes written, or -errno.  */
ssize_t sbx_write_nosigpipe (int fd, const void *buf, size_t len);

#endif
