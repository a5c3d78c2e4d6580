/* Whether this process is root: the host's, or its user namespace's.  */
#ifndef SBX_HOST_ROOT_H
#define SBX_HOST_ROOT_H

#include <stdbool.h>
#include <stdint.h>

/* euid 0 in the initial user namespace: a uid 0 elsewhere (rootless
   podman runs its runtime as one) holds no capability of the host's and
   owns none of its files.  Where the system has no user namespaces (no
   /proc/self/uid_map: macOS, a kernel without them), euid 0.  */
bool sbx_host_root (void);

/* euid 0 of a user namespace that is not the initial one, holding
   CAP_SYS_ADMIN there, allowed to set groups, and mapping more ids than
   its own: rootless podman's runtime, whose namespace newuidmap gave the
   caller's subordinate ids.  Such a root runs a container as crun does
   there: in that namespace, as process.user, which its map makes the
   host ids the operator was given.  `unshare -r` (one id, setgroups
   denied) is not one: it has no other id to give a workload.  */
bool sbx_namespace_root (void);

/* Either: root of the user namespace sbx-oci runs in, whose launches
   make their namespaces without a user namespace of their own.  */
bool sbx_runs_as_root (void);

/* Whether this process is in the initial user namespace (it sees the
   whole uid range, "0 0 4294967295"; or there are no user namespaces).  */
bool sbx_initial_user_namespace (void);

/* The id of this user namespace that is id 0 of its parent's, from
   /proc/self/MAP_NAME ("uid_map" or "gid_map"): 0 in the initial one,
   -1 when no id of this namespace is.  One level up is as far as /proc
   shows: in a namespace nested deeper, any id may be the host's root
   (the parent may map its own from the host's 0).  */
int64_t sbx_parent_root_id (const char *map_name);

#endif
