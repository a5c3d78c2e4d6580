/* `sbx-oci run`: the foreground path for orchestrators and people.  sbx
   stays the sandbox's supervisor: it forwards signals, enforces the wall
   clock, and exits with the command's status.  The options and the
   outcome are the same on every system; the confinement is the backend's
   (runtime/backend.h).  */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "config.h"
#include "common/file_io.h"
#include "runtime/backend.h"
#include "runtime/cli.h"
#include "runtime/darwin/seatbelt_profile.h"
#include "runtime/exit_status.h"
#include "runtime/outcome_write.h"
#include "runtime/state_root.h"

struct run_options
{
  struct sbx_run_request req;
  struct sbx_outcome_dest outcome;
  struct strv env; /* --env NAME=VALUE */
};

/* What only a held sandbox can have, which `run` never holds: hooks,
   given the created state between set-up and start, and sysctls, written
   into its namespaces before the command.  */
int
sbx_run_refuse_held_only (const struct sbx_spec *spec, struct sbx_error *err)
{
  for (int p = 0; p < SBX_HOOK_PHASE_N; p++)
    if (spec->hooks.phase[p].n > 0)
      {
        char field[64];
        snprintf (field, sizeof field, "hooks.%s", sbx_hook_phase_name (p));
        return sbx_refuse (err, -ENOTSUP, field,
                           "`run` does not run OCI hooks; use `create` and "
                           "`start`, which do");
      }
  if (spec->has_linux && spec->linux_.n_sysctl > 0)
    return sbx_refuse (err, -ENOTSUP, "linux.sysctl",
                       "`run` does not set sysctls; use `create` and "
                       "`start`, which do");
  return 0;
}

/* What follows the id: nothing, or "--" and the call's command.  */
static int
parse_call_argv (int argc, char **argv, struct run_options *o,
                 struct sbx_error *err)
{
  if (optind + 1 >= argc)
    return 0;
  if (strcmp (argv[optind + 1], "--") != 0)
    return sbx_fail (err, -EINVAL,
                     "run: unexpected argument \"%.64s\" after the container "
                     "id: options go before it, the command after \"--\"",
                     argv[optind + 1]);
  if (optind + 2 >= argc)
    return sbx_fail (err, -EINVAL, "run: no command after \"--\"");
  o->req.source.argv = argv + optind + 2;
  return 0;
}

/* Options that would be silently ignored together are refused.  */
static int
check_combinations (const struct run_options *o, bool bundle_given,
                    struct sbx_error *err)
{
  const struct sbx_run_request *q = &o->req;
  if (q->source.policy && bundle_given)
    return sbx_fail (err, -EINVAL, "run: --policy and --bundle: give one");
  if (q->seccomp_dir && !q->dry_run)
    return sbx_fail (err, -EINVAL, "run --seccomp-dir: only with --dry-run");
  if (q->dry_run && (o->outcome.path || o->outcome.fd >= 0))
    return sbx_fail (err, -EINVAL,
                     "run --dry-run: runs nothing, so writes no outcome "
                     "(drop --outcome/--outcome-fd)");
  return 0;
}

static int
parse_run_options (int argc, char **argv, struct run_options *o,
                   struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "bundle", required_argument, NULL, 'b' },
    { "policy", required_argument, NULL, 'y' },
    { "env", required_argument, NULL, 'e' },
    { "cwd", required_argument, NULL, 'w' },
    { "outcome", required_argument, NULL, 'o' },
    { "outcome-fd", required_argument, NULL, 'O' },
    { "dry-run", no_argument, NULL, 'n' },
    { "backend", required_argument, NULL, 'B' },
    { "preserve-fds", required_argument, NULL, 'p' },
    { "seccomp-dir", required_argument, NULL, 'S' },
    { "detach", no_argument, NULL, 'd' },
    { "pid-file", required_argument, NULL, 'P' },
    { "console-socket", required_argument, NULL, 'c' },
    { "no-pivot", no_argument, NULL, 'x' },
    { "no-new-keyring", no_argument, NULL, 'x' },
    { "keep", no_argument, NULL, 'x' },
    { NULL, 0, NULL, 0 },
  };
  bool bundle_given = false;
  unsigned long long n;
  int c;
  while ((c = getopt_long (argc, argv, "+b:d", longopts, NULL)) != -1)
    switch (c)
      {
      case 'b':
        o->req.source.bundle = optarg;
        bundle_given = true;
        break;
      case 'y':
        o->req.source.policy = optarg;
        break;
      case 'e':
        if (optarg[0] == '=' || strchr (optarg, '=') == NULL)
          return sbx_fail (err, -EINVAL, "--env %.64s: expected NAME=VALUE",
                           optarg);
        if (strv_push (&o->env, optarg) < 0)
          return sbx_fail (err, -ENOMEM, "out of memory");
        break;
      case 'w':
        if (optarg[0] != '/')
          return sbx_fail (err, -EINVAL,
                           "--cwd %.64s: expected an absolute directory",
                           optarg);
        o->req.source.cwd = optarg;
        break;
      case 'o':
        o->outcome.path = optarg;
        break;
      case 'O':
        if (sbx_parse_number ("--outcome-fd", optarg, 0, 65535, &n, err) < 0)
          return err->code;
        o->outcome.fd = (int) n;
        break;
      case 'n':
        o->req.dry_run = true;
        break;
      case 'B':
        if (strcmp (optarg, "bwrap") != 0 && strcmp (optarg, "seatbelt") != 0)
          return sbx_fail (err, -EINVAL,
                           "--backend: expected bwrap or seatbelt, not \"%s\"",
                           optarg);
        o->req.backend = strcmp (optarg, "seatbelt") == 0
                             ? SBX_BACKEND_SEATBELT
                             : SBX_BACKEND_BWRAP;
        break;
      case 'p':
        if (sbx_parse_preserve_fds (optarg, &o->req.preserve_fds, err) < 0)
          return err->code;
        break;
      case 'S':
        o->req.seccomp_dir = optarg;
        break;
      case 'x':
        break;
      /* Accepted by runc's run; here they would be silently ignored, and
         a caller waiting for the pid file would wait for ever.  */
      case 'P':
        return sbx_fail (err, -ENOTSUP,
                         "run --pid-file: not supported by the foreground "
                         "run; use create --pid-file and start");
      case 'c':
        return sbx_fail (err, -ENOTSUP,
                         "run --console-socket: run passes its own terminal "
                         "through; use create --console-socket and start");
      case 'd':
        return sbx_fail (err, -ENOTSUP,
                         "run --detach: use create and start instead");
      default:
        return sbx_fail (err, -EINVAL, "run: unknown option (see --help)");
      }
  o->req.source.env = &o->env;
  if (optind >= argc && !o->req.dry_run)
    return sbx_fail (err, -EINVAL, "run: a container id is required");
  int r = check_combinations (o, bundle_given, err);
  r = r ?: parse_call_argv (argc, argv, o, err);
  /* The id names the run's cgroup and its messages, as create's names a
     state directory: the same rule, so that neither is a path.  */
  if (r == 0 && optind < argc && sbx_state_check_id (argv[optind], err) < 0)
    return err->code;
  o->req.id = optind < argc ? argv[optind] : "run";
  return r ?: sbx_outcome_dest_check (&o->outcome, o->req.preserve_fds, err);
}

/* A refused config and a command that could not be found or executed
   are outcomes of their own, with the status each exits with; anything
   else that stopped the sandbox is a sandbox failure.  */
static void
failed_outcome (const struct sbx_error *err, struct sbx_outcome *out)
{
  switch (err->kind)
    {
    case SBX_ERROR_REFUSED:
      out->kind = SBX_OUTCOME_REFUSED;
      snprintf (out->refused_field, sizeof out->refused_field, "%s",
                err->field);
      break;
    case SBX_ERROR_NOT_FOUND:
      out->kind = SBX_OUTCOME_NOT_FOUND;
      break;
    case SBX_ERROR_NOT_EXECUTABLE:
      out->kind = SBX_OUTCOME_NOT_EXECUTABLE;
      break;
    default:
      out->kind = SBX_OUTCOME_SANDBOX_FAILURE;
    }
  snprintf (out->reason, sizeof out->reason, "%s", err->msg);
}

/* `run --dry-run --backend seatbelt` off macOS: the Seatbelt profile of
   the plan this host's backend resolves (the translation is portable C;
   only running it needs macOS, whose own backend answers it there).  */
static int
preview_seatbelt (const struct sbx_context *g,
                  const struct sbx_run_request *req, struct sbx_error *err)
{
  if (req->seccomp_dir)
    return sbx_fail (err, -EINVAL,
                     "--seccomp-dir: the seatbelt backend has no seccomp");
  struct sbx_spec *spec = NULL;
  struct sbx_plan *plan = NULL;
  int r = sbx_backend_resolve (g, &req->source, &spec, &plan, err);
  if (r == 0)
    r = sbx_seatbelt_dry_run (spec, plan,
                              g->runner ? g->runner : SBX_SANDBOX_EXEC, err);
  sbx_plan_free (plan);
  sbx_spec_free (spec);
  return r;
}

static void
release_options (struct run_options *o)
{
  strv_free (&o->env);
  sbx_outcome_dest_close (&o->outcome);
}

int
sbx_cmd_run (struct sbx_context *g, int argc, char **argv,
             struct sbx_error *err)
{
  struct run_options o = { .req = { .source = { .bundle = "." } },
                           .outcome = { .fd = -1, .file = { .dirfd = -1 } } };
  int r = sbx_usage_result (parse_run_options (argc, argv, &o, err), err);
  if (r < 0)
    {
      release_options (&o);
      return r;
    }
  if (o.req.dry_run && o.req.backend == SBX_BACKEND_SEATBELT
      && strcmp (SBX_HOST_SYSTEM, "darwin") != 0)
    {
      r = preview_seatbelt (g, &o.req, err);
      release_options (&o);
      return r;
    }
  struct sbx_run_result res = { 0 };
  struct sbx_outcome *out = &res.outcome;
  r = sbx_backend_run (g, &o.req, &res, err);
  if (r < 0)
    failed_outcome (err, out); /* the caller still gets a verdict */
  out->ignored_fields = &res.ignored;
  if (!o.req.dry_run && (o.outcome.path || o.outcome.fd >= 0))
    {
      struct sbx_error werr = { 0 };
      if (sbx_outcome_write (&o.outcome, out, res.plan, &werr) < 0)
        sbx_log_warning (g, "%s", werr.msg);
    }
  sbx_plan_free (res.plan);
  strv_free (&res.ignored);
  release_options (&o);
  if (r < 0)
    {
      sbx_log_error (g, err->msg);
      return o.req.dry_run ? sbx_exit_status_of (err)
                           : sbx_outcome_exit_status (out);
    }
  if (out->kind == SBX_OUTCOME_SANDBOX_FAILURE && !o.req.dry_run)
    sbx_log_error (g, out->reason);
  return o.req.dry_run ? 0 : sbx_outcome_exit_status (out);
}
