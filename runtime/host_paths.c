#include "runtime/host_paths.h"

#include "common/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#ifndef __APPLE__
#include <sys/sysmacros.h>
#endif

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

char
sbx_host_path_node (const char *path, uint32_t *major, uint32_t *minor,
                    void *ctx)
{
  (void) ctx;
  struct stat st;
  if (lstat (path, &st) < 0)
    return 0;
  *major = major (st.st_rdev);
  *minor = minor (st.st_rdev);
  if (S_ISCHR (st.st_mode))
    return 'c';
  if (S_ISBLK (st.st_mode))
    return 'b';
  *major = *minor = 0;
  return S_ISFIFO (st.st_mode) ? 'p' : 0;
}

int
sbx_host_read_text (const char *path, char **out, void *ctx)
{
  (void) ctx;
  struct sbx_error err = { 0 };
  size_t len;
  /* Through a last link too: git follows one (a dotfiles manager's
     ~/.gitconfig), and a protected file that is a link is a gap of its
     own (policy/protect.c).  */
  int r = sbx_read_regular_file (path, 256 * 1024, out, &len, &err);
  /* Text that stops early would hide what follows a NUL from a reader
     of C strings; git reads on.  */
  if (r == 0 && memchr (*out, '\0', len) != NULL)
    {
      free (*out);
      *out = NULL;
      return -EILSEQ;
    }
  return r;
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
/* Whether S is a whole decimal number, as a uid field must be.  */
static bool
all_digits (const char *s)
{
  if (*s == '\0')
    return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return false;
  return true;
}

const char *
sbx_passwd_home (const char *passwd, uid_t uid)
{
  static char home[PATH_MAX];
  FILE *f = fopen (passwd, "re");
  char *line = NULL, *found = NULL;
  size_t cap = 0;
  bool matched = false;
  while (f && !matched && getline (&line, &cap, f) > 0)
    {
      /* name:password:uid:gid:gecos:dir:shell, as glibc's files module
         reads it: comments and NIS "+"/"-" lines are no entries.  */
      line[strcspn (line, "\n")] = '\0';
      if (line[0] == '\0' || strchr ("#+-", line[0]))
        continue;
      char *rest = line, *field[6];
      for (int i = 0; i < 6; i++)
        field[i] = strsep (&rest, ":");
      if (field[5] == NULL || !all_digits (field[2])
          || strtoul (field[2], NULL, 10) != (unsigned long) uid)
        continue;
      /* The first entry of UID is its entry, usable or not.  */
      matched = true;
      if (strlen (field[5]) < sizeof home)
        found = strcpy (home, field[5]);
    }
  free (line);
  if (f)
    fclose (f);
  return found;
}

/* UID's home as /etc/passwd gives it, read directly as runc does: the
   static sbx-oci must not load NSS modules (getpwuid would), and a home
   for the credential stores to hide is all that is asked here.  An
   account that only a directory service knows gets none, and the policy
   reports that its credential stores are not hidden.  */
static const char *
account_home (uid_t uid)
{
  return sbx_passwd_home ("/etc/passwd", uid);
}
#endif

const char *
sbx_account_home (uid_t uid)
{
  const char *home = account_home (uid);
  return home && home[0] == '/' ? home : NULL;
}

const char *
sbx_host_home (uid_t uid)
{
  const char *home = getenv ("HOME");
  if (home == NULL)
    home = account_home (uid);
  return home && home[0] == '/' ? home : NULL;
}

uint64_t
sbx_host_rlimit_hard (int resource)
{
  struct rlimit l;
  return getrlimit (resource, &l) == 0 ? l.rlim_max : 0;
}
