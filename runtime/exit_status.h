/* sbx-oci's exit statuses: the one table (docs/exit-status.md is written
   from it, and tests/integration/exit_status.sh checks every row).
 *
 * `run` and `exec` exit with the command's own status, and 128+N when it
 * died of signal N, so sbx-oci's own statuses sit where shells and podman
 * put theirs: 126 and 127 for a command that cannot be executed or found,
 * 125 for a failure of sbx-oci itself, and below it the three a caller
 * most needs told apart from that: a refused config is the caller's to
 * change, a failure may pass.  Every command uses the same numbers, so
 * a caller learns one table.  A command's own 122 to 127 can only be told
 * from these by the outcome (`run --outcome-fd`), which says which it was. */
#ifndef SBX_EXIT_STATUS_H
#define SBX_EXIT_STATUS_H

#include "common/error.h"

enum sbx_exit_status
{
  SBX_EXIT_OK = 0,               /* done (`run`/`exec`: the command's own) */
  SBX_EXIT_REFUSED = 121,        /* the config was refused: nothing ran */
  SBX_EXIT_USAGE = 122,          /* the command line is wrong: nothing ran */
  SBX_EXIT_NO_CONTAINER = 123,   /* the container id names no container */
  SBX_EXIT_FAILURE = 125,        /* the runtime failed: the command never
                                    ran */
  SBX_EXIT_NOT_EXECUTABLE = 126, /* the command exists but cannot run */
  SBX_EXIT_NOT_FOUND = 127,      /* the command does not exist */
};

/* The status for a filled ERR.  */
int sbx_exit_status_of (const struct sbx_error *err);

#endif
