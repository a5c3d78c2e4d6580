/* `enosys NAME[,NAME...] CMD [ARG...]`: run CMD where the system calls
   NAME... answer ENOSYS, as on a kernel older than they are: how
   kernel_gaps.sh shows what sbx-oci says on such a kernel.  The filter
   is inherited by everything CMD starts (the runner too).  */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: enosys NAME[,NAME...] CMD [ARG...]\n");
      return 2;
    }
  scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);
  char *save = NULL;
  for (char *n = strtok_r (argv[1], ",", &save); n && ctx;
       n = strtok_r (NULL, ",", &save))
    {
      int nr = seccomp_syscall_resolve_name (n);
      if (nr == __NR_SCMP_ERROR
          || seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS), nr, 0) < 0)
        {
          fprintf (stderr, "enosys: cannot filter %s\n", n);
          return 2;
        }
    }
  if (ctx == NULL || seccomp_load (ctx) < 0)
    {
      fprintf (stderr, "enosys: cannot load the filter\n");
      return 2;
    }
  execvp (argv[2], argv + 2);
  fprintf (stderr, "enosys: %s: %s\n", argv[2], strerror (errno));
  return 127;
}
