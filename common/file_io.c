#include "common/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"

/* Absence, including a path through a file, is a fact callers name in
   their own words; anything else is named here.  */
static int
open_failed (const char *path, struct sbx_error *err)
{
  if (errno == ENOENT || errno == ENOTDIR)
    return -ENOENT;
  return sbx_fail_errno (err, -errno, "%s: cannot open", path);
}

/* The cap in the unit it was written in: "16 MiB" reads better than
   "16777216 bytes".  */
static int
fail_too_big (const char *path, size_t max, struct sbx_error *err)
{
  if (max % (1u << 20) == 0)
    return sbx_fail (err, -EFBIG, "%s: larger than %zu MiB", path, max >> 20);
  return sbx_fail (err, -EFBIG, "%s: larger than %zu bytes", path, max);
}

/* Read FD to its end.  SIZE is what fstat said it holds, 0 when it does
   not say (procfs, pipes): the buffer is that big from the start, one
   byte more to see growth, and a short read that reaches SIZE is taken
   as the end, which spares the read that would return 0.  */
static int
read_fd (int fd, const char *path, size_t max, size_t size, char **out,
         size_t *len, struct sbx_error *err)
{
  size_t cap = size ? size + 1 : 4096, n = 0;
  cleanup_free char *buf = malloc (cap + 1);
  for (;;)
    {
      if (buf == NULL)
        return sbx_fail (err, -ENOMEM, "out of memory reading %s", path);
      ssize_t got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return sbx_fail_errno (err, -errno, "%s: cannot read", path);
      n += (size_t) got;
      if (n > max)
        return fail_too_big (path, max, err);
      if (got == 0 || (size > 0 && n >= size && n < cap))
        break;
      if (n == cap)
        {
          cap *= 2;
          char *bigger = realloc (buf, cap + 1);
          if (bigger == NULL)
            free (steal_pointer (&buf));
          buf = bigger;
        }
    }
  buf[n] = '\0';
  if (len)
    *len = n;
  *out = steal_pointer (&buf);
  return 0;
}

int
sbx_read_file (const char *path, size_t max, char **out, size_t *len,
               struct sbx_error *err)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return open_failed (path, err);
  return read_fd (fd, path, max, 0, out, len, err);
}

int
sbx_read_regular_file (const char *path, size_t max, char **out, size_t *len,
                       struct sbx_error *err)
{
  /* O_NONBLOCK: opening a FIFO would otherwise wait for a writer.  On a
     regular file it changes nothing.  */
  cleanup_close int fd
      = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return open_failed (path, err);
  struct stat st;
  if (fstat (fd, &st) < 0)
    return sbx_fail_errno (err, -errno, "%s: cannot stat", path);
  if (!S_ISREG (st.st_mode))
    return sbx_fail (err, -EINVAL, "%s: not a regular file", path);
  if ((uintmax_t) st.st_size > max)
    return fail_too_big (path, max, err);
  return read_fd (fd, path, max, (size_t) st.st_size, out, len, err);
}

static int
write_all (int fd, const char *data, size_t len)
{
  while (len > 0)
    {
      ssize_t w = write (fd, data, len);
      if (w < 0 && errno == EINTR)
        continue;
      if (w < 0)
        return -errno;
      data += w;
      len -= (size_t) w;
    }
  return 0;
}

int
sbx_write_file_atomic (const char *path, const void *data, size_t len,
                       mode_t mode, struct sbx_error *err)
{
  cleanup_free char *tmp = NULL;
  if (asprintf (&tmp, "%s.tmp.XXXXXX", path) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* A new file of an unguessable name (O_EXCL): PATH may lie in a
     directory the sandbox writes (an outcome or pid file in the
     workspace), where a symbolic link planted at a name we would open
     would send root's write anywhere on the host.  */
  int fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot write %s", path);
  mode_t mask = umask (0);
  umask (mask);
  int r = fchmod (fd, mode & ~mask) < 0 ? -errno : 0;
  if (r == 0)
    r = write_all (fd, data, len);
  if (r == 0 && fsync (fd) < 0)
    r = -errno;
  if (close (fd) < 0 && r == 0)
    r = -errno;
  if (r == 0 && rename (tmp, path) < 0)
    r = -errno;
  if (r < 0)
    {
      unlink (tmp);
      return sbx_fail_errno (err, r, "write %s", path);
    }
  return 0;
}

int
sbx_write_control_file (const char *path, const char *text)
{
  cleanup_close int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  size_t len = strlen (text);
  ssize_t n;
  do
    n = write (fd, text, len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return -errno;
  return (size_t) n == len ? 0 : -EIO;
}
