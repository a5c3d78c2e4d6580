/* Internal to the Seatbelt generator (sbpl*.c): the profile being written
   and the helpers every part of it uses.  */
#ifndef SBX_SBPL_EMIT_H
#define SBX_SBPL_EMIT_H

#include <stdio.h>

#include "common/strv.h"
#include "runtime/darwin/sbpl.h"

/* The write operations.  file-write-setugid and file-write-mode are not
   part of file-write* since macOS 12.3 (Homebrew/brew#13404): without
   them a chmod, or a chmod u+s, would pass every write deny.  Homebrew's
   sandbox.rb names all three in each write grant and deny.  */
#define SBPL_WRITE "file-write* file-write-setugid file-write-mode"

struct profile
{
  FILE *f;
  const struct sbx_plan *plan;
  const struct sbx_sbpl_host *host; /* never NULL inside the generator */
  struct sbx_error *err;
  size_t path_bytes;   /* the bytes of every path named so far */
  struct strv guarded; /* canonical paths whose ancestors may not move */
};

/* The canonical form of PATH (from plan entry INDEX; SIZE_MAX: from the
   host), in a malloc'd *OUT.  */
int sbpl_canonical (struct profile *pr, size_t index, const char *path,
                    char **out);

/* The clean, already canonical path CANON as a quoted SBPL string,
   counted against the profile's limits.  */
int sbpl_quote_path (struct profile *pr, size_t index, const char *canon,
                     char **out);

/* PATH canonicalised and quoted.  */
int sbpl_quoted (struct profile *pr, size_t index, const char *path,
                 char **out);

/* Whether CHILD lies strictly below PARENT (both clean, absolute).  */
bool sbpl_is_below (const char *child, const char *parent);

/* The rules before the plan's: LaunchServices, the blanket write deny,
   the devices, the per-user directories (sbpl_host.c).  */
int sbpl_emit_baseline (struct profile *pr);

/* macOS's own daemon sockets and tmux's, after the plan's entries.  */
int sbpl_emit_host_hides (struct profile *pr);

/* CANON's ancestors, up to "/", may not be renamed or removed: collected
   here, written once at the end by sbpl_emit_guards (sbpl_ancestors.c).  */
int sbpl_guard (struct profile *pr, const char *canon);
int sbpl_emit_guards (struct profile *pr);

/* The directories from CANON's parent up to and including TOP keep their
   metadata readable: CANON is a grant nested in the hidden TOP.  */
int sbpl_emit_ancestor_metadata (struct profile *pr, const char *canon,
                                 const char *top);

#endif
