#include "runtime/linux/confine/kernel_calls.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "runtime/linux/pidfd.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static bool
has_pidfd_open (void)
{
  int fd = sbx_pidfd_open (getpid ());
  if (fd < 0)
    return false;
  close (fd);
  return true;
}

static bool
has_openat2 (void)
{
  struct open_how how
      = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_MAGICLINKS };
  int fd = (int) syscall (SYS_openat2, AT_FDCWD, "/", &how, sizeof how);
  if (fd < 0)
    return false;
  close (fd);
  return true;
}

/* The range [~0U, ~0U] holds no descriptor: nothing is closed.  */
static bool
has_close_range (void)
{
  return syscall (SYS_close_range, ~0U, ~0U, 0) == 0;
}

void
sbx_kernel_calls_probe (struct sbx_kernel_calls *k)
{
  k->pidfd_open = has_pidfd_open ();
  k->openat2 = has_openat2 ();
  k->close_range = has_close_range ();
}

static const char *
release (void)
{
  static struct utsname u;
  return uname (&u) == 0 ? u.release : "unknown";
}

int
sbx_kernel_require (struct sbx_error *err)
{
  struct sbx_kernel_calls k;
  sbx_kernel_calls_probe (&k);
  if (!k.pidfd_open)
    return sbx_fail (err, -ENOSYS,
                     "this kernel (%s) lacks pidfd_open (Linux 5.3): "
                     "sbx-oci could not signal a sandbox's processes "
                     "safely; use Linux 5.6 or later",
                     release ());
  if (!k.openat2)
    return sbx_fail (err, -ENOSYS,
                     "this kernel (%s) lacks openat2 (Linux 5.6): "
                     "sbx-oci could not resolve paths beneath the "
                     "sandbox's root; use Linux 5.6 or later",
                     release ());
  return 0;
}

void
sbx_kernel_calls_describe (const struct sbx_kernel_calls *k, char *buf,
                           size_t len)
{
  snprintf (buf, len, "Linux %s: %s%s%s%s", release (),
            k->pidfd_open && k->openat2 && k->close_range
                ? "pidfd_open, openat2 and close_range are there"
                : "",
            k->pidfd_open ? ""
                          : "lacks pidfd_open (Linux 5.3): signals to a "
                            "sandbox could hit a recycled pid; ",
            k->openat2 ? ""
                       : "lacks openat2 (Linux 5.6): paths cannot be "
                         "resolved beneath the sandbox's root; ",
            k->close_range ? ""
                           : "lacks close_range (Linux 5.9): descriptors "
                             "are closed by a /proc/self/fd walk instead");
}
