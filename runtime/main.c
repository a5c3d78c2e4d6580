#include "config.h"

#include <stdio.h>
#include <string.h>

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--version") == 0)
    {
      printf ("sbx-oci version %s\nspec: %s\n", SBX_VERSION, SBX_OCI_VERSION);
      return 0;
    }
  fprintf (stderr, "usage: sbx-oci [--version]\n");
  return 1;
}
