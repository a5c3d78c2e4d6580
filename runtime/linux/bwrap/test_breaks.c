/* The installed binary's answers to the test-only breaks: none.  Weak, so
   that only the never-installed sbx-oci-broken can replace them.  */
#include "runtime/linux/bwrap/test_breaks.h"

__attribute__ ((weak)) int
sbx_test_extra_mount_args (struct strv *argv)
{
  (void) argv;
  return 0;
}

__attribute__ ((weak)) bool
sbx_test_landlock_off (void)
{
  return false;
}
