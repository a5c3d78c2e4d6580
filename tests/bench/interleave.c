/* `interleave [--runs N] [--warmup N] [--rewind FD]... NAME ARG... [:: NAME
   ARG...]...` times each command (ARG..., run without a shell, output to
   /dev/null) N times, and prints one line per command: its name, the
   median wall time in ms, and the first and third quartiles.

   Why not hyperfine: it times one command's runs back to back, and this
   VM drifts by 10-20 % within a minute, so commands measured at different
   moments are compared under different machines.  Here every round runs
   each command once, in an order shuffled anew each round (from a fixed
   seed, so a run can be repeated): drift falls on all of them alike, and
   so does what a command leaves the kernel to finish after it exits (a
   sandbox's namespaces), which lands on whichever command runs next.
   --rewind seeks an inherited FD back to its start before every run
   (bwrap reads its seccomp programs from fds it inherits, and must find
   them whole).  */
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

/* A fixed xorshift sequence: the same orders on every run.  */
static unsigned
next_random (void)
{
  static unsigned x = 2463534242u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

/* ORDER, N entries, in a new random order (Fisher-Yates).  */
static void
shuffle (int *order, int n)
{
  for (int k = n - 1; k > 0; k--)
    {
      int j = (int) (next_random () % (unsigned) (k + 1)), t = order[k];
      order[k] = order[j];
      order[j] = t;
    }
}

/* A whole decimal number from MIN up, or -1.  */
static int
parse_count (const char *s, int min)
{
  char *end;
  long v = strtol (s, &end, 10);
  return *s && *end == '\0' && v >= min && v <= 1000000 ? (int) v : -1;
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
      runs = parse_count (argv[i + 1], 1);
    else if (strcmp (argv[i], "--warmup") == 0)
      warmup = parse_count (argv[i + 1], 0);
    else if (strcmp (argv[i], "--rewind") == 0 && n_rewind < MAX_REWIND)
      rewind[n_rewind++] = parse_count (argv[i + 1], 0);
    else
      return usage ();
  if (runs < 1 || warmup < 0)
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
      if (cmds[n].argv[0] == NULL || cmds[n++].ms == NULL)
        return usage ();
    }
  if (i != argc || n == 0)
    return usage ();
  for (int k = 0; k < n_rewind; k++)
    if (rewind[k] < 0)
      return usage ();
  int order[MAX_CMDS];
  for (int k = 0; k < n; k++)
    order[k] = k;
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init (&quiet);
  posix_spawn_file_actions_addopen (&quiet, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen (&quiet, 2, "/dev/null", O_WRONLY, 0);
  for (int r = -warmup; r < runs; r++)
    for (int k = 0; k < n; k++)
      {
        if (k == 0)
          shuffle (order, n);
        const struct command *c = &cmds[order[k]];
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
