/* A container's directory under the state root, ROOT/ID, as one unit: a
   claim makes and locks it under a temporary name and renames it into
   place without replacing anything, and a removal renames it away before
   taking it apart.  So ROOT/ID is only ever seen whole and with its lock
   file held by whoever made it visible: a delete racing a create waits for
   the create's lock instead of removing a directory it does not own.

   Temporary directories are named SBX_TEMP_DIR_PREFIX plus six random
   characters.  A command killed halfway leaves one behind; it blocks
   nothing (no command can name it, list skips it) and the next claim
   sweeps it once it is a minute old and its lock is free.  */
#ifndef SBX_STATE_DIR_H
#define SBX_STATE_DIR_H

#include "common/error.h"

#define SBX_LOCK_FILE "lock"

/* The state root's entries that are no container start with "+", which
   no id may hold (sbx_state_check_id): list skips them, and no command
   can name one as a container.  */
#define SBX_ROOT_OWN(name) "+" name
#define SBX_TEMP_DIR_PREFIX SBX_ROOT_OWN ("tmp.")
#define SBX_PROBE_CACHE_NAME SBX_ROOT_OWN ("probe.cache")
#define SBX_MQUEUE_DIR_NAME SBX_ROOT_OWN ("mqueue")
#define SBX_NODES_DIR_NAME SBX_ROOT_OWN ("devices")

/* Everything here is relative to ROOT_FD, the checked state root
   (runtime/state_root.h), and follows no symlink; DIR, ROOT/ID, only
   names the directory in errors.  */

/* Create ROOT/ID with its lock file, held in *LOCK_FD, the directory
   open in *DIR_FD.  -EEXIST with `container "ID" already exists`.  */
int sbx_state_dir_claim (int root_fd, const char *dir, const char *id,
                         int *dir_fd, int *lock_fd, struct sbx_error *err);

/* Open ROOT/ID (checked as the root is: the caller's, not writable by
   others, no symlink) into *DIR_FD and lock its lock file into *LOCK_FD,
   waiting for its holder.  Only the file still at ROOT/ID/lock counts:
   one whose directory was removed while we waited is dropped and the new
   one, if the id was claimed again, waited for.  -ENOENT with `container
   "ID" does not exist`.  */
int sbx_state_dir_lock (int root_fd, const char *dir, const char *id,
                        int *dir_fd, int *lock_fd, struct sbx_error *err);

/* Remove ROOT/ID and everything in it, the devpts instance a create with
   a terminal mounts there included.  The caller holds its lock.  */
int sbx_state_dir_remove (int root_fd, const char *dir, const char *id,
                          struct sbx_error *err);

#endif
