/* sbx-oci: the command table is the table of contents.  */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/backend.h"
#include "runtime/cli.h"
#include "runtime/exit_status.h"

struct command
{
  const char *name;
  sbx_command_fn fn;
  const char *summary;
};

static const struct command commands[] = {
  { "run", sbx_cmd_run,
    "run a bundle's process in a sandbox, in the foreground" },
  { "spec", sbx_cmd_spec, "write a starting config.json" },
  { "check", sbx_cmd_check,
    "say what this host enforces and how to fix gaps" },
  { "create", sbx_cmd_create, "set a container up, held before its command" },
  { "start", sbx_cmd_start, "let a created container run its command" },
  { "state", sbx_cmd_state, "print a container's OCI state" },
  { "kill", sbx_cmd_kill, "signal a container's processes" },
  { "delete", sbx_cmd_delete, "remove a container (--force: end it first)" },
  { "exec", sbx_cmd_exec, "run another process in a running container" },
  { "list", sbx_cmd_list, "list the containers" },
  { "ps", sbx_cmd_ps, "list the processes of a container" },
  { "features", sbx_cmd_features, "print the OCI features document" },
  { "pause", sbx_cmd_pause, "not supported" },
  { "resume", sbx_cmd_resume, "not supported" },
  { "update", sbx_cmd_update, "not supported" },
#ifdef SBX_FENCE_COMMAND
  { "fence", sbx_cmd_fence,
    "read and write files under a config's policy, in this process" },
#endif
  /* Hidden: the watcher `create` starts
     (runtime/linux/supervise/limits.h).  */
  { "limits-watcher", sbx_cmd_limits_watcher, NULL },
};

static void
usage (FILE *out)
{
  fprintf (out,
           "usage: sbx-oci [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
           "global options:\n"
           "  --root DIR          state directory\n"
           "  --log FILE          write errors and warnings to FILE\n"
           "  --log-format FMT    text or json\n"
           "  --runner PATH       use this bwrap (trusted, not probed)\n"
           "  --ceiling FILE      the config is untrusted: check it against "
           "this ceiling\n"
           "  --approve FILE      more approval tokens for the ceiling, one "
           "per line\n"
           "  --debug, --systemd-cgroup, --rootless, --log-level L\n"
           "  --version, --help\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (commands[i].summary)
      fprintf (out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

static int
print_version (const struct sbx_context *g)
{
  printf ("sbx-oci version %s\nspec: %s\n", SBX_VERSION, SBX_OCI_VERSION);
  sbx_backend_print_runner (g);
  return 0;
}

enum
{
  OPT_ROOT = 256,
  OPT_LOG,
  OPT_LOG_FORMAT,
  OPT_LOG_LEVEL,
  OPT_DEBUG,
  OPT_SYSTEMD_CGROUP,
  OPT_CGROUP_MANAGER,
  OPT_ROOTLESS,
  OPT_RUNNER,
  OPT_APPROVE,
  OPT_CEILING,
  OPT_VERSION,
  OPT_HELP,
};

static const struct option global_options[] = {
  { "root", required_argument, NULL, OPT_ROOT },
  { "log", required_argument, NULL, OPT_LOG },
  { "log-format", required_argument, NULL, OPT_LOG_FORMAT },
  { "log-level", required_argument, NULL, OPT_LOG_LEVEL },
  { "debug", no_argument, NULL, OPT_DEBUG },
  { "systemd-cgroup", no_argument, NULL, OPT_SYSTEMD_CGROUP },
  { "cgroup-manager", required_argument, NULL, OPT_CGROUP_MANAGER },
  { "rootless", required_argument, NULL, OPT_ROOTLESS },
  { "runner", required_argument, NULL, OPT_RUNNER },
  { "approve", required_argument, NULL, OPT_APPROVE },
  { "ceiling", required_argument, NULL, OPT_CEILING },
  { "version", no_argument, NULL, OPT_VERSION },
  { "help", no_argument, NULL, OPT_HELP },
  { NULL, 0, NULL, 0 },
};

static int
parse_globals (int argc, char **argv, struct sbx_context *g,
               struct sbx_error *err)
{
  int c;
  while ((c = getopt_long_only (argc, argv, "+hv", global_options, NULL))
         != -1)
    switch (c)
      {
      case OPT_ROOT:
        g->root = optarg;
        break;
      case OPT_LOG:
        g->log_path = optarg;
        break;
      case OPT_LOG_FORMAT:
        if (strcmp (optarg, "json") != 0 && strcmp (optarg, "text") != 0)
          return sbx_fail (err, -EINVAL,
                           "--log-format: expected text or json, not \"%s\"",
                           optarg);
        g->log_format = optarg[0] == 'j' ? SBX_LOG_JSON : SBX_LOG_TEXT;
        break;
      case OPT_DEBUG:
        g->debug = true;
        break;
      case OPT_SYSTEMD_CGROUP:
        g->systemd_cgroup = true;
        break;
      case OPT_CGROUP_MANAGER:
        g->systemd_cgroup = strcmp (optarg, "systemd") == 0;
        break;
      case OPT_RUNNER:
        g->runner = optarg;
        break;
      case OPT_APPROVE:
        g->approve = optarg;
        break;
      case OPT_CEILING:
        g->ceiling = optarg;
        break;
      case OPT_LOG_LEVEL:
      case OPT_ROOTLESS:
        break; /* accepted */
      case OPT_VERSION:
      case 'v':
        return 'v';
      case OPT_HELP:
      case 'h':
        return 'h';
      default:
        return sbx_fail_usage (err,
                               "unknown global option \"%s\" (see --help)",
                               argv[optind - 1]);
      }
  return 0;
}

int
main (int argc, char **argv)
{
  struct sbx_context g = { 0 };
  struct sbx_error err = { 0 };
  opterr = 0;
  int r = parse_globals (argc, argv, &g, &err);
  if (r == 'v')
    return print_version (&g);
  if (r == 'h' || (r == 0 && optind >= argc))
    {
      usage (r == 'h' ? stdout : stderr);
      return r == 'h' ? 0 : SBX_EXIT_USAGE;
    }
  for (size_t i = 0; r == 0 && i < sizeof commands / sizeof *commands; i++)
    if (strcmp (argv[optind], commands[i].name) == 0)
      {
        int cargc = argc - optind;
        char **cargv = argv + optind;
        if (commands[i].summary && sbx_help_wanted (cargc, cargv)
            && sbx_print_command_help (cargv[0]) == 0)
          return 0;
        optind = 0; /* reset getopt for the command's own options */
        r = commands[i].fn (&g, cargc, cargv, &err);
        if (r >= 0)
          return r;
        break;
      }
  if (r == 0)
    r = sbx_fail_usage (&err, "unknown command \"%s\" (see --help)",
                        argv[optind]);
  sbx_log_error (&g, err.msg);
  return sbx_exit_status_of (&err);
}
