/* Another attempt at a set-up that the host's mount table raced.

   bubblewrap remounts each submount of a recursive bind with the flags
   it wants (nosuid, nodev, ro).  The sandbox's mount namespace is a slave
   of the host's, so a submount that the host unmounts between bwrap's
   listing and its remount fails the whole set-up: "Unable to apply mount
   flags: remount ...: Invalid argument" (containers/bubblewrap#650, open
   in every release through 0.11).  A Kubernetes node's pod networks come
   and go under /run/netns all day.  That is no fault of the config, and
   the command never started (bwrap reported no exit code, sbx-oci-init
   was never held), so a set-up that failed while the host's mounts
   changed is made again: the command still runs at most once.  A set-up
   that fails with the mounts at rest is not: its failure is the
   config's, and it would fail again.  */
#ifndef SBX_SETUP_RETRY_H
#define SBX_SETUP_RETRY_H

#include <stdbool.h>

/* Attempts in all.  A mount table that changes many times a second fails
   one set-up in five here (tests/integration/run.sh, case_mount_churn):
   eight attempts all fail about once in two million.  */
#define SBX_SETUP_ATTEMPTS 8

/* A watch on the caller's mount namespace from now on: an fd to close,
   or -1 when none can be had (then no set-up is made again).  */
int sbx_mounts_watch (void);

/* Whether the set-up of attempt ATTEMPT (from 1), which failed, is to be
   made again: *WATCH saw the mounts change during it and an attempt is
   left.  Then it says so on stderr (after bwrap's own message) and
   *WATCH watches the next attempt.  */
bool sbx_setup_again (int *watch, int attempt);

#endif
