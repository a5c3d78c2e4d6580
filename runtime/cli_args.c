/* Option values shared by several commands.  */
#include <errno.h>
#include <stdlib.h>

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

int
sbx_parse_preserve_fds (const char *arg, int *out, struct sbx_error *err)
{
  unsigned long long n;
  int r = sbx_parse_number ("--preserve-fds", arg, 0, 1024, &n, err);
  if (r == 0)
    *out = (int) n;
  return r;
}
