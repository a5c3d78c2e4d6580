/* setrlimit() for OCI process.rlimits, with errors that name the entry;
   and RLIMIT_NPROC as the kernel's cap on an unprivileged sandbox's
   processes.  */
#include "runtime/linux/confine/rlimits.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Why setrlimit() refused, in words a config author can act on.  */
static const char *
rlimit_hint (int code)
{
  switch (code)
    {
    case EPERM:
      return " (raising a hard limit needs CAP_SYS_RESOURCE)";
    case EINVAL:
      return " (unknown resource, or a value the kernel caps lower, such as "
             "RLIMIT_NOFILE above fs.nr_open)";
    default:
      return "";
    }
}

int
sbx_rlimits_apply (const struct sbx_rlimit *rl, size_t n,
                   struct sbx_error *err)
{
  for (size_t i = 0; i < n; i++)
    {
      const char *type = rl[i].type ? rl[i].type : "the limit";
      if (rl[i].soft > rl[i].hard)
        return sbx_fail (err, -EINVAL,
                         "process.rlimits[%zu]: %s soft limit %" PRIu64
                         " is above its hard limit %" PRIu64,
                         i, type, rl[i].soft, rl[i].hard);
      struct rlimit lim = { .rlim_cur = rl[i].soft, .rlim_max = rl[i].hard };
      if (setrlimit (rl[i].resource, &lim) < 0)
        {
          int code = errno;
          return sbx_fail (err, -code,
                           "process.rlimits[%zu]: cannot set %s to soft "
                           "%" PRIu64 ", hard %" PRIu64 ": %s%s",
                           i, type, rl[i].soft, rl[i].hard, strerror (code),
                           rlimit_hint (code));
        }
    }
  return 0;
}

/* The runner's one child, the sandbox's first process, once it exists:
   /proc/RUNNER/task/RUNNER/children, polled every 200 us for up to 5 s,
   and given up as soon as the runner is gone.  */
static pid_t
runner_child (pid_t runner)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/task/%d/children", (int) runner,
            (int) runner);
  for (int i = 0; i < 25000; i++)
    {
      int fd = open (path, O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        return -errno;
      char buf[64];
      ssize_t n = read (fd, buf, sizeof buf - 1);
      close (fd);
      if (n > 0)
        {
          buf[n] = '\0';
          return (pid_t) strtol (buf, NULL, 10);
        }
      nanosleep (&(struct timespec){ .tv_nsec = 200 * 1000 }, NULL);
    }
  return -ETIMEDOUT;
}

int
sbx_rlimit_sandbox_nproc (pid_t runner, uint64_t limit, struct sbx_error *err)
{
  pid_t child = runner_child (runner);
  if (child <= 0)
    return sbx_fail_errno (err, child < 0 ? child : -ESRCH,
                           "pids.limit: cannot find the sandbox's first "
                           "process to set RLIMIT_NPROC on");
  return sbx_rlimit_set_nproc (child, limit, err);
}

int
sbx_rlimit_set_nproc (pid_t pid, uint64_t limit, struct sbx_error *err)
{
  struct rlimit lim = { .rlim_cur = limit, .rlim_max = limit };
  if (prlimit (pid, RLIMIT_NPROC, &lim, NULL) < 0)
    return sbx_fail_errno (err, -errno,
                           "pids.limit: cannot set RLIMIT_NPROC of the "
                           "sandbox's first process");
  return 0;
}
