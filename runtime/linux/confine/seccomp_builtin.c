#include "runtime/linux/confine/seccomp_builtin.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

enum sbx_builtin_filter
sbx_agent_filter (enum sbx_filter_choice choice)
{
  return choice == SBX_FILTERS_AGENT_USERNS ? SBX_FILTER_AGENT_USERNS
                                            : SBX_FILTER_AGENT;
}

int
sbx_builtin_filter_fd (enum sbx_builtin_filter which, struct sbx_error *err)
{
  const struct sbx_bpf *f = &sbx_builtin_filters[which];
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    return sbx_fail_errno (err, -errno,
                           "cannot make a pipe for a seccomp program");
  /* A pipe holds 64 KiB and the programs are under 1 KiB: written whole
     now, nothing waits for the reader.  */
  ssize_t n = write (p[1], f->code, f->len);
  int e = errno;
  close (p[1]);
  if (n != (ssize_t) f->len)
    {
      close (p[0]);
      return sbx_fail_errno (err, n < 0 ? -e : -EIO,
                             "cannot write a seccomp program to its pipe");
    }
  return p[0];
}
