/* The refusal of a build for a system with no sandbox sbx-oci can drive.  */
#include "runtime/platform_unavailable.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <string.h>

int
main (void)
{
  struct sbx_error err = { 0 };
  tap_ok (sbx_platform_unavailable ("windows", &err) == -ENOTSUP,
          "windows: -ENOTSUP");
  tap_ok (strcmp (err.msg,
                  "sandbox unavailable on this platform (windows): sbx-oci "
                  "confines with bubblewrap on Linux and Seatbelt on macOS")
              == 0,
          "windows: the one-line refusal, naming the system");
  struct sbx_error e2 = { 0 };
  sbx_platform_unavailable ("freebsd", &e2);
  tap_ok (strstr (e2.msg, "(freebsd)") != NULL, "freebsd is named");
  struct sbx_error e3 = { 0 };
  sbx_platform_unavailable ("", &e3);
  tap_ok (strstr (e3.msg, "(unknown)") != NULL, "an empty name reads unknown");
  tap_ok (strchr (e2.msg, '\n') == NULL, "one line");
  return tap_done ();
}
