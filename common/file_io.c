#include "common/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"

int
sbx_read_file (const char *path, size_t max, char **out, size_t *len,
               struct sbx_error *err)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT ? -ENOENT
                           : sbx_fail_errno (err, -errno, "open %s", path);
  size_t cap = 4096, n = 0;
  cleanup_free char *buf = malloc (cap + 1);
  for (;;)
    {
      if (buf == NULL)
        return sbx_fail (err, -ENOMEM, "out of memory reading %s", path);
      ssize_t got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return sbx_fail_errno (err, -errno, "read %s", path);
      if (got == 0)
        break;
      n += (size_t) got;
      if (n > max)
        return sbx_fail (err, -EFBIG, "%s: larger than %zu bytes", path, max);
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
  if (asprintf (&tmp, "%s.tmp.%d", path, (int) getpid ()) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  int fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot write %s", path);
  int r = write_all (fd, data, len);
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
