#include "runtime/linux/supervise/detach.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

int
sbx_fork_detached (void (*body) (const void *arg), const void *arg, pid_t *pid)
{
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    return -errno;
  pid_t mid = fork ();
  if (mid < 0)
    {
      int e = errno;
      close (p[0]);
      close (p[1]);
      return -e;
    }
  if (mid == 0)
    {
      close (p[0]);
      setsid ();
      pid_t w = fork ();
      if (w == 0)
        {
          body (arg);
          _exit (127);
        }
      _exit (write (p[1], &w, sizeof w) == sizeof w && w > 0 ? 0 : 1);
    }
  close (p[1]);
  pid_t w = 0;
  ssize_t n = read (p[0], &w, sizeof w);
  close (p[0]);
  int status = 0;
  while (waitpid (mid, &status, 0) < 0 && errno == EINTR)
    ;
  if (n != sizeof w || w <= 0 || status != 0)
    return -ECHILD;
  *pid = w;
  return 0;
}
