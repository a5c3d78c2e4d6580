/* `sbx-oci COMMAND --help`: each command's synopsis and options.  The
   texts are sbx-oci(1)'s own: scripts/help_gen.py writes the table from
   the ```help blocks of docs/man/sbx-oci.1.md at build time, so the help
   and the manual cannot drift apart.  */
#include <stdio.h>
#include <string.h>

#include "runtime/cli.h"

struct command_help
{
  const char *name;
  const char *text;
};

#include "runtime/cli_help_text.h"

static const char footer[]
    = "\nexit status: 0 done (run, exec: the command's own), 121 config "
      "refused,\n122 usage error, 123 no such container, 125 failed, 126 not "
      "executable,\n127 not found (sbx-oci(1), docs/exit-status.md)\n";

bool
sbx_help_wanted (int argc, char **argv)
{
  return argc >= 2
         && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0);
}

int
sbx_print_command_help (const char *command)
{
  for (size_t i = 0; i < sizeof helps / sizeof *helps; i++)
    if (strcmp (helps[i].name, command) == 0)
      {
        fputs (helps[i].text, stdout);
        fputs (footer, stdout);
        return 0;
      }
  return -1;
}
