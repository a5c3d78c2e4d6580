#include "runtime/host_paths.h"

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum sbx_path_kind
sbx_host_path_kind (const char *path, void *ctx)
{
  (void) ctx;
  struct stat st;
  if (lstat (path, &st) < 0)
    return SBX_PATH_ABSENT;
  if (S_ISDIR (st.st_mode))
    return SBX_PATH_DIR;
  if (S_ISLNK (st.st_mode))
    return SBX_PATH_SYMLINK;
  if (S_ISSOCK (st.st_mode))
    return SBX_PATH_SOCKET;
  return SBX_PATH_FILE;
}

#ifdef __APPLE__
/* macOS keeps its users in Directory Services, not /etc/passwd.  */
static const char *
account_home (uid_t uid)
{
  struct passwd *pw = getpwuid (uid);
  return pw ? pw->pw_dir : NULL;
}
#else
/* UID's home as /etc/passwd gives it, read directly as runc does: the
   static sbx-oci must not load NSS modules (getpwuid would), and a home
   for the credential stores to hide is all that is asked here.  */
static const char *
account_home (uid_t uid)
{
  static char home[PATH_MAX];
  FILE *f = fopen ("/etc/passwd", "re");
  char *line = NULL, *found = NULL;
  size_t cap = 0;
  while (f && found == NULL && getline (&line, &cap, f) > 0)
    {
      /* name:password:uid:gid:gecos:dir:shell */
      char *rest = line, *field[6];
      line[strcspn (line, "\n")] = '\0';
      for (int i = 0; i < 6; i++)
        field[i] = strsep (&rest, ":");
      char *end;
      if (field[5] && field[2][0]
          && strtoul (field[2], &end, 10) == (unsigned long) uid
          && *end == '\0' && strlen (field[5]) < sizeof home)
        found = strcpy (home, field[5]);
    }
  free (line);
  if (f)
    fclose (f);
  return found;
}
#endif

const char *
sbx_host_home (uid_t uid)
{
  const char *home = getenv ("HOME");
  if (home == NULL)
    home = account_home (uid);
  return home && home[0] == '/' ? home : NULL;
}
