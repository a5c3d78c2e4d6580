#include "runtime/linux/container/exec_lookup.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* 0: an executable file; -ENOENT: nothing there; -EACCES: not runnable. */
static int
probe_candidate (int rootfd, const char *path)
{
  struct open_how how
      = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT };
  while (*path == '/')
    path++;
  cleanup_close int fd = (int) syscall (
      SYS_openat2, rootfd, path[0] ? path : ".", &how, sizeof how);
  if (fd < 0)
    return errno == ENOENT || errno == ENOTDIR ? -ENOENT : -EACCES;
  struct stat st;
  if (fstat (fd, &st) < 0)
    return -EACCES;
  if (!S_ISREG (st.st_mode) || (st.st_mode & 0111) == 0)
    return -EACCES;
  return 0;
}

static int
search_path (int rootfd, const char *argv0, const char *path)
{
  int best = -ENOENT;
  const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (*p)
    {
      size_t len = strcspn (p, ":");
      char candidate[4096];
      snprintf (candidate, sizeof candidate, "%.*s/%s", (int) len, p, argv0);
      int r = probe_candidate (rootfd, candidate);
      if (r == 0)
        return 0;
      if (r == -EACCES)
        best = -EACCES; /* execvp keeps looking, then reports EACCES */
      p += len;
      if (*p == ':')
        p++;
    }
  return best;
}

int
sbx_exec_lookup (const char *root, const char *argv0, const char *path,
                 const char *cwd, struct sbx_error *err)
{
  cleanup_close int rootfd = open (root, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (rootfd < 0)
    return sbx_fail_errno (err, -errno, "root.path: cannot open %s", root);
  int r;
  if (strchr (argv0, '/') == NULL)
    r = search_path (rootfd, argv0, path);
  else if (argv0[0] == '/')
    r = probe_candidate (rootfd, argv0);
  else
    {
      char joined[4096];
      snprintf (joined, sizeof joined, "%s/%s", cwd ? cwd : "/", argv0);
      r = probe_candidate (rootfd, joined);
    }
  if (r == -ENOENT)
    return sbx_fail (
        err, r, "exec: \"%s\": executable file not found in $PATH", argv0);
  if (r < 0)
    return sbx_fail (err, r, "exec: \"%s\": permission denied", argv0);
  return 0;
}

int
sbx_exec_lookup_status (int code)
{
  return code == -ENOENT ? 127 : 126;
}
