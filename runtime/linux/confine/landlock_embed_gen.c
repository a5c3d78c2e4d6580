/* Build-time: writes the Landlock helper's bytes as a C array, so that
   sbx-oci carries the helper inside itself (landlock_helper_fd.c) and
   never looks for it on disk, where it could be missing or replaced.  */
#include <stdio.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s HELPER OUTPUT.c\n", argv[0]);
      return 2;
    }
  FILE *in = fopen (argv[1], "rb"), *out = fopen (argv[2], "w");
  if (in == NULL || out == NULL)
    {
      perror (in == NULL ? argv[1] : argv[2]);
      return 1;
    }
  fprintf (out,
           "/* generated from %s: do not edit */\n"
           "#include <stddef.h>\n"
           "const unsigned char sbx_landlock_helper[] = {",
           argv[1]);
  size_t n = 0;
  int c;
  while ((c = getc (in)) != EOF)
    fprintf (out, "%s%u,", n++ % 16 ? "" : "\n  ", (unsigned) c);
  fprintf (out, "\n};\nconst size_t sbx_landlock_helper_len = %zu;\n", n);
  return ferror (in) || fclose (out) != 0 ? 1 : 0;
}
