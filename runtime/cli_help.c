/* `sbx-oci COMMAND --help`: each command's synopsis and options, in one
   table (docs/man/sbx-oci.1.md says the same at length, and
   tests/integration/cli_help.sh checks that every command has both).  */
#include <stdio.h>
#include <string.h>

#include "runtime/cli.h"

struct command_help
{
  const char *name;
  const char *text;
};

static const struct command_help helps[] = {
  { "run",
    "usage: sbx-oci run [OPTIONS] ID\n"
    "       sbx-oci run --policy FILE|- [OPTIONS] ID -- ARGV...\n\n"
    "run a bundle's process in a sandbox, in the foreground; exit with its "
    "status\n\n"
    "  -b, --bundle DIR     the bundle (default: .)\n"
    "  --policy FILE|-      a config.json used as the policy of one call; "
    "the call\n"
    "                       is ARGV (after --), --env and --cwd\n"
    "  --env NAME=VALUE     with --policy: add to the process's environment "
    "(repeat)\n"
    "  --cwd DIR            with --policy: the working directory\n"
    "  --outcome FILE       write the outcome JSON to FILE\n"
    "  --outcome-fd N       write the outcome JSON to descriptor N\n"
    "  --dry-run            print the sandbox's command line, run nothing\n"
    "  --backend NAME       bwrap or seatbelt (with --dry-run)\n"
    "  --seccomp-dir DIR    with --dry-run: write the seccomp programs "
    "there\n"
    "  --preserve-fds N     pass descriptors 3 .. 3+N-1 in\n" },
  { "spec",
    "usage: sbx-oci spec [--bundle DIR]\n"
    "       sbx-oci spec --agent --workspace DIR [--mode MODE] "
    "[--bundle DIR]\n\n"
    "write a starting config.json into the bundle (never over one)\n\n"
    "  -b, --bundle DIR     where to write config.json (default: .)\n"
    "  --agent              an agent policy over the host's / instead of a "
    "rootfs\n"
    "  --workspace DIR      with --agent: the existing directory it may "
    "write\n"
    "  --mode MODE          with --agent: read-only, workspace-write "
    "(default)\n" },
  { "check",
    "usage: sbx-oci check [--bundle DIR] [--format text|json]\n\n"
    "say what this host enforces and how to fix each gap; with a bundle, "
    "also\nwhat its config would get (exit 1: a check failed)\n" },
  { "create",
    "usage: sbx-oci create [--bundle DIR] [--pid-file FILE] "
    "[--console-socket SOCK]\n"
    "                      [--preserve-fds N] ID\n\n"
    "set a container up, held before its command (`start` releases it)\n" },
  { "start", "usage: sbx-oci start ID\n\nlet a created container run its "
             "command\n" },
  { "state", "usage: sbx-oci state ID\n\nprint a container's OCI state "
             "(JSON)\n" },
  { "kill", "usage: sbx-oci kill [--all] ID [SIGNAL]\n\nsignal a "
            "container's first process (--all: every process); default "
            "TERM\n" },
  { "delete", "usage: sbx-oci delete [--force] ID\n\nremove a stopped "
              "container (--force: end it first; a missing one is no "
              "error)\n" },
  { "exec",
    "usage: sbx-oci exec [OPTIONS] ID -- ARGV...\n"
    "       sbx-oci exec [OPTIONS] --process FILE ID\n\n"
    "run another process in a running container; exit with its status\n\n"
    "  -p, --process FILE   the OCI process object to run\n"
    "  -e, --env NAME=VALUE add to the environment (repeat)\n"
    "  -w, --cwd DIR        the working directory\n"
    "  -d, --detach         do not wait for it\n"
    "  --pid-file FILE      write its pid there\n"
    "  -t, --tty            with --console-socket SOCK: give it a terminal\n"
    "  --preserve-fds N     pass descriptors 3 .. 3+N-1 in\n" },
  { "list", "usage: sbx-oci list [--format table|json] [-q]\n\nlist the "
            "containers\n" },
  { "ps", "usage: sbx-oci ps [--format table|json] ID\n\nlist the "
          "processes of a container\n" },
  { "features", "usage: sbx-oci features\n\nprint the OCI features "
                "document\n" },
  { "pause", "usage: sbx-oci pause ID\n\nnot supported (refused)\n" },
  { "resume", "usage: sbx-oci resume ID\n\nnot supported (refused)\n" },
  { "update", "usage: sbx-oci update ID\n\nnot supported (refused)\n" },
  { "fence",
    "usage: sbx-oci fence OP --config FILE [--ceiling FILE] [OPTIONS] "
    "PATH...\n\n"
    "read and write files under a config's policy, in this process (OP: "
    "check,\nread, write, append, mkdir, remove, rename, stat, list; "
    "docs/fence.md)\n\n"
    "  --access read|write  check: the access to ask for\n"
    "  --verdict-fd N       one JSON verdict per path on descriptor N\n"
    "  --max-bytes N        read, write, append: at most N bytes\n"
    "  --mode OCTAL         mkdir: the new directory's mode\n"
    "exit 3: refused by the policy\n" },
};

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
