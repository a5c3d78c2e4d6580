/* Writing through the fence: a whole file replaced atomically (a new file
   beside it, renamed over it), or appended to.  Both act on the directory
   or file that openat2 resolved beneath the layer, never on a name looked
   up again from the root.  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "fence/fence_resolve.h"

static int
write_all (int fd, const void *data, size_t len)
{
  const char *p = data;
  while (len > 0)
    {
      ssize_t n = write (fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      p += n;
      len -= (size_t) n;
    }
  return 0;
}

/* What stands at NAME now decides whether it may be replaced: a link is
   never followed (nor replaced: the sandbox's write would follow it), a
   file with another name is an alias.  *MODE: the mode to keep.  */
static int
check_replaced (struct fence_target *t, int dirfd, const char *name,
                mode_t *mode, struct sbx_error *err)
{
  struct stat st;
  *mode = 0666;
  if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return errno == ENOENT ? 0 : fence_fail (t, -errno, "stat", err);
  if (S_ISLNK (st.st_mode))
    return fence_target_refuse (t, SBX_FENCE_SYMLINK, err);
  if (!S_ISREG (st.st_mode))
    return sbx_fail (err, S_ISDIR (st.st_mode) ? -EISDIR : -EINVAL,
                     "fence: write %s: not a regular file", t->v.path);
  if (st.st_nlink > 1)
    return fence_target_refuse (t, SBX_FENCE_HARD_LINK, err);
  *mode = st.st_mode & 07777;
  return 1;
}

/* A new file beside NAME, under a name of its own: ".NAME.fence-XXXXXXXX".
   O_EXCL with O_NOFOLLOW: nothing there is reused or followed.  */
static int
make_temp (int dirfd, const char *name, char *tmp, size_t size)
{
  for (int tries = 0; tries < 16; tries++)
    {
      unsigned int rnd;
      if (getrandom (&rnd, sizeof rnd, 0) != sizeof rnd)
        return -EIO;
      if ((size_t) snprintf (tmp, size, ".%.200s.fence-%08x", name, rnd)
          >= size)
        return -ENAMETOOLONG;
      int fd = openat (dirfd, tmp,
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       0666);
      if (fd >= 0 || errno != EEXIST)
        return fd < 0 ? -errno : fd;
    }
  return -EEXIST;
}

static int
replace (int dirfd, const char *name, bool existed, mode_t mode,
         const void *data, size_t len)
{
  char tmp[256];
  cleanup_close int fd = make_temp (dirfd, name, tmp, sizeof tmp);
  if (fd < 0)
    return fd;
  int r = existed && fchmod (fd, mode) < 0 ? -errno : 0;
  if (r == 0)
    r = write_all (fd, data, len);
  if (r == 0 && renameat (dirfd, tmp, dirfd, name) < 0)
    r = -errno;
  if (r < 0)
    unlinkat (dirfd, tmp, 0);
  return r;
}

int
sbx_fence_write (const struct sbx_fence *fence, const char *path,
                 const void *data, size_t len,
                 struct sbx_fence_verdict *denied, struct sbx_error *err)
{
  struct fence_target t;
  cleanup_close int dirfd = -1;
  const char *name = NULL;
  mode_t mode = 0666;
  int r = fence_names_file ("write", path, err);
  if (r < 0)
    return r;
  r = fence_target (fence, path, SBX_FENCE_WRITE, denied, &t, err);
  if (r == 0)
    r = fence_open_parent (&t, &dirfd, &name, err);
  if (r == 0)
    r = check_replaced (&t, dirfd, name, &mode, err);
  if (r >= 0)
    {
      r = replace (dirfd, name, r == 1, mode, data, len);
      if (r < 0)
        r = fence_fail (&t, r, "write", err);
    }
  fence_target_free (&t);
  return r < 0 ? r : 0;
}

int
sbx_fence_append (const struct sbx_fence *fence, const char *path,
                  const void *data, size_t len,
                  struct sbx_fence_verdict *denied, struct sbx_error *err)
{
  struct fence_target t;
  cleanup_close int fd = -1;
  int r = fence_names_file ("append", path, err);
  if (r < 0)
    return r;
  r = fence_target (fence, path, SBX_FENCE_WRITE, denied, &t, err);
  /* O_NONBLOCK: a fifo does not hang the caller; it is refused below.  */
  if (r == 0)
    r = fd = fence_open (&t, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK, 0666,
                         err);
  struct stat st;
  if (r >= 0 && fstat (fd, &st) < 0)
    r = fence_fail (&t, -errno, "stat", err);
  else if (r >= 0 && !S_ISREG (st.st_mode))
    r = sbx_fail (err, -EINVAL, "fence: append %s: not a regular file",
                  t.v.path);
  else if (r >= 0 && st.st_nlink > 1)
    r = fence_target_refuse (&t, SBX_FENCE_HARD_LINK, err);
  if (r >= 0 && (r = write_all (fd, data, len)) < 0)
    r = fence_fail (&t, r, "append to", err);
  fence_target_free (&t);
  return r < 0 ? r : 0;
}
