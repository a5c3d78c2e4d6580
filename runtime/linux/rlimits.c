/* setrlimit() for OCI process.rlimits, with errors that name the entry.  */
#include "runtime/linux/rlimits.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>

/* Why setrlimit() refused, in words a config author can act on.  */
static const char *
rlimit_hint (int code)
{
  switch (code)
    {
    case EPERM:
      return " (raising a hard limit needs CAP_SYS_RESOURCE)";
    case EINVAL:
      return " (unknown resource, or a value the kernel caps lower, such as "
             "RLIMIT_NOFILE above fs.nr_open)";
    default:
      return "";
    }
}

int
sbx_rlimits_apply (const struct sbx_rlimit *rl, size_t n,
                   struct sbx_error *err)
{
  for (size_t i = 0; i < n; i++)
    {
      const char *type = rl[i].type ? rl[i].type : "the limit";
      if (rl[i].soft > rl[i].hard)
        return sbx_fail (err, -EINVAL,
                         "process.rlimits[%zu]: %s soft limit %" PRIu64
                         " is above its hard limit %" PRIu64,
                         i, type, rl[i].soft, rl[i].hard);
      struct rlimit lim = { .rlim_cur = rl[i].soft, .rlim_max = rl[i].hard };
      if (setrlimit (rl[i].resource, &lim) < 0)
        {
          int code = errno;
          return sbx_fail (err, -code,
                           "process.rlimits[%zu]: cannot set %s to soft "
                           "%" PRIu64 ", hard %" PRIu64 ": %s%s",
                           i, type, rl[i].soft, rl[i].hard, strerror (code),
                           rlimit_hint (code));
        }
    }
  return 0;
}
