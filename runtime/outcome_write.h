/* Where `run` writes its outcome: a file (--outcome FILE, replaced
   atomically) or a descriptor of the caller's (--outcome-fd N), never
   the command's own stdout or stderr.  Checked before the sandbox runs,
   so a verdict that cannot be written is found out before the command
   ran, not after.  */
#ifndef SBX_OUTCOME_WRITE_H
#define SBX_OUTCOME_WRITE_H

#include "common/error.h"
#include "common/file_io.h"
#include "runtime/outcome.h"

struct sbx_outcome_dest
{
  const char *path;          /* --outcome FILE */
  int fd;                    /* --outcome-fd N; -1: none */
  struct sbx_file_dest file; /* PATH's directory, opened by the check */
};

/* The option's values, as parsed: refuses "-" (stdout is the command's),
   a descriptor 0 to 2, one that is not open, or one that --preserve-fds
   would hand to the sandbox; opens FILE's directory.  */
int sbx_outcome_dest_check (struct sbx_outcome_dest *d, int preserve_fds,
                            struct sbx_error *err);

void sbx_outcome_dest_close (struct sbx_outcome_dest *d);

/* Write the outcome (one JSON object and a newline) where D says.  */
int sbx_outcome_write (const struct sbx_outcome_dest *d,
                       const struct sbx_outcome *o,
                       const struct sbx_plan *plan, struct sbx_error *err);

#endif
