/* `sbx-oci run`: the foreground path for orchestrators and people.  sbx
   stays the sandbox's supervisor: a child subreaper that forwards signals,
   enforces the wall clock, and exits with the command's status.  */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "common/json_gen.h"
#include "runtime/cli.h"
#include "runtime/darwin/sbpl.h"
#include "runtime/limits.h"
#include "runtime/linux/monitor.h"
#include "runtime/linux/spawn.h"
#include "runtime/sandbox.h"
#include "runtime/shell_quote.h"

struct run_options
{
  const char *bundle;
  const char *outcome_path; /* --outcome FILE, "-" = stdout */
  bool dry_run;
  bool seatbelt; /* --backend seatbelt: the macOS profile (dry-run) */
  int preserve_fds;
  const char *id; /* the container id after the options */
};

static void
print_dry_run (const struct sbx_sandbox *sb, const struct strv *argv)
{
  printf ("env -i");
  for (size_t i = 0; i < sb->plan->env.n; i++)
    {
      putchar (' ');
      sbx_shell_quote (stdout, sb->plan->env.v[i]);
    }
  for (size_t i = 0; i < argv->n; i++)
    {
      fputs (i == 0 ? " \\\n  " : " ", stdout);
      sbx_shell_quote (stdout, argv->v[i]);
    }
  putchar ('\n');
  if (sb->seccomp_fd >= 0 || sb->seccomp_net_fd >= 0)
    printf ("# run for real, compiled seccomp programs are added with "
            "--add-seccomp-fd FD\n");
  for (size_t i = 0; i < sb->plan->enforcement.reasons.n; i++)
    printf ("# enforcement %s: %s\n",
            sbx_level_name (sb->plan->enforcement.level),
            sb->plan->enforcement.reasons.v[i]);
}

/* The profile macOS would run this plan under, printable anywhere.  */
static int
dry_run_seatbelt (const struct sbx_sandbox *sb, struct sbx_error *err)
{
  struct sbx_macos_paths paths = { .resolve = sbx_macos_realpath };
  cleanup_free char *profile = NULL;
  int r = sbx_sbpl_profile (sb->plan, &paths, &profile, err);
  if (r < 0)
    return r;
  fputs (profile, stdout);
  printf ("; run as: /usr/bin/sandbox-exec -p PROFILE --");
  for (size_t i = 0; i < sb->plan->argv.n; i++)
    {
      putchar (' ');
      sbx_shell_quote (stdout, sb->plan->argv.v[i]);
    }
  putchar ('\n');
  return 0;
}

static int
dry_run (const struct sbx_sandbox *sb, bool seatbelt, struct sbx_error *err)
{
  if (seatbelt)
    return dry_run_seatbelt (sb, err);
  struct sbx_bwrap_opts opts
      = { .die_with_parent = true, .cap_keep = &sb->cap_keep };
  struct sbx_bwrap_fds fds = SBX_BWRAP_NO_FDS;
  cleanup_strv struct strv argv = { 0 };
  int r = sbx_bwrap_args (sb->plan, &sb->probe.facts, &fds, &opts, &argv, err);
  if (r < 0)
    return r;
  print_dry_run (sb, &argv);
  return 0;
}

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

static int
supervise (const struct sbx_sandbox *sb, const struct run_options *o,
           struct sbx_limits *lim, struct sbx_outcome *out,
           struct sbx_error *err)
{
  sigset_t set;
  sbx_monitor_signals (&set);
  sigprocmask (SIG_BLOCK, &set, NULL);
  cleanup_close int sfd = signalfd (-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0)
    return sbx_fail_errno (err, -errno, "signalfd");
  /* Whatever double-forks out of the sandbox is re-parented here and
     swept at the end.  */
  prctl (PR_SET_CHILD_SUBREAPER, 1);
  struct sbx_spawn_request req = {
    .plan = sb->plan,
    .host = &sb->probe.facts,
    .opts = { .die_with_parent = true, .cap_keep = &sb->cap_keep },
    .spec = sb->spec,
    .seccomp_fd = sb->seccomp_fd,
    .seccomp_net_fd = sb->seccomp_net_fd,
    .preserve_fds = o->preserve_fds,
    .own_process_group = true,
    .cgroup = lim->cgroup,
  };
  struct sbx_spawned sp;
  int r = sbx_spawn_runner (&req, &sp, err);
  if (r < 0)
    return r;
  r = sbx_monitor_run (&sp, sb->plan, lim, sfd, out, err);
  close (sp.status_fd);
  return r;
}

/* The limits are set up before the runner starts and finished after it
   ended, whatever happened in between: a quota's cgroup never outlives
   the run.  */
/* The foreground path has no created state for a hook to be given or to
   act on between set-up and start: refuse rather than skip them.  */
static int
refuse_hooks (const struct sbx_hooks *h, struct sbx_error *err)
{
  const struct sbx_hook_list *lists[]
      = { &h->prestart,        &h->create_runtime, &h->create_container,
          &h->start_container, &h->poststart,      &h->poststop };
  static const char *const names[]
      = { "prestart",       "createRuntime", "createContainer",
          "startContainer", "poststart",     "poststop" };
  for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
    if (lists[i]->n > 0)
      return sbx_fail (err, -ENOTSUP,
                       "hooks.%s: `run` does not run OCI hooks; use "
                       "`create` and `start`, which do",
                       names[i]);
  return 0;
}

/* Sysctls are written while the sandbox is held before its command,
   which only `create` does.  */
static int
refuse_sysctl (const struct sbx_spec *spec, struct sbx_error *err)
{
  if (spec->has_linux && spec->linux_.n_sysctl > 0)
    return sbx_fail (err, -ENOTSUP,
                     "linux.sysctl: `run` does not set sysctls; use "
                     "`create` and `start`, which do");
  return 0;
}

static int
run_limited (const struct sbx_globals *g, const struct sbx_sandbox *sb,
             const struct run_options *o, struct sbx_outcome *out,
             struct sbx_error *err)
{
  int hr = refuse_hooks (&sb->spec->hooks, err);
  hr = hr ?: refuse_sysctl (sb->spec, err);
  if (hr < 0)
    return hr;
  struct sbx_limits lim;
  const char *cgroups_path
      = sb->spec->has_linux ? sb->spec->linux_.cgroups_path : NULL;
  cleanup_free char *systemd = NULL;
  if (g->systemd_cgroup)
    {
      int sr = sbx_cgroup_systemd_path (cgroups_path, o->id, &systemd, err);
      if (sr < 0)
        return sr == -ENOMEM ? sbx_fail (err, sr, "out of memory") : sr;
      cgroups_path = systemd;
    }
  int r = sbx_limits_setup (&lim, sb->plan, cgroups_path, o->id, err);
  if (r == 0)
    r = supervise (sb, o, &lim, out, err);
  struct sbx_error ferr = { 0 };
  int f = sbx_limits_finish (&lim, out, r < 0 ? &ferr : err);
  sbx_limits_release (&lim);
  return r < 0 ? r : f;
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
        o->bundle = optarg;
        break;
      case 'o':
        o->outcome_path = optarg;
        break;
      case 'n':
        o->dry_run = true;
        break;
      case 'B':
        if (strcmp (optarg, "bwrap") != 0 && strcmp (optarg, "seatbelt") != 0)
          return sbx_fail (err, -EINVAL,
                           "--backend: expected bwrap or seatbelt, not \"%s\"",
                           optarg);
        o->seatbelt = strcmp (optarg, "seatbelt") == 0;
        break;
      case 'p':
        if (sbx_parse_preserve_fds (optarg, &o->preserve_fds, err) < 0)
          return err->code;
        break;
      case 'x':
      case 'P':
      case 'c':
        break;
      case 'd':
        return sbx_fail (err, -ENOTSUP,
                         "run --detach: use create and start instead");
      default:
        return sbx_fail (err, -EINVAL, "run: unknown option (see --help)");
      }
  if (o->seatbelt && !o->dry_run)
    return sbx_fail (err, -ENOTSUP,
                     "--backend seatbelt: runs only on macOS; use it with "
                     "--dry-run here to print the profile");
  if (optind >= argc && !o->dry_run)
    return sbx_fail (err, -EINVAL, "run: a container id is required");
  o->id = optind < argc ? argv[optind] : "run";
  return 0;
}

int
sbx_cmd_run (struct sbx_globals *g, int argc, char **argv,
             struct sbx_error *err)
{
  struct run_options o = { .bundle = "." };
  int r = parse_run_options (argc, argv, &o, err);
  if (r < 0)
    return r;
  struct sbx_sandbox sb;
  struct sbx_outcome out = { 0 };
  r = sbx_sandbox_prepare (g, o.bundle, &sb, err);
  if (r == 0 && o.dry_run)
    r = dry_run (&sb, o.seatbelt, err);
  else if (r == 0)
    r = run_limited (g, &sb, &o, &out, err);
  if (r < 0)
    {
      /* The caller still gets a verdict: the sandbox never ran.  */
      out.kind = SBX_OUTCOME_SANDBOX_FAILURE;
      snprintf (out.reason, sizeof out.reason, "%s", err->msg);
    }
  if (!o.dry_run && o.outcome_path)
    {
      struct sbx_error werr = { 0 };
      if (write_outcome (o.outcome_path, &out, sb.plan, &werr) < 0)
        sbx_log_warning (g, "%s", werr.msg);
    }
  int exec_status = sb.exec_status;
  sbx_sandbox_release (&sb);
  if (r < 0)
    {
      sbx_log_error (g, err->msg);
      return exec_status ? exec_status : SBX_EXIT_SANDBOX_FAILURE;
    }
  if (out.kind == SBX_OUTCOME_SANDBOX_FAILURE && !o.dry_run)
    sbx_log_error (g, out.reason);
  return o.dry_run ? 0 : sbx_outcome_exit_status (&out);
}
