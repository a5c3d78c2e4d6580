/* The state root as bwrap sees it in a range's user namespace.

   With linux.uidMappings ranges bwrap runs as uid 0 of a user namespace
   sbx made (policy/id_maps.c): a host uid like any other, which cannot
   search the state root (0700, root's).  Yet what the runner mounts for
   bwrap to bind lies below it (linux.devices' nodes and the config's
   tmpfs, a shared IPC namespace's mqueue), and so does a terminal's
   devpts (create_console.c).  So in the runner's own mount namespace a
   tmpfs searchable by all covers the state root, or its outermost
   parent that others cannot search, holding only the way down to those
   mount points, and each plan source below the cover is bound back at
   its path.  The host's directories are untouched, and nothing else in
   them is in the namespace's sight.  */
#ifndef SBX_RUNNER_COVER_H
#define SBX_RUNNER_COVER_H

#include <stddef.h>

#include "common/error.h"
#include "policy/policy.h"

struct sbx_runner_cover
{
  char *top;           /* what is covered; NULL: nothing */
  const char *made[2]; /* the runner's mount points (the mqueue's, the
                          nodes'), or NULL */
  char **kept;         /* where plan sources below TOP lead, bound back */
  int *kept_fd;        /* the runner's, one per kept source */
  size_t n_kept;
};

/* In sbx, before the runner starts: what the runner covers for PLAN,
   whose state root is ROOT and shared mqueue MQUEUE_DIR (or NULL).
   ROOT is a real path, MQUEUE_DIR and the plan's nodes directory made
   from it.  Nothing when the plan enters no range's namespace or has
   nothing below ROOT.  MADE points into PLAN and MQUEUE_DIR.  Refuses a
   plan source inside ROOT but the terminal's devpts (or holding it).
   0, or -errno with ERR set.  */
int sbx_runner_cover_plan (const struct sbx_plan *plan, const char *root,
                           const char *mqueue_dir,
                           struct sbx_runner_cover *cover,
                           struct sbx_error *err);
void sbx_runner_cover_free (struct sbx_runner_cover *cover);

/* In the runner, inside its own mount namespace and before anything is
   mounted below the cover: cover, make the way to the mount points,
   bind the kept sources back.  Allocates nothing (the runner shares its
   parent's memory).  0, or -errno with MSG filled.  */
int sbx_runner_cover (const struct sbx_runner_cover *cover, char *msg,
                      size_t size);

#endif
