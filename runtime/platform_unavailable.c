#include "runtime/platform_unavailable.h"

#include <errno.h>

int
sbx_platform_unavailable (const char *system, struct sbx_error *err)
{
  return sbx_fail (err, -ENOTSUP,
                   "sandbox unavailable on this platform (%s): sbx-oci "
                   "confines with bubblewrap on Linux and Seatbelt on macOS",
                   system && system[0] ? system : "unknown");
}
