/* Small helpers over the files of a cgroup directory.  They return 0 or
   -errno and fill no struct sbx_error: the verbs in cgroup_v1.c,
   cgroup_v2.c and cgroup.c know which file failed and say so.  */
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"
#include "common/file_io.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *
cgfs_join (const char *dir, const char *rel)
{
  char *s = NULL;
  if (rel == NULL || rel[0] == '\0')
    return strdup (dir);
  if (dir[0] == '\0')
    return strdup (rel);
  if (asprintf (&s, "%s%s%s", dir,
                dir[0] && dir[strlen (dir) - 1] == '/' ? "" : "/", rel)
      < 0)
    return NULL;
  return s;
}

int
cgfs_read (const char *dir, const char *file, char **out)
{
  cleanup_free char *path = cgfs_join (dir, file);
  if (path == NULL)
    return -ENOMEM;
  /* No size cap: cgroup.procs of a large cgroup is as long as it is.  */
  struct sbx_error ignored = { 0 };
  size_t len;
  int r = sbx_read_file (path, SIZE_MAX, out, &len, &ignored);
  if (r < 0)
    return r;
  while (len > 0 && (*out)[len - 1] == '\n')
    len--;
  (*out)[len] = '\0';
  return 0;
}

int
cgfs_write (const char *dir, const char *file, const char *value)
{
  cleanup_free char *path = cgfs_join (dir, file);
  if (path == NULL)
    return -ENOMEM;
  return sbx_write_control_file (path, value);
}

bool
cgfs_has_file (const char *dir, const char *file)
{
  cleanup_free char *path = cgfs_join (dir, file);
  return path && access (path, F_OK) == 0;
}

static int
parse_int (const char *s, int64_t *out)
{
  if (strncmp (s, "max", 3) == 0)
    {
      *out = -1;
      return 0;
    }
  char *end = NULL;
  errno = 0;
  long long v = strtoll (s, &end, 10);
  if (errno != 0 || end == s)
    return -EINVAL;
  *out = v;
  return 0;
}

int
cgfs_read_int (const char *dir, const char *file, int64_t *out)
{
  cleanup_free char *text = NULL;
  int r = cgfs_read (dir, file, &text);
  if (r < 0)
    return r;
  return parse_int (text, out);
}

int
cgfs_read_key (const char *dir, const char *file, const char *key,
               int64_t *out)
{
  cleanup_free char *text = NULL;
  int r = cgfs_read (dir, file, &text);
  if (r < 0)
    return r;
  size_t klen = strlen (key);
  for (char *line = text; line && *line;)
    {
      char *next = strchr (line, '\n');
      if (next)
        *next++ = '\0';
      if (strncmp (line, key, klen) == 0 && line[klen] == ' ')
        return parse_int (line + klen + 1, out);
      line = next;
    }
  return -ENOENT;
}

bool
cgfs_file_has_word (const char *dir, const char *file, const char *word)
{
  cleanup_free char *text = NULL;
  if (cgfs_read (dir, file, &text) < 0)
    return false;
  size_t wlen = strlen (word);
  for (char *p = text; (p = strstr (p, word)) != NULL; p += wlen)
    if ((p == text || p[-1] == ' ' || p[-1] == '\n')
        && (p[wlen] == '\0' || p[wlen] == ' ' || p[wlen] == '\n'))
      return true;
  return false;
}

static int
push_pid (pid_t **pids, size_t *n, size_t *cap, pid_t pid)
{
  if (*n == *cap)
    {
      size_t bigger = *cap ? *cap * 2 : 16;
      pid_t *v = realloc (*pids, bigger * sizeof *v);
      if (v == NULL)
        return -ENOMEM;
      *pids = v;
      *cap = bigger;
    }
  (*pids)[(*n)++] = pid;
  return 0;
}

static int
collect_pids (const char *dir, bool recursive, pid_t **pids, size_t *n,
              size_t *cap)
{
  cleanup_free char *text = NULL;
  int r = cgfs_read (dir, "cgroup.procs", &text);
  if (r < 0)
    return r;
  for (char *p = text; *p;)
    {
      char *end = NULL;
      long v = strtol (p, &end, 10);
      if (end == p)
        break;
      if (v > 0 && (r = push_pid (pids, n, cap, (pid_t) v)) < 0)
        return r;
      p = end + strspn (end, "\n");
    }
  if (!recursive)
    return 0;
  DIR *d = opendir (dir);
  if (d == NULL)
    return -errno;
  struct dirent *de;
  r = 0;
  while (r == 0 && (de = readdir (d)) != NULL)
    {
      if (de->d_type != DT_DIR || de->d_name[0] == '.')
        continue;
      cleanup_free char *sub = cgfs_join (dir, de->d_name);
      r = sub ? collect_pids (sub, true, pids, n, cap) : -ENOMEM;
      if (r == -ENOENT) /* removed while we looked: nothing in it */
        r = 0;
    }
  closedir (d);
  return r;
}

int
cgfs_list_pids (const char *dir, bool recursive, pid_t **pids, size_t *n)
{
  size_t cap = 0;
  *pids = NULL;
  *n = 0;
  int r = collect_pids (dir, recursive, pids, n, &cap);
  if (r < 0)
    {
      free (*pids);
      *pids = NULL;
      *n = 0;
    }
  return r;
}

static int
mkdir_components (char *path, char *p, struct strv *made)
{
  for (;;)
    {
      char *slash = strchr (p, '/');
      if (slash)
        *slash = '\0';
      if (mkdir (path, 0755) == 0)
        {
          if (slash && strv_push (made, path) < 0)
            return -ENOMEM;
        }
      else if (slash == NULL || errno != EEXIST)
        {
          int r = -errno;
          if (slash) /* PATH whole again, for a retry */
            *slash = '/';
          return r;
        }
      if (slash == NULL)
        return 0;
      *slash = '/';
      p = slash + 1;
    }
}

int
cgfs_mkdir_path (const char *mount, const char *rel, struct strv *made)
{
  cleanup_free char *path = cgfs_join (mount, rel);
  if (path == NULL || rel == NULL || rel[0] == '\0')
    return path ? -EINVAL : -ENOMEM;
  /* The components of REL inside PATH.  */
  char *p = path + strlen (path) - strlen (rel);
  int r;
  /* Another sandbox's destroy may remove a shared parent ("sbx-oci")
     between our mkdir of it and of the leaf: then make it again.  */
  for (int attempt = 0; attempt < 3; attempt++)
    if ((r = mkdir_components (path, p, made)) != -ENOENT)
      break;
  return r;
}

int
cgfs_rmdir_tree (const char *dir)
{
  DIR *d = opendir (dir);
  if (d == NULL)
    return errno == ENOENT ? 0 : -errno;
  struct dirent *de;
  int r = 0;
  while ((de = readdir (d)) != NULL)
    {
      if (de->d_type != DT_DIR || de->d_name[0] == '.')
        continue;
      cleanup_free char *sub = cgfs_join (dir, de->d_name);
      int s = sub ? cgfs_rmdir_tree (sub) : -ENOMEM;
      if (s < 0 && r == 0)
        r = s;
    }
  closedir (d);
  if (rmdir (dir) < 0 && errno != ENOENT && r == 0)
    r = -errno;
  return r;
}

void
cgfs_rmdir_made (const struct strv *made)
{
  /* Made top-down, so removed bottom-up.  A directory another sandbox now
     uses is not empty and stays: rmdir refuses, which is the point.  One
     that is not there (a create killed before it was made) is passed.  */
  for (size_t i = made->n; i-- > 0;)
    if (rmdir (made->v[i]) < 0 && errno != ENOENT)
      break;
}

bool
cgfs_wait_empty (const char *dir, int timeout_ms)
{
  for (int waited = 0;; waited += 10)
    {
      pid_t *pids = NULL;
      size_t n = 0;
      int r = cgfs_list_pids (dir, true, &pids, &n);
      free (pids);
      if (r == -ENOENT || (r == 0 && n == 0))
        return true;
      if (waited >= timeout_ms)
        return false;
      nanosleep (&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
    }
}
