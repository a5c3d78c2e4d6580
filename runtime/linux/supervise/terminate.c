#include "runtime/linux/supervise/terminate.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/linux/container/ns_procs.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/supervise/tree_kill.h"

int
sbx_wait_gone (int pidfd, int wait_ms)
{
  struct pollfd p = { .fd = pidfd, .events = POLLIN };
  int r;
  do
    r = poll (&p, 1, wait_ms);
  while (r < 0 && errno == EINTR);
  if (r < 0)
    return -errno;
  return r == 0 ? -ETIMEDOUT : 0;
}

/* The pid PIDFD names now (its fdinfo), or -1 once it has ended.  */
static pid_t
pidfd_pid (int pidfd)
{
  char path[64], line[128];
  snprintf (path, sizeof path, "/proc/self/fdinfo/%d", pidfd);
  FILE *f = fopen (path, "re");
  pid_t pid = -1;
  while (f && fgets (line, sizeof line, f))
    if (strncmp (line, "Pid:", 4) == 0)
      {
        pid = (pid_t) atoi (line + 4);
        break;
      }
  if (f)
    fclose (f);
  return pid;
}

/* Without a pid namespace or a cgroup, what left the tree (a daemon) is
   found in the sandbox's mount namespace NS: SIGKILLed until a scan finds
   none (one may fork between a scan and its kill).  */
static void
end_mount_ns (const struct stat *ns)
{
  pid_t *pids;
  size_t n;
  for (int round = 0;
       round < 20 && sbx_mount_ns_pids (ns, &pids, &n) == 0 && n > 0; round++)
    {
      for (size_t i = 0; i < n; i++)
        {
          int fd = sbx_pidfd_open (pids[i]);
          if (fd >= 0 && sbx_pidfd_signal (fd, SIGKILL) == 0)
            sbx_wait_gone (fd, 1000);
          if (fd >= 0)
            close (fd);
        }
      free (pids);
    }
}

int
sbx_terminate (int pidfd, struct sbx_cgroup *cg, int wait_ms,
               struct sbx_error *err)
{
  /* A first process that is no namespace's init takes nothing with it,
     and what outlives it is re-parented out of its tree (to the host's
     reaper, or the init of the namespace it joined): its tree is ended
     with it.  */
  pid_t pid = pidfd_pid (pidfd);
  bool init = pid > 0 && sbx_pid_is_ns_init (pid);
  struct stat mnt;
  bool strays = pid > 0 && !init && !cg && sbx_sandbox_mount_ns (pid, &mnt);
  if (pid > 0 && !init)
    sbx_tree_kill_held (pid, pidfd);
  if (sbx_pidfd_signal (pidfd, SIGKILL) < 0 && errno != ESRCH)
    return sbx_fail_errno (err, -errno, "cannot kill the sandbox's pid 1");
  if (strays)
    end_mount_ns (&mnt);
  /* The namespace is going; the cgroup sweep catches what is outside it
     and needs no wait for the namespace first.  */
  if (cg)
    {
      int r = sbx_cgroup_kill (cg, SIGKILL, err);
      if (r < 0)
        return r;
    }
  if (wait_ms <= 0)
    return 0;
  int r = sbx_wait_gone (pidfd, wait_ms);
  if (r == -ETIMEDOUT)
    return sbx_fail (err, r, "the sandbox survived SIGKILL for %d ms",
                     wait_ms);
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot wait for the sandbox to end");
  return 0;
}
