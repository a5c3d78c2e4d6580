/* `sbx-oci delete [--force] ID`: remove a stopped (or never started)
   container; --force first ends a running one through sbx_terminate (its
   pid namespace and its cgroup).  The watcher is stopped and the cgroup
   sbx created is removed; cgroups sbx did not create are never touched
   (the cgroups module removes only the directories it made).  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/cli.h"
#include "runtime/logged_hooks.h"
#include "runtime/limits_report.h"
#include "runtime/linux/pidfd.h"
#include "runtime/state_store.h"
#include "runtime/terminate.h"

#define KILL_WAIT_MS 10000

static int
end_sandbox (const struct sbx_container *c, struct sbx_cgroup *cg,
             struct sbx_error *err)
{
  cleanup_close int fd = sbx_state_pidfd (c);
  if (fd < 0)
    return 0; /* already gone */
  int r = sbx_terminate (fd, cg, KILL_WAIT_MS, err);
  if (r < 0)
    sbx_error_prefix (err, "container \"%s\"", c->id);
  return r;
}

/* Whatever is left in the cgroup (a process that joined it but not the
   namespace) is ended, then the cgroup is removed.  */
static int
remove_cgroup (struct sbx_cgroup *cg, struct sbx_error *err)
{
  struct sbx_error ignored = { 0 };
  sbx_cgroup_kill (cg, SIGKILL, &ignored);
  return sbx_cgroup_destroy (cg, err);
}

static bool
holds_file (const char *pid, const struct stat *want)
{
  char dir[300];
  snprintf (dir, sizeof dir, "/proc/%s/fd", pid);
  DIR *d = opendir (dir);
  if (d == NULL)
    return false;
  bool found = false;
  struct dirent *e;
  while (!found && (e = readdir (d)) != NULL)
    {
      struct stat st;
      found = fstatat (dirfd (d), e->d_name, &st, 0) == 0
              && st.st_ino == want->st_ino && st.st_dev == want->st_dev;
    }
  closedir (d);
  return found;
}

/* With its state unreadable, a created container can still be found: its
   held first process is the one process holding the release FIFO.  */
static void
end_fifo_holders (const struct sbx_container *c)
{
  struct stat want;
  if (fstatat (c->dir_fd, SBX_RELEASE_FIFO, &want, AT_SYMLINK_NOFOLLOW) < 0
      || !S_ISFIFO (want.st_mode))
    return;
  DIR *d = opendir ("/proc");
  struct dirent *e;
  while (d && (e = readdir (d)) != NULL)
    if (e->d_name[0] >= '1' && e->d_name[0] <= '9'
        && holds_file (e->d_name, &want))
      {
        int fd = sbx_pidfd_open (atoi (e->d_name));
        if (fd >= 0 && holds_file (e->d_name, &want))
          sbx_pidfd_signal (fd, SIGKILL);
        if (fd >= 0)
          close (fd);
      }
  if (d)
    closedir (d);
}

static int
delete_container (const struct sbx_globals *g, struct sbx_container *c,
                  bool force, struct sbx_error *err)
{
  enum sbx_status s = sbx_state_status (c);
  if (s == SBX_STATUS_RUNNING && !force)
    return sbx_fail (err, -EBUSY,
                     "cannot delete container \"%s\" that is not stopped: "
                     "kill it first or use --force",
                     c->id);
  struct sbx_cgroup *cg = NULL;
  int r = sbx_container_cgroup (c, &cg, err);
  if (r < 0 && force)
    {
      /* A cgroup record that no longer names a cgroup must not keep
         --force from removing the container; its pid 1 still ends it. */
      sbx_log_warning (g, "%s", err->msg);
      sbx_error_clear (err);
      r = 0;
    }
  if (r == 0 && s != SBX_STATUS_STOPPED)
    r = end_sandbox (c, cg, err);
  if (r == 0)
    {
      sbx_container_watcher_stop (c);
      sbx_run_logged_hooks (g, c, "poststop", false);
      r = cg ? remove_cgroup (cg, err) : 0;
    }
  if (cg)
    sbx_cgroup_free (cg);
  return r ?: sbx_state_remove (c, err);
}

int
sbx_cmd_delete (struct sbx_globals *g, int argc, char **argv,
                struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "force", no_argument, NULL, 'f' },
    { NULL, 0, NULL, 0 },
  };
  bool force = false;
  int opt;
  while ((opt = getopt_long (argc, argv, "+f", longopts, NULL)) != -1)
    if (opt == 'f')
      force = true;
    else
      return sbx_fail (err, -EINVAL, "delete: unknown option (see --help)");
  if (optind != argc - 1)
    return sbx_fail (err, -EINVAL,
                     "delete: expected exactly one container id");
  struct sbx_container c;
  int r = sbx_state_open (sbx_state_root (g), argv[optind], true, &c, err);
  if (r == -ENOENT && force)
    r = 0; /* as runc: nothing to delete is not an error */
  else if (r == -EINVAL && force && c.dir)
    {
      /* Unreadable state: nothing can be trusted but the directory.  */
      sbx_error_clear (err);
      end_fifo_holders (&c);
      r = sbx_state_remove (&c, err);
    }
  else if (r == 0)
    r = delete_container (g, &c, force, err);
  sbx_state_close (&c);
  return r < 0 ? r : 0;
}
