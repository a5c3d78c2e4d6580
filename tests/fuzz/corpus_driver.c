/* Runs the fuzz harness over every seed of a corpus directory, as a TAP
   test, in builds without libFuzzer.  A seed named ok-* must parse and one
   named err-* must be refused, so the corpus also pins behaviour.  */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *
read_seed (const char *dir, const char *name, size_t *len)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return NULL;
  char *buf = NULL;
  size_t cap = 0, n = 0, got;
  do
    {
      if (n == cap)
        {
          cap = cap ? cap * 2 : 4096;
          char *bigger = realloc (buf, cap);
          if (bigger == NULL)
            break;
          buf = bigger;
        }
      got = fread (buf + n, 1, cap - n, f);
      n += got;
    }
  while (got > 0);
  fclose (f);
  *len = n;
  return buf;
}

static bool
run_seed (const char *dir, const char *name)
{
  size_t len = 0;
  char *text = read_seed (dir, name, &len);
  if (text == NULL)
    {
      printf ("not ok - %s: cannot read\n", name);
      return false;
    }
  /* Aborts (and so fails the test) when an invariant breaks.  */
  LLVMFuzzerTestOneInput ((const uint8_t *) text, len);
  struct sbx_error err = { 0 };
  struct sbx_spec *spec = NULL;
  int r = sbx_spec_parse (text, len, "/bundle", &spec, &err);
  sbx_spec_free (spec);
  free (text);
  bool want_ok = strncmp (name, "ok-", 3) == 0;
  bool want_err = strncmp (name, "err-", 4) == 0;
  bool good = (want_ok && r == 0) || (want_err && r < 0);
  printf ("%s - %s%s%s\n", good ? "ok" : "not ok", name, r < 0 ? ": " : "",
          r < 0 ? err.msg : "");
  if (!want_ok && !want_err)
    printf ("# seed names start with ok- or err-\n");
  return good;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s CORPUS-DIR\n", argv[0]);
      return 2;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  struct dirent **names;
  int n = scandir (argv[1], &names, NULL, alphasort);
  if (n < 0)
    {
      perror (argv[1]);
      return 1;
    }
  int count = 0, failed = 0;
  for (int i = 0; i < n; i++)
    {
      if (names[i]->d_name[0] != '.')
        {
          count++;
          failed += !run_seed (argv[1], names[i]->d_name);
        }
      free (names[i]);
    }
  free (names);
  printf ("1..%d\n", count);
  return failed || count == 0 ? 1 : 0;
}
