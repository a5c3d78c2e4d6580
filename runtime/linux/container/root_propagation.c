#include "runtime/linux/container/root_propagation.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"

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

bool
sbx_root_propagation_wanted (const struct sbx_plan *plan)
{
  return propagation_flags (plan->root_propagation) != 0;
}

int
sbx_root_propagation_set (pid_t pid, const struct sbx_plan *plan,
                          struct sbx_error *err)
{
  unsigned long flags = propagation_flags (plan->root_propagation);
  if (flags == 0)
    return 0;
  /* A pidfd: the namespace of that process, not of a later one with its
     pid.  */
  cleanup_close int pidfd = (int) syscall (SYS_pidfd_open, pid, 0);
  if (pidfd < 0)
    return sbx_fail_errno (err, -errno,
                           "linux.rootfsPropagation: cannot open the "
                           "sandbox's process %d",
                           (int) pid);
  /* In a child: joining a mount namespace changes the joiner's root.  */
  pid_t child = fork ();
  if (child < 0)
    return sbx_fail_errno (err, -errno, "linux.rootfsPropagation: fork");
  if (child == 0)
    {
      int e = 0;
      if (setns (pidfd, CLONE_NEWNS) < 0
          || mount (NULL, "/", NULL, flags, NULL) < 0)
        e = errno;
      _exit (e);
    }
  int status;
  while (waitpid (child, &status, 0) < 0)
    if (errno != EINTR)
      return sbx_fail_errno (err, -errno, "linux.rootfsPropagation: wait");
  int e = WIFEXITED (status) ? WEXITSTATUS (status) : EINTR;
  if (e != 0)
    return sbx_fail_errno (err, -e,
                           "linux.rootfsPropagation: cannot set it on the "
                           "sandbox's /");
  return 0;
}
