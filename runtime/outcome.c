#include "runtime/outcome.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "common/json_gen.h"

int
sbx_outcome_exit_status (const struct sbx_outcome *o)
{
  switch (o->kind)
    {
    case SBX_OUTCOME_EXITED:
      return o->exit_code;
    case SBX_OUTCOME_SIGNALED:
    case SBX_OUTCOME_LIMIT:
      return 128 + o->signal;
    case SBX_OUTCOME_NOT_FOUND:
      return SBX_EXIT_NOT_FOUND;
    case SBX_OUTCOME_NOT_EXECUTABLE:
      return SBX_EXIT_NOT_EXECUTABLE;
    case SBX_OUTCOME_REFUSED:
      return SBX_EXIT_REFUSED;
    case SBX_OUTCOME_SANDBOX_FAILURE:
      break;
    }
  return SBX_EXIT_SANDBOX_FAILURE;
}

void
sbx_outcome_stopped_before_start (struct sbx_outcome *o, int signal)
{
  o->kind = SBX_OUTCOME_SIGNALED;
  o->signal = signal;
  o->signal_certain = true;
  snprintf (o->reason, sizeof o->reason,
            "stopped by signal %d before the command started", signal);
}

void
sbx_outcome_from_runner (struct sbx_outcome *o, bool have_code, int code,
                         int runner_status, int delivered)
{
  if (!have_code)
    {
      /* bwrap writes "exit-code" when the command ends, and only if its
         child had reached the command's exec: a bwrap that exited 1 (its
         die()) without one failed the set-up.  Any other end, a signal
         or a status a wrapper (--runner) made of one, may have come
         while the command ran.  */
      o->kind = SBX_OUTCOME_SANDBOX_FAILURE;
      if (WIFEXITED (runner_status) && WEXITSTATUS (runner_status) == 1)
        snprintf (o->reason, sizeof o->reason,
                  "the sandbox could not be set up (runner exited with "
                  "status 1 before the command started; its message is "
                  "above)");
      else if (WIFSIGNALED (runner_status))
        snprintf (o->reason, sizeof o->reason,
                  "the runner was killed by signal %d before it reported "
                  "how the command ended (whether the command had started "
                  "is not known)",
                  WTERMSIG (runner_status));
      else
        snprintf (o->reason, sizeof o->reason,
                  "the runner exited with status %d before it reported "
                  "how the command ended (whether the command had started "
                  "is not known)",
                  WEXITSTATUS (runner_status));
      return;
    }
  /* bubblewrap reports a signal death as 128+N, like a shell.  */
  if (code > 128 && code < 128 + NSIG)
    {
      o->kind = SBX_OUTCOME_SIGNALED;
      o->signal = code - 128;
      o->signal_certain = delivered == o->signal;
      return;
    }
  o->kind = SBX_OUTCOME_EXITED;
  o->exit_code = code;
}

const char *
sbx_outcome_kind_name (enum sbx_outcome_kind kind)
{
  switch (kind)
    {
    case SBX_OUTCOME_EXITED:
      return "exited";
    case SBX_OUTCOME_SIGNALED:
      return "signaled";
    case SBX_OUTCOME_LIMIT:
      return "limit";
    case SBX_OUTCOME_REFUSED:
      return "refused";
    case SBX_OUTCOME_SANDBOX_FAILURE:
      return "sandbox-failure";
    case SBX_OUTCOME_NOT_FOUND:
      return "command-not-found";
    case SBX_OUTCOME_NOT_EXECUTABLE:
      return "command-not-executable";
    }
  return "unknown";
}

const char *
sbx_limit_name (enum sbx_limit_kind limit)
{
  static const char *const names[] = {
    [SBX_LIMIT_NONE] = "none",
    [SBX_LIMIT_WALL_CLOCK] = "wall-clock",
    [SBX_LIMIT_MEMORY] = "memory",
    [SBX_LIMIT_PIDS] = "pids",
  };
  return names[limit];
}

/* The layers that hold, strongest first: each names a mechanism that
   would refuse an escape on its own.  */
static int
layers_json (yajl_gen g, const struct sbx_plan *plan)
{
  const struct sbx_enforcement *e = &plan->enforcement;
  const char *v[4];
  struct strv layers = { (char **) v, 0 };
  if (e->seatbelt)
    v[layers.n++] = "seatbelt";
  if (e->namespaces)
    v[layers.n++] = "namespaces";
  if (!e->seatbelt
      && (plan->filters.main != SBX_FILTERS_NONE || plan->filters.net_deny))
    v[layers.n++] = "seccomp";
  if (e->landlock_abi > 0)
    v[layers.n++] = "landlock";
  int r = sbx_json_key_strv (g, "layers", &layers);
  if (r == 0 && e->landlock_abi > 0)
    r = sbx_json_key_int (g, "landlockAbi", e->landlock_abi);
  return r;
}

int
sbx_enforcement_json (yajl_gen g, const struct sbx_plan *plan)
{
  const struct sbx_enforcement *e = &plan->enforcement;
  int r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "level", sbx_level_name (e->level));
  if (r == 0)
    r = sbx_json_key_str (g, "filesystem", sbx_level_name (e->filesystem));
  if (r == 0)
    r = sbx_json_key_str (g, "network", sbx_level_name (e->network));
  if (r == 0)
    r = sbx_json_key_str (
        g, "mode", plan->agent ? sbx_mode_name (plan->mode) : "container");
  if (r == 0)
    r = sbx_json_key_str (g, "networkReach", sbx_net_name (plan->network));
  if (r == 0)
    r = sbx_json_key_bool (g, "noNewPrivileges", e->no_new_privs);
  if (r == 0)
    r = layers_json (g, plan);
  /* "ceiling": the config was untrusted and checked against the
     operator's ceiling; "operator": config.json was the operator's own. */
  if (r == 0)
    r = sbx_json_key_str (g, "trust",
                          plan->under_ceiling ? "ceiling" : "operator");
  if (r == 0)
    r = sbx_json_key_strv (g, "reasons", &e->reasons);
  return r < 0 ? r : sbx_json_close (g, false);
}

/* Per limit, what held it: {"memory": "sampled", "pids": "rlimit"}.  */
static int
held_by_json (yajl_gen g, const struct sbx_outcome *o)
{
  int r = sbx_json_key (g, "heldBy");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0 && o->memory_held_by)
    r = sbx_json_key_str (g, "memory", o->memory_held_by);
  if (r == 0 && o->pids_held_by)
    r = sbx_json_key_str (g, "pids", o->pids_held_by);
  return r < 0 ? r : sbx_json_close (g, false);
}

static int
limits_json (yajl_gen g, const struct sbx_outcome *o)
{
  int r = sbx_json_key (g, "limits");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "mechanism",
                          o->limits_mechanism ? o->limits_mechanism : "none");
  if (r == 0)
    r = sbx_json_key_str (g, "breach", sbx_limit_name (o->limit));
  if (r == 0 && o->peak_memory)
    r = sbx_json_key_int (g, "peakMemoryBytes", (long long) o->peak_memory);
  if (r == 0 && o->peak_pids)
    r = sbx_json_key_int (g, "peakProcesses", (long long) o->peak_pids);
  if (r == 0 && o->pids_limit_hits)
    r = sbx_json_key_int (g, "pidsLimitHits", (long long) o->pids_limit_hits);
  if (r == 0 && (o->memory_held_by || o->pids_held_by))
    r = held_by_json (g, o);
  return r < 0 ? r : sbx_json_close (g, false);
}

/* What the agent's environment lost: credential-shaped names left out,
   names whose URL password was removed.  */
static int
environment_json (yajl_gen g, const struct sbx_plan *plan)
{
  int r = sbx_json_key (g, "environment");
  if (r == 0)
    r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_strv (g, "dropped", &plan->env_dropped);
  if (r == 0)
    r = sbx_json_key_strv (g, "redacted", &plan->env_redacted);
  return r < 0 ? r : sbx_json_close (g, false);
}

/* The fields the config was refused at: one today, since the first
   refusal stops the check; a list, as "ignoredFields" is.  */
static int
refused_fields_json (yajl_gen g, const struct sbx_outcome *o)
{
  char *one[] = { (char *) o->refused_field, NULL };
  struct strv fields = { .v = one, .n = o->refused_field[0] ? 1 : 0 };
  if (o->kind != SBX_OUTCOME_REFUSED)
    fields.n = 0;
  return sbx_json_key_strv (g, "refusedFields", &fields);
}

int
sbx_outcome_json (yajl_gen g, const struct sbx_outcome *o,
                  const struct sbx_plan *plan)
{
  int r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_int (g, "version", SBX_OUTCOME_VERSION);
  if (r == 0)
    r = sbx_json_key_str (g, "outcome", sbx_outcome_kind_name (o->kind));
  if (r == 0 && o->kind == SBX_OUTCOME_EXITED)
    r = sbx_json_key_int (g, "exitCode", o->exit_code);
  if (r == 0
      && (o->kind == SBX_OUTCOME_SIGNALED || o->kind == SBX_OUTCOME_LIMIT))
    r = sbx_json_key_int (g, "signal", o->signal);
  if (r == 0 && o->kind == SBX_OUTCOME_SIGNALED)
    r = sbx_json_key_bool (g, "signalCertain", o->signal_certain);
  if (r == 0 && o->reason[0])
    r = sbx_json_key_str (g, "reason", o->reason);
  if (r == 0)
    r = sbx_json_key_int (g, "status", sbx_outcome_exit_status (o));
  if (r == 0)
    r = sbx_json_key_int (g, "wallTimeMs", (long long) o->wall_ms);
  if (r == 0)
    r = limits_json (g, o);
  if (r == 0 && plan)
    r = sbx_json_key (g, "enforcement");
  if (r == 0 && plan)
    r = sbx_enforcement_json (g, plan);
  if (r == 0 && plan && plan->agent)
    r = environment_json (g, plan);
  if (r == 0 && o->ignored_fields)
    r = sbx_json_key_strv (g, "ignoredFields", o->ignored_fields);
  if (r == 0)
    r = refused_fields_json (g, o);
  return r < 0 ? r : sbx_json_close (g, false);
}
