#include "runtime/linux/pid_identity.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/pidfd.h"

struct stat_fields
{
  char state;               /* field 3 */
  pid_t ppid;               /* field 4 */
  unsigned long long start; /* field 22 */
};

/* The fields of /proc/PID/stat sbx-oci reads.  */
static bool
read_stat (pid_t pid, struct stat_fields *out)
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
        out->state = *p;
      if (field == 4)
        out->ppid = (pid_t) strtol (p, NULL, 10);
      if (field == 22)
        {
          out->start = strtoull (p, NULL, 10);
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
  struct stat_fields f;
  return read_stat (pid, &f) ? f.start : 0;
}

char
sbx_pid_state (pid_t pid)
{
  struct stat_fields f;
  return read_stat (pid, &f) ? f.state : 0;
}

char
sbx_pid_state_since (pid_t pid, unsigned long long start)
{
  struct stat_fields f;
  return read_stat (pid, &f) && f.start == start ? f.state : 0;
}

pid_t
sbx_pid_parent (pid_t pid)
{
  struct stat_fields f;
  return read_stat (pid, &f) ? f.ppid : -1;
}

bool
sbx_pid_alive_since (pid_t pid, unsigned long long start)
{
  char state = pid > 0 ? sbx_pid_state_since (pid, start) : 0;
  /* A zombie waiting for its subreaper has ended its work.  */
  return state != 0 && state != 'Z' && state != 'X';
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
