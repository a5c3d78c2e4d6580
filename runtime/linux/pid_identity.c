#include "runtime/linux/pid_identity.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/pidfd.h"

/* The process state letter (field 3) and start time (field 22) of PID. */
static bool
read_stat (pid_t pid, char *state, unsigned long long *start)
{
  char path[64], buf[1024];
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  if (n <= 0)
    return false;
  buf[n] = '\0';
  /* comm may hold spaces and parentheses: count from the last ')'.  */
  char *p = strrchr (buf, ')');
  if (p == NULL)
    return false;
  p++;
  for (int field = 3; field <= 22; field++)
    {
      while (*p == ' ')
        p++;
      if (field == 3)
        *state = *p;
      if (field == 22)
        {
          *start = strtoull (p, NULL, 10);
          return true;
        }
      p = strchr (p, ' ');
      if (p == NULL)
        return false;
    }
  return false;
}

unsigned long long
sbx_pid_start_time (pid_t pid)
{
  char state;
  unsigned long long start;
  return read_stat (pid, &state, &start) ? start : 0;
}

bool
sbx_pid_alive_since (pid_t pid, unsigned long long start)
{
  char state;
  unsigned long long now;
  if (pid <= 0 || !read_stat (pid, &state, &now))
    return false;
  /* A zombie waiting for its subreaper has ended its work.  */
  return state != 'Z' && state != 'X' && now == start;
}

void
sbx_stop_pid (pid_t pid, unsigned long long start)
{
  int fd = sbx_pidfd_open (pid);
  if (fd < 0)
    return;
  if (sbx_pid_alive_since (pid, start))
    sbx_pidfd_signal (fd, SIGKILL);
  close (fd);
}
