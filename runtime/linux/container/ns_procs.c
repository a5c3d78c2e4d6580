#include "runtime/linux/container/ns_procs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static int
pidns_of (pid_t pid, struct stat *st)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/ns/pid", (int) pid);
  return stat (path, st) < 0 ? -errno : 0;
}

static int
cmp_pid (const void *a, const void *b)
{
  pid_t x = *(const pid_t *) a, y = *(const pid_t *) b;
  return (x > y) - (x < y);
}

int
sbx_ns_pids (pid_t pid1, pid_t **pids, size_t *n)
{
  struct stat want, st;
  *pids = NULL;
  *n = 0;
  if (pidns_of (pid1, &want) < 0)
    return -ESRCH;
  DIR *d = opendir ("/proc");
  if (d == NULL)
    return -errno;
  size_t cap = 0;
  struct dirent *e;
  int r = 0;
  while (r == 0 && (e = readdir (d)) != NULL)
    {
      char *end;
      long pid = strtol (e->d_name, &end, 10);
      if (*end != '\0' || pid <= 0 || pidns_of ((pid_t) pid, &st) < 0
          || st.st_ino != want.st_ino || st.st_dev != want.st_dev)
        continue;
      if (*n == cap)
        {
          cap = cap ? cap * 2 : 16;
          pid_t *grown = realloc (*pids, cap * sizeof **pids);
          if (grown == NULL)
            {
              r = -ENOMEM;
              break;
            }
          *pids = grown;
        }
      (*pids)[(*n)++] = (pid_t) pid;
    }
  closedir (d);
  if (r < 0)
    {
      free (*pids);
      *pids = NULL;
      *n = 0;
      return r;
    }
  qsort (*pids, *n, sizeof **pids, cmp_pid);
  return 0;
}
