#include "runtime/state_root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/host_root.h"
#include "runtime/context.h"

/* Found without flags: podman calls `state` with no --root.  As runc
   finds its own: the host's root's is /run/sbx-oci; uid 0 of another user
   namespace (rootless podman's runtime, which gets no --root either)
   takes $XDG_RUNTIME_DIR/sbx-oci when it has one that is not root's
   (USER), else /run/sbx-oci of its own file system; anyone else
   $XDG_RUNTIME_DIR/sbx-oci, or /tmp/sbx-oci-UID without one.  */
const char *
sbx_state_root (const struct sbx_context *g)
{
  static char buf[4096];
  if (g->root)
    return g->root;
  const char *xdg = getenv ("XDG_RUNTIME_DIR");
  const char *user = getenv ("USER");
  bool has_xdg = xdg && xdg[0] == '/';
  if (sbx_host_root ()
      || (geteuid () == 0
          && (!has_xdg || (user && strcmp (user, "root") == 0))))
    return "/run/sbx-oci";
  if (has_xdg)
    snprintf (buf, sizeof buf, "%s/sbx-oci", xdg);
  else
    snprintf (buf, sizeof buf, "/tmp/sbx-oci-%u", (unsigned) geteuid ());
  return buf;
}

int
sbx_state_check_id (const char *id, struct sbx_error *err)
{
  size_t n = strlen (id);
  if (n == 0 || n > 1024 || strcmp (id, ".") == 0 || strcmp (id, "..") == 0
      || strspn (id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                     "0123456789_.-")
             != n)
    return sbx_fail (err, -EINVAL,
                     "invalid container id \"%.64s\": use 1 to 1024 of "
                     "A-Z a-z 0-9 _ . -",
                     id);
  return 0;
}

int
sbx_state_trust_check (const char *what, const char *path,
                       const struct stat *st, mode_t type, uid_t euid,
                       struct sbx_error *err)
{
  const char *kind = type == S_IFDIR ? "directory" : "regular file";
  /* Only the root can be replaced by another of the caller's choosing.  */
  const char *or_other = strcmp (what, "state root") == 0
                             ? ", or name one of your own with --root"
                             : "";
  if ((st->st_mode & S_IFMT) != type)
    return sbx_fail (err, -EPERM, "%s %s is not a %s: remove it", what, path,
                     kind);
  if (st->st_uid != euid)
    return sbx_fail (err, -EPERM,
                     "%s %s is owned by uid %u, not by uid %u who runs "
                     "sbx-oci: remove it%s",
                     what, path, (unsigned) st->st_uid, (unsigned) euid,
                     or_other);
  if (st->st_mode & (S_IWGRP | S_IWOTH))
    return sbx_fail (err, -EPERM,
                     "%s %s is writable by group or others (mode %04o): "
                     "chmod go-w it%s",
                     what, path, (unsigned) (st->st_mode & 07777), or_other);
  return 0;
}

/* Open PATH, a directory, without following it if it is a symlink, and
   check it.  -ENOENT with ERR untouched when missing.  */
static int
open_checked (int dirfd, const char *name, const char *what, const char *shown,
              int *fd, struct sbx_error *err)
{
  cleanup_close int d
      = openat (dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (d < 0 && errno == ENOENT)
    return -ENOENT;
  struct stat st;
  if (d < 0 && (errno == ELOOP || errno == ENOTDIR)
      && fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
    return S_ISLNK (st.st_mode)
               ? sbx_fail (err, -EPERM,
                           "%s %s is a symlink: name the directory itself, "
                           "or remove it",
                           what, shown)
               : sbx_fail (err, -ENOTDIR, "%s %s is not a directory", what,
                           shown);
  if (d < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s %s", what, shown);
  if (fstat (d, &st) < 0)
    return sbx_fail_errno (err, -errno, "cannot stat %s %s", what, shown);
  int r = sbx_state_trust_check (what, shown, &st, S_IFDIR, geteuid (), err);
  if (r == 0)
    *fd = steal_fd (&d);
  return r;
}

/* mkdir -p ROOT: parents 0755, ROOT itself 0700.  Nothing made here is
   trusted for having been made: the caller opens and checks it.  */
static int
make_root (const char *root, struct sbx_error *err)
{
  /* The root is nearly always there already: its parents are made only
     when it cannot be.  */
  if (mkdir (root, 0700) == 0 || errno == EEXIST)
    return 0;
  if (errno != ENOENT)
    return sbx_fail_errno (err, -errno, "--root: cannot create %s", root);
  cleanup_free char *copy = strdup (root);
  if (copy == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (char *p = copy + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (copy, 0755) < 0 && errno != EEXIST)
          return sbx_fail_errno (err, -errno, "--root: cannot create %s",
                                 copy);
        *p = '/';
      }
  if (mkdir (copy, 0700) < 0 && errno != EEXIST)
    return sbx_fail_errno (err, -errno, "--root: cannot create %s", copy);
  return 0;
}

int
sbx_state_root_open (const char *root, bool make, int *fd,
                     struct sbx_error *err)
{
  int r = make ? make_root (root, err) : 0;
  if (r < 0)
    return r;
  return open_checked (AT_FDCWD, root, "state root", root, fd, err);
}

int
sbx_state_subdir_open (int dirfd, const char *name, const char *shown, int *fd,
                       struct sbx_error *err)
{
  return open_checked (dirfd, name, "state directory", shown, fd, err);
}
