/* The few system calls the Landlock helper makes, without libc where the
   architecture is known (x86_64, aarch64): the helper is exec'd once per
   sandbox, and a static binary with no libc start-up execs and exits in
   the time of a handful of system calls (tests/bench).  Elsewhere, libc's
   syscall(2) and its start-up stand in.  */
#ifndef SBX_LANDLOCK_SYS_H
#define SBX_LANDLOCK_SYS_H

#include <stddef.h>

#include "runtime/linux/raw_syscall.h"

#if defined(SBX_HELPER_NOLIBC) && defined(__x86_64__)
#define SBX_NR_OPENAT 257
#define SBX_NR_CLOSE 3
#define SBX_NR_READ 0
#define SBX_NR_MMAP 9
#define SBX_NR_WRITE 1
#define SBX_NR_EXECVE 59
#define SBX_NR_EXIT_GROUP 231
#define SBX_NR_PRCTL 157
#define SBX_NR_STATX 332
#define SBX_NR_FSTATFS 138
#define SBX_O_NOFOLLOW 0400000
#define SBX_O_DIRECTORY 0200000
#define sbx_sys6 sbx_raw_syscall6
#elif defined(SBX_HELPER_NOLIBC) && defined(__aarch64__)
#define SBX_NR_OPENAT 56
#define SBX_NR_CLOSE 57
#define SBX_NR_READ 63
#define SBX_NR_MMAP 222
#define SBX_NR_WRITE 64
#define SBX_NR_EXECVE 221
#define SBX_NR_EXIT_GROUP 94
#define SBX_NR_PRCTL 167
#define SBX_NR_STATX 291
#define SBX_NR_FSTATFS 44
#define SBX_O_NOFOLLOW 0100000
#define SBX_O_DIRECTORY 040000
#define sbx_sys6 sbx_raw_syscall6
#elif defined(SBX_HELPER_NOLIBC)
#error "SBX_HELPER_NOLIBC: only x86_64 and aarch64 are known"
#else
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#define SBX_NR_OPENAT SYS_openat
#define SBX_NR_CLOSE SYS_close
#define SBX_NR_READ SYS_read
#define SBX_NR_MMAP SYS_mmap
#define SBX_NR_WRITE SYS_write
#define SBX_NR_EXECVE SYS_execve
#define SBX_NR_EXIT_GROUP SYS_exit_group
#define SBX_NR_PRCTL SYS_prctl
#define SBX_NR_STATX SYS_statx
#define SBX_NR_FSTATFS SYS_fstatfs
#define SBX_O_NOFOLLOW O_NOFOLLOW
#define SBX_O_DIRECTORY O_DIRECTORY
/* The kernel's convention (-errno), as the raw calls above return.  */
static inline long
sbx_sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  long r = syscall (n, a, b, c, d, e, f);
  return r < 0 ? -errno : r;
}
#endif

#endif
