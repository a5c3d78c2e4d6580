/* Another attempt at a set-up that the host raced.

   bubblewrap remounts each submount of a recursive bind with the flags
   it wants (nosuid, nodev, ro).  The sandbox's mount namespace is a slave
   of the host's, so a submount that the host unmounts between bwrap's
   listing and its remount fails the whole set-up: "Unable to apply mount
   flags: remount ...: Invalid argument" (containers/bubblewrap#650, open
   in every release through 0.11).  A Kubernetes node's pod networks come
   and go under /run/netns all day.  That is no fault of the config, and
   the command never started (bwrap reported no exit code, sbx-oci-init
   was never held), so a set-up that failed while the host's mounts
   changed is made again: the command still runs at most once.  So is
   one that a restarting daemon raced: a host socket listed to be covered
   and gone (or made anew) before bwrap covered it.  A set-up that fails
   with the host at rest is not: its failure is the config's, and it would
   fail again.  */
#ifndef SBX_SETUP_RETRY_H
#define SBX_SETUP_RETRY_H

#include <stdbool.h>

#include "runtime/context.h"

/* Attempts in all.  A mount table changed 20 us apart fails one set-up
   in five here (tests/integration/host_churn.sh), and the eight have not
   all failed there; changed with no pause at all, the churner's hold on
   the mount table stretches bwrap's set-up until, rarely, eight in a row
   do, pauses and all (setup_retry.c).  */
#define SBX_SETUP_ATTEMPTS 8

/* A watch on the caller's mount namespace from now on: an fd to close,
   or -1 when none can be had (then only a socket makes a set-up again). */
int sbx_mounts_watch (void);

/* Whether the mounts changed since *WATCH was opened; if so, *WATCH
   watches from now on.  */
bool sbx_mounts_changed (int *watch);

/* Whether the set-up of attempt ATTEMPT (from 1), which failed, is to be
   made again: SOCKETS host sockets it was to cover went away or were
   made anew during it (sbx_sandbox_sockets_changed), or *WATCH saw the
   mounts change, and an attempt is left.  Then it says so (a warning
   through G, after bwrap's own message), pauses (sbx_setup_pause), and
   *WATCH watches the next attempt from then.  */
bool sbx_setup_again (const struct sbx_context *g, int *watch, int attempt,
                      int sockets);

/* The pause after attempt ATTEMPT: 2^(ATTEMPT-1) ms and as much again at
   random, so that a burst of changes (a pod's networks set up) can pass
   and attempts fall at no fixed step of a steady churn.  The eight
   attempts pause a quarter of a second at most.  */
void sbx_setup_pause (int attempt);

#endif
