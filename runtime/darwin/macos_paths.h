/* Canonical macOS paths for Seatbelt rules.
 *
 * Seatbelt matches the path the kernel resolved, so a rule naming /tmp/x
 * never matches a write to it: the kernel sees /private/tmp/x.  Every path
 * written into a profile therefore goes through sbx_macos_path_canonical:
 * lexical clean-up, then the resolver (realpath(3) on a Mac, a fake in
 * tests) on the longest existing prefix, then the table of macOS's own
 * aliases (/tmp, /var, /etc live under /private) for what the resolver
 * could not see.  */
#ifndef SBX_MACOS_PATHS_H
#define SBX_MACOS_PATHS_H

#include "common/error.h"

/* Resolve PATH as realpath(3) does: 0 and a malloc'd absolute path in *OUT,
   or a negative errno (-ENOENT / -ENOTDIR when PATH does not exist).  */
typedef int (*sbx_path_resolver) (void *ctx, const char *path, char **out);

struct sbx_macos_paths
{
  sbx_path_resolver resolve; /* NULL: lexical clean-up and alias table only */
  void *ctx;                 /* passed to RESOLVE */
};

/* The host resolver: realpath(3).  CTX is unused.  */
int sbx_macos_realpath (void *ctx, const char *path, char **out);

/* Lexical clean-up of an absolute path: "//" and "." go, a trailing "/"
   goes.  ".." is refused rather than guessed at, because "a/link/.." is
   not "a" once the kernel follows the link.  */
int sbx_macos_path_normalise (const char *path, char **out,
                              struct sbx_error *err);

/* The macOS alias of PATH (/tmp/x -> /private/tmp/x), or a copy of PATH.  */
int sbx_macos_path_unalias (const char *path, char **out,
                            struct sbx_error *err);

/* PATH as a Seatbelt rule must name it.  PATHS may be NULL (no resolver). */
int sbx_macos_path_canonical (const struct sbx_macos_paths *paths,
                              const char *path, char **out,
                              struct sbx_error *err);

#endif
