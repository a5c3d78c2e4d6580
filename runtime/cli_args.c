/* Option values shared by several commands.  */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime/cli.h"

int
sbx_parse_number (const char *name, const char *arg, unsigned long long min,
                  unsigned long long max, unsigned long long *out,
                  struct sbx_error *err)
{
  /* strtoull alone would take " 7", "+7" and "-1" (as a huge number).  */
  char *end = NULL;
  errno = 0;
  unsigned long long n
      = arg[0] >= '0' && arg[0] <= '9' ? strtoull (arg, &end, 10) : 0;
  if (end == NULL || errno || *end != '\0' || n < min || n > max)
    return sbx_fail (err, -EINVAL,
                     "%s: expected a number from %llu to %llu, not \"%s\"",
                     name, min, max, arg);
  *out = n;
  return 0;
}

int
sbx_usage_result (int r, struct sbx_error *err)
{
  if (r < 0 && err->kind == SBX_ERROR_RUNTIME)
    err->kind = SBX_ERROR_USAGE;
  return r;
}

/* A descriptor of the range the caller left closed is taken by
   /dev/null now, before sbx-oci opens anything of its own: otherwise the
   next pipe or directory sbx-oci opens would land there and be passed
   into the sandbox as one of the caller's (the second review found a
   pipe of create's at the container's fd 3).  */
static int
hold_range (int n, struct sbx_error *err)
{
  for (int fd = 3; fd < 3 + n; fd++)
    {
      if (fcntl (fd, F_GETFD) >= 0 || errno != EBADF)
        continue;
      int null = open ("/dev/null", O_RDWR);
      if (null >= 0 && null != fd)
        {
          int r = dup2 (null, fd);
          close (null);
          null = r;
        }
      if (null < 0)
        return sbx_fail_errno (
            err, -errno, "--preserve-fds: cannot hold descriptor %d", fd);
    }
  return 0;
}

int
sbx_parse_preserve_fds (const char *arg, int *out, struct sbx_error *err)
{
  unsigned long long n;
  int r = sbx_parse_number ("--preserve-fds", arg, 0, 1024, &n, err);
  if (r == 0)
    *out = (int) n;
  return r ?: hold_range (*out, err);
}
