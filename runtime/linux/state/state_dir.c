#include "config.h"

#include "runtime/linux/state/state_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/renameat2.h"
#include "runtime/state_root.h"

/* A temporary directory older than this whose lock is free is what a
   command killed halfway left.  The age keeps racing creates from
   sweeping each other's directories in the moment before they are locked
   (which would only make them retry).  */
#define STALE_SECONDS 60

/* REL's lock file, relative to the root: "REL/lock", malloc'd.  */
static char *
lock_rel (const char *rel)
{
  char *p = NULL;
  return asprintf (&p, "%s/" SBX_LOCK_FILE, rel) < 0 ? NULL : p;
}

/* flock FD, open on REL (relative to ROOT_FD), with OP.  -ESTALE when the
   file is no longer the one at REL: its holder removed it before letting
   go, so holding it protects nothing.  The lock itself is on the open
   file, so it stays held when the directory is renamed.  */
static int
lock_verified (int fd, int root_fd, const char *rel, int op)
{
  while (flock (fd, op) < 0)
    if (errno != EINTR)
      return -errno;
  struct stat held, now;
  if (fstat (fd, &held) < 0)
    return -errno;
  if (fstatat (root_fd, rel, &now, AT_SYMLINK_NOFOLLOW) < 0)
    return errno == ENOENT ? -ESTALE : -errno;
  if (held.st_ino != now.st_ino || held.st_dev != now.st_dev)
    return -ESTALE;
  return 0;
}

/* Whether DFD is still the directory ROOT_FD/ID.  */
static int
still_there (int root_fd, const char *id, int dfd)
{
  struct stat at, now;
  if (fstat (dfd, &at) < 0)
    return -errno;
  if (fstatat (root_fd, id, &now, AT_SYMLINK_NOFOLLOW) < 0)
    return errno == ENOENT ? -ESTALE : -errno;
  return at.st_ino == now.st_ino && at.st_dev == now.st_dev ? 0 : -ESTALE;
}

/* Lock the lock file of DFD, opened as ROOT/ID.  -ESTALE, with ERR unset,
   to start over: DFD is no longer ROOT/ID (moved aside by its remover) or
   the file locked is no longer its.  */
static int
lock_in (int root_fd, const char *id, int dfd, const char *dir, int *lock_fd,
         struct sbx_error *err)
{
  cleanup_free char *rel = lock_rel (id);
  if (rel == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_close int fd
      = openat (dfd, SBX_LOCK_FILE, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  bool made = false;
  if (fd < 0 && errno == ENOENT)
    {
      /* Only a directory an older sbx-oci died making before its lock
         file has none while it is ROOT/ID: lock it as that did.  */
      int r = still_there (root_fd, id, dfd);
      if (r < 0)
        return r == -ESTALE ? r
                            : sbx_fail_errno (err, r, "cannot open %s", dir);
      fd = openat (dfd, SBX_LOCK_FILE,
                   O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (fd < 0 && errno == EEXIST)
        return -ESTALE;
      made = fd >= 0;
    }
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s/" SBX_LOCK_FILE, dir);
  int r = lock_verified (fd, root_fd, rel, LOCK_EX);
  struct stat a, b;
  /* Made in a directory moved aside meanwhile: do not leave it there to
     keep its remover's rmdir from failing.  */
  if (r == -ESTALE && made && fstat (fd, &a) == 0
      && fstatat (dfd, SBX_LOCK_FILE, &b, AT_SYMLINK_NOFOLLOW) == 0
      && a.st_ino == b.st_ino)
    unlinkat (dfd, SBX_LOCK_FILE, 0);
  if (r < 0 && r != -ESTALE)
    return sbx_fail_errno (err, r, "cannot lock %s/" SBX_LOCK_FILE, dir);
  if (r == 0)
    *lock_fd = steal_fd (&fd);
  return r;
}

int
sbx_state_dir_lock (int root_fd, const char *dir, const char *id, int *dir_fd,
                    int *lock_fd, struct sbx_error *err)
{
  /* Each retry means the container was removed and made again while we
     waited for its lock: a bound, not a spin, but a bound all the same. */
  for (int tries = 0; tries < 100; tries++)
    {
      /* The directory is resolved once, so "it has no lock file" and
         "it is ROOT/ID" are said of the same one.  */
      cleanup_close int dfd = -1;
      int r = sbx_state_subdir_open (root_fd, id, dir, &dfd, err);
      if (r == -ENOENT)
        return sbx_fail_kind (err, SBX_ERROR_NO_CONTAINER, -ENOENT,
                              "container \"%s\" does not exist", id);
      if (r < 0)
        return r;
      r = lock_in (root_fd, id, dfd, dir, lock_fd, err);
      if (r == 0)
        *dir_fd = steal_fd (&dfd);
      if (r != -ESTALE)
        return r;
    }
  return sbx_fail (err, -EAGAIN,
                   "container \"%s\" was removed and made again 100 times "
                   "while waiting for its lock: try again",
                   id);
}

/* The one directory a state directory holds: the devpts instance of a
   create with a terminal (runtime/linux/container/create_console.c), still
   mounted when that create was killed.  Unmounted through DFD, whatever path
   the state directory has by now.  */
static void
remove_subdir (int dfd, const char *name)
{
  char path[PATH_MAX];
  if (snprintf (path, sizeof path, "/proc/self/fd/%d/%s", dfd, name)
      < (int) sizeof path)
    umount2 (path, MNT_DETACH | UMOUNT_NOFOLLOW);
  unlinkat (dfd, name, AT_REMOVEDIR);
}

static int
remove_entries (int dfd)
{
  int copy = dup (dfd);
  DIR *d = copy < 0 ? NULL : fdopendir (copy);
  if (d == NULL)
    {
      int e = errno;
      if (copy >= 0)
        close (copy);
      return -e;
    }
  rewinddir (d); /* the dup shares the offset a previous pass left */
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0
        && unlinkat (dfd, e->d_name, 0) < 0 && errno == EISDIR)
      remove_subdir (dfd, e->d_name);
  closedir (d);
  return 0;
}

/* Take ROOT_FD/NAME apart where it is; errors name SHOWN, the directory
   the caller knows.  A symlink is not followed: only the directory the
   name is gets emptied.  A second pass catches the lock file lock_in may
   have made in it while it was being moved aside.  */
static int
remove_in_place (int root_fd, const char *name, const char *shown,
                 struct sbx_error *err)
{
  cleanup_close int dfd = openat (
      root_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0)
    return errno == ENOENT
               ? 0
               : sbx_fail_errno (err, -errno, "cannot open %s", shown);
  int r = 0;
  for (int pass = 0; pass < 2; pass++)
    {
      if ((r = remove_entries (dfd)) < 0)
        return sbx_fail_errno (err, r, "cannot read %s", shown);
      if ((r = unlinkat (root_fd, name, AT_REMOVEDIR) < 0 ? -errno : 0)
          != -ENOTEMPTY)
        break;
    }
  if (r < 0 && r != -ENOENT)
    return sbx_fail_errno (err, r, "cannot remove %s", shown);
  return 0;
}

/* A fresh empty temporary directory in ROOT_FD, its name in NAME; -errno
   when it cannot be made.  */
static int
make_temp_dir (int root_fd, char *name, size_t size)
{
  for (int tries = 0; tries < 16; tries++)
    {
      unsigned char rnd[4];
      if (getrandom (rnd, sizeof rnd, 0) != sizeof rnd)
        return errno ? -errno : -EIO;
      snprintf (name, size, SBX_TEMP_DIR_PREFIX "%02x%02x%02x%02x", rnd[0],
                rnd[1], rnd[2], rnd[3]);
      if (mkdirat (root_fd, name, 0700) == 0)
        return 0;
      if (errno != EEXIST)
        return -errno;
    }
  return -EEXIST;
}

int
sbx_state_dir_remove (int root_fd, const char *dir, const char *id,
                      struct sbx_error *err)
{
  /* Renamed over an empty temporary directory first (rename() replaces
     one): the id is free at once, and no reader ever finds ROOT/ID half
     removed, without its lock file.  A directory that cannot be moved
     (itself a mount point, say) is taken apart in place.  */
  char aside[64];
  bool moved = make_temp_dir (root_fd, aside, sizeof aside) == 0;
  if (moved && renameat (root_fd, id, root_fd, aside) < 0)
    {
      int saved = errno;
      unlinkat (root_fd, aside, AT_REMOVEDIR);
      if (saved == ENOENT)
        return 0;
      moved = false;
    }
  return remove_in_place (root_fd, moved ? aside : id, dir, err);
}

static void
sweep_one (int root_fd, const char *name)
{
  cleanup_free char *rel = lock_rel (name);
  if (rel == NULL)
    return;
  cleanup_close int dfd = openat (
      root_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0)
    return;
  cleanup_close int fd
      = openat (dfd, SBX_LOCK_FILE, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  /* No lock file: killed before it made one, or after its removal had
     unlinked it.  */
  bool stale = fd < 0
                   ? errno == ENOENT
                   : lock_verified (fd, root_fd, rel, LOCK_EX | LOCK_NB) == 0;
  struct sbx_error ignored = { 0 };
  if (stale)
    remove_in_place (root_fd, name, name, &ignored);
}

/* Best effort, as a leftover only takes space.  */
static void
sweep_stale (int root_fd)
{
  int copy = dup (root_fd);
  DIR *d = copy < 0 ? NULL : fdopendir (copy);
  if (d == NULL)
    {
      if (copy >= 0)
        close (copy);
      return;
    }
  rewinddir (d);
  time_t now = time (NULL);
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      struct stat st;
      if (strncmp (e->d_name, SBX_TEMP_DIR_PREFIX,
                   strlen (SBX_TEMP_DIR_PREFIX))
              == 0
          && fstatat (root_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISDIR (st.st_mode) && now - st.st_mtime >= STALE_SECONDS)
        sweep_one (root_fd, e->d_name);
    }
  closedir (d);
}

/* Make and lock the lock file of TEMP, open as TFD.  -ESTALE, with ERR
   unset, when a sweep removed TEMP before it was locked.  DIR names it in
   errors: the temporary name would mean nothing to the caller.  */
static int
lock_new (int root_fd, const char *temp, int tfd, const char *dir,
          int *lock_fd, struct sbx_error *err)
{
  cleanup_free char *rel = lock_rel (temp);
  if (rel == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_close int fd
      = openat (tfd, SBX_LOCK_FILE,
                O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT)
    return -ESTALE;
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot create %s", dir);
  int r = lock_verified (fd, root_fd, rel, LOCK_EX);
  if (r < 0 && r != -ESTALE)
    return sbx_fail_errno (err, r, "cannot lock %s/" SBX_LOCK_FILE, dir);
  *lock_fd = r == 0 ? steal_fd (&fd) : -1;
  return r;
}

/* Move the locked TEMP to ID.  A plain rename() replaces an empty
   directory, which is why it is only the fallback where the file system
   has no RENAME_NOREPLACE: ROOT/ID then exists only as a container's
   directory, never empty as it holds its lock file from the first
   moment, or as an empty one an older sbx-oci died making.  */
static int
publish (int root_fd, const char *temp, const char *dir, const char *id,
         struct sbx_error *err)
{
  int r = sbx_renameat2 (root_fd, temp, root_fd, id, RENAME_NOREPLACE);
  if (r < 0 && (errno == EINVAL || errno == ENOSYS))
    r = renameat (root_fd, temp, root_fd, id);
  if (r < 0 && (errno == EEXIST || errno == ENOTEMPTY))
    return sbx_fail (err, -EEXIST, "container \"%s\" already exists", id);
  if (r < 0)
    return sbx_fail_errno (err, -errno, "cannot create %s", dir);
  return 0;
}

static int
claim_once (int root_fd, const char *dir, const char *id, int *dir_fd,
            int *lock_fd, struct sbx_error *err)
{
  char temp[64];
  int r = make_temp_dir (root_fd, temp, sizeof temp);
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot create %s", dir);
  cleanup_close int tfd = openat (
      root_fd, temp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  cleanup_close int fd = -1;
  r = tfd < 0 ? (errno == ENOENT
                     ? -ESTALE
                     : sbx_fail_errno (err, -errno, "cannot create %s", dir))
              : lock_new (root_fd, temp, tfd, dir, &fd, err);
  if (r == 0)
    r = publish (root_fd, temp, dir, id, err);
  if (r == 0)
    {
      *lock_fd = steal_fd (&fd);
      *dir_fd = steal_fd (&tfd);
    }
  struct sbx_error ignored = { 0 };
  if (r < 0)
    remove_in_place (root_fd, temp, temp, &ignored);
  return r;
}

int
sbx_state_dir_claim (int root_fd, const char *dir, const char *id, int *dir_fd,
                     int *lock_fd, struct sbx_error *err)
{
  sweep_stale (root_fd);
  int r;
  for (int tries = 0; tries < 3; tries++)
    if ((r = claim_once (root_fd, dir, id, dir_fd, lock_fd, err)) != -ESTALE)
      return r;
  return sbx_fail (err, -EAGAIN,
                   "cannot create %s: its temporary directory kept being "
                   "removed: try again",
                   dir);
}
