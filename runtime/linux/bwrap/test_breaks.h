/* Test-only breaks of one layer, to show that the other holds alone.
   The installed sbx-oci has the harmless defaults (test_breaks.c); only
   sbx-oci-broken, built with -Dtest_layer_breaks=true and never
   installed, links tests/layers/break_layers.c over them.  */
#ifndef SBX_TEST_BREAKS_H
#define SBX_TEST_BREAKS_H

#include <stdbool.h>

#include "common/strv.h"

/* Mount arguments added after the plan's: in sbx-oci-broken, one wrong
   writable bind ($SBX_TEST_WRONG_BIND), a mistake of the mount layer that
   the plan (and so the Landlock layer) knows nothing of.  Default: none.
   Returns 0 or -ENOMEM.  */
int sbx_test_extra_mount_args (struct strv *argv);

/* Whether to leave the Landlock layer out ($SBX_TEST_NO_LANDLOCK in
   sbx-oci-broken).  Default: never.  */
bool sbx_test_landlock_off (void);

#endif
