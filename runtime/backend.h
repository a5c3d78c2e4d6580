/* The backend: what confines a command on this host, chosen per system by
   runtime/meson.build.  bubblewrap on Linux
   (runtime/linux/bwrap/backend_bwrap.c), Seatbelt on macOS
   (runtime/darwin/backend_seatbelt.c), and on any other system none at all
   (runtime/backend_none.c), which refuses rather than run a command
   unconfined.  The commands themselves are shared.  */
#ifndef SBX_BACKEND_H
#define SBX_BACKEND_H

#include <stdbool.h>

#include "runtime/context.h"
#include "runtime/outcome.h"
#include "policy/policy.h"

enum sbx_backend_choice
{
  SBX_BACKEND_DEFAULT, /* this host's own */
  SBX_BACKEND_BWRAP,
  SBX_BACKEND_SEATBELT,
};

/* What `sbx-oci run` was asked for.  */
struct sbx_run_request
{
  const char *bundle;
  const char *id;
  enum sbx_backend_choice backend; /* --backend */
  bool dry_run;                    /* print what would run, run nothing */
  const char *seccomp_dir; /* dry run: write the seccomp programs here so
                              the printed command reproduces the run */
  int preserve_fds;        /* --preserve-fds */
};

/* How a run went.  PLAN is the resolved plan (NULL when resolution did not
   get that far), kept for the outcome's enforcement report; EXEC_STATUS
   is 127 or 126 when the command cannot be found or executed.  */
struct sbx_run_result
{
  struct sbx_outcome outcome;
  struct sbx_plan *plan;
  int exec_status;
};

/* Load the bundle, resolve the plan, and run the command confined in the
   foreground, supervised until it ends (or print it, for a dry run).
   Returns 0 with RES->outcome filled, or a negative errno with ERR (the
   sandbox never ran the command).  RES->plan is the caller's to free.  */
int sbx_backend_run (const struct sbx_context *g,
                     const struct sbx_run_request *req,
                     struct sbx_run_result *res, struct sbx_error *err);

/* Resolve BUNDLE's plan as this host's backend would for `run`, and run
   nothing: what the dry run of another backend's translation starts from
   (`run --dry-run --backend seatbelt` on Linux, runtime/commands/run.c).
   0 with *SPEC and *PLAN the caller's to free.  */
int sbx_backend_resolve (const struct sbx_context *g, const char *bundle,
                         struct sbx_spec **spec, struct sbx_plan **plan,
                         struct sbx_error *err);

/* The `--version` line that names the runner this backend would use.  */
void sbx_backend_print_runner (const struct sbx_context *g);

/* A command this backend does not offer (runtime/commands/refused.c,
   built where the container lifecycle is unavailable): the one-line
   refusal naming what to use instead.  */
int sbx_backend_refuse (const char *command, struct sbx_error *err);

/* Hooks and sysctls need a sandbox held between set-up and its command,
   which `run` never has: every backend refuses them in `run`
   (runtime/commands/run.c).  */
int sbx_run_refuse_held_only (const struct sbx_spec *spec,
                              struct sbx_error *err);

#endif
