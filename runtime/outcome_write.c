#include "runtime/outcome_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "common/json_gen.h"

static int
check_dir (const char *path, struct sbx_error *err)
{
  const char *slash = strrchr (path, '/');
  if (slash == path)
    return 0;
  cleanup_free char *dir
      = slash ? strndup (path, (size_t) (slash - path)) : strdup (".");
  struct stat st;
  if (dir == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (stat (dir, &st) < 0)
    return sbx_fail_errno (err, -errno, "--outcome %s: cannot use %s", path,
                           dir);
  if (!S_ISDIR (st.st_mode))
    return sbx_fail (err, -ENOTDIR, "--outcome %s: %s is not a directory",
                     path, dir);
  return 0;
}

static int
check_fd (int fd, int preserve_fds, struct sbx_error *err)
{
  if (fd <= 2)
    return sbx_fail_usage (err,
                           "--outcome-fd %d: the command's own stdio; give "
                           "a descriptor of its own (3 or above)",
                           fd);
  if (fd < 3 + preserve_fds)
    return sbx_fail_usage (err,
                           "--outcome-fd %d: --preserve-fds %d passes it "
                           "into the sandbox; use one above %d",
                           fd, preserve_fds, 2 + preserve_fds);
  int flags = fcntl (fd, F_GETFD);
  if (flags < 0)
    return sbx_fail_usage (err, "--outcome-fd %d: not an open descriptor", fd);
  /* Never inherited by the sandbox, whatever else closes descriptors.  */
  fcntl (fd, F_SETFD, flags | FD_CLOEXEC);
  return 0;
}

int
sbx_outcome_dest_check (const struct sbx_outcome_dest *d, int preserve_fds,
                        struct sbx_error *err)
{
  if (d->path && d->fd >= 0)
    return sbx_fail_usage (err, "--outcome and --outcome-fd: give one");
  if (d->path && strcmp (d->path, "-") == 0)
    return sbx_fail_usage (err, "--outcome -: stdout is the command's; use "
                                "--outcome FILE or --outcome-fd N (a pipe or "
                                "file of its own, e.g. 3>outcome.json)");
  if (d->path)
    return check_dir (d->path, err);
  if (d->fd >= 0)
    return check_fd (d->fd, preserve_fds, err);
  return 0;
}

static int
write_all (int fd, const char *text, size_t len, struct sbx_error *err)
{
  while (len > 0)
    {
      ssize_t n = write (fd, text, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return sbx_fail_errno (err, -errno, "--outcome-fd %d: cannot write",
                               fd);
      text += n;
      len -= (size_t) n;
    }
  return 0;
}

int
sbx_outcome_write (const struct sbx_outcome_dest *d,
                   const struct sbx_outcome *o, const struct sbx_plan *plan,
                   struct sbx_error *err)
{
  yajl_gen g = sbx_json_new (false);
  cleanup_free char *text = NULL;
  size_t len = 0;
  int r = g ? sbx_outcome_json (g, o, plan) : -ENOMEM;
  if (r == 0)
    r = sbx_json_finish (g, &text, &len);
  if (g)
    yajl_gen_free (g);
  if (r < 0)
    return sbx_fail (err, r, "cannot format the outcome");
  if (d->fd >= 0)
    return write_all (d->fd, text, len, err);
  return sbx_write_file_atomic (d->path, text, len, 0644, err);
}
