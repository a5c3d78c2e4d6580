/* The system calls sbx-oci relies on that an older kernel lacks, asked of
 * the running kernel (one cheap call each):
 *
 *   pidfd_open (Linux 5.3)   every signal to a sandbox's processes goes
 *                            through a pidfd, so that a recycled pid is
 *                            never hit: without it kill and the limits
 *                            would miss them without a word
 *   openat2 (Linux 5.6)      bind sources are held beneath their root and
 *                            the command is looked up inside the sandbox's
 *                            root with RESOLVE_BENEATH / RESOLVE_IN_ROOT
 *   close_range (Linux 5.9)  descriptors are closed before exec; without
 *                            it, by a /proc/self/fd walk (the same result)
 *
 * sbx-oci refuses to run without the first two (sbx_kernel_require);
 * `check` names each call missing, and what is done instead.  */
#ifndef SBX_LINUX_KERNEL_CALLS_H
#define SBX_LINUX_KERNEL_CALLS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

struct sbx_kernel_calls
{
  bool pidfd_open;
  bool openat2;
  bool close_range;
};

void sbx_kernel_calls_probe (struct sbx_kernel_calls *k);

/* 0, or -ENOSYS with ERR naming the first call missing that sbx-oci
   cannot do without, e.g. "this kernel lacks pidfd_open (Linux 5.3): ...".  */
int sbx_kernel_require (struct sbx_error *err);

/* One line for `check` into BUF (LEN bytes): the calls missing and what
   that costs, or that none is.  */
void sbx_kernel_calls_describe (const struct sbx_kernel_calls *k, char *buf,
                                size_t len);

#endif
