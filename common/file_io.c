#include "common/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h> /* getrandom on Linux, getentropy on macOS */
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signal_hold.h"

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

/* FD, open on PATH: a regular file, read whole.  */
static int
read_regular_fd (int fd, const char *path, size_t max, char **out, size_t *len,
                 struct sbx_error *err)
{
  struct stat st;
  if (fstat (fd, &st) < 0)
    return sbx_fail_errno (err, -errno, "%s: cannot stat", path);
  if (!S_ISREG (st.st_mode))
    return sbx_fail (err, -EINVAL, "%s: not a regular file", path);
  if ((uintmax_t) st.st_size > max)
    return fail_too_big (path, max, err);
  return read_fd (fd, path, max, (size_t) st.st_size, out, len, err);
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
  return read_regular_fd (fd, path, max, out, len, err);
}

int
sbx_read_file_at (int dirfd, const char *name, const char *shown, size_t max,
                  char **out, size_t *len, struct sbx_error *err)
{
  cleanup_close int fd = openat (
      dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0 && errno == ELOOP)
    return sbx_fail (err, -EINVAL, "%s: not a regular file", shown);
  if (fd < 0)
    return open_failed (shown, err);
  return read_regular_fd (fd, shown, max, out, len, err);
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

/* SIZE random bytes: a temporary name that cannot be guessed, so that
   no one who can write the directory can plant a symlink or a file of
   that name beforehand.  */
static int
fill_random (unsigned char *buf, size_t size)
{
#ifdef __linux__
  while (size > 0)
    {
      ssize_t n = getrandom (buf, size, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      buf += n;
      size -= (size_t) n;
    }
  return 0;
#else
  return getentropy (buf, size) < 0 ? -errno : 0;
#endif
}

/* Create a fresh temporary file beside NAME in DIRFD, its name in TEMP.
   O_EXCL|O_NOFOLLOW: whatever is at the name already (a symlink too) is
   never opened, and a collision only means another draw.  */
static int
create_temp (int dirfd, const char *name, mode_t mode, char *temp, size_t size)
{
  for (int tries = 0; tries < 16; tries++)
    {
      unsigned char rnd[8];
      int r = fill_random (rnd, sizeof rnd);
      if (r < 0)
        return r;
      /* Short enough for NAME_MAX whatever NAME's length.  */
      int n = snprintf (temp, size, ".%.200s.tmp.", name);
      for (size_t i = 0; i < sizeof rnd; i++)
        n += snprintf (temp + n, size - (size_t) n, "%02x", rnd[i]);
      int fd = openat (dirfd, temp,
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       mode);
      if (fd >= 0 || errno != EEXIST)
        return fd >= 0 ? fd : -errno;
    }
  return -EEXIST;
}

int
sbx_write_file_atomic_at (int dirfd, const char *name, const char *shown,
                          const void *data, size_t len, mode_t mode,
                          struct sbx_error *err)
{
  char temp[256];
  /* From the temporary file to its rename or removal: a signal then
     would leave the temporary file behind for good.  */
  sigset_t old;
  sbx_signals_hold (&old);
  int fd = create_temp (dirfd, name, mode, temp, sizeof temp);
  int r = fd < 0 ? fd : write_all (fd, data, len);
  if (fd >= 0 && r == 0 && fsync (fd) < 0)
    r = -errno;
  if (fd >= 0 && close (fd) < 0 && r == 0)
    r = -errno;
  if (r == 0 && renameat (dirfd, temp, dirfd, name) < 0)
    r = -errno;
  if (r < 0 && fd >= 0)
    unlinkat (dirfd, temp, 0);
  sbx_signals_release (&old);
  if (r < 0)
    return sbx_fail_errno (err, r, fd < 0 ? "cannot write %s" : "write %s",
                           shown);
  return 0;
}

/* The directory PATH is in, for the *at calls.  O_PATH where there is
   one: writing a file in a directory needs no right to list it.  */
static int
open_parent (const char *path, const char **name)
{
#ifdef O_PATH
  int flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
#else
  int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#endif
  const char *slash = strrchr (path, '/');
  *name = slash ? slash + 1 : path;
  if (slash == NULL)
    return open (".", flags);
  if (slash == path)
    return open ("/", flags);
  char *dir = strndup (path, (size_t) (slash - path));
  if (dir == NULL)
    return -1;
  int fd = open (dir, flags);
  free (dir);
  return fd;
}

int
sbx_file_dest_open (const char *path, struct sbx_file_dest *d,
                    struct sbx_error *err)
{
  *d = (struct sbx_file_dest){ .path = path, .dirfd = -1 };
  if (path == NULL)
    return 0;
  d->dirfd = open_parent (path, &d->name);
  if (d->dirfd < 0)
    return sbx_fail_errno (err, -errno, "cannot write %s", path);
  if (d->name[0] == '\0')
    {
      sbx_file_dest_close (d);
      return sbx_fail (err, -EISDIR, "cannot write %s: not a file name", path);
    }
  return 0;
}

int
sbx_file_dest_write (const struct sbx_file_dest *d, const void *data,
                     size_t len, mode_t mode, struct sbx_error *err)
{
  if (d->path == NULL)
    return 0;
  return sbx_write_file_atomic_at (d->dirfd, d->name, d->path, data, len, mode,
                                   err);
}

void
sbx_file_dest_close (struct sbx_file_dest *d)
{
  if (d->dirfd >= 0)
    close (d->dirfd);
  d->dirfd = -1;
}

int
sbx_write_file_atomic (const char *path, const void *data, size_t len,
                       mode_t mode, struct sbx_error *err)
{
  struct sbx_file_dest d;
  int r = sbx_file_dest_open (path, &d, err);
  if (r == 0)
    r = sbx_file_dest_write (&d, data, len, mode, err);
  sbx_file_dest_close (&d);
  return r;
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
