/* swap_loop A B SECONDS: exchange the names A and B (renameat2
   RENAME_EXCHANGE) as fast as it can for SECONDS: the attacker's half of
   a check-then-mount race.  */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/renameat2.h"

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: swap_loop A B SECONDS\n");
      return 2;
    }
  time_t end = time (NULL) + atoi (argv[3]);
  while (time (NULL) < end)
    if (sbx_renameat2 (AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE)
        < 0)
      {
        perror ("renameat2");
        return 1;
      }
  return 0;
}
