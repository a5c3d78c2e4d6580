#include "runtime/linux/bwrap/path_listing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/host_paths.h"

/* A directory is listed on its LIST_AFTER-th question: one question is
   cheaper as an lstat.  One holding more than MAX_NAMES is not listed.  */
#define LIST_AFTER 2
#define MAX_NAMES 4096
#define MAX_DIRS 64

struct entry
{
  const char *name; /* in the directory's buffer */
  unsigned char type;
};

struct dir
{
  char *path;
  unsigned asked;
  bool listed, unlistable;
  bool missing; /* not there (or not a directory): nothing is in it */
  char *buf;    /* the raw getdents64 records */
  struct entry *entries;
  size_t n;
};

struct sbx_path_listing
{
  struct dir dirs[MAX_DIRS];
  size_t n;
};

struct sbx_path_listing *
sbx_path_listing_new (void)
{
  return calloc (1, sizeof (struct sbx_path_listing));
}

void
sbx_path_listing_free (struct sbx_path_listing *l)
{
  for (size_t i = 0; l && i < l->n; i++)
    {
      free (l->dirs[i].path);
      free (l->dirs[i].buf);
      free (l->dirs[i].entries);
    }
  free (l);
}

static int
by_name (const void *a, const void *b)
{
  return strcmp (((const struct entry *) a)->name,
                 ((const struct entry *) b)->name);
}

/* linux_dirent64: ino 8, off 8, reclen 2, type 1, name.  */
#define D_RECLEN(p) (*(const unsigned short *) ((p) + 16))
#define D_TYPE(p) (*(const unsigned char *) ((p) + 18))
#define D_NAME(p) ((p) + 19)

/* Read D's entries.  Only a directory that lstat could see into is
   listed: searchable (lstat needs that) as well as readable.  One that is
   not there, or not a directory, holds nothing: lstat would say ENOENT or
   ENOTDIR of any name in it.  */
static bool
list_dir (struct dir *d)
{
  cleanup_close int fd
      = open (d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return d->missing = true;
  if (fd < 0 || faccessat (fd, ".", X_OK, AT_EACCESS) < 0)
    return false;
  size_t cap = 32768, len = 0;
  d->buf = malloc (cap);
  for (ssize_t got = 1; d->buf && got > 0;)
    {
      if (cap - len < 4096)
        {
          char *more
              = len < MAX_NAMES * 64 ? realloc (d->buf, cap *= 2) : NULL;
          if (more == NULL)
            return false;
          d->buf = more;
        }
      got = syscall (SYS_getdents64, fd, d->buf + len, cap - len);
      if (got < 0)
        return false;
      len += (size_t) got;
    }
  if (d->buf == NULL)
    return false;
  for (size_t off = 0; off < len; off += D_RECLEN (d->buf + off))
    d->n++;
  if (d->n > MAX_NAMES || !(d->entries = calloc (d->n, sizeof *d->entries)))
    return false;
  size_t i = 0;
  for (size_t off = 0; off < len; off += D_RECLEN (d->buf + off))
    d->entries[i++]
        = (struct entry){ D_NAME (d->buf + off), D_TYPE (d->buf + off) };
  qsort (d->entries, d->n, sizeof *d->entries, by_name);
  return true;
}

static struct dir *
find_dir (struct sbx_path_listing *l, const char *path, size_t len)
{
  for (size_t i = 0; i < l->n; i++)
    if (strlen (l->dirs[i].path) == len
        && memcmp (l->dirs[i].path, path, len) == 0)
      return &l->dirs[i];
  if (l->n == MAX_DIRS)
    return NULL;
  struct dir *d = &l->dirs[l->n];
  if ((d->path = strndup (path, len)) == NULL)
    return NULL;
  l->n++;
  return d;
}

static enum sbx_path_kind
kind_of_type (unsigned char type)
{
  switch (type)
    {
    case DT_DIR:
      return SBX_PATH_DIR;
    case DT_LNK:
      return SBX_PATH_SYMLINK;
    case DT_SOCK:
      return SBX_PATH_SOCKET;
    default:
      return SBX_PATH_FILE;
    }
}

enum sbx_path_kind
sbx_listed_path_kind (const char *path, void *listing)
{
  struct sbx_path_listing *l = listing;
  const char *slash = strrchr (path, '/');
  const char *name = slash ? slash + 1 : NULL;
  /* Only a plain name in an absolute directory: ".", ".." and "x/"
     are lstat's to judge.  */
  if (l == NULL || path[0] != '/' || name == NULL || *name == '\0'
      || strcmp (name, ".") == 0 || strcmp (name, "..") == 0)
    return sbx_host_path_kind (path, NULL);
  size_t dir_len = slash == path ? 1 : (size_t) (slash - path);
  struct dir *d = find_dir (l, path, dir_len);
  if (d == NULL || d->unlistable || (!d->listed && ++d->asked < LIST_AFTER))
    return sbx_host_path_kind (path, NULL);
  if (!d->listed && !(d->listed = list_dir (d)))
    {
      d->unlistable = true;
      free (d->buf), d->buf = NULL;
      free (d->entries), d->entries = NULL;
      d->n = 0;
      return sbx_host_path_kind (path, NULL);
    }
  if (d->missing)
    return SBX_PATH_ABSENT;
  struct entry key = { name, 0 };
  const struct entry *e
      = bsearch (&key, d->entries, d->n, sizeof *d->entries, by_name);
  if (e == NULL)
    return SBX_PATH_ABSENT;
  return e->type == DT_UNKNOWN ? sbx_host_path_kind (path, NULL)
                               : kind_of_type (e->type);
}
