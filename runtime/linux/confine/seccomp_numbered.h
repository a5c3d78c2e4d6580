/* System calls newer than the oldest libseccomp sbx-oci builds with
 * (2.5.4, Debian 12), by number for each architecture.  libseccomp cannot
 * name them, nor even add a rule by their number (it translates a number
 * through its own table of names, and refuses one it cannot), so a filter
 * naming one would lose that rule: the compiler writes them instead as a
 * short program of its own, run before libseccomp's (seccomp.c).
 *
 * Since Linux 5.1 a new system call has one number on every architecture
 * sbx-oci builds for (x32 sets its bit 30 on top); the table gives that
 * number and sbx_syscall_number applies each architecture's rule.  */
#ifndef SBX_LINUX_SECCOMP_NUMBERED_H
#define SBX_LINUX_SECCOMP_NUMBERED_H

#include <stddef.h>
#include <stdint.h>

/* The number of system call NAME for the libseccomp architecture ARCH
   (SCMP_ARCH_*), or -1 when NAME is not in the table or ARCH has no
   number for it here.  */
long sbx_syscall_number (const char *name, uint32_t arch);

/* One rule of the prelude: NAME's calls get ACTION (SCMP_ACT_*).  */
struct sbx_numbered_rule
{
  const char *name;
  uint32_t action;
};

/* The most rules a prelude holds.  */
#define SBX_NUMBERED_RULES_MAX 64u

/* Write to FD the classic BPF instructions that give each of RULES (N of
   them) its action on every architecture in ARCHS (N_ARCHS libseccomp
   tokens, the filter's; at most SBX_NUMBERED_RULES_MAX), and fall through to
   what follows for any other call.  The caller appends libseccomp's program,
   which loads what it needs from the start.  Returns 0 or a negative errno. */
int sbx_numbered_prelude_write (int fd, const uint32_t *archs, size_t n_archs,
                                const struct sbx_numbered_rule *rules,
                                size_t n);

#endif
