#include "runtime/host_paths.h"

#include <pwd.h>
#include <stdlib.h>
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

const char *
sbx_host_home (uid_t uid)
{
  const char *home = getenv ("HOME");
  struct passwd *pw = home ? NULL : getpwuid (uid);
  if (pw)
    home = pw->pw_dir;
  return home && home[0] == '/' ? home : NULL;
}
