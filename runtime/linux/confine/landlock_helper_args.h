/* What the Landlock helper reads from -a FD (landlock_helper.c): sbx-oci
   starts bwrap with -a only for arguments within these (prestart.c).  */
#ifndef SBX_LANDLOCK_HELPER_ARGS_H
#define SBX_LANDLOCK_HELPER_ARGS_H

#define SBX_HELPER_ARGS_MAX_BYTES (1 << 20)
#define SBX_HELPER_ARGS_MAX (1 << 15)

#endif
