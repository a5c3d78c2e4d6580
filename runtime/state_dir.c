#include "config.h"

#include "runtime/state_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"

/* A temporary directory older than this whose lock is free is what a
   command killed halfway left.  The age keeps racing creates from
   sweeping each other's directories in the moment before they are locked
   (which would only make them retry).  */
#define STALE_SECONDS 60

/* flock FD, open on PATH, with OP.  -ESTALE when the file is no longer
   the one at PATH: its holder removed it before letting go, so holding it
   protects nothing.  The lock itself is on the open file, so it stays
   held when the directory is renamed.  */
static int
lock_verified (int fd, const char *path, int op)
{
  while (flock (fd, op) < 0)
    if (errno != EINTR)
      return -errno;
  struct stat held, now;
  if (fstat (fd, &held) < 0)
    return -errno;
  if (stat (path, &now) < 0)
    return errno == ENOENT ? -ESTALE : -errno;
  if (held.st_ino != now.st_ino || held.st_dev != now.st_dev)
    return -ESTALE;
  return 0;
}

/* Lock the lock file of DFD, opened as DIR.  -ESTALE, with ERR unset, to
   start over: DFD is no longer DIR (moved aside by its remover) or the
   file locked is no longer DIR's.  */
static int
lock_in (int dfd, const char *dir, const char *path, int *lock_fd,
         struct sbx_error *err)
{
  cleanup_close int fd = openat (dfd, SBX_LOCK_FILE, O_RDWR | O_CLOEXEC);
  bool made = false;
  if (fd < 0 && errno == ENOENT)
    {
      /* Only a directory an older sbx-oci died making before its lock
         file has none while it is DIR: lock it as that did.  */
      struct stat at, now;
      if (fstat (dfd, &at) < 0 || stat (dir, &now) < 0)
        return errno == ENOENT
                   ? -ESTALE
                   : sbx_fail_errno (err, -errno, "cannot open %s", dir);
      if (at.st_ino != now.st_ino || at.st_dev != now.st_dev)
        return -ESTALE;
      fd = openat (dfd, SBX_LOCK_FILE, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
                   0600);
      if (fd < 0 && errno == EEXIST)
        return -ESTALE;
      made = fd >= 0;
    }
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s", path);
  int r = lock_verified (fd, path, LOCK_EX);
  struct stat a, b;
  /* Made in a directory moved aside meanwhile: do not leave it there to
     keep its remover's rmdir from failing.  */
  if (r == -ESTALE && made && fstat (fd, &a) == 0
      && fstatat (dfd, SBX_LOCK_FILE, &b, 0) == 0 && a.st_ino == b.st_ino)
    unlinkat (dfd, SBX_LOCK_FILE, 0);
  if (r < 0 && r != -ESTALE)
    return sbx_fail_errno (err, r, "cannot lock %s", path);
  if (r == 0)
    *lock_fd = steal_fd (&fd);
  return r;
}

int
sbx_state_dir_lock (const char *dir, const char *id, int *lock_fd,
                    struct sbx_error *err)
{
  cleanup_free char *path = NULL;
  if (asprintf (&path, "%s/" SBX_LOCK_FILE, dir) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* Each retry means the container was removed and made again while we
     waited for its lock: a bound, not a spin, but a bound all the same. */
  for (int tries = 0; tries < 100; tries++)
    {
      /* The directory is resolved once, so "it has no lock file" and
         "it is DIR" are said of the same one.  */
      cleanup_close int dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dfd < 0 && errno == ENOENT)
        return sbx_fail (err, -ENOENT, "container \"%s\" does not exist", id);
      if (dfd < 0)
        return sbx_fail_errno (err, -errno, "cannot open %s", dir);
      int r = lock_in (dfd, dir, path, lock_fd, err);
      if (r != -ESTALE)
        return r;
    }
  return sbx_fail (err, -EAGAIN,
                   "container \"%s\" was removed and made again 100 times "
                   "while waiting for its lock: try again",
                   id);
}

/* The one directory a state directory holds: the devpts instance of a
   create with a terminal (runtime/create_console.c), still mounted when
   that create was killed.  */
static void
remove_subdir (int dfd, const char *dir, const char *name)
{
  cleanup_free char *path = NULL;
  if (asprintf (&path, "%s/%s", dir, name) >= 0)
    umount2 (path, MNT_DETACH | UMOUNT_NOFOLLOW);
  unlinkat (dfd, name, AT_REMOVEDIR);
}

static int
remove_entries (int dfd, const char *path)
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
      remove_subdir (dfd, path, e->d_name);
  closedir (d);
  return 0;
}

/* Take PATH apart where it is; errors name SHOWN, the directory the
   caller knows.  A second pass catches the lock file lock_in may have
   made in it while it was being moved aside.  */
static int
remove_in_place (const char *path, const char *shown, struct sbx_error *err)
{
  cleanup_close int dfd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return errno == ENOENT
               ? 0
               : sbx_fail_errno (err, -errno, "cannot open %s", shown);
  int r = 0;
  for (int pass = 0; pass < 2; pass++)
    {
      if ((r = remove_entries (dfd, path)) < 0)
        return sbx_fail_errno (err, r, "cannot read %s", shown);
      if ((r = rmdir (path) < 0 ? -errno : 0) != -ENOTEMPTY)
        break;
    }
  if (r < 0 && r != -ENOENT)
    return sbx_fail_errno (err, r, "cannot remove %s", shown);
  return 0;
}

/* A fresh empty temporary directory next to DIR, malloc'd; NULL when it
   cannot be made.  */
static char *
make_temp_dir (const char *dir)
{
  const char *slash = strrchr (dir, '/');
  char *temp = NULL;
  errno = EINVAL;
  if (slash == NULL
      || asprintf (&temp, "%.*s/" SBX_TEMP_DIR_PREFIX "XXXXXX",
                   (int) (slash - dir), dir)
             < 0)
    return NULL;
  if (mkdtemp (temp) == NULL)
    {
      free (temp);
      return NULL;
    }
  return temp;
}

int
sbx_state_dir_remove (const char *dir, struct sbx_error *err)
{
  /* Renamed over an empty temporary directory first (rename() replaces
     one): the id is free at once, and no reader ever finds DIR half
     removed, without its lock file.  A directory that cannot be moved
     (itself a mount point, say) is taken apart in place.  */
  cleanup_free char *aside = make_temp_dir (dir);
  if (aside && rename (dir, aside) < 0)
    {
      int saved = errno;
      rmdir (aside);
      if (saved == ENOENT)
        return 0;
      free (steal_pointer (&aside));
    }
  return remove_in_place (aside ? aside : dir, dir, err);
}

static void
sweep_one (const char *root, const char *name)
{
  cleanup_free char *path = NULL, *lock = NULL;
  if (asprintf (&path, "%s/%s", root, name) < 0
      || asprintf (&lock, "%s/" SBX_LOCK_FILE, path) < 0)
    return;
  cleanup_close int fd = open (lock, O_RDWR | O_CLOEXEC);
  /* No lock file: killed before it made one, or after its removal had
     unlinked it.  */
  bool stale = fd < 0 ? errno == ENOENT
                      : lock_verified (fd, lock, LOCK_EX | LOCK_NB) == 0;
  struct sbx_error ignored = { 0 };
  if (stale)
    remove_in_place (path, path, &ignored);
}

/* Best effort, as a leftover only takes space.  */
static void
sweep_stale (const char *root)
{
  DIR *d = opendir (root);
  if (d == NULL)
    return;
  time_t now = time (NULL);
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      struct stat st;
      if (strncmp (e->d_name, SBX_TEMP_DIR_PREFIX,
                   strlen (SBX_TEMP_DIR_PREFIX))
              == 0
          && fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISDIR (st.st_mode) && now - st.st_mtime >= STALE_SECONDS)
        sweep_one (root, e->d_name);
    }
  closedir (d);
}

/* Make and lock TEMP's lock file.  -ESTALE, with ERR unset, when a sweep
   removed TEMP before it was locked.  DIR names it in errors: the
   temporary name would mean nothing to the caller.  */
static int
lock_new (const char *temp, const char *dir, int *lock_fd,
          struct sbx_error *err)
{
  cleanup_free char *lock = NULL;
  if (asprintf (&lock, "%s/" SBX_LOCK_FILE, temp) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_close int fd
      = open (lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT)
    return -ESTALE;
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot create %s", dir);
  int r = lock_verified (fd, lock, LOCK_EX);
  if (r < 0 && r != -ESTALE)
    return sbx_fail_errno (err, r, "cannot lock %s/" SBX_LOCK_FILE, dir);
  *lock_fd = r == 0 ? steal_fd (&fd) : -1;
  return r;
}

/* Move the locked TEMP to DIR.  A plain rename() replaces an empty
   directory, which is why it is only the fallback where the file system
   has no RENAME_NOREPLACE: DIR then exists only as a container's
   directory, never empty as it holds its lock file from the first
   moment, or as an empty one an older sbx-oci died making.  */
static int
publish (const char *temp, const char *dir, const char *id,
         struct sbx_error *err)
{
  int r = renameat2 (AT_FDCWD, temp, AT_FDCWD, dir, RENAME_NOREPLACE);
  if (r < 0 && (errno == EINVAL || errno == ENOSYS))
    r = rename (temp, dir);
  if (r < 0 && (errno == EEXIST || errno == ENOTEMPTY))
    return sbx_fail (err, -EEXIST, "container \"%s\" already exists", id);
  if (r < 0)
    return sbx_fail_errno (err, -errno, "cannot create %s", dir);
  return 0;
}

static int
claim_once (const char *dir, const char *id, int *lock_fd,
            struct sbx_error *err)
{
  cleanup_free char *temp = make_temp_dir (dir);
  if (temp == NULL)
    return errno == ENOMEM
               ? sbx_fail (err, -ENOMEM, "out of memory")
               : sbx_fail_errno (err, -errno, "cannot create %s", dir);
  cleanup_close int fd = -1;
  int r = lock_new (temp, dir, &fd, err);
  if (r == 0)
    r = publish (temp, dir, id, err);
  if (r == 0)
    *lock_fd = steal_fd (&fd);
  struct sbx_error ignored = { 0 };
  if (r < 0)
    remove_in_place (temp, temp, &ignored);
  return r;
}

int
sbx_state_dir_claim (const char *root, const char *dir, const char *id,
                     int *lock_fd, struct sbx_error *err)
{
  sweep_stale (root);
  int r;
  for (int tries = 0; tries < 3; tries++)
    if ((r = claim_once (dir, id, lock_fd, err)) != -ESTALE)
      return r;
  return sbx_fail (err, -EAGAIN,
                   "cannot create %s: its temporary directory kept being "
                   "removed: try again",
                   dir);
}
