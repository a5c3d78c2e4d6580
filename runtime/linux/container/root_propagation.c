#include "runtime/linux/container/root_propagation.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/pid_identity.h"

static unsigned long
propagation_flags (struct sbx_propagation p)
{
  static const unsigned long flags[] = {
    [SBX_PROPAGATION_KEEP] = 0,
    [SBX_PROPAGATION_SHARED] = MS_SHARED,
    [SBX_PROPAGATION_PRIVATE] = MS_PRIVATE,
    [SBX_PROPAGATION_UNBINDABLE] = MS_UNBINDABLE,
  };
  unsigned long f = flags[p.kind];
  return f && p.recursive ? f | MS_REC : f;
}

int
sbx_root_propagation_set (pid_t pid, pid_t runner, const struct sbx_plan *plan,
                          struct sbx_error *err)
{
  unsigned long flags = propagation_flags (plan->root_propagation);
  if (flags == 0)
    return 0;
  /* A pidfd, then the pid checked to be still bwrap's child: from here
     the namespace joined is that process's, whatever becomes of the
     pid.  */
  cleanup_close int pidfd = (int) syscall (SYS_pidfd_open, pid, 0);
  int e = pidfd < 0 ? errno : sbx_pid_parent (pid) != runner ? ESRCH : 0;
  if (e != 0)
    return sbx_fail_errno (err, -e,
                           "linux.rootfsPropagation: the sandbox's process "
                           "%d is gone",
                           (int) pid);
  /* In a child: joining a mount namespace changes the joiner's root.  */
  pid_t child = fork ();
  if (child < 0)
    return sbx_fail_errno (err, -errno, "linux.rootfsPropagation: fork");
  if (child == 0)
    {
      e = 0;
      if (setns (pidfd, CLONE_NEWNS) < 0
          || mount (NULL, "/", NULL, flags, NULL) < 0)
        e = errno;
      _exit (e);
    }
  int status;
  while (waitpid (child, &status, 0) < 0)
    if (errno != EINTR)
      return sbx_fail_errno (err, -errno, "linux.rootfsPropagation: wait");
  e = WIFEXITED (status) ? WEXITSTATUS (status) : ECHILD;
  if (e != 0)
    return sbx_fail_errno (err, -e,
                           "linux.rootfsPropagation: cannot set it on the "
                           "sandbox's /");
  return 0;
}
