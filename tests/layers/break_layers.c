/* sbx-oci-broken's test-only breaks (runtime/linux/bwrap/test_breaks.h): the
   never-installed binary that proves each file-system layer holds alone.
   SBX_TEST_WRONG_BIND=DIR adds one writable bind of DIR onto itself after
   the plan's mounts, a mount-layer mistake the plan does not know of;
   SBX_TEST_NO_LANDLOCK=1 leaves the Landlock layer out.  */
#include <errno.h>
#include <stdlib.h>

#include "runtime/linux/bwrap/test_breaks.h"

int
sbx_test_extra_mount_args (struct strv *argv)
{
  const char *dir = getenv ("SBX_TEST_WRONG_BIND");
  if (dir == NULL || dir[0] != '/')
    return 0;
  if (strv_push (argv, "--bind") < 0 || strv_push (argv, dir) < 0
      || strv_push (argv, dir) < 0)
    return -ENOMEM;
  return 0;
}

bool
sbx_test_landlock_off (void)
{
  const char *v = getenv ("SBX_TEST_NO_LANDLOCK");
  return v != NULL && v[0] == '1';
}
