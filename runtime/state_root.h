/* Whether the state root, and what is in it, may be trusted.  Everything
   sbx-oci reads there decides what it runs, signals and removes as the
   caller (state.json's bundle and pid, the probe cache), so a directory
   someone else made or can write is refused, never used nor replaced by
   another (podman's and runc's rule): a root the caller owns and only the
   caller can write, opened once and used through its fd, with nothing
   under it followed if it is a symlink.  */
#ifndef SBX_STATE_ROOT_H
#define SBX_STATE_ROOT_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/error.h"

/* A container id, which names an entry of the state root (and a cgroup):
   non-empty, at most 1024 characters of [A-Za-z0-9_.-], not "." or "..".
   Used by `run` too, which has no state directory, so that its id is
   never a path either.  */
int sbx_state_check_id (const char *id, struct sbx_error *err);

/* Whether ST, what PATH is, is the caller's own: of TYPE (S_IFDIR,
   S_IFREG), owned by EUID and not writable by group or others.  -EPERM
   with one line naming PATH, what is wrong and the fix.  WHAT says what
   PATH is to the reader ("state root", "probe cache").  */
int sbx_state_trust_check (const char *what, const char *path,
                           const struct stat *st, mode_t type, uid_t euid,
                           struct sbx_error *err);

/* Open the state root ROOT into *FD, checked as above; a symlink is
   refused.  MAKE: a missing root is made (mode 0700, missing parents
   0755) and then checked like any other, so a directory someone else
   slipped in meanwhile is refused all the same.  Without MAKE a missing
   root is -ENOENT with ERR untouched.  */
int sbx_state_root_open (const char *root, bool make, int *fd,
                         struct sbx_error *err);

/* Open the directory NAME in the checked directory DIRFD into *FD, checked
   the same way (a container's directory, the mqueue directory); SHOWN
   names it in errors.  -ENOENT with ERR untouched when it is missing.  */
int sbx_state_subdir_open (int dirfd, const char *name, const char *shown,
                           int *fd, struct sbx_error *err);

#endif
