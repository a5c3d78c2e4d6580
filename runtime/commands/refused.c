/* The container lifecycle where the backend cannot offer it (runtime/
   backend.h): on macOS, where Seatbelt has no pid namespace to hold a
   created sandbox, and on systems with no sandbox at all.  Each command
   is refused in one line that names what to use instead; the Linux build
   has the real commands in their place.  */
#include "runtime/backend.h"
#include "runtime/cli.h"

#define REFUSED_COMMAND(fn)                                                   \
  int fn (struct sbx_context *g, int argc, char **argv,                       \
          struct sbx_error *err)                                              \
  {                                                                           \
    (void) g, (void) argc;                                                    \
    return sbx_backend_refuse (argv[0], err);                                 \
  }

REFUSED_COMMAND (sbx_cmd_create)
REFUSED_COMMAND (sbx_cmd_start)
REFUSED_COMMAND (sbx_cmd_exec)
REFUSED_COMMAND (sbx_cmd_state)
REFUSED_COMMAND (sbx_cmd_kill)
REFUSED_COMMAND (sbx_cmd_delete)
REFUSED_COMMAND (sbx_cmd_list)
REFUSED_COMMAND (sbx_cmd_ps)
REFUSED_COMMAND (sbx_cmd_check)
REFUSED_COMMAND (sbx_cmd_features)
REFUSED_COMMAND (sbx_cmd_limits_watcher)
