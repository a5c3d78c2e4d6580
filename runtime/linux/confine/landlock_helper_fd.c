#include "runtime/linux/confine/landlock_helper_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_io.h"

/* landlock_helper_data.c, generated from the helper at build time.  */
extern const unsigned char sbx_landlock_helper[];
extern const size_t sbx_landlock_helper_len;

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

int
sbx_landlock_helper_fd (struct sbx_error *err)
{
  /* MFD_EXEC where vm.memfd_noexec knows it (Linux 6.3); older kernels
     refuse the flag, and every memfd is executable there.  */
  int fd = memfd_create ("sbx-landlock",
                         MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
  if (fd < 0 && errno == EINVAL)
    fd = memfd_create ("sbx-landlock", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0)
    return sbx_fail_errno (err, -errno,
                           "cannot make the landlock helper's memfd");
  size_t done = 0;
  while (done < sbx_landlock_helper_len)
    {
      ssize_t n = write (fd, sbx_landlock_helper + done,
                         sbx_landlock_helper_len - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += (size_t) n;
    }
  /* Sealed: no process that shares the descriptor can change it.  */
  if (done != sbx_landlock_helper_len || fchmod (fd, 0555) < 0
      || fcntl (fd, F_ADD_SEALS,
                F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)
             < 0)
    {
      int e = errno ? errno : EIO;
      close (fd);
      return sbx_fail_errno (err, -e,
                             "cannot fill the landlock helper's memfd");
    }
  return fd;
}

int
sbx_landlock_helper_write (const char *path, struct sbx_error *err)
{
  return sbx_write_file_atomic (path, (const char *) sbx_landlock_helper,
                                sbx_landlock_helper_len, 0755, err);
}
