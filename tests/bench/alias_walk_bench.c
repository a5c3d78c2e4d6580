/* Driver for alias_walk_bench.sh.

   alias_walk_bench generate ROOT OUTSIDE N
     Create N entries below ROOT (a tree of directories with 4 subdirectories
     and 16 files each, breadth first); every 20th file gets a second name
     in OUTSIDE.
   alias_walk_bench walk ROOT
     Run the alias walk over ROOT without bounds that the tree could hit and
     print the number of hard-linked files found, as `find -links +1 | wc -l`
     would.  */
#include "runtime/linux/confine/alias_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SUBDIRS 4
#define FILES 16

static int
make_file (const char *path, const char *outside, unsigned long nth)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return -1;
  close (fd);
  if (nth % 20 != 0)
    return 0;
  char other[4096];
  snprintf (other, sizeof other, "%s/alias%lu", outside, nth);
  return link (path, other);
}

/* Directory I (0 is ROOT) is ROOT/d<parent path>...; directories are
   numbered breadth first and named by their number, below their parent.  */
static int
generate (const char *root, const char *outside, unsigned long n)
{
  size_t cap = n / (SUBDIRS + FILES) * SUBDIRS + 2;
  char **dirs = calloc (cap, sizeof *dirs);
  if (dirs == NULL || (dirs[0] = strdup (root)) == NULL)
    return 1;
  size_t n_dirs = 1;
  unsigned long made = 0, files = 0;
  for (size_t i = 0; i < n_dirs && made < n; i++)
    for (int k = 0; k < SUBDIRS + FILES && made < n; k++, made++)
      {
        char *p = NULL;
        if (asprintf (&p, "%s/%s%d", dirs[i], k < SUBDIRS ? "d" : "f", k) < 0)
          return 1;
        if (k < SUBDIRS && n_dirs < cap)
          {
            if (mkdir (p, 0755) < 0)
              {
                perror (p);
                return 1;
              }
            dirs[n_dirs++] = p;
            continue;
          }
        if (make_file (p, outside, ++files) < 0)
          {
            perror (p);
            return 1;
          }
        free (p);
      }
  for (size_t i = 0; i < n_dirs; i++)
    free (dirs[i]);
  free (dirs);
  return 0;
}

static int
walk (const char *root)
{
  const char *roots[] = { root };
  struct sbx_alias_result res = { 0 };
  struct sbx_error err = { 0 };
  struct sbx_alias_walk_opts opts = { UINT32_MAX, 256, NULL, 0 };
  int r = sbx_alias_walk (roots, 1, &opts, &res, &err);
  int status = r < 0 || res.truncated;
  if (status)
    fprintf (stderr, "alias_walk_bench: %s\n", r < 0 ? err.msg : res.reason);
  else
    printf ("%zu\n", res.paths.n);
  sbx_alias_result_free (&res);
  return status;
}

int
main (int argc, char **argv)
{
  if (argc == 5 && strcmp (argv[1], "generate") == 0)
    return generate (argv[2], argv[3], strtoul (argv[4], NULL, 10));
  if (argc == 3 && strcmp (argv[1], "walk") == 0)
    return walk (argv[2]);
  fprintf (stderr, "usage: alias_walk_bench generate ROOT OUTSIDE N | "
                   "walk ROOT\n");
  return 2;
}
