/* Hard-link aliases inside writable roots.

   A regular file inside a writable root whose inode has more than one name
   (st_nlink > 1) may have its other name outside every granted root; writing
   it through the sandbox would then change a file the policy never granted.
   This walk finds every such file so that the plan can re-bind each one
   read-only (SBX_PLAN_BIND_RO, SBX_WHY_ALIAS, source == dest).

   The walk never follows symlinks, stays on the filesystem of each root
   (like `find -xdev`), works relative to directory fds (no path
   re-resolution, no PATH_MAX limit) and is bounded, because a workspace can
   be arbitrarily large: a walk that hits a bound says so, and the caller
   reports enforcement `partial` with the reason.  */
#ifndef SBX_LINUX_ALIAS_WALK_H
#define SBX_LINUX_ALIAS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/strv.h"

struct sbx_alias_result
{
  /* Absolute paths (each under the root string it was found through) of
     regular files with st_nlink > 1: sorted, without duplicates.  */
  struct strv paths;
  /* Git metadata the walk passed that is not a root's own .git: nested
     repositories' ".git" (a directory, or a worktree's or submodule's
     file) and the git directories of submodules (".git/modules/NAME")
     and of linked worktrees (".git/worktrees/NAME"),
     whose config and hooks run code on the host's next git command.  */
  struct strv git_meta;
  /* Directories the walk met (roots included) that are one of the homes
     it was given under another name (a host's bind mount of a home into
     a workspace): their start-up files and credential stores are the
     home's, reached by another path.  */
  struct strv home_aliases;
  /* Directories below a root that are mounts of another file system: not
     entered (as find -xdev), so what they hold is not looked at.  */
  struct strv other_fs;
  /* Directory entries examined, over all roots; never more than
     max_entries.  */
  uint64_t visited;
  /* Directories that could not be opened (no permission, or removed during
     the walk) and entries that could not be stat'ed: not walked.  */
  uint64_t skipped;
  /* A bound was hit: some part of the roots was not walked.  */
  bool truncated;
  /* When truncated: one line naming the bound and the path where it was
     hit.  NULL otherwise.  */
  char *reason;
};

/* A directory's identity.  */
struct sbx_dir_id
{
  dev_t dev;
  ino_t ino;
};

struct sbx_alias_walk_opts
{
  uint32_t max_entries, max_depth; /* the bounds, below */
  /* The homes, by identity: what home_aliases looks for.  */
  const struct sbx_dir_id *homes;
  size_t n_homes;
};

/* Walk ROOTS[0..N_ROOTS) (absolute paths of directories; a root that is
   not a directory is a single granted file and is not walked) and fill OUT,
   which must be zeroed.  Each root is opened following symlinks, as the
   runner binds it; nothing below a root is.  A root equal to or nested in
   another is walked once, as itself.  At most OPTS->max_entries directory
   entries are examined in all; entries deeper than OPTS->max_depth (the
   root's own entries are at depth 1) are not.  Hitting either bound sets
   OUT->truncated and OUT->reason; it is not an error.  Returns 0, or a
   negative errno with ERR filled (a root that is relative or does not exist,
   out of memory or fds); on error OUT is left for sbx_alias_result_free.  */
int sbx_alias_walk (const char *const *roots, size_t n_roots,
                    const struct sbx_alias_walk_opts *opts,
                    struct sbx_alias_result *out, struct sbx_error *err);

/* Release what sbx_alias_walk put in R; R is zeroed again.  */
void sbx_alias_result_free (struct sbx_alias_result *r);

#endif
