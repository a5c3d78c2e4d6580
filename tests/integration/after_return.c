/* `after_return FILE CMD [ARG...]`: run CMD, and the moment it has been
   reaped take FILE's size, then again 100 ms later.  Prints both and exits
   0 when they are equal, 1 when FILE grew after CMD returned (something
   CMD started was still writing), 2 when CMD failed or FILE is missing.
   The check is this sharp because a shell's own stat comes a millisecond
   or more too late to see a writer that outlives `run` by less.  */
#include <spawn.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: after_return FILE CMD [ARG...]\n");
      return 2;
    }
  pid_t pid;
  int status;
  struct stat at_return, later;
  if (posix_spawnp (&pid, argv[2], NULL, NULL, argv + 2, environ) != 0
      || waitpid (pid, &status, 0) < 0 || stat (argv[1], &at_return) < 0)
    return 2;
  nanosleep (&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
  if (stat (argv[1], &later) < 0)
    return 2;
  printf ("%lld %lld\n", (long long) at_return.st_size,
          (long long) later.st_size);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 2;
  return later.st_size == at_return.st_size ? 0 : 1;
}
