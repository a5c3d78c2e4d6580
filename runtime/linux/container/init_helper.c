#include "runtime/linux/container/init_helper.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "config.h"
#include "runtime/linux/container/sealed_self.h"

#define INIT_NAME "sbx-oci-init"

/* The helper beside the running binary: DIR/sbx-oci-init.  */
static int
open_beside_self (void)
{
  char self[PATH_MAX], path[PATH_MAX + sizeof INIT_NAME];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return -1;
  self[n] = '\0';
  char *slash = strrchr (self, '/');
  if (slash == NULL)
    return -1;
  *slash = '\0';
  snprintf (path, sizeof path, "%s/" INIT_NAME, self);
  return open (path, O_RDONLY | O_CLOEXEC);
}

int
sbx_init_helper_open (struct sbx_error *err)
{
  cleanup_close int fd = open_beside_self ();
  if (fd < 0)
    fd = open (SBX_LIBEXECDIR "/" INIT_NAME, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return sbx_fail_errno (err, -errno,
                           "cannot find " INIT_NAME " beside sbx-oci or in "
                           "%s (install both, as meson install does)",
                           SBX_LIBEXECDIR);
  int copy = sbx_sealed_copy (fd);
  if (copy < 0)
    return sbx_fail_errno (err, copy, "cannot copy " INIT_NAME);
  return copy;
}
