/* Canonicalisation of paths for Seatbelt profiles: see macos_paths.h.  */
#include "runtime/darwin/macos_paths.h"

#include "common/cleanup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* macOS keeps /tmp, /var and /etc as symlinks into /private; a rule must
   name the target.  /home is an automount below the data volume.  The
   data volume's own spellings of the firmlinked directories
   (/usr/share/firmlinks: /Users, /private, /Applications, /Library,
   /Volumes, /opt, /usr/local, ...) name the same files as the root
   spellings, which is what the kernel reports for a path through a
   firmlink; whether Seatbelt ever sees the /System/Volumes/Data spelling
   only a Mac can tell (tests/macos/first-run.sh checks a grant spelt so).
   Anything below an entry moves with it; the first match wins.  */
static const struct
{
  const char *alias;
  const char *target;
} macos_aliases[] = {
  { "/tmp", "/private/tmp" },
  { "/var", "/private/var" },
  { "/etc", "/private/etc" },
  { "/home", "/System/Volumes/Data/home" },
  { "/System/Volumes/Data/Users", "/Users" },
  { "/System/Volumes/Data/private", "/private" },
  { "/System/Volumes/Data/Applications", "/Applications" },
  { "/System/Volumes/Data/Library", "/Library" },
  { "/System/Volumes/Data/Volumes", "/Volumes" },
  { "/System/Volumes/Data/opt", "/opt" },
  { "/System/Volumes/Data/usr/local", "/usr/local" },
  { "/System/Volumes/Data/cores", "/cores" },
};

int
sbx_macos_realpath (void *ctx, const char *path, char **out)
{
  (void) ctx;
  char *resolved = realpath (path, NULL);
  if (resolved == NULL)
    return -errno;
  *out = resolved;
  return 0;
}

int
sbx_macos_path_normalise (const char *path, char **out, struct sbx_error *err)
{
  if (path == NULL || path[0] != '/')
    return sbx_fail (err, -EINVAL,
                     "path '%s' is not absolute; seatbelt rules need absolute "
                     "paths",
                     path ? path : "(null)");
  size_t len = strlen (path);
  char *clean = malloc (len + 2);
  if (clean == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  size_t n = 0;
  const char *p = path;
  while (*p)
    {
      while (*p == '/')
        p++;
      size_t seg = strcspn (p, "/");
      if (seg == 0 || (seg == 1 && p[0] == '.'))
        {
          p += seg;
          continue;
        }
      if (seg == 2 && p[0] == '.' && p[1] == '.')
        {
          free (clean);
          return sbx_fail (err, -EINVAL,
                           "path '%s' contains '..'; give the path without it",
                           path);
        }
      clean[n++] = '/';
      memcpy (clean + n, p, seg);
      n += seg;
      p += seg;
    }
  if (n == 0)
    clean[n++] = '/';
  clean[n] = '\0';
  *out = clean;
  return 0;
}

int
sbx_macos_path_unalias (const char *path, char **out, struct sbx_error *err)
{
  for (size_t i = 0; i < sizeof macos_aliases / sizeof macos_aliases[0]; i++)
    {
      const char *alias = macos_aliases[i].alias;
      size_t alen = strlen (alias);
      if (strncmp (path, alias, alen) != 0
          || (path[alen] != '\0' && path[alen] != '/'))
        continue;
      const char *target = macos_aliases[i].target;
      size_t tlen = strlen (target), rest = strlen (path + alen);
      char *joined = malloc (tlen + rest + 1);
      if (joined == NULL)
        return sbx_fail (err, -ENOMEM, "out of memory");
      memcpy (joined, target, tlen);
      memcpy (joined + tlen, path + alen, rest + 1);
      *out = joined;
      return 0;
    }
  *out = strdup (path);
  return *out ? 0 : sbx_fail (err, -ENOMEM, "out of memory");
}

/* Join the resolved prefix RESOLVED and the not-yet-existing TAIL (empty or
   starting with '/'), then clean the result lexically.  */
static int
join_resolved (const char *original, const char *resolved, const char *tail,
               char **out, struct sbx_error *err)
{
  if (resolved[0] != '/')
    return sbx_fail (err, -EINVAL,
                     "resolving '%s' gave the relative path '%s'", original,
                     resolved);
  size_t rlen = strlen (resolved), tlen = strlen (tail);
  cleanup_free char *joined = malloc (rlen + tlen + 1);
  if (joined == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  memcpy (joined, resolved, rlen);
  memcpy (joined + rlen, tail, tlen + 1);
  return sbx_macos_path_normalise (joined, out, err);
}

/* Resolve the longest existing prefix of the clean path PATH and append
   the rest: a grant or a deny may name a path that does not exist yet
   (a protected .git/hooks), yet its parent may be a symlink.  */
static int
resolve_existing_prefix (const struct sbx_macos_paths *paths, const char *path,
                         char **out, struct sbx_error *err)
{
  cleanup_free char *prefix = strdup (path);
  if (prefix == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  size_t cut = strlen (path);
  for (;;)
    {
      cleanup_free char *resolved = NULL;
      int r = paths->resolve (paths->ctx, prefix, &resolved);
      if (r == 0)
        return join_resolved (path, resolved, path + cut, out, err);
      if (r != -ENOENT && r != -ENOTDIR)
        return sbx_fail_errno (err, r, "resolve '%s'", prefix);
      if (cut <= 1)
        return sbx_macos_path_normalise (path, out, err);
      while (cut > 0 && path[cut - 1] != '/')
        cut--;
      cut = cut > 1 ? cut - 1 : 1; /* keep "/" itself as the last prefix */
      memcpy (prefix, path, cut);
      prefix[cut] = '\0';
    }
}

int
sbx_macos_path_canonical (const struct sbx_macos_paths *paths,
                          const char *path, char **out, struct sbx_error *err)
{
  cleanup_free char *clean = NULL;
  int r = sbx_macos_path_normalise (path, &clean, err);
  if (r < 0)
    return r;
  if (paths != NULL && paths->resolve != NULL)
    {
      char *resolved = NULL;
      r = resolve_existing_prefix (paths, clean, &resolved, err);
      if (r < 0)
        return r;
      free (clean);
      clean = resolved;
    }
  return sbx_macos_path_unalias (clean, out, err);
}
