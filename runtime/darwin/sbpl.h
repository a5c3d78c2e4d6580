/* The Seatbelt (SBPL) profile for a resolved plan: the macOS backend.
 *
 * The profile allows by default and takes away what the plan takes away:
 * a blanket write deny, then the plan's grants and denies in plan order
 * (in SBPL the last matching rule wins, as the last mount wins on Linux),
 * the hardened defaults, and the network level.  Generation is pure: the
 * only host access is the path resolver in PATHS.  */
#ifndef SBX_SBPL_H
#define SBX_SBPL_H

#include "common/error.h"
#include "runtime/darwin/macos_paths.h"
#include "spec/policy.h"

/* Write the profile for PLAN to a malloc'd string in *OUT.  Every path is
   canonicalised with PATHS (may be NULL) and quoted.  Fails with -ENOTSUP
   for what Seatbelt cannot express (a container with its own root, a bind
   whose source differs from its destination).  */
int sbx_sbpl_profile (const struct sbx_plan *plan,
                      const struct sbx_macos_paths *paths, char **out,
                      struct sbx_error *err);

/* S as an SBPL string literal, quotes included, in a malloc'd *OUT.
   '"' and '\' are escaped, newline, tab and carriage return become \n, \t,
   \r; any other control character is refused (-EINVAL): its escape is not
   the same in every Scheme reader, and a rule that names the wrong path
   fails open.  */
int sbx_sbpl_quote (const char *s, char **out, struct sbx_error *err);

#endif
