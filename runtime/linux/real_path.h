/* Where a path leads, every link followed, as the kernel resolves it:
   read from a descriptor of it (/proc/self/fd), not computed by the C
   library's realpath, which gives up where links expand past PATH_MAX
   though the kernel follows them (musl's does).  */
#ifndef SBX_REAL_PATH_H
#define SBX_REAL_PATH_H

#include <stddef.h>

/* The path the kernel gives descriptor FD (/proc/self/fd/FD) into BUF
   (SIZE bytes): 0, or a negative errno.  Taken as is: see below.  */
int sbx_fd_path (int fd, char *buf, size_t size);

/* PATH's real path into BUF (SIZE bytes): 0, or a negative errno
   (-ENOENT: nothing there; -EXDEV: PATH leads to something no path from
   here names: in another mount namespace, deleted, a namespace file).  */
int sbx_real_path (const char *path, char *buf, size_t size);

#endif
