/* Whether this process is the host's root.  */
#ifndef SBX_HOST_ROOT_H
#define SBX_HOST_ROOT_H

#include <stdbool.h>

/* euid 0 in the initial user namespace: a uid 0 elsewhere (rootless
   podman runs its runtime as one) holds no capability of the host's and
   owns none of its files.  Where the system has no user namespaces (no
   /proc/self/uid_map: macOS, a kernel without them), euid 0.  */
bool sbx_host_root (void);

#endif
