/* The user namespace of a container whose id maps are ranges
 * (policy/id_maps.c): made by sbx, mapped, and entered by the runner as
 * its uid 0 before bwrap starts.
 *
 * bwrap makes a user namespace only with the caller's own id in it, and
 * a process keeps its host ids when it enters a new one: root's uid 0,
 * unmapped in a range's namespace, could not even create bwrap's new
 * root there.  So the namespace is made here, by a short-lived holder, and
 * the runner takes a mapped identity in it before it execs bwrap.  */
#ifndef SBX_USERNS_MADE_H
#define SBX_USERNS_MADE_H

#include "common/error.h"

/* A new user namespace, child of ours, with UID_MAP and GID_MAP written
   (the text of /proc/PID/uid_map and gid_map): its descriptor
   (close-on-exec) in *FD.  Needs CAP_SETUID and CAP_SETGID here.  */
int sbx_userns_make (const char *uid_map, const char *gid_map, int *fd,
                     struct sbx_error *err);

/* Enter FD's user namespace as its uid 0 and gid 0, with no
   supplementary groups: then every capability there is ours, and bwrap,
   exec'd next, is root in it.  Raw system calls only (a child made with
   CLONE_VM may call it: glibc's set*id would signal the parent's
   threads).  0 or -errno.  */
int sbx_userns_enter (int fd);

#endif
