/* Option values shared by several commands.  */
#include <errno.h>
#include <stdlib.h>

#include "runtime/cli.h"

int
sbx_parse_preserve_fds (const char *arg, int *out, struct sbx_error *err)
{
  char *end = NULL;
  errno = 0;
  long n = strtol (arg, &end, 10);
  if (errno || end == arg || *end != '\0' || n < 0 || n > 1024)
    return sbx_fail (err, -EINVAL,
                     "--preserve-fds: expected a number from 0 to 1024, not "
                     "\"%s\"",
                     arg);
  *out = (int) n;
  return 0;
}
