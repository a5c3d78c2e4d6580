/* fence_bench CONFIG DIR N: the price of the fence from C, per call.

   Times N writes of a small file (64 bytes) into DIR (inside CONFIG's
   workspace) each way, interleaved in rounds so that drift falls on all
   alike, and prints one line per way with the median and the mean in
   microseconds:
     plain        open(O_TRUNC) + write + close, the unfenced tool's write
     plain-atomic a temp file + rename, what the fence does, unfenced
     fence        sbx_fence_write on a fence opened once
   and the one-time cost of sbx_fence_open (the plan: probe cache, alias
   walk, resolution).  */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fence/fence.h"

static const char data[64]
    = "a small file, as a tool writes for a model: 64 bytes..";

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e6 + (double) ts.tv_nsec / 1e3;
}

static int
plain (const char *path)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || write (fd, data, sizeof data) != sizeof data)
    return -1;
  return close (fd);
}

static int
plain_atomic (const char *path)
{
  char tmp[4200];
  snprintf (tmp, sizeof tmp, "%s.tmp", path);
  return plain (tmp) == 0 ? rename (tmp, path) : -1;
}

static int
by_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
report (const char *name, double *t, int n)
{
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += t[i];
  qsort (t, (size_t) n, sizeof *t, by_double);
  printf ("%-13s median %8.2f us  mean %8.2f us\n", name, t[n / 2], sum / n);
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: fence_bench CONFIG DIR N\n");
      return 2;
    }
  int n = atoi (argv[3]);
  char p1[4096], p2[4096], p3[4096];
  snprintf (p1, sizeof p1, "%s/plain", argv[2]);
  snprintf (p2, sizeof p2, "%s/atomic", argv[2]);
  snprintf (p3, sizeof p3, "%s/fenced", argv[2]);
  struct sbx_error err = { 0 };
  struct sbx_fence_options opts = { .config = argv[1] };
  struct sbx_fence *f = NULL;
  double t0 = now_us ();
  if (sbx_fence_open (&opts, &f, &err) < 0)
    {
      fprintf (stderr, "fence_bench: %s\n", err.msg);
      return 1;
    }
  printf ("%-13s %8.2f us (once per fence)\n", "fence-open", now_us () - t0);
  double *t[3];
  for (int k = 0; k < 3; k++)
    t[k] = calloc ((size_t) n, sizeof (double));
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      {
        int way = (i + k) % 3; /* each round from another one */
        double s = now_us ();
        bad |= way == 0 ? plain (p1)
               : way == 1
                   ? plain_atomic (p2)
                   : sbx_fence_write (f, p3, data, sizeof data, NULL, &err);
        t[way][i] = now_us () - s;
      }
  if (bad)
    {
      fprintf (stderr, "fence_bench: a write failed: %s\n", err.msg);
      return 1;
    }
  report ("plain", t[0], n);
  report ("plain-atomic", t[1], n);
  report ("fence", t[2], n);
  sbx_fence_free (f);
  return 0;
}
