/* Reading, listing, making, removing and renaming through the fence, each
   on what openat2 resolved beneath the deciding layer.  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "fence/fence_resolve.h"

static int
read_all (int fd, size_t max, char **data, size_t *len)
{
  size_t cap = 0, n = 0;
  cleanup_free char *buf = NULL;
  for (;;)
    {
      if (n == cap)
        {
          if (buf && n > max)
            return -EFBIG;
          size_t want = cap ? cap * 2 : 4096;
          char *p = realloc (buf, want + 1);
          if (p == NULL)
            return -ENOMEM;
          buf = p;
          cap = want;
        }
      ssize_t got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return -errno;
      if (got == 0)
        break;
      n += (size_t) got;
    }
  if (n > max)
    return -EFBIG;
  buf[n] = '\0';
  *data = buf;
  buf = NULL;
  *len = n;
  return 0;
}

int
sbx_fence_read (const struct sbx_fence *fence, const char *path, size_t max,
                char **data, size_t *len, struct sbx_fence_verdict *denied,
                struct sbx_error *err)
{
  struct fence_target t;
  cleanup_close int fd = -1;
  *data = NULL;
  *len = 0;
  int r = fence_names_file ("read", path, err);
  if (r < 0)
    return r;
  r = fence_target (fence, path, SBX_FENCE_READ, denied, &t, err);
  if (r == 0)
    r = fd = fence_open (&t, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0, err);
  struct stat st;
  if (r >= 0 && fstat (fd, &st) < 0)
    r = fence_fail (&t, -errno, "stat", err);
  else if (r >= 0 && !S_ISREG (st.st_mode))
    r = sbx_fail (err, S_ISDIR (st.st_mode) ? -EISDIR : -EINVAL,
                  "fence: read %s: not a regular file", t.v.path);
  if (r >= 0)
    {
      r = read_all (fd, max, data, len);
      if (r < 0)
        r = fence_fail (&t, r, "read", err);
    }
  fence_target_free (&t);
  return r < 0 ? r : 0;
}

int
sbx_fence_mkdir (const struct sbx_fence *fence, const char *path, mode_t mode,
                 struct sbx_fence_verdict *denied, struct sbx_error *err)
{
  struct fence_target t;
  cleanup_close int dirfd = -1;
  const char *name = NULL;
  int r = fence_target (fence, path, SBX_FENCE_WRITE, denied, &t, err);
  if (r == 0)
    r = fence_open_parent (&t, &dirfd, &name, err);
  if (r == 0 && mkdirat (dirfd, name, mode) < 0)
    r = fence_fail (&t, -errno, "mkdir", err);
  fence_target_free (&t);
  return r;
}

int
sbx_fence_remove (const struct sbx_fence *fence, const char *path,
                  struct sbx_fence_verdict *denied, struct sbx_error *err)
{
  struct fence_target t;
  cleanup_close int dirfd = -1;
  const char *name = NULL;
  struct stat st;
  int r = fence_target (fence, path, SBX_FENCE_ERASE, denied, &t, err);
  if (r == 0)
    r = fence_open_parent (&t, &dirfd, &name, err);
  if (r == 0 && fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    r = fence_fail (&t, -errno, "remove", err);
  /* A link is removed, not followed: its target is not touched.  */
  if (r == 0
      && unlinkat (dirfd, name, S_ISDIR (st.st_mode) ? AT_REMOVEDIR : 0) < 0)
    r = fence_fail (&t, -errno, "remove", err);
  fence_target_free (&t);
  return r;
}

int
sbx_fence_rename (const struct sbx_fence *fence, const char *from,
                  const char *to, struct sbx_fence_verdict *denied,
                  struct sbx_error *err)
{
  struct fence_target a, b = { 0 };
  cleanup_close int da = -1;
  cleanup_close int db = -1;
  const char *na = NULL, *nb = NULL;
  int r = fence_target (fence, from, SBX_FENCE_ERASE, denied, &a, err);
  if (r == 0)
    r = fence_target (fence, to, SBX_FENCE_ERASE, denied, &b, err);
  /* One mount in the sandbox: its rename(2) is EXDEV between two.  */
  if (r == 0 && a.layer != b.layer)
    r = fence_target_refuse (&b, SBX_FENCE_CROSS, err);
  if (r == 0)
    r = fence_open_parent (&a, &da, &na, err);
  if (r == 0)
    r = fence_open_parent (&b, &db, &nb, err);
  if (r == 0 && renameat (da, na, db, nb) < 0)
    r = fence_fail (&a, -errno, "rename", err);
  fence_target_free (&a);
  fence_target_free (&b);
  return r;
}

int
sbx_fence_stat (const struct sbx_fence *fence, const char *path,
                struct stat *st, struct sbx_fence_verdict *denied,
                struct sbx_error *err)
{
  struct fence_target t;
  cleanup_close int dirfd = -1;
  const char *name = NULL;
  int r = fence_target (fence, path, SBX_FENCE_READ, denied, &t, err);
  if (r == 0 && t.rest[0] == '\0')
    {
      if (fstat (t.layer->fd, st) < 0)
        r = fence_fail (&t, -errno, "stat", err);
    }
  else if (r == 0)
    {
      r = fence_open_parent (&t, &dirfd, &name, err);
      if (r == 0 && fstatat (dirfd, name, st, AT_SYMLINK_NOFOLLOW) < 0)
        r = fence_fail (&t, -errno, "stat", err);
    }
  fence_target_free (&t);
  return r;
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
read_names (int fd, struct strv *names)
{
  DIR *d = fdopendir (fd);
  if (d == NULL)
    return -errno;
  struct dirent *e;
  int r = 0;
  while (r == 0 && (errno = 0, e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      r = strv_push (names, e->d_name);
  if (r == 0 && errno != 0)
    r = -errno;
  closedir (d);
  if (r == 0 && names->n > 1)
    qsort (names->v, names->n, sizeof *names->v, compare_names);
  return r;
}

int
sbx_fence_list (const struct sbx_fence *fence, const char *path,
                struct strv *names, struct sbx_fence_verdict *denied,
                struct sbx_error *err)
{
  struct fence_target t;
  int r = fence_target (fence, path, SBX_FENCE_READ, denied, &t, err);
  int fd = r == 0 ? fence_open (&t, O_RDONLY | O_DIRECTORY, 0, err) : r;
  if (fd >= 0 && (r = read_names (fd, names)) < 0)
    r = fence_fail (&t, r, "list", err);
  else if (fd < 0)
    r = fd;
  fence_target_free (&t);
  return r;
}
