/* The few system calls the Landlock helper makes, without libc where the
   architecture is known (x86_64, aarch64): the helper is exec'd once per
   sandbox, and a static binary with no libc start-up execs and exits in
   the time of a handful of system calls (tests/bench).  Elsewhere, libc's
   syscall(2) and its start-up stand in.  */
#ifndef SBX_LANDLOCK_SYS_H
#define SBX_LANDLOCK_SYS_H

#include <stddef.h>

#if defined(SBX_HELPER_NOLIBC) && defined(__x86_64__)
#define SBX_NR_OPENAT 257
#define SBX_NR_CLOSE 3
#define SBX_NR_WRITE 1
#define SBX_NR_EXECVE 59
#define SBX_NR_EXIT_GROUP 231
#define SBX_NR_PRCTL 157
#define SBX_O_NOFOLLOW 0400000
static inline long
sbx_sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
#elif defined(SBX_HELPER_NOLIBC) && defined(__aarch64__)
#define SBX_NR_OPENAT 56
#define SBX_NR_CLOSE 57
#define SBX_NR_WRITE 64
#define SBX_NR_EXECVE 221
#define SBX_NR_EXIT_GROUP 94
#define SBX_NR_PRCTL 167
#define SBX_O_NOFOLLOW 0100000
static inline long
sbx_sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  register long x8 __asm__("x8") = n;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc 0"
                   : "+r"(x0)
                   : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                   : "memory");
  return x0;
}
#elif defined(SBX_HELPER_NOLIBC)
#error "SBX_HELPER_NOLIBC: only x86_64 and aarch64 are known"
#else
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#define SBX_NR_OPENAT SYS_openat
#define SBX_NR_CLOSE SYS_close
#define SBX_NR_WRITE SYS_write
#define SBX_NR_EXECVE SYS_execve
#define SBX_NR_EXIT_GROUP SYS_exit_group
#define SBX_NR_PRCTL SYS_prctl
#define SBX_O_NOFOLLOW O_NOFOLLOW
/* The kernel's convention (-errno), as the raw calls above return.  */
static inline long
sbx_sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  long r = syscall (n, a, b, c, d, e, f);
  return r < 0 ? -errno : r;
}
#endif

#endif
