/* fence_race CONFIG WS OUTSIDE ITERS SECONDS: the fence writes WS/d/f
   ITERS times (at most SECONDS) while a child swaps WS/d, in a tight loop,
   with a symbolic link to OUTSIDE (renameat2 RENAME_EXCHANGE: the name is
   always one or the other).  Prints "writes N refused M swaps S" and
   exits 0 when nothing was written below OUTSIDE, 1 when something was,
   2 on a set-up error.  Both outcomes of a write must have happened for
   the race to count: the caller checks N and M.  */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/renameat2.h"
#include "fence/fence.h"

static char d[4096], link_name[4096], target[4096];

/* The swapper: each exchange turns WS/d into the link or back.  */
static void
swap_forever (void)
{
  for (unsigned long n = 0;; n++)
    if (sbx_renameat2 (AT_FDCWD, d, AT_FDCWD, link_name, RENAME_EXCHANGE) < 0)
      _exit (3);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static bool
outside_is_empty (const char *outside)
{
  char probe[4096];
  snprintf (probe, sizeof probe, "%s/f", outside);
  return access (probe, F_OK) < 0 && errno == ENOENT;
}

int
main (int argc, char **argv)
{
  if (argc != 6)
    return 2;
  const char *ws = argv[2], *outside = argv[3];
  long iters = atol (argv[4]);
  double limit = atof (argv[5]);
  snprintf (d, sizeof d, "%s/d", ws);
  snprintf (link_name, sizeof link_name, "%s/d-link", ws);
  snprintf (target, sizeof target, "%s/f", d);
  if (mkdir (d, 0755) < 0 || symlink (outside, link_name) < 0)
    return 2;
  struct sbx_error err = { 0 };
  struct sbx_fence_options opts = { .config = argv[1] };
  struct sbx_fence *f = NULL;
  if (sbx_fence_open (&opts, &f, &err) < 0)
    {
      fprintf (stderr, "fence_race: %s\n", err.msg);
      return 2;
    }
  pid_t child = fork ();
  if (child == 0)
    swap_forever ();
  long writes = 0, refused = 0, i = 0;
  double end = now () + limit;
  for (; i < iters && now () < end && outside_is_empty (outside); i++)
    {
      sbx_error_clear (&err);
      if (sbx_fence_write (f, target, "x", 1, NULL, &err) == 0)
        writes++;
      else
        {
          refused++;
          if (getenv ("FENCE_RACE_DEBUG"))
            fprintf (stderr, "%s\n", err.msg);
        }
    }
  kill (child, SIGKILL);
  int status;
  waitpid (child, &status, 0);
  bool clean = outside_is_empty (outside);
  printf ("writes %ld refused %ld iterations %ld\n", writes, refused, i);
  sbx_fence_free (f);
  return clean ? 0 : 1;
}
