/* Resolution beneath a layer: openat2 from the layer's O_PATH descriptor
   with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, so
   that the kernel itself refuses every symbolic link and every ".." out
   of the layer, at the moment of the open the operation then uses.  */
#include "fence/fence_resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

#define FENCE_RESOLVE                                                         \
  (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

int
fence_names_file (const char *op, const char *path, struct sbx_error *err)
{
  size_t n = strlen (path);
  bool dir = n == 0 || path[n - 1] == '/' || strcmp (path, ".") == 0
             || (n >= 2 && strcmp (path + n - 2, "/.") == 0);
  if (!dir)
    return 0;
  return sbx_fail (err, -EISDIR,
                   "fence: %s %s: a path ending in \"/\" or \"/.\" names a "
                   "directory, not a file",
                   op, path);
}

int
fence_target (const struct sbx_fence *f, const char *path,
              enum sbx_fence_access access, struct sbx_fence_verdict *denied,
              struct fence_target *t, struct sbx_error *err)
{
  memset (t, 0, sizeof *t);
  t->denied = denied;
  enum sbx_fence_rule dotdot;
  int r = fence_dotdots (f, path, &dotdot, err);
  if (r < 0)
    return r;
  cleanup_free char *abs = fence_absolute (f, path);
  if (abs == NULL || fence_decide (f, abs, access, &t->v) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  t->layer = fence_layer_of (f, abs);
  if (dotdot != SBX_FENCE_GRANTED)
    return fence_target_refuse (t, dotdot, err);
  if (!t->v.allowed)
    return fence_target_refuse (t, t->v.rule, err);
  const char *rest = t->v.path + strlen (t->layer->dest);
  t->rest = rest + (rest[0] == '/');
  return 0;
}

void
fence_target_free (struct fence_target *t)
{
  sbx_fence_verdict_free (&t->v);
}

int
fence_target_refuse (struct fence_target *t, enum sbx_fence_rule rule,
                     struct sbx_error *err)
{
  t->v.rule = rule;
  t->v.allowed = false;
  fence_explain (&t->v);
  int r = sbx_fence_refusal (&t->v, err);
  if (t->denied)
    {
      *t->denied = t->v; /* moved: T keeps nothing to free */
      memset (&t->v, 0, sizeof t->v);
    }
  return r;
}

int
fence_fail (struct fence_target *t, int r, const char *what,
            struct sbx_error *err)
{
  if (r == -ELOOP)
    return fence_target_refuse (t, SBX_FENCE_SYMLINK, err);
  if (r == -EXDEV)
    return fence_target_refuse (t, SBX_FENCE_ESCAPE, err);
  if (r == -ENOSYS)
    return sbx_fail (err, r,
                     "fence: openat2 is not available (Linux 5.6 "
                     "or later is needed)");
  return sbx_fail_errno (err, r, "fence: %s %s", what, t->v.path);
}

static int
openat2_beneath (int dirfd, const char *rel, int flags, mode_t mode)
{
  struct open_how how = {
    .flags = (unsigned) flags | O_CLOEXEC,
    .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
    .resolve = FENCE_RESOLVE,
  };
  int fd = (int) syscall (SYS_openat2, dirfd, rel, &how, sizeof how);
  return fd < 0 ? -errno : fd;
}

/* Whether the sandbox's kernel could step back over DIR (absolute,
   normalized) as the fence reads it: DIR a directory the fence opens
   beneath its layer as it opens anything.  */
static int
dotdot_over (const struct sbx_fence *f, const char *dir,
             enum sbx_fence_rule *rule, struct sbx_error *err)
{
  const struct fence_layer *l = fence_layer_of (f, dir);
  bool at_layer = l && strcmp (dir, l->dest) == 0;
  if (l && !fence_shows_host (l))
    {
      /* A mount point is a directory of the sandbox's (unless a file is
         bound there); below one the fence cannot see.  */
      if (l->op == SBX_PLAN_HIDE_FILE && at_layer)
        return sbx_fail_errno (err, -ENOTDIR, "fence: %s", dir);
      if (!at_layer)
        *rule = fence_layer_rule (l, SBX_FENCE_READ);
      return 0;
    }
  if (l == NULL)
    {
      *rule = fence_layer_rule (NULL, SBX_FENCE_READ);
      return 0;
    }
  const char *rest = dir + strlen (l->dest);
  rest += rest[0] == '/';
  int fd
      = openat2_beneath (l->fd, rest[0] ? rest : ".", O_PATH | O_DIRECTORY, 0);
  if (fd == -ELOOP)
    *rule = SBX_FENCE_SYMLINK;
  else if (fd == -EXDEV)
    *rule = SBX_FENCE_ESCAPE;
  else if (fd < 0)
    return sbx_fail_errno (err, fd, "fence: %s", dir);
  else
    close (fd);
  return 0;
}

/* The sandbox's kernel takes "X/.." as the parent of what X resolved to,
   not as the text before X: "ws/up/.." is the parent of up's target, and
   "ws/missing/.." fails.  So PATH is walked as given, and each directory
   a ".." steps back over is checked before it is dropped.  */
int
fence_dotdots (const struct sbx_fence *f, const char *path,
               enum sbx_fence_rule *rule, struct sbx_error *err)
{
  *rule = SBX_FENCE_GRANTED;
  cleanup_free char *raw = NULL;
  if (asprintf (&raw, "%s/%s", path[0] == '/' ? "" : (f->cwd ? f->cwd : ""),
                path)
      < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* The cwd's own ".." too: it is as much the sandbox's.  */
  if (strstr (raw, "..") == NULL)
    return 0;
  cleanup_free char *dir = malloc (strlen (raw) + 2);
  if (dir == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  strcpy (dir, "/");
  char *save = NULL;
  for (char *c = strtok_r (raw, "/", &save); c;
       c = strtok_r (NULL, "/", &save))
    {
      if (strcmp (c, ".") == 0)
        continue;
      if (strcmp (c, "..") != 0)
        {
          if (dir[1] != '\0')
            strcat (dir, "/");
          strcat (dir, c);
          continue;
        }
      if (dir[1] == '\0')
        continue; /* "/.." is "/" */
      int r = dotdot_over (f, dir, rule, err);
      if (r < 0 || *rule != SBX_FENCE_GRANTED)
        return r;
      char *slash = strrchr (dir, '/');
      if (slash == dir)
        dir[1] = '\0';
      else
        *slash = '\0';
    }
  return 0;
}

/* A layer whose source is a file (a hard-link alias, a protected
   .git/config, a file bind) is reopened through its own descriptor: there
   is no path beneath it to resolve.  */
static int
reopen_layer (int fd, int flags)
{
  char proc[64];
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
  int r = open (proc, (flags & ~O_CREAT) | O_CLOEXEC);
  return r < 0 ? -errno : r;
}

int
fence_open (struct fence_target *t, int flags, mode_t mode,
            struct sbx_error *err)
{
  int fd;
  if (t->rest[0] != '\0')
    fd = openat2_beneath (t->layer->fd, t->rest, flags, mode);
  else
    {
      fd = openat2_beneath (t->layer->fd, ".", flags & ~O_CREAT, mode);
      if (fd == -ENOTDIR)
        fd = reopen_layer (t->layer->fd, flags);
    }
  return fd < 0 ? fence_fail (t, fd, "open", err) : fd;
}

int
fence_open_parent (struct fence_target *t, int *dirfd, const char **name,
                   struct sbx_error *err)
{
  *dirfd = -1;
  if (t->rest[0] == '\0')
    return fence_target_refuse (t, SBX_FENCE_MOUNT, err);
  const char *slash = strrchr (t->rest, '/');
  *name = slash ? slash + 1 : t->rest;
  cleanup_free char *dir
      = slash ? strndup (t->rest, (size_t) (slash - t->rest)) : strdup (".");
  if (dir == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  int fd = openat2_beneath (t->layer->fd, dir, O_PATH | O_DIRECTORY, 0);
  if (fd < 0)
    return fence_fail (t, fd, "open the directory of", err);
  *dirfd = fd;
  return 0;
}
