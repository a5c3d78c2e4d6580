#include "runtime/linux/container/exec_labels.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int
write_attr (const char *path, const char *prefix, const char *value)
{
  char buf[4096];
  size_t p = strlen (prefix), v = strlen (value);
  if (p + v >= sizeof buf)
    return -ENAMETOOLONG;
  memcpy (buf, prefix, p);
  memcpy (buf + p, value, v);
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  /* One write: the module reads the attribute whole.  */
  ssize_t n = write (fd, buf, p + v);
  int r = n == (ssize_t) (p + v) ? 0 : n < 0 ? -errno : -EIO;
  close (fd);
  return r;
}

int
sbx_exec_labels (const char *selinux, const char *apparmor, const char **which)
{
  int r = 0;
  if (selinux)
    {
      *which = "process.selinuxLabel";
      r = write_attr ("/proc/thread-self/attr/exec", "", selinux);
    }
  if (r == 0 && apparmor)
    {
      /* Its own attribute directory since Linux 5.1; the shared one
         before, which is AppArmor's when SELinux is off.  */
      *which = "process.apparmorProfile";
      r = write_attr ("/proc/thread-self/attr/apparmor/exec", "exec ",
                      apparmor);
      if (r == -ENOENT)
        r = write_attr ("/proc/thread-self/attr/exec", "exec ", apparmor);
    }
  return r;
}
