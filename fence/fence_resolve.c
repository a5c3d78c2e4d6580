/* Resolution beneath a layer: openat2 from the layer's O_PATH descriptor
   with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, so
   that the kernel itself refuses every symbolic link and every ".." out
   of the layer, at the moment of the open the operation then uses.  */
#include "fence/fence_resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

#define FENCE_RESOLVE                                                         \
  (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

int
fence_target (const struct sbx_fence *f, const char *path,
              enum sbx_fence_access access, struct sbx_fence_verdict *denied,
              struct fence_target *t, struct sbx_error *err)
{
  memset (t, 0, sizeof *t);
  t->denied = denied;
  cleanup_free char *abs = fence_absolute (f, path);
  if (abs == NULL || fence_decide (f, abs, access, &t->v) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  t->layer = fence_layer_of (f, abs);
  if (!t->v.allowed)
    return fence_target_refuse (t, t->v.rule, err);
  const char *rest = t->v.path + strlen (t->layer->dest);
  t->rest = rest + (rest[0] == '/');
  return 0;
}

void
fence_target_free (struct fence_target *t)
{
  sbx_fence_verdict_free (&t->v);
}

int
fence_target_refuse (struct fence_target *t, enum sbx_fence_rule rule,
                     struct sbx_error *err)
{
  t->v.rule = rule;
  t->v.allowed = false;
  fence_explain (&t->v);
  int r = sbx_fence_refusal (&t->v, err);
  if (t->denied)
    {
      *t->denied = t->v; /* moved: T keeps nothing to free */
      memset (&t->v, 0, sizeof t->v);
    }
  return r;
}

int
fence_fail (struct fence_target *t, int r, const char *what,
            struct sbx_error *err)
{
  if (r == -ELOOP)
    return fence_target_refuse (t, SBX_FENCE_SYMLINK, err);
  if (r == -EXDEV)
    return fence_target_refuse (t, SBX_FENCE_ESCAPE, err);
  if (r == -ENOSYS)
    return sbx_fail (err, r,
                     "fence: openat2 is not available (Linux 5.6 "
                     "or later is needed)");
  return sbx_fail_errno (err, r, "fence: %s %s", what, t->v.path);
}

static int
openat2_beneath (int dirfd, const char *rel, int flags, mode_t mode)
{
  struct open_how how = {
    .flags = (unsigned) flags | O_CLOEXEC,
    .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
    .resolve = FENCE_RESOLVE,
  };
  int fd = (int) syscall (SYS_openat2, dirfd, rel, &how, sizeof how);
  return fd < 0 ? -errno : fd;
}

/* A layer whose source is a file (a hard-link alias, a protected
   .git/config, a file bind) is reopened through its own descriptor: there
   is no path beneath it to resolve.  */
static int
reopen_layer (int fd, int flags)
{
  char proc[64];
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
  int r = open (proc, (flags & ~O_CREAT) | O_CLOEXEC);
  return r < 0 ? -errno : r;
}

int
fence_open (struct fence_target *t, int flags, mode_t mode,
            struct sbx_error *err)
{
  int fd;
  if (t->rest[0] != '\0')
    fd = openat2_beneath (t->layer->fd, t->rest, flags, mode);
  else
    {
      fd = openat2_beneath (t->layer->fd, ".", flags & ~O_CREAT, mode);
      if (fd == -ENOTDIR)
        fd = reopen_layer (t->layer->fd, flags);
    }
  return fd < 0 ? fence_fail (t, fd, "open", err) : fd;
}

int
fence_open_parent (struct fence_target *t, int *dirfd, const char **name,
                   struct sbx_error *err)
{
  *dirfd = -1;
  if (t->rest[0] == '\0')
    return fence_target_refuse (t, SBX_FENCE_MOUNT, err);
  const char *slash = strrchr (t->rest, '/');
  *name = slash ? slash + 1 : t->rest;
  cleanup_free char *dir
      = slash ? strndup (t->rest, (size_t) (slash - t->rest)) : strdup (".");
  if (dir == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  int fd = openat2_beneath (t->layer->fd, dir, O_PATH | O_DIRECTORY, 0);
  if (fd < 0)
    return fence_fail (t, fd, "open the directory of", err);
  *dirfd = fd;
  return 0;
}
