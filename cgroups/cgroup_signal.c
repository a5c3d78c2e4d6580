/* Signal the members of a cgroup without ever hitting a recycled pid.

   A pid read from cgroup.procs may die and be reused before it is
   signalled.  So: list the pids, open a pidfd for each, list again, and
   signal through the pidfd only those still listed.  If the pidfd's
   process is alive when signalled, it was alive at the second listing,
   so the listed number was that very process.  */
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"
#include "common/pid_list.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int
pidfd_open_pid (pid_t pid)
{
  return (int) syscall (SYS_pidfd_open, pid, 0);
}

static int
pidfd_signal (int pidfd, int sig)
{
  return (int) syscall (SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

static void
close_all (int *fds, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

int
cgfs_signal_members (const char *dir, int sig, size_t *sent)
{
  cleanup_free pid_t *first = NULL, *second = NULL;
  size_t n_first = 0, n_second = 0;
  *sent = 0;
  int r = cgfs_list_pids (dir, true, &first, &n_first);
  if (r < 0 || n_first == 0)
    return r;
  cleanup_free int *fds = malloc (n_first * sizeof *fds);
  if (fds == NULL)
    return -ENOMEM;
  for (size_t i = 0; i < n_first; i++)
    fds[i] = pidfd_open_pid (first[i]); /* -1: already gone */
  r = cgfs_list_pids (dir, true, &second, &n_second);
  for (size_t i = 0; r == 0 && i < n_first; i++)
    {
      if (fds[i] < 0 || !sbx_pid_listed (second, n_second, first[i]))
        continue;
      if (pidfd_signal (fds[i], sig) == 0)
        (*sent)++;
      else if (errno != ESRCH)
        r = -errno;
    }
  close_all (fds, n_first);
  return r;
}

int
cgfs_signal_unfrozen (const char *dir, int sig)
{
  /* Without a freezer a member may fork between listing and signalling.
     For SIGKILL, sweep again until nothing is left (bounded: a process
     stuck in the kernel can outlive every sweep); any other signal is
     sent once, as a process group signal would be.  */
  size_t sent = 0;
  int r = cgfs_signal_members (dir, sig, &sent);
  for (int round = 0; r == 0 && sig == SIGKILL && round < 50; round++)
    {
      if (cgfs_wait_empty (dir, 20))
        break;
      r = cgfs_signal_members (dir, sig, &sent);
    }
  return r;
}
