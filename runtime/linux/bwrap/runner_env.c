#include "runtime/linux/bwrap/runner_env.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/cleanup.h"

static int
put (FILE *f, const char *s, size_t n)
{
  return fwrite (s, 1, n, f) == n && fputc ('\0', f) != EOF ? 0 : -EIO;
}

int
sbx_runner_env_write (FILE *f, const struct strv *env)
{
  int r = 0;
  for (size_t i = 0; r == 0 && i < env->n; i++)
    {
      const char *e = env->v[i], *eq = strchr (e, '=');
      if (eq == NULL)
        continue; /* the plan only holds NAME=VALUE: nothing to pass */
      r = put (f, "--setenv", 8);
      r = r ?: put (f, e, (size_t) (eq - e));
      r = r ?: put (f, eq + 1, strlen (eq + 1));
    }
  return r;
}

int
sbx_runner_env_fd (const struct strv *env, int *out, struct sbx_error *err)
{
  *out = -1;
  if (env->n == 0)
    return 0;
  int fd = memfd_create ("sbx-env", MFD_CLOEXEC);
  if (fd < 0)
    return sbx_fail_errno (err, -errno,
                           "cannot hold the sandbox's "
                           "environment");
  int dup_fd = dup (fd);
  FILE *f = dup_fd < 0 ? NULL : fdopen (dup_fd, "w");
  int r = f ? sbx_runner_env_write (f, env) : -errno;
  if (f && fclose (f) != 0 && r == 0)
    r = -errno;
  else if (f == NULL && dup_fd >= 0)
    close (dup_fd);
  if (r == 0 && lseek (fd, 0, SEEK_SET) < 0)
    r = -errno;
  if (r < 0)
    {
      close (fd);
      return sbx_fail_errno (err, r, "cannot hold the sandbox's environment");
    }
  *out = fd;
  return 0;
}
