/* Allocate MEGABYTES (argv[1]) and touch every page as fast as possible,
   then hold it: a workload that really keeps memory resident, for the
   limit tests and the overshoot benchmark.  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  size_t mb = argc > 1 ? strtoul (argv[1], NULL, 10) : 2048;
  size_t len = mb << 20;
  long page = sysconf (_SC_PAGESIZE);
  char *p = mmap (NULL, len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    {
      perror ("mmap");
      return 1;
    }
  for (size_t i = 0; i < len; i += (size_t) page)
    p[i] = 1;
  printf ("touched %zu MB\n", mb);
  fflush (stdout);
  pause ();
  return 0;
}
