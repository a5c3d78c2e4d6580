#include "runtime/linux/container/create_console.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/container/console.h"
#include "runtime/linux/real_path.h"

/* Bind PTS over /dev/pts right after the plan's /dev, by its real path:
   bwrap, a mapped uid with uid ranges, can reach it by no other
   (runner_cover.h).  */
static int
plan_bind_pts (struct sbx_plan *plan, const char *pts, struct sbx_error *err)
{
  char real[PATH_MAX];
  int r = sbx_real_path (pts, real, sizeof real);
  if (r < 0)
    return sbx_fail_errno (err, r, "%s", pts);
  size_t at = plan->n_mounts;
  for (size_t i = 0; i < plan->n_mounts; i++)
    if (plan->mounts[i].op == SBX_PLAN_DEV
        && strcmp (plan->mounts[i].dest, "/dev") == 0)
      at = i + 1;
  if (at == plan->n_mounts
      && (plan->n_mounts == 0 || plan->mounts[at - 1].op != SBX_PLAN_DEV))
    return sbx_fail (err, -EINVAL,
                     "process.terminal: the sandbox has no /dev for a "
                     "terminal");
  struct sbx_plan_mount *grown
      = realloc (plan->mounts, (plan->n_mounts + 1) * sizeof *grown);
  if (grown == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  plan->mounts = grown;
  memmove (grown + at + 1, grown + at, (plan->n_mounts - at) * sizeof *grown);
  plan->n_mounts++;
  grown[at] = (struct sbx_plan_mount){ .op = SBX_PLAN_BIND_DEV,
                                       .why = SBX_WHY_SYSTEM,
                                       .source = strdup (real),
                                       .dest = strdup ("/dev/pts"),
                                       .perms = -1 };
  if (grown[at].source == NULL || grown[at].dest == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  return 0;
}

int
sbx_create_console_open (struct sbx_create_console *con, const char *state_dir,
                         const char *socket_path, const int64_t owner[2],
                         struct sbx_plan *plan, struct sbx_error *err)
{
  cleanup_free char *pts = NULL;
  if (asprintf (&pts, "%s/pts", state_dir) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (mkdir (pts, 0755) < 0)
    return sbx_fail_errno (err, -errno, "cannot create %s", pts);
  /* The group of every terminal the container opens later too, unless
     this namespace cannot name it (EINVAL: sbx_console_give).  */
  char options[80] = "newinstance,ptmxmode=0666,mode=0620";
  size_t plain = strlen (options);
  if (owner[1] >= 0)
    snprintf (options + plain, sizeof options - plain, ",gid=%lld",
              (long long) owner[1]);
  int mounted
      = mount ("devpts", pts, "devpts", MS_NOSUID | MS_NOEXEC, options);
  if (mounted < 0 && errno == EINVAL && owner[1] >= 0)
    {
      options[plain] = '\0';
      mounted
          = mount ("devpts", pts, "devpts", MS_NOSUID | MS_NOEXEC, options);
    }
  if (mounted < 0)
    {
      int r = -errno;
      rmdir (pts);
      return sbx_fail_errno (err, r,
                             "process.terminal: cannot mount a devpts "
                             "instance at %s (%s)",
                             pts, options);
    }
  con->pts_dir = steal_pointer (&pts);
  cleanup_free char *ptmx = NULL;
  if (asprintf (&ptmx, "%s/ptmx", con->pts_dir) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_close int master = -1;
  int r = sbx_console_open (ptmx, &master, &con->slave, err);
  r = r ?: sbx_console_give (con->slave, owner, err);
  r = r ?: plan_bind_pts (plan, con->pts_dir, err);
  return r ?: sbx_console_send (socket_path, master, err);
}

int
sbx_create_console_swap_in (struct sbx_create_console *con)
{
  for (int fd = 0; fd < 3; fd++)
    if ((con->saved[fd] = fcntl (fd, F_DUPFD_CLOEXEC, 3)) < 0
        || dup2 (con->slave, fd) < 0)
      return -errno;
  return 0;
}

void
sbx_create_console_swap_out (struct sbx_create_console *con)
{
  for (int fd = 0; fd < 3; fd++)
    if (con->saved[fd] >= 0)
      {
        dup2 (con->saved[fd], fd);
        close (con->saved[fd]);
        con->saved[fd] = -1;
      }
}

void
sbx_create_console_close (struct sbx_create_console *con)
{
  sbx_create_console_swap_out (con);
  if (con->slave >= 0)
    close (con->slave);
  con->slave = -1;
  if (con->pts_dir)
    {
      umount2 (con->pts_dir, MNT_DETACH);
      rmdir (con->pts_dir);
      free (con->pts_dir);
      con->pts_dir = NULL;
    }
}
