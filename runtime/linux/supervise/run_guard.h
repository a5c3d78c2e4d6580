/* The guard of a foreground `run` against bubblewrap's set-up window.
   bwrap's first child waits on an eventfd for its parent's go-ahead and
   only later arms its own death signal, so a bwrap killed in between
   (sbx-oci's death takes its runner along, on purpose) leaves that child
   waiting for ever, outside any sandbox sbx-oci could still end
   (tests/integration/kill_loop.sh found them).  Until it makes a session
   of its own, that child is in the runner's process group.

   After it, that child has told bwrap its pid, which bwrap reports to
   sbx-oci: if bwrap dies before the child arms its death signal, the
   child runs on as the orphaned init of its namespaces.

   The guard is a small process of its own session, started before the
   runner: the runner tells it its
   process group before it execs bwrap, sbx-oci tells it the sandbox's pid as
   soon as bwrap reports it (and hands it bwrap's status channel, where
   bwrap reports it, before bwrap starts), and when sbx-oci's end of their
   socket closes without the word that the run is over, the guard kills
   that process group and that pid, or the one the channel names (the
   init: its namespace goes with it).  A run that ends
   normally leaves the guard to the final sweep of sbx-oci's children.  */
#ifndef SBX_RUN_GUARD_H
#define SBX_RUN_GUARD_H

#include <sys/types.h>

#include "common/error.h"

struct sbx_run_guard
{
  int fd; /* ours: the runner writes its process group here, then we
             write 0 when the run is over; -1 when there is no guard */
  pid_t pid;
  void *stack; /* its own, in the memory it shares with sbx-oci */
};

int sbx_run_guard_start (struct sbx_run_guard *g, struct sbx_error *err);

enum sbx_run_guard_word
{
  SBX_GUARD_DONE,    /* the run is over: end without killing anything */
  SBX_GUARD_GROUP,   /* the runner's process group (the runner, pre-exec);
                        0: none any more (a runner ended before it ran) */
  SBX_GUARD_SANDBOX, /* the sandbox's first process */
  SBX_GUARD_STATUS,  /* bwrap's status channel comes with it */
};

/* Tell the guard at FD (a descriptor number, as the runner has it).  */
void sbx_run_guard_tell (int fd, enum sbx_run_guard_word word, pid_t pid);

/* Give the guard at FD bwrap's status channel STATUS_FD, before bwrap
   may write to it.  bwrap names the sandbox's first process there, then
   lets it go on: it leaves the runner's process group (a session of its
   own) and arms its death signal only later, and a sbx-oci killed in
   between, before it read that name and told the guard, left it
   running (tests/integration/kill_loop.sh).  The guard reads what sbx-oci
   left unread.  */
void sbx_run_guard_watch (int fd, int status_fd);

/* The run is over: the guard ends without killing anything.  */
void sbx_run_guard_stop (struct sbx_run_guard *g);

#endif
