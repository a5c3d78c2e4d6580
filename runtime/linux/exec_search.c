#include "runtime/linux/exec_search.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* FILE, which the kernel would not run, as a shell script: /bin/sh FILE
   ARG...  The new argument vector is mapped, not allocated (see the
   header).  */
static void
run_as_script (const char *file, char *const argv[], char *const envp[])
{
  size_t argc = 0;
  while (argv[argc])
    argc++;
  size_t size = (argc + 2) * sizeof (char *);
  char **sh = mmap (NULL, size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (sh == MAP_FAILED)
    {
      errno = ENOEXEC;
      return;
    }
  sh[0] = (char *) "/bin/sh";
  sh[1] = (char *) file;
  for (size_t i = 1; i <= argc; i++)
    sh[i + 1] = argv[i];
  execve ("/bin/sh", sh, envp);
  int e = errno;
  munmap (sh, size);
  errno = e;
}

static void
try_exec (const char *file, char *const argv[], char *const envp[])
{
  execve (file, argv, envp);
  if (errno == ENOEXEC)
    run_as_script (file, argv, envp);
}

void
sbx_exec_search (char *const argv[], char *const envp[])
{
  const char *file = argv[0];
  if (file == NULL || *file == '\0')
    {
      errno = ENOENT;
      return;
    }
  if (strchr (file, '/'))
    {
      try_exec (file, argv, envp);
      return;
    }
  size_t flen = strlen (file);
  if (flen > NAME_MAX)
    {
      errno = ENAMETOOLONG;
      return;
    }
  const char *path = getenv ("PATH");
  if (path == NULL)
    path = "/bin:/usr/bin";
  bool denied = false;
  for (const char *p = path;; p++)
    {
      const char *end = strchrnul (p, ':');
      size_t dlen = (size_t) (end - p);
      char buf[PATH_MAX];
      if (dlen + 1 + flen < sizeof buf)
        {
          memcpy (buf, p, dlen);
          buf[dlen] = '/';
          memcpy (buf + dlen + 1, file, flen + 1);
          /* An empty entry is the current directory ("/FILE" would be
             the root's).  */
          try_exec (dlen ? buf : buf + 1, argv, envp);
          switch (errno)
            {
            case EACCES:
              denied = true;
              break;
            case ENOENT:
            case ESTALE:
            case ENOTDIR:
            case ENODEV:
            case ETIMEDOUT:
              break;
            default:
              return;
            }
        }
      if (*end == '\0')
        break;
      p = end;
    }
  errno = denied ? EACCES : ENOENT;
}
