/* Ending a tree of processes that no pid namespace or cgroup holds.  */
#ifndef SBX_TREE_KILL_H
#define SBX_TREE_KILL_H

#include <sys/types.h>

/* SIGKILL ROOT, a child of this process not yet reaped, and every
   descendant of it, however deep: each is stopped before its children
   are read, so it cannot fork one behind the walk, and every pid is
   signalled through a pidfd opened while its parent was stopped or is
   this process.  Orphans of the walk are re-parented to this process
   (a subreaper), which reaps them.  */
void sbx_tree_kill (pid_t root);

/* The same for ROOT, any process, through ROOT_PIDFD that the caller
   holds (and keeps): the pidfd, not ROOT's parent, says ROOT is the
   process meant.  Its orphans are re-parented elsewhere, but each was
   added with a pidfd while its parent was stopped.  */
void sbx_tree_kill_held (pid_t root, int root_pidfd);

#endif
