#include "runtime/linux/bwrap/bind_sources.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "runtime/linux/real_path.h"

static bool
is_bind (const struct sbx_plan_mount *m)
{
  return m->op == SBX_PLAN_BIND_RO || m->op == SBX_PLAN_BIND_RW;
}

/* The outermost changeable root that SOURCE lies strictly below, or NULL:
   every component below it is the sandbox's to change.  */
static const char *
outermost_root (const struct sbx_plan *plan, const char *source)
{
  const char *best = NULL;
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (sbx_plan_changeable_root (m) && strcmp (source, m->source) != 0
          && sbx_path_is_under (source, m->source)
          && (best == NULL || sbx_path_is_under (best, m->source)))
        best = m->source;
    }
  return best;
}

/* A config's bind outside every writable root: settled, and held with
   no link allowed (see the header).  Not what the runner makes itself
   under the nodes directory, in a mount namespace of its own, after the
   plan (a config's tmpfs, its device nodes): that is no one else's.  */
static bool
is_settled (const struct sbx_plan *plan, const struct sbx_plan_mount *m)
{
  return is_bind (m) && m->why == SBX_WHY_OCI_MOUNT && m->source
         && m->source[0] == '/'
         && !(plan->nodes_dir
              && sbx_path_is_under (m->source, plan->nodes_dir));
}

static int
open_no_links (const char *source)
{
  struct open_how how = {
    .flags = O_PATH | O_CLOEXEC,
    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
  };
  long fd = syscall (SYS_openat2, AT_FDCWD, source, &how, sizeof how);
  return fd < 0 ? -errno : (int) fd;
}

static int
open_beneath (const char *root, const char *source)
{
  cleanup_close int dir = open (root, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    return -errno;
  struct open_how how = {
    .flags = O_PATH | O_CLOEXEC,
    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
  };
  const char *rel = source + strlen (root);
  rel += rel[0] == '/';
  long fd = syscall (SYS_openat2, dir, rel, &how, sizeof how);
  return fd < 0 ? -errno : (int) fd;
}

bool
sbx_bind_sources_any (const struct sbx_plan *plan)
{
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if ((is_bind (m) && m->source && outermost_root (plan, m->source))
          || is_settled (plan, m))
        return true;
    }
  return false;
}

int
sbx_bind_sources_open (const struct sbx_plan *plan, int **fds,
                       struct sbx_error *err)
{
  *fds = NULL;
  if (plan->n_mounts == 0)
    return 0;
  int *v = malloc (plan->n_mounts * sizeof *v);
  if (v == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (size_t i = 0; i < plan->n_mounts; i++)
    v[i] = -1;
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      const char *root
          = is_bind (m) && m->source ? outermost_root (plan, m->source) : NULL;
      if (root == NULL && !is_settled (plan, m))
        continue;
      int fd
          = root ? open_beneath (root, m->source) : open_no_links (m->source);
      if (fd == -ENOENT && m->optional)
        continue;
      if (fd < 0)
        {
          sbx_bind_sources_close (v, plan->n_mounts);
          return sbx_fail_errno (err, fd, "cannot hold the bind source %s%s",
                                 m->source,
                                 fd == -ELOOP ? " (a symbolic link appeared "
                                                "in it after it was checked)"
                                              : "");
        }
      v[i] = fd;
    }
  *fds = v;
  return 0;
}

int
sbx_bind_sources_settle (struct sbx_plan *plan, struct sbx_error *err)
{
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      struct sbx_plan_mount *m = &plan->mounts[i];
      if (!is_settled (plan, m) || outermost_root (plan, m->source))
        continue;
      char real[PATH_MAX];
      int r = sbx_real_path (m->source, real, sizeof real);
      if (r == -ENOENT && m->optional)
        continue;
      if (r == -EXDEV)
        return sbx_refuse (err, r, NULL,
                           "the bind source %s leads to nothing a path from "
                           "here names (another mount namespace's file, a "
                           "deleted one, a namespace file): bind a path",
                           m->source);
      if (r < 0)
        return sbx_fail_errno (
            err, r, "cannot tell where the bind source %s leads", m->source);
      if (strcmp (real, m->source) == 0)
        continue;
      if (plan->under_ceiling)
        return sbx_refuse (err, -ELOOP, NULL,
                           "the bind source %s now leads to %s: it was "
                           "changed since it was checked",
                           m->source, real);
      char *copy = strdup (real);
      if (copy == NULL)
        return sbx_fail (err, -ENOMEM, "out of memory");
      free (m->source);
      m->source = copy;
    }
  return 0;
}

void
sbx_bind_sources_close (int *fds, size_t n)
{
  for (size_t i = 0; fds && i < n; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  free (fds);
}
