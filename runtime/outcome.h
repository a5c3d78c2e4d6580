/* How a sandbox ended, as orchestrators need to read it: the command's
   exit, its death by a signal, a limit breach, or a sandbox that never
   ran the command.  Never confused with each other.  */
#ifndef SBX_OUTCOME_H
#define SBX_OUTCOME_H

#include <stdbool.h>
#include <stdint.h>
#include <yajl/yajl_gen.h>

#include "policy/policy.h"
#include "runtime/exit_status.h"

enum sbx_outcome_kind
{
  SBX_OUTCOME_EXITED,
  SBX_OUTCOME_SIGNALED,
  SBX_OUTCOME_LIMIT,
  SBX_OUTCOME_REFUSED,         /* the config was refused: nothing ran */
  SBX_OUTCOME_SANDBOX_FAILURE, /* the sandbox could not be set up */
  SBX_OUTCOME_NOT_FOUND,       /* the command does not exist: never ran */
  SBX_OUTCOME_NOT_EXECUTABLE,  /* it exists but cannot be executed */
};

/* The outcome document's "version": raised when a field changes meaning
   or goes; new fields do not raise it (docs/outcome.schema.json).  2: a
   refused config is "refused" (121), no longer a "sandbox-failure".  */
#define SBX_OUTCOME_VERSION 2

enum sbx_limit_kind
{
  SBX_LIMIT_NONE,
  SBX_LIMIT_WALL_CLOCK,
  SBX_LIMIT_MEMORY,
  SBX_LIMIT_PIDS,
};

/* sbx-oci's own exit status when the sandbox could not be set up; the
   command's statuses are passed through unchanged.  */
#define SBX_EXIT_SANDBOX_FAILURE SBX_EXIT_FAILURE

struct sbx_outcome
{
  enum sbx_outcome_kind kind;
  int exit_code;       /* EXITED: the command's status */
  int signal;          /* SIGNALED, LIMIT: the fatal signal */
  bool signal_certain; /* sbx delivered it, so it is not an exit of 128+N */
  enum sbx_limit_kind limit;
  char reason[512]; /* REFUSED, SANDBOX_FAILURE and LIMIT: one line */
  /* REFUSED: the field the refusal names ("" when none, e.g. invalid
     JSON).  */
  char refused_field[SBX_ERROR_FIELD_MAX];
  uint64_t wall_ms;
  uint64_t peak_memory; /* bytes, 0 = not measured */
  uint64_t peak_pids;
  uint64_t pids_limit_hits;     /* quota: forks the kernel refused */
  const char *limits_mechanism; /* "quota", "monitor" or "none" */
  /* What held each limit: "quota", "rlimit" or "sampled"; NULL: no such
     limit.  */
  const char *memory_held_by, *pids_held_by;
  /* The config's keys sbx-oci does not read; NULL: not known.  */
  const struct strv *ignored_fields;
  /* SANDBOX_FAILURE, proven before the command: bwrap exited 1 on its
     own (no signal, none sent, no limit) without the byte its child
     writes just before exec, so it wrote no "exit-code" (bubblewrap.c,
     report_child_exit_status).  A runner killed by a signal proves
     nothing: bwrap writes "exit-code" only when the command ends.  */
  bool set_up_failed;
};

/* The status `sbx-oci run` exits with: the command's, 128+N for a signal,
   SBX_EXIT_SANDBOX_FAILURE when the sandbox never ran it,
   SBX_EXIT_REFUSED when its config was refused, 127 or 126 when
   it could not be found or executed (runtime/exit_status.h).  */
int sbx_outcome_exit_status (const struct sbx_outcome *o);

/* From bwrap's report: its "exit-code" (HAVE_CODE) or, without one, its
   own exit status.  DELIVERED is the signal sbx itself sent (0 = none).  */
void sbx_outcome_from_runner (struct sbx_outcome *o, bool have_code, int code,
                              int runner_status, int delivered);

/* Asked to stop by SIGNAL before the command ran: stopped, not failed.  */
void sbx_outcome_stopped_before_start (struct sbx_outcome *o, int signal);

const char *sbx_outcome_kind_name (enum sbx_outcome_kind kind);
const char *sbx_limit_name (enum sbx_limit_kind limit);

/* The outcome as one JSON object, with the plan's enforcement facts.  */
int sbx_outcome_json (yajl_gen g, const struct sbx_outcome *o,
                      const struct sbx_plan *plan);

/* The enforcement facts as a JSON object value (shared with `state`).  */
int sbx_enforcement_json (yajl_gen g, const struct sbx_plan *plan);

#endif
