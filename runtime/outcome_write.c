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

/* The file's directory is opened now, before the sandbox runs: a
   sandbox that can write a directory on the path cannot swap it for a
   symlink to move the write (the adversarial review did).  */
static int
open_dest (struct sbx_outcome_dest *d, struct sbx_error *err)
{
  int r = sbx_file_dest_open (d->path, &d->file, err);
  return r < 0 ? sbx_error_prefix (err, "--outcome") : 0;
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
sbx_outcome_dest_check (struct sbx_outcome_dest *d, int preserve_fds,
                        struct sbx_error *err)
{
  if (d->path && d->fd >= 0)
    return sbx_fail_usage (err, "--outcome and --outcome-fd: give one");
  if (d->path && strcmp (d->path, "-") == 0)
    return sbx_fail_usage (err, "--outcome -: stdout is the command's; use "
                                "--outcome FILE or --outcome-fd N (a pipe or "
                                "file of its own, e.g. 3>outcome.json)");
  if (d->path)
    return open_dest (d, err);
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
  return sbx_file_dest_write (&d->file, text, len, 0644, err);
}

void
sbx_outcome_dest_close (struct sbx_outcome_dest *d)
{
  sbx_file_dest_close (&d->file);
}
