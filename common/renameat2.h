/* renameat2(2) through syscall(2): musl has no wrapper for it, and
   <linux/fs.h>, which names its flags, clashes with glibc's
   <sys/mount.h>.  */
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static inline int
sbx_renameat2 (int olddirfd, const char *oldpath, int newdirfd,
               const char *newpath, unsigned int flags)
{
  return (int) syscall (SYS_renameat2, olddirfd, oldpath, newdirfd, newpath,
                        flags);
}
