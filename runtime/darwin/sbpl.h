/* The Seatbelt (SBPL) profile for a resolved plan: the macOS backend.
 *
 * The profile allows by default and takes away what the plan takes away:
 * LaunchServices and AppleEvents, a blanket write deny, the devices and
 * Apple's per-user temporary and cache directories, then the plan's grants
 * and denies in plan order (in SBPL the last matching rule wins, as the
 * last mount wins on Linux), macOS's own daemon sockets, and last the
 * ancestors of everything protected, which may not be renamed.  Generation
 * is pure: the host is an input (struct sbx_sbpl_host).  */
#ifndef SBX_SBPL_H
#define SBX_SBPL_H

#include <stdbool.h>

#include "common/error.h"
#include "runtime/darwin/macos_paths.h"
#include "policy/policy.h"

/* The longest path a profile names: macOS's MAXPATHLEN is 1024 bytes with
   the NUL, and the kernel resolves no longer path, so a rule naming one
   could never match (a deny that never matches fails open).  */
#define SBX_SBPL_PATH_MAX 1023

/* The most path bytes one profile names.  sandbox-exec refuses a profile
   whose compiled patterns exceed 65535 bytes ("pattern serialization
   length ... exceeds maximum (65535)", NixOS/nix#4119); the exact
   accounting is Apple's, so the bytes of the path strings themselves are
   held under it, which is the safe side.  */
#define SBX_SBPL_PATH_BYTES_MAX 65535

/* What the profile needs from the host besides the plan; every field may
   be empty (NULL, -1, false), as in the tests that fake them.  */
struct sbx_sbpl_host
{
  struct sbx_macos_paths paths; /* the resolver; .resolve NULL: none */
  const char *home;             /* the caller's home, or NULL */
  /* confstr(_CS_DARWIN_USER_TEMP_DIR) and _CS_DARWIN_USER_CACHE_DIR, as
     the Mac reports them at run time (/var/folders/XX/YYY/T/ and C/), or
     NULL.  */
  const char *user_temp_dir;
  const char *user_cache_dir;
  long uid; /* the caller's uid, for tmux's /private/tmp/tmux-UID; -1 */
  /* sbx.hardenedDefaults: hide macOS's container-engine sockets.  */
  bool hardened;
  /* sbx.allowLaunchServices (approved): no lsopen, appleevent-send and
     daemon-lookup denies.  */
  bool launch_services;
};

/* Write the profile for PLAN to a malloc'd string in *OUT.  Every path is
   canonicalised with HOST's resolver (HOST may be NULL) and quoted.  Fails
   with -ENOTSUP for what Seatbelt cannot express (a container with its
   own root, a bind whose source differs from its destination), and with
   -E2BIG for a path or a profile longer than Seatbelt accepts.  */
int sbx_sbpl_profile (const struct sbx_plan *plan,
                      const struct sbx_sbpl_host *host, char **out,
                      struct sbx_error *err);

/* S as an SBPL string literal, quotes included, in a malloc'd *OUT.
   '"' and '\' are escaped, newline, tab and carriage return become \n, \t,
   \r; any other control character is refused (-EINVAL): its escape is not
   the same in every Scheme reader, and a rule that names the wrong path
   fails open.  */
int sbx_sbpl_quote (const char *s, char **out, struct sbx_error *err);

#endif
