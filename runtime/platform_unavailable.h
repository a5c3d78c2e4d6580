/* On a system with neither bubblewrap nor Seatbelt, sbx-oci has nothing to
   confine a command with, and it never runs one unconfined.  */
#ifndef SBX_PLATFORM_UNAVAILABLE_H
#define SBX_PLATFORM_UNAVAILABLE_H

#include "common/error.h"

/* Fill ERR with the refusal for SYSTEM (meson's host_machine.system(),
   e.g. "windows") and return -ENOTSUP.  */
int sbx_platform_unavailable (const char *system, struct sbx_error *err);

#endif
