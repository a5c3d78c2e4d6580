/* sbx_spec_load: BUNDLE/config.json from disk, then sbx_spec_parse.  */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "spec/spec.h"

/* Real configs are a few KiB; the cap keeps a wrong --bundle (or a FIFO,
   or /dev/zero behind a symlink) from eating memory.  */
#define CONFIG_MAX_BYTES (16u << 20)

static int
absolute_bundle (const char *bundle, char **out, struct sbx_error *err)
{
  if (bundle[0] == '/')
    *out = sbx_path_normalize (bundle);
  else
    {
      /* Lexical, as runc's filepath.Abs: the bundle is what was named.  */
      cleanup_free char *cwd = getcwd (NULL, 0);
      if (cwd == NULL)
        return sbx_fail_errno (err, -errno, "cannot make bundle %s absolute",
                               bundle);
      *out = sbx_path_join (cwd, bundle);
    }
  return *out ? 0 : sbx_fail (err, -ENOMEM, "out of memory");
}

static int
read_all (int fd, const char *path, char **text, size_t *len,
          struct sbx_error *err)
{
  size_t cap = 64 * 1024, n = 0;
  cleanup_free char *buf = malloc (cap);
  if (buf == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (;;)
    {
      if (n == cap)
        {
          if (cap > CONFIG_MAX_BYTES)
            return sbx_fail (err, -EFBIG, "%s: larger than 16 MiB", path);
          cap *= 2;
          char *bigger = realloc (buf, cap);
          if (bigger == NULL)
            return sbx_fail (err, -ENOMEM, "out of memory");
          buf = bigger;
        }
      ssize_t got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return sbx_fail_errno (err, -errno, "%s: cannot read", path);
      if (got == 0)
        break;
      n += (size_t) got;
    }
  if (n > CONFIG_MAX_BYTES)
    return sbx_fail (err, -EFBIG, "%s: larger than 16 MiB", path);
  *text = steal_pointer (&buf);
  *len = n;
  return 0;
}

static int
read_config (const char *path, char **text, size_t *len, struct sbx_error *err)
{
  /* O_NONBLOCK: a FIFO planted as config.json must not hang us.  */
  cleanup_close int fd
      = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return sbx_fail (err, -ENOENT, "%s: does not exist (check --bundle)",
                     path);
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "%s: cannot open", path);
  struct stat st;
  if (fstat (fd, &st) < 0)
    return sbx_fail_errno (err, -errno, "%s: cannot stat", path);
  if (!S_ISREG (st.st_mode))
    return sbx_fail (err, -EINVAL, "%s: not a regular file", path);
  if (st.st_size > (off_t) CONFIG_MAX_BYTES)
    return sbx_fail (err, -EFBIG, "%s: larger than 16 MiB", path);
  return read_all (fd, path, text, len, err);
}

int
sbx_spec_load (const char *bundle, struct sbx_spec **out,
               struct sbx_error *err)
{
  *out = NULL;
  cleanup_free char *dir = NULL;
  int r = absolute_bundle (bundle, &dir, err);
  if (r < 0)
    return r;
  cleanup_free char *path = sbx_path_join (dir, "config.json");
  if (path == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_free char *text = NULL;
  size_t len = 0;
  r = read_config (path, &text, &len, err);
  if (r < 0)
    return r;
  r = sbx_spec_parse (text, len, dir, out, err);
  if (r < 0)
    return sbx_error_prefix (err, "%s", path);
  return 0;
}
