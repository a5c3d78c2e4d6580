#include "runtime/linux/container/exec_labels.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

/* PREFIX and VALUE in one write to ATTR below PROC: the module reads the
   attribute whole.  -EXDEV when what opened is not procfs's.  */
static int
write_attr (int proc, const char *attr, const char *prefix, const char *value)
{
  char buf[4096];
  size_t p = strlen (prefix), v = strlen (value);
  if (p + v >= sizeof buf)
    return -ENAMETOOLONG;
  memcpy (buf, prefix, p);
  memcpy (buf + p, value, v);
  int fd = openat (proc, attr, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  struct statfs fs;
  int r = fstatfs (fd, &fs) < 0           ? -errno
          : fs.f_type != PROC_SUPER_MAGIC ? -EXDEV
                                          : 0;
  if (r == 0)
    {
      ssize_t n = write (fd, buf, p + v);
      r = n == (ssize_t) (p + v) ? 0 : n < 0 ? -errno : -EIO;
    }
  close (fd);
  return r;
}

static int
write_labels (int proc, const char *selinux, const char *apparmor,
              const char **which)
{
  int r = 0;
  if (selinux)
    {
      *which = "process.selinuxLabel";
      r = write_attr (proc, "thread-self/attr/exec", "", selinux);
    }
  if (r == 0 && apparmor)
    {
      /* Its own attribute directory since Linux 5.1; the shared one
         before, which is AppArmor's when SELinux is off.  */
      *which = "process.apparmorProfile";
      r = write_attr (proc, "thread-self/attr/apparmor/exec", "exec ",
                      apparmor);
      if (r == -ENOENT)
        r = write_attr (proc, "thread-self/attr/exec", "exec ", apparmor);
    }
  return r;
}

int
sbx_exec_labels (int proc_fd, const char *selinux, const char *apparmor,
                 const char **which)
{
  if (selinux == NULL && apparmor == NULL)
    return 0;
  if (proc_fd >= 0)
    return write_labels (proc_fd, selinux, apparmor, which);
  int proc = open ("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0)
    {
      *which = selinux ? "process.selinuxLabel" : "process.apparmorProfile";
      return -errno;
    }
  int r = write_labels (proc, selinux, apparmor, which);
  close (proc);
  return r;
}
