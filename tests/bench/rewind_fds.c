/* `rewind_fds FD...`: seek each inherited FD back to its start.  The
   benchmark runs it before every timed run (hyperfine --prepare) so that
   bwrap, which reads its seccomp programs from fds it inherits from
   hyperfine, finds them whole each time.  Static and tiny, so that it
   disturbs the machine between runs as little as a process can.  */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (lseek (atoi (argv[i]), 0, SEEK_SET) < 0)
      {
        perror ("rewind_fds");
        return 1;
      }
  return 0;
}
