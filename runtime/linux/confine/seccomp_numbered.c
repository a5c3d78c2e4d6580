#include "runtime/linux/confine/seccomp_numbered.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

/* x32 system calls reach the kernel as x86-64 ones with this bit set.  */
#define X32_SYSCALL_BIT 0x40000000u

/* Only what a built-in filter refuses, or a profile of the field is known
   to name.  Add a call here when libseccomp 2.5.4 does not resolve it
   (`scmp_sys_resolver NAME` prints -1) and a filter needs it.  */
static const struct
{
  const char *name;
  long nr; /* the one number since Linux 5.1 */
} numbered[] = {
  { "open_tree_attr", 467 }, /* Linux 6.15: open_tree with mount_setattr */
};

/* The architecture the kernel reports for ARCH's calls (struct
   seccomp_data.arch), and the bits its numbers carry; false for an
   architecture whose numbers differ (mips, ...): no rule there.  */
static bool
arch_numbering (uint32_t arch, uint32_t *audit_arch, uint32_t *bits)
{
  *bits = 0;
  switch (arch)
    {
    case SCMP_ARCH_X86_64:
    case SCMP_ARCH_X86:
    case SCMP_ARCH_AARCH64:
    case SCMP_ARCH_ARM:
      *audit_arch = arch;
      return true;
    case SCMP_ARCH_X32:
      *audit_arch = AUDIT_ARCH_X86_64;
      *bits = X32_SYSCALL_BIT;
      return true;
    default:
      return false;
    }
}

long
sbx_syscall_number (const char *name, uint32_t arch)
{
  uint32_t audit_arch, bits;
  if (!arch_numbering (arch, &audit_arch, &bits))
    return -1;
  for (size_t i = 0; i < sizeof numbered / sizeof *numbered; i++)
    if (strcmp (numbered[i].name, name) == 0)
      return numbered[i].nr | (long) bits;
  return -1;
}

#define NR_OFFSET offsetof (struct seccomp_data, nr)
#define ARCH_OFFSET offsetof (struct seccomp_data, arch)

int
sbx_numbered_prelude_write (int fd, const uint32_t *archs, size_t n_archs,
                            const struct sbx_numbered_rule *rules, size_t n)
{
  if (n > SBX_NUMBERED_RULES_MAX)
    return -E2BIG;
  for (size_t a = 0; a < n_archs; a++)
    {
      uint32_t audit_arch, bits;
      if (!arch_numbering (archs[a], &audit_arch, &bits))
        continue;
      /* Load and test the architecture, load the number, two
         instructions per rule.  */
      struct sock_filter block[3 + 2 * SBX_NUMBERED_RULES_MAX];
      size_t k = 0;
      block[k++] = (struct sock_filter) BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                                                  ARCH_OFFSET);
      size_t jump_at = k++; /* set once the block's length is known */
      block[k++] = (struct sock_filter) BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                                                  NR_OFFSET);
      for (size_t i = 0; i < n; i++)
        {
          long nr = sbx_syscall_number (rules[i].name, archs[a]);
          if (nr < 0)
            continue;
          /* Equal: the next instruction returns; else skip it.  */
          block[k++] = (struct sock_filter) BPF_JUMP (
              BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) nr, 0, 1);
          block[k++] = (struct sock_filter) BPF_STMT (BPF_RET | BPF_K,
                                                      rules[i].action);
        }
      /* Another architecture: on to the next block.  */
      block[jump_at] = (struct sock_filter) BPF_JUMP (
          BPF_JMP | BPF_JEQ | BPF_K, audit_arch, 0,
          (uint8_t) (k - jump_at - 1));
      ssize_t len = (ssize_t) (k * sizeof *block);
      if (write (fd, block, (size_t) len) != len)
        return -EIO;
    }
  return 0;
}
