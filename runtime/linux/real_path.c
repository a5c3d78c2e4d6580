#include "runtime/linux/real_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "common/cleanup.h"

int
sbx_real_path (const char *path, char *buf, size_t size)
{
  cleanup_close int fd = open (path, O_PATH | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  char link[64];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (link, buf, size - 1);
  if (n < 0)
    return -errno;
  if ((size_t) n >= size - 1)
    return -ENAMETOOLONG;
  buf[n] = '\0';
  return 0;
}
