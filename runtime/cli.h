/* The command line: the table of commands, one file each under
   runtime/commands/, and what they share to parse their options.  The
   global options (runc's spelling) fill the engine's context
   (runtime/context.h).  */
#ifndef SBX_CLI_H
#define SBX_CLI_H

#include <stdbool.h>

#include "common/error.h"
#include "runtime/context.h"

/* Every command: returns the process exit status (>= 0) or a negative
   errno-style value with ERR filled, which main prints.  ARGV[0] is the
   command's name.  */
typedef int (*sbx_command_fn) (struct sbx_context *g, int argc, char **argv,
                               struct sbx_error *err);

int sbx_cmd_run (struct sbx_context *g, int argc, char **argv,
                 struct sbx_error *err);
int sbx_cmd_check (struct sbx_context *g, int argc, char **argv,
                   struct sbx_error *err);
int sbx_cmd_spec (struct sbx_context *g, int argc, char **argv,
                  struct sbx_error *err);
int sbx_cmd_create (struct sbx_context *g, int argc, char **argv,
                    struct sbx_error *err);
int sbx_cmd_start (struct sbx_context *g, int argc, char **argv,
                   struct sbx_error *err);
int sbx_cmd_state (struct sbx_context *g, int argc, char **argv,
                   struct sbx_error *err);
int sbx_cmd_kill (struct sbx_context *g, int argc, char **argv,
                  struct sbx_error *err);
int sbx_cmd_delete (struct sbx_context *g, int argc, char **argv,
                    struct sbx_error *err);
int sbx_cmd_list (struct sbx_context *g, int argc, char **argv,
                  struct sbx_error *err);
int sbx_cmd_ps (struct sbx_context *g, int argc, char **argv,
                struct sbx_error *err);
int sbx_cmd_exec (struct sbx_context *g, int argc, char **argv,
                  struct sbx_error *err);
int sbx_cmd_features (struct sbx_context *g, int argc, char **argv,
                      struct sbx_error *err);
int sbx_cmd_pause (struct sbx_context *g, int argc, char **argv,
                   struct sbx_error *err);
int sbx_cmd_resume (struct sbx_context *g, int argc, char **argv,
                    struct sbx_error *err);
int sbx_cmd_limits_watcher (struct sbx_context *g, int argc, char **argv,
                            struct sbx_error *err);
int sbx_cmd_fence (struct sbx_context *g, int argc, char **argv,
                   struct sbx_error *err);
int sbx_cmd_update (struct sbx_context *g, int argc, char **argv,
                    struct sbx_error *err);

/* ARG as a whole decimal number from MIN to MAX (no sign, no space,
   nothing after it) into *OUT; anything else is an error naming NAME.  */
int sbx_parse_number (const char *name, const char *arg,
                      unsigned long long min, unsigned long long max,
                      unsigned long long *out, struct sbx_error *err);

/* --preserve-fds N: 0 to 1024; anything else is an error naming it.  The
   caller's 3 .. 3+N-1 that are closed are held with /dev/null, so that
   nothing of sbx-oci's lands among them.  */
int sbx_parse_preserve_fds (const char *arg, int *out, struct sbx_error *err);

/* R from parsing a command's own arguments: whatever failed there is the
   caller's command line, a usage error (runtime/exit_status.h).  */
int sbx_usage_result (int r, struct sbx_error *err);

/* `COMMAND --help` (or -h) as the command's first argument.  */
bool sbx_help_wanted (int argc, char **argv);

/* Print COMMAND's help on stdout; -1 when the table has no such command. */
int sbx_print_command_help (const char *command);

#endif
