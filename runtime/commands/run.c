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
#include "common/json_gen.h"
#include "runtime/backend.h"
#include "runtime/cli.h"
#include "runtime/darwin/seatbelt_profile.h"
#include "runtime/state_root.h"

struct run_options
{
  struct sbx_run_request req;
  const char *outcome_path; /* --outcome FILE, "-" = stdout */
};

static int
write_outcome (const char *path, const struct sbx_outcome *o,
               const struct sbx_plan *plan, struct sbx_error *err)
{
  yajl_gen g = sbx_json_new (false);
  cleanup_free char *text = NULL;
  size_t len = 0;
  int r = g ? sbx_outcome_json (g, o, plan) : -ENOMEM;
  if (r == 0)
    r = sbx_json_finish (g, &text, &len);
  if (g)
    yajl_gen_free (g);
  if (r < 0)
    return sbx_fail (err, r, "cannot format the outcome");
  if (strcmp (path, "-") == 0)
    return fputs (text, stdout) < 0 ? -EIO : 0;
  return sbx_write_file_atomic (path, text, len, 0644, err);
}

/* What only a held sandbox can have, which `run` never holds: hooks,
   given the created state between set-up and start, and sysctls, written
   into its namespaces before the command.  */
int
sbx_run_refuse_held_only (const struct sbx_spec *spec, struct sbx_error *err)
{
  for (int p = 0; p < SBX_HOOK_PHASE_N; p++)
    if (spec->hooks.phase[p].n > 0)
      return sbx_fail (err, -ENOTSUP,
                       "hooks.%s: `run` does not run OCI hooks; use "
                       "`create` and `start`, which do",
                       sbx_hook_phase_name (p));
  if (spec->has_linux && spec->linux_.n_sysctl > 0)
    return sbx_fail (err, -ENOTSUP,
                     "linux.sysctl: `run` does not set sysctls; use "
                     "`create` and `start`, which do");
  return 0;
}

static int
parse_run_options (int argc, char **argv, struct run_options *o,
                   struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "bundle", required_argument, NULL, 'b' },
    { "outcome", required_argument, NULL, 'o' },
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
  int c;
  while ((c = getopt_long (argc, argv, "+b:d", longopts, NULL)) != -1)
    switch (c)
      {
      case 'b':
        o->req.bundle = optarg;
        break;
      case 'o':
        o->outcome_path = optarg;
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
  if (optind >= argc && !o->req.dry_run)
    return sbx_fail (err, -EINVAL, "run: a container id is required");
  if (o->req.seccomp_dir && !o->req.dry_run)
    return sbx_fail (err, -EINVAL, "run --seccomp-dir: only with --dry-run");
  if (optind + 1 < argc)
    return sbx_fail (err, -EINVAL,
                     "run: unexpected argument \"%.64s\" after the container "
                     "id: options go before it",
                     argv[optind + 1]);
  /* The id names the run's cgroup and its messages, as create's names a
     state directory: the same rule, so that neither is a path.  */
  if (optind < argc && sbx_state_check_id (argv[optind], err) < 0)
    return err->code;
  o->req.id = optind < argc ? argv[optind] : "run";
  return 0;
}

/* The outcome's directory, checked before the sandbox runs: a verdict
   that cannot be written is found out now, not after the command ran.  */
static int
check_outcome_dir (const char *path, struct sbx_error *err)
{
  const char *slash = strrchr (path, '/');
  if (strcmp (path, "-") == 0 || slash == path)
    return 0;
  cleanup_free char *dir
      = slash ? strndup (path, (size_t) (slash - path)) : strdup (".");
  struct stat st;
  if (dir == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (stat (dir, &st) < 0)
    return sbx_fail_errno (err, -errno, "--outcome %s: cannot use %s", path,
                           dir);
  if (!S_ISDIR (st.st_mode))
    return sbx_fail (err, -ENOTDIR, "--outcome %s: %s is not a directory",
                     path, dir);
  return 0;
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
  int r = sbx_backend_resolve (g, req->bundle, &spec, &plan, err);
  if (r == 0)
    r = sbx_seatbelt_dry_run (spec, plan,
                              g->runner ? g->runner : SBX_SANDBOX_EXEC, err);
  sbx_plan_free (plan);
  sbx_spec_free (spec);
  return r;
}

int
sbx_cmd_run (struct sbx_context *g, int argc, char **argv,
             struct sbx_error *err)
{
  struct run_options o = { .req = { .bundle = "." } };
  int r = parse_run_options (argc, argv, &o, err);
  if (r == 0 && o.outcome_path && !o.req.dry_run)
    r = check_outcome_dir (o.outcome_path, err);
  if (r < 0)
    return r;
  if (o.req.dry_run && o.req.backend == SBX_BACKEND_SEATBELT
      && strcmp (SBX_HOST_SYSTEM, "darwin") != 0)
    return preview_seatbelt (g, &o.req, err);
  struct sbx_run_result res = { 0 };
  struct sbx_outcome *out = &res.outcome;
  r = sbx_backend_run (g, &o.req, &res, err);
  if (r < 0)
    {
      /* The caller still gets a verdict: the sandbox never ran.  */
      out->kind = SBX_OUTCOME_SANDBOX_FAILURE;
      snprintf (out->reason, sizeof out->reason, "%s", err->msg);
    }
  if (!o.req.dry_run && o.outcome_path)
    {
      struct sbx_error werr = { 0 };
      if (write_outcome (o.outcome_path, out, res.plan, &werr) < 0)
        sbx_log_warning (g, "%s", werr.msg);
    }
  sbx_plan_free (res.plan);
  if (r < 0)
    {
      sbx_log_error (g, err->msg);
      return res.exec_status ? res.exec_status : SBX_EXIT_SANDBOX_FAILURE;
    }
  if (out->kind == SBX_OUTCOME_SANDBOX_FAILURE && !o.req.dry_run)
    sbx_log_error (g, out->reason);
  return o.req.dry_run ? 0 : sbx_outcome_exit_status (out);
}
