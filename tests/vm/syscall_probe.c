/* `syscall_probe CASE...`: what the guests' smoke set asks of the kernel
   and the filters, one line per CASE: "CASE: ok" when the call worked,
   "CASE: refused ERRNO" (the number) when it failed.  Static, so that it
   runs in a guest's sandbox of any architecture (tests/vm/smoke.sh).

     ptrace          ptrace (PTRACE_TRACEME)
     unshare-user    unshare (CLONE_NEWUSER)
     unshare-mount   unshare (CLONE_NEWNS)
     socket-inet     socket (AF_INET, SOCK_STREAM)
     socket-unix     socket (AF_UNIX, SOCK_STREAM)
     open-tree-attr  open_tree_attr (-1, "", 0, NULL, 0), by number: newer
                     than the guests' kernels and libseccomp 2.5.4
     landlock-abi    the Landlock ABI the kernel offers, printed as
                     "landlock-abi: ok N" (what the outcome's landlock
                     reasons are checked against)  */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_OPEN_TREE_ATTR 467
#define NR_LANDLOCK_CREATE_RULESET 444

static long
try (const char *c)
{
  if (strcmp (c, "ptrace") == 0)
    return ptrace (PTRACE_TRACEME, 0, NULL, NULL);
  if (strcmp (c, "unshare-user") == 0)
    return unshare (CLONE_NEWUSER);
  if (strcmp (c, "unshare-mount") == 0)
    return unshare (CLONE_NEWNS);
  if (strcmp (c, "socket-inet") == 0)
    return socket (AF_INET, SOCK_STREAM, 0);
  if (strcmp (c, "socket-unix") == 0)
    return socket (AF_UNIX, SOCK_STREAM, 0);
  if (strcmp (c, "open-tree-attr") == 0)
    return syscall (NR_OPEN_TREE_ATTR, -1, "", 0, NULL, 0);
  if (strcmp (c, "landlock-abi") == 0) /* LANDLOCK_CREATE_RULESET_VERSION */
    return syscall (NR_LANDLOCK_CREATE_RULESET, NULL, 0, 1u);
  errno = 0;
  return -2;
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      long r = try (argv[i]);
      if (r == -2 && errno == 0)
        {
          fprintf (stderr, "syscall_probe: unknown case %s\n", argv[i]);
          return 2;
        }
      if (r < 0)
        printf ("%s: refused %d\n", argv[i], errno);
      else if (strcmp (argv[i], "landlock-abi") == 0)
        printf ("%s: ok %ld\n", argv[i], r);
      else
        printf ("%s: ok\n", argv[i]);
    }
  return 0;
}
