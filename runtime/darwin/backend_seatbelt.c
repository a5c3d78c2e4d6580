/* The Seatbelt backend of `run` (runtime/backend.h), the macOS build's.
   The policy is resolved exactly as on Linux, by the same spec/ code; the
   plan becomes an SBPL profile (sbpl.c) and the command runs under
   `sandbox-exec -p PROFILE -- ARGV`, supervised in the foreground
   (supervise.c).  What the plan asks and Seatbelt cannot do is
   refused here, never dropped.  Plain POSIX: the Linux build compiles it
   into a test binary (tests/integration/meson.build) that drives it
   against a stand-in sandbox-exec.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/ceiling_load.h"
#include "runtime/backend.h"
#include "runtime/darwin/seatbelt_profile.h"
#include "runtime/darwin/supervise.h"
#include "runtime/host_paths.h"

extern char **environ;

static void
host_facts (const struct sbx_context *g, struct sbx_host_facts *f)
{
  memset (f, 0, sizeof *f);
  f->seatbelt = true;
  f->runner_path = g->runner ? g->runner : SBX_SANDBOX_EXEC;
  f->runner_named = g->runner != NULL;
  f->uid = geteuid ();
  f->gid = getegid ();
  f->is_root = f->host_root = f->caller_is_root_here = f->uid == 0;
  f->initial_userns = true;
  /* macOS has no /proc, so no host /proc can show through: the plan's
     /proc entry is one sbpl.c leaves out, not a gap.  */
  f->private_proc_ok = true;
  f->home = sbx_host_home (f->uid);
  f->environ = environ;
  f->path_kind = sbx_host_path_kind;
  f->read_text = sbx_host_read_text;
  f->rlimit_hard = sbx_host_rlimit_hard;
}

static int
refuse (struct sbx_error *err, const char *field, const char *why)
{
  return sbx_refuse (err, -ENOTSUP, field,
                     "not available with the seatbelt backend on macOS%s%s%s; "
                     "remove it or run on Linux",
                     why ? " (" : "", why ? why : "", why ? ")" : "");
}

/* What Linux enforces through bwrap, cgroups, seccomp or setrlimit in the
   runner, and Seatbelt cannot.  Memory and process limits need a sampler
   of the tree, which exists only for Linux's /proc.  */
static int
check_supported (const struct sbx_spec *spec, const struct sbx_plan *plan,
                 const struct sbx_host_facts *host, struct sbx_error *err)
{
  int r = sbx_run_refuse_held_only (spec, err);
  if (r < 0)
    return r;
  if (plan->memory_limit > 0)
    return refuse (err, "linux.resources.memory.limit",
                   "no cgroup and no process sampler");
  if (plan->pids_limit > 0)
    return refuse (err, "linux.resources.pids.limit",
                   "no cgroup and no process sampler");
  if (spec->linux_.seccomp)
    return refuse (err, "linux.seccomp", "macOS has no seccomp");
  if (spec->process.n_rlimits > 0)
    return refuse (err, "process.rlimits", NULL);
  const char *unheld = sbx_tuning_cgroup_only (&spec->linux_.resources.tuning);
  if (unheld)
    return refuse (err, unheld, "only a cgroup holds it");
  if (plan->uid != host->uid || plan->gid != host->gid)
    return sbx_refuse (err, -ENOTSUP, "process.user",
                       "the seatbelt backend runs the command as the caller "
                       "(uid %u, gid %u); set process.user to those ids",
                       (unsigned) host->uid, (unsigned) host->gid);
  if (plan->hostname && !plan->agent)
    return refuse (err, "hostname", "no uts namespace");
  for (int t = 0; t < SBX_NS_COUNT; t++)
    if (plan->join[t])
      return refuse (err, "linux.namespaces", "no namespaces to join");
  return 0;
}

/* An agent config's hostname (`spec --agent` writes "sbx") names the
   sandbox for the command's comfort; it confines nothing, and the command
   can read the host's name through sysctl on macOS anyway.  Refusing it
   would refuse the agent quick start on every Mac, and `spec` would have
   to write different configs on Linux and macOS; so it is not set, and
   the report says so.  A container config's hostname stays refused (and
   so does the container itself, in sbpl.c).  */
static int
note_hostname (struct sbx_plan *plan)
{
  if (!plan->hostname || !plan->agent)
    return 0;
  return strv_pushf (&plan->enforcement.reasons,
                     "hostname: '%s' is not set (macOS has no uts "
                     "namespace); the command sees the host's name",
                     plan->hostname);
}

struct seatbelt
{
  struct sbx_host_facts facts;
  struct sbx_spec *spec;
  struct sbx_plan *plan;
};

static int
prepare (const struct sbx_context *g, const struct sbx_config_source *src,
         struct seatbelt *sb, struct sbx_error *err)
{
  host_facts (g, &sb->facts);
  struct sbx_ceiling ceiling;
  int r = sbx_ceiling_load (g, &ceiling, err);
  bool under = r > 0;
  if (r >= 0)
    r = sbx_spec_load_source (src, &sb->spec, err);
  if (r == 0)
    r = sbx_policy_resolve (sb->spec, &sb->facts, under ? &ceiling : NULL,
                            &sb->plan, err);
  sbx_ceiling_free (&ceiling);
  if (r == 0)
    r = check_supported (sb->spec, sb->plan, &sb->facts, err);
  if (r == 0 && note_hostname (sb->plan) < 0)
    r = sbx_fail (err, -ENOMEM, "out of memory");
  return r;
}

static int
dry_run (const struct seatbelt *sb, struct sbx_error *err)
{
  int r
      = sbx_seatbelt_dry_run (sb->spec, sb->plan, sb->facts.runner_path, err);
  if (r < 0)
    return r;
  const struct sbx_enforcement *e = &sb->plan->enforcement;
  for (size_t i = 0; i < e->reasons.n; i++)
    printf ("; enforcement %s: %s\n", sbx_level_name (e->level),
            e->reasons.v[i]);
  return 0;
}

static int
run (const struct seatbelt *sb, const struct sbx_run_request *req,
     struct sbx_outcome *out, struct sbx_error *err)
{
  cleanup_free char *profile = NULL;
  int r = sbx_seatbelt_profile (sb->spec, sb->plan, &profile, err);
  if (r < 0)
    return r;
  struct sbx_seatbelt_command cmd = {
    .sandbox_exec = sb->facts.runner_path,
    .profile = profile,
    .argv = sb->plan->argv.v,
    .envp = sb->plan->env.v,
    .cwd = sb->plan->cwd,
    .preserve_fds = req->preserve_fds,
  };
  struct sbx_seatbelt_watch w;
  r = sbx_seatbelt_watch_start (&w, err);
  if (r < 0)
    return r;
  r = sbx_seatbelt_supervise (&w, &cmd, sb->plan->wall_clock_ms, out, err);
  sbx_seatbelt_watch_stop (&w);
  out->limits_mechanism = "none";
  return r;
}

int
sbx_backend_run (const struct sbx_context *g,
                 const struct sbx_run_request *req, struct sbx_run_result *res,
                 struct sbx_error *err)
{
  if (req->backend == SBX_BACKEND_BWRAP)
    return sbx_fail (err, -ENOTSUP,
                     "--backend bwrap: runs only on Linux; this build "
                     "confines with seatbelt");
  struct seatbelt sb = { 0 };
  int r = prepare (g, &req->source, &sb, err);
  if (r == 0 && req->dry_run)
    r = dry_run (&sb, err);
  else if (r == 0)
    r = run (&sb, req, &res->outcome, err);
  res->plan = sb.plan; /* the outcome's enforcement report */
  if (sb.spec)
    {
      res->ignored = sb.spec->ignored;
      sb.spec->ignored = (struct strv){ 0 };
    }
  sbx_spec_free (sb.spec);
  return r;
}

int
sbx_backend_resolve (const struct sbx_context *g,
                     const struct sbx_config_source *src,
                     struct sbx_spec **spec, struct sbx_plan **plan,
                     struct sbx_error *err)
{
  struct seatbelt sb = { 0 };
  int r = prepare (g, src, &sb, err);
  *spec = sb.spec, *plan = sb.plan;
  return r;
}

void
sbx_backend_print_runner (const struct sbx_context *g)
{
  printf ("runner: %s (seatbelt%s)\n",
          g->runner ? g->runner : SBX_SANDBOX_EXEC,
          g->runner ? ", named" : "");
}

int
sbx_backend_refuse (const char *command, struct sbx_error *err)
{
  if (strcmp (command, "create") == 0)
    return sbx_fail (err, -ENOTSUP,
                     "create: not supported on macOS: without a pid "
                     "namespace no process can hold a created sandbox for "
                     "the caller; use `sbx-oci run`");
  return sbx_fail (err, -ENOTSUP,
                   "%s: not supported on macOS, where sbx-oci has no created "
                   "containers; use `sbx-oci run`",
                   command);
}
