/* `interleave [--runs N] [--warmup N] [--rewind FD]... NAME ARG... [:: NAME
   ARG...]...` times each command (ARG..., run without a shell, output to
   /dev/null) N times, and prints one line per command: its name, the
   median wall time in ms, and the first and third quartiles.

   Why not hyperfine: it times one command's runs back to back, and this
   VM drifts by 10-20 % within a minute, so commands measured at different
   moments are compared under different machines.  Here every round runs
   each command once, starting from a different one each round, so drift
   and order fall on all of them alike.  --rewind seeks an inherited FD
   back to its start before every run (bwrap reads its seccomp programs
   from fds it inherits, and must find them whole).  */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum
{
  MAX_CMDS = 16,
  MAX_REWIND = 8
};

struct command
{
  const char *name;
  char **argv;
  double *ms;
};

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One run of C; its wall time in ms, or a negative value when it could
   not start or did not exit 0.  */
static double
time_once (const struct command *c, const int *rewind, int n_rewind,
           const posix_spawn_file_actions_t *quiet)
{
  for (int i = 0; i < n_rewind; i++)
    if (lseek (rewind[i], 0, SEEK_SET) < 0)
      return -1;
  pid_t pid;
  int status;
  double t0 = now_ms ();
  if (posix_spawn (&pid, c->argv[0], quiet, NULL, c->argv, environ) != 0
      || waitpid (pid, &status, 0) < 0)
    return -1;
  double t = now_ms () - t0;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? t : -1;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
quantile (const double *sorted, int n, double q)
{
  return sorted[(int) (q * (n - 1) + 0.5)];
}

static int
usage (void)
{
  fprintf (stderr,
           "usage: interleave [--runs N] [--warmup N] [--rewind FD]... "
           "NAME ARG... [:: NAME ARG...]...\n");
  return 2;
}

int
main (int argc, char **argv)
{
  int runs = 50, warmup = 3, rewind[MAX_REWIND], n_rewind = 0, i = 1;
  for (; i + 1 < argc && strncmp (argv[i], "--", 2) == 0; i += 2)
    if (strcmp (argv[i], "--runs") == 0)
      runs = atoi (argv[i + 1]);
    else if (strcmp (argv[i], "--warmup") == 0)
      warmup = atoi (argv[i + 1]);
    else if (strcmp (argv[i], "--rewind") == 0 && n_rewind < MAX_REWIND)
      rewind[n_rewind++] = atoi (argv[i + 1]);
    else
      return usage ();
  struct command cmds[MAX_CMDS];
  int n = 0;
  while (i + 1 < argc && n < MAX_CMDS)
    {
      /* NAME ARG... up to "::" or the end: the separator becomes the
         command's terminating NULL.  */
      cmds[n] = (struct command){ argv[i], argv + i + 1,
                                  calloc ((size_t) runs, sizeof (double)) };
      for (i++; i < argc && strcmp (argv[i], "::") != 0; i++)
        ;
      if (i < argc)
        argv[i++] = NULL;
      if (cmds[n++].ms == NULL)
        return usage ();
    }
  if (i != argc || n == 0 || runs < 1 || warmup < 0)
    return usage ();
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init (&quiet);
  posix_spawn_file_actions_addopen (&quiet, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen (&quiet, 2, "/dev/null", O_WRONLY, 0);
  for (int r = -warmup; r < runs; r++)
    for (int k = 0; k < n; k++)
      {
        const struct command *c = &cmds[(k + (r < 0 ? 0 : r)) % n];
        double t = time_once (c, rewind, n_rewind, &quiet);
        if (t < 0)
          {
            fprintf (stderr, "interleave: %s failed (run it by hand)\n",
                     c->name);
            return 1;
          }
        if (r >= 0)
          c->ms[r] = t;
      }
  for (int k = 0; k < n; k++)
    {
      qsort (cmds[k].ms, (size_t) runs, sizeof (double), cmp_double);
      printf ("%s\t%.3f\t%.3f\t%.3f\n", cmds[k].name,
              quantile (cmds[k].ms, runs, 0.5),
              quantile (cmds[k].ms, runs, 0.25),
              quantile (cmds[k].ms, runs, 0.75));
    }
  return 0;
}
