#include "runtime/linux/confine/fd_scrub.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static int
close_by_walk (int first)
{
  DIR *d = opendir ("/proc/self/fd");
  if (d == NULL)
    return -errno;
  int self = dirfd (d);
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      char *end;
      long fd = strtol (e->d_name, &end, 10);
      if (*end == '\0' && end != e->d_name && fd >= first && fd != self)
        close ((int) fd);
    }
  closedir (d);
  return 0;
}

int
sbx_close_fds_from (int first)
{
  if (syscall (SYS_close_range, (unsigned) first, ~0U, 0) == 0)
    return 0;
  return close_by_walk (first);
}
