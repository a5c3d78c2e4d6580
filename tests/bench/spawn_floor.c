/* The cheapest supervisor there can be: start ARGV with a vfork-style
   clone, wait for it, exit with its status.  run_bench.sh times bwrap
   under it to show what any design that keeps a process beside the
   sandbox must pay on this machine, whatever that process does.  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: spawn_floor PROGRAM [ARG...]\n");
      return 2;
    }
  pid_t pid = vfork ();
  if (pid == 0)
    {
      execv (argv[1], argv + 1);
      _exit (127);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) < 0)
    return 1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
