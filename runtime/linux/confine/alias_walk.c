/* The hard-link alias walk: see alias_walk.h for what and why.

   Speed matters because the walk runs before every sandbox start.  The
   directory stream is read with getdents64 directly into one buffer per
   depth (no DIR objects, no fdopendir fstat/fcntl), d_type decides what
   needs a stat: directories are opened and fstat'ed (one call we need anyway
   for the -xdev test), regular files and DT_UNKNOWN get one fstatat, and
   symlinks, fifos, sockets and devices cost nothing.  */
#include "runtime/linux/confine/alias_walk.h"

#include "common/cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Large enough that a typical directory is read in one getdents64 call.  */
#define DIRENT_BUF_SIZE (64 * 1024)

struct walk_root
{
  const char *path;
  size_t len; /* without trailing slashes; 0 for "/" */
  int fd;     /* -1 when the root is not walked */
  dev_t dev;
  ino_t ino;
};

struct walk
{
  struct walk_root *roots;
  size_t n_roots;
  uint32_t max_entries, max_depth;
  const struct sbx_dir_id *homes;
  size_t n_homes;
  dev_t dev;  /* of the root being walked: -xdev */
  char *path; /* the path of the entry at hand, grown as needed */
  size_t len, cap;
  char **bufs; /* one getdents64 buffer per depth, reused */
  size_t n_bufs;
  bool stopped;       /* the entry bound was hit: stop everything */
  char *entries_at;   /* where it was hit */
  char *depth_at;     /* the first directory not entered for depth */
  uint64_t deep_dirs; /* how many such directories */
  struct sbx_alias_result *out;
  struct sbx_error *err;
};

static int walk_dir (struct walk *w, int dfd, uint32_t depth);

/* Append "/NAME" to the current path; return the length to restore.  */
static int
path_push (struct walk *w, const char *name, size_t *saved)
{
  size_t n = strlen (name);
  if (w->len + n + 2 > w->cap)
    {
      size_t cap = (w->len + n + 2) * 2;
      char *p = realloc (w->path, cap);
      if (p == NULL)
        return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
      w->path = p;
      w->cap = cap;
    }
  *saved = w->len;
  w->path[w->len++] = '/';
  memcpy (w->path + w->len, name, n + 1);
  w->len += n;
  return 0;
}

static void
path_pop (struct walk *w, size_t saved)
{
  w->len = saved;
  w->path[saved] = '\0';
}

/* Remember the current path in *WHERE unless something already is.  */
static int
note_path (struct walk *w, char **where)
{
  if (*where == NULL && (*where = strdup (w->path)) == NULL)
    return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
  return 0;
}

static char *
dirent_buffer (struct walk *w, uint32_t depth)
{
  if (depth >= w->n_bufs)
    {
      size_t n = (size_t) depth + 8;
      char **b = realloc (w->bufs, n * sizeof *b);
      if (b == NULL)
        return NULL;
      memset (b + w->n_bufs, 0, (n - w->n_bufs) * sizeof *b);
      w->bufs = b;
      w->n_bufs = n;
    }
  if (w->bufs[depth] == NULL)
    w->bufs[depth] = malloc (DIRENT_BUF_SIZE);
  return w->bufs[depth];
}

static bool
is_dot_or_dotdot (const char *name)
{
  return name[0] == '.'
         && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/* A nested (or the same) root is walked once, as itself.  */
static bool
is_a_root (const struct walk *w, const struct stat *st)
{
  for (size_t i = 0; i < w->n_roots; i++)
    if (w->roots[i].fd >= 0 && w->roots[i].dev == st->st_dev
        && w->roots[i].ino == st->st_ino)
      return true;
  return false;
}

/* PATH, a directory of identity ST, is one of the homes under another
   name: noted (a home met under its own name is the home).  */
static int
note_home_alias (struct walk *w, const struct stat *st, const char *path)
{
  for (size_t i = 0; i < w->n_homes; i++)
    if (w->homes[i].dev == st->st_dev && w->homes[i].ino == st->st_ino
        && strv_push (&w->out->home_aliases, path) < 0)
      return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
  return 0;
}

/* Does the directory DFD hold anything besides . and ..?  */
static int
dir_has_entries (struct walk *w, int dfd, uint32_t depth)
{
  char *buf = dirent_buffer (w, depth);
  if (buf == NULL)
    return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
  ssize_t n;
  while ((n = syscall (SYS_getdents64, dfd, buf, DIRENT_BUF_SIZE)) > 0)
    for (ssize_t off = 0; off < n;)
      {
        struct dirent64 *d = (struct dirent64 *) (buf + off);
        if (!is_dot_or_dotdot (d->d_name))
          return 1;
        off += d->d_reclen;
      }
  if (n < 0)
    return sbx_fail_errno (w->err, -errno, "alias walk: cannot read %s",
                           w->path);
  return 0;
}

/* Errors that mean "this directory cannot be walked", not "the walk
   failed": no permission, or the entry changed under us (removed, or
   replaced by a symlink or a file, which O_NOFOLLOW|O_DIRECTORY refuse).  */
static bool
is_skippable (int e)
{
  return e == EACCES || e == EPERM || e == ENOENT || e == ELOOP
         || e == ENOTDIR;
}

/* The current path names a directory at DEPTH below the root.  */
static int
visit_dir (struct walk *w, int parent, const char *name, uint32_t depth)
{
  cleanup_close int fd
      = openat (parent, name,
                O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && is_skippable (errno))
    {
      w->out->skipped++;
      return 0;
    }
  if (fd < 0 && (errno == EMFILE || errno == ENFILE))
    return sbx_fail_errno (w->err, -errno,
                           "alias walk: cannot open %s (one fd per level "
                           "of depth: lower the depth bound or raise "
                           "RLIMIT_NOFILE)",
                           w->path);
  if (fd < 0)
    return sbx_fail_errno (w->err, -errno, "alias walk: cannot open %s",
                           w->path);
  struct stat st;
  if (fstat (fd, &st) < 0)
    return sbx_fail_errno (w->err, -errno, "alias walk: cannot stat %s",
                           w->path);
  int r = note_home_alias (w, &st, w->path);
  if (r < 0 || is_a_root (w, &st))
    return r;
  if (st.st_dev != w->dev)
    return strv_push (&w->out->other_fs, w->path) < 0
               ? sbx_fail (w->err, -ENOMEM, "alias walk: out of memory")
               : 0;
  if (depth < w->max_depth)
    return walk_dir (w, fd, depth);
  int has = dir_has_entries (w, fd, depth);
  if (has <= 0)
    return has;
  w->deep_dirs++;
  return note_path (w, &w->depth_at);
}

/* A DT_REG or DT_UNKNOWN entry: one fstatat tells the type and the link
   count; a directory (DT_UNKNOWN) is walked.  */
static int
visit_maybe_file (struct walk *w, int dfd, const char *name, uint32_t depth)
{
  struct stat st;
  if (fstatat (dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    {
      if (!is_skippable (errno))
        return sbx_fail_errno (w->err, -errno, "alias walk: cannot stat %s",
                               w->path);
      w->out->skipped++;
      return 0;
    }
  if (S_ISDIR (st.st_mode))
    return visit_dir (w, dfd, name, depth);
  if (S_ISREG (st.st_mode) && st.st_nlink > 1
      && strv_push (&w->out->paths, w->path) < 0)
    return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
  return 0;
}

/* The text from START to END ends with SUFFIX.  */
static bool
ends_with (const char *start, const char *end, const char *suffix)
{
  size_t n = strlen (suffix);
  return (size_t) (end - start) >= n && strncmp (end - n, suffix, n) == 0;
}

/* The entry at hand is git metadata other than the root's own .git (see
   sbx_alias_result.git_meta): a ".git" below the root's own entries, or a
   git directory right inside a ".git/.../modules" or ".git/worktrees".  */
static int
note_git_meta (struct walk *w, const struct dirent64 *d, uint32_t depth)
{
  bool nested = depth >= 2 && strcmp (d->d_name, ".git") == 0;
  size_t n = strlen (d->d_name);
  const char *parent_end = w->path + w->len - n - 1;
  bool inner = d->d_type == DT_DIR && strstr (w->path, "/.git/") != NULL
               && (ends_with (w->path, parent_end, "/modules")
                   || ends_with (w->path, parent_end, "/worktrees"));
  if ((nested || inner) && strv_push (&w->out->git_meta, w->path) < 0)
    return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
  return 0;
}

/* One entry of the directory DFD, at DEPTH below the root.  */
static int
visit_entry (struct walk *w, int dfd, const struct dirent64 *d, uint32_t depth)
{
  size_t saved = 0;
  int r = path_push (w, d->d_name, &saved);
  if (r < 0)
    return r;
  if (w->out->visited >= w->max_entries)
    {
      w->stopped = true;
      r = note_path (w, &w->entries_at);
    }
  else if ((r = note_git_meta (w, d, depth)) == 0)
    {
      w->out->visited++;
      if (d->d_type == DT_DIR)
        r = visit_dir (w, dfd, d->d_name, depth);
      else if (d->d_type == DT_REG || d->d_type == DT_UNKNOWN)
        r = visit_maybe_file (w, dfd, d->d_name, depth);
    }
  path_pop (w, saved);
  return r;
}

/* Walk the entries of DFD, the directory at DEPTH (the root is 0).  */
static int
walk_dir (struct walk *w, int dfd, uint32_t depth)
{
  char *buf = dirent_buffer (w, depth);
  if (buf == NULL)
    return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
  ssize_t n = 0;
  while (!w->stopped
         && (n = syscall (SYS_getdents64, dfd, buf, DIRENT_BUF_SIZE)) > 0)
    for (ssize_t off = 0; off < n && !w->stopped;)
      {
        struct dirent64 *d = (struct dirent64 *) (buf + off);
        off += d->d_reclen;
        if (is_dot_or_dotdot (d->d_name))
          continue;
        int r = visit_entry (w, dfd, d, depth + 1);
        if (r < 0)
          return r;
      }
  if (n < 0)
    return sbx_fail_errno (w->err, -errno, "alias walk: cannot read %s",
                           w->path);
  return 0;
}

/* Open ROOT (following symlinks: it is bound the same way) and note its
   identity; a root that is not a directory, cannot be opened for lack of
   permission or duplicates an earlier one keeps fd -1 and is not walked.  */
static int
open_root (struct walk *w, size_t i, const char *path)
{
  struct walk_root *root = &w->roots[i];
  root->path = path;
  root->fd = -1;
  if (path == NULL || path[0] != '/')
    return sbx_fail (w->err, -EINVAL,
                     "writable root %s: must be an absolute path",
                     path ? path : "(null)");
  root->len = strlen (path);
  while (root->len > 0 && path[root->len - 1] == '/')
    root->len--;
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && errno == EACCES)
    {
      w->out->skipped++;
      return 0;
    }
  if (fd < 0 && errno == ENOTDIR)
    return 0; /* a granted file: the grant names it, nothing to walk */
  if (fd < 0 && errno == ENOENT)
    return sbx_fail (w->err, -ENOENT, "writable root %s: does not exist",
                     path);
  if (fd < 0)
    return sbx_fail_errno (w->err, -errno, "writable root %s: cannot open",
                           path);
  struct stat st;
  if (fstat (fd, &st) < 0)
    {
      int e = -errno;
      close (fd);
      return sbx_fail_errno (w->err, e, "writable root %s: cannot stat", path);
    }
  root->dev = st.st_dev;
  root->ino = st.st_ino;
  int r = note_home_alias (w, &st, path);
  if (r < 0)
    {
      close (fd);
      return r;
    }
  if (is_a_root (w, &st))
    close (fd);
  else
    root->fd = fd;
  return 0;
}

static int
walk_root (struct walk *w, const struct walk_root *root)
{
  if (root->len + 1 > w->cap)
    {
      char *p = realloc (w->path, root->len + 1);
      if (p == NULL)
        return sbx_fail (w->err, -ENOMEM, "alias walk: out of memory");
      w->path = p;
      w->cap = root->len + 1;
    }
  memcpy (w->path, root->path, root->len);
  w->path[root->len] = '\0';
  w->len = root->len;
  w->dev = root->dev;
  return walk_dir (w, root->fd, 0);
}

static int
compare_strings (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Sort and drop duplicates (a bind mount can show one file twice).  */
static void
sort_unique (struct strv *sv)
{
  if (sv->n == 0)
    return;
  qsort (sv->v, sv->n, sizeof *sv->v, compare_strings);
  size_t kept = 1;
  for (size_t i = 1; i < sv->n; i++)
    if (strcmp (sv->v[i], sv->v[kept - 1]) == 0)
      free (sv->v[i]);
    else
      sv->v[kept++] = sv->v[i];
  sv->n = kept;
  sv->v[kept] = NULL;
}

/* One line for both bounds; `truncated` says whether either was hit.  */
static int
set_reason (struct walk *w)
{
  struct sbx_alias_result *out = w->out;
  char *entries = NULL, *depth = NULL;
  int r = 0;
  if (w->entries_at
      && asprintf (&entries,
                   "alias walk stopped at its bound of %u entries at %s",
                   w->max_entries, w->entries_at)
             < 0)
    entries = NULL, r = -ENOMEM;
  if (w->depth_at
      && asprintf (&depth,
                   "alias walk did not enter %llu director%s deeper than "
                   "its depth bound %u, first %s",
                   (unsigned long long) w->deep_dirs,
                   w->deep_dirs == 1 ? "y" : "ies", w->max_depth, w->depth_at)
             < 0)
    depth = NULL, r = -ENOMEM;
  if (r == 0 && (entries || depth)
      && asprintf (&out->reason, "%s%s%s", entries ? entries : "",
                   entries && depth ? "; " : "", depth ? depth : "")
             < 0)
    out->reason = NULL, r = -ENOMEM;
  free (entries);
  free (depth);
  out->truncated = out->reason != NULL;
  if (r < 0)
    return sbx_fail (w->err, r, "alias walk: out of memory");
  return 0;
}

static void
walk_free (struct walk *w)
{
  for (size_t i = 0; i < w->n_roots; i++)
    if (w->roots[i].fd >= 0)
      close (w->roots[i].fd);
  free (w->roots);
  for (size_t i = 0; i < w->n_bufs; i++)
    free (w->bufs[i]);
  free (w->bufs);
  free (w->path);
  free (w->entries_at);
  free (w->depth_at);
}

int
sbx_alias_walk (const char *const *roots, size_t n_roots,
                const struct sbx_alias_walk_opts *opts,
                struct sbx_alias_result *out, struct sbx_error *err)
{
  struct walk w = { .max_entries = opts->max_entries,
                    .max_depth = opts->max_depth,
                    .homes = opts->homes,
                    .n_homes = opts->n_homes,
                    .out = out,
                    .err = err };
  int r = 0;
  w.roots = calloc (n_roots ? n_roots : 1, sizeof *w.roots);
  if (w.roots == NULL)
    return sbx_fail (err, -ENOMEM, "alias walk: out of memory");
  for (size_t i = 0; i < n_roots && r == 0; i++, w.n_roots = i)
    r = open_root (&w, i, roots[i]);
  for (size_t i = 0; i < w.n_roots && r == 0 && !w.stopped; i++)
    if (w.roots[i].fd >= 0)
      r = walk_root (&w, &w.roots[i]);
  if (r == 0)
    {
      sort_unique (&out->paths);
      r = set_reason (&w);
    }
  walk_free (&w);
  return r;
}

void
sbx_alias_result_free (struct sbx_alias_result *r)
{
  strv_free (&r->paths);
  strv_free (&r->git_meta);
  strv_free (&r->home_aliases);
  strv_free (&r->other_fs);
  free (r->reason);
  *r = (struct sbx_alias_result){ 0 };
}
