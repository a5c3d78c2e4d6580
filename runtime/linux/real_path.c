#include "runtime/linux/real_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"

int
sbx_fd_path (int fd, char *buf, size_t size)
{
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

int
sbx_real_path (const char *path, char *buf, size_t size)
{
  cleanup_close int fd = open (path, O_PATH | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  int r = sbx_fd_path (fd, buf, size);
  if (r < 0)
    return r;
  /* The text names the object only where it is reachable by that name
     from here: not one of another mount namespace's (reached through
     /proc/PID/root: the text is that namespace's path, which here may be
     another file), a deleted one (" (deleted)"), a memfd, a namespace
     file.  The name must lead back to the same object.  */
  struct stat held, named;
  if (buf[0] != '/' || fstat (fd, &held) < 0 || stat (buf, &named) < 0
      || held.st_dev != named.st_dev || held.st_ino != named.st_ino)
    return -EXDEV;
  return 0;
}
