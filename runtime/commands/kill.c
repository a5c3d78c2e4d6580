/* `sbx-oci kill [--all] ID [SIGNAL]`: bwrap forwards no signals, so sbx
   signals the sandbox's first process (pid 1 of its namespace) itself,
   through a pidfd verified against the recorded start time; --all signals
   every process of the sandbox (ns_procs.h: its pid namespace when it has
   one of its own, else its first process's tree).  SIGKILL ends the work,
   not a pid: it goes through sbx_terminate (the namespace and the
   cgroup) and returns once the sandbox is gone.  */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "runtime/cli.h"
#include "runtime/linux/supervise/limits_report.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/container/ns_procs.h"
#include "runtime/linux/state/state_store.h"
#include "runtime/linux/supervise/terminate.h"

#define KILL_WAIT_MS 10000

/* The names kill(1) takes, by number (musl has no sigabbrev_np).  */
static const struct
{
  int sig;
  const char *name;
} signal_names[] = {
  { SIGHUP, "HUP" },       { SIGINT, "INT" },       { SIGQUIT, "QUIT" },
  { SIGILL, "ILL" },       { SIGTRAP, "TRAP" },     { SIGABRT, "ABRT" },
  { SIGBUS, "BUS" },       { SIGFPE, "FPE" },       { SIGKILL, "KILL" },
  { SIGUSR1, "USR1" },     { SIGSEGV, "SEGV" },     { SIGUSR2, "USR2" },
  { SIGPIPE, "PIPE" },     { SIGALRM, "ALRM" },     { SIGTERM, "TERM" },
  { SIGSTKFLT, "STKFLT" }, { SIGCHLD, "CHLD" },     { SIGCONT, "CONT" },
  { SIGSTOP, "STOP" },     { SIGTSTP, "TSTP" },     { SIGTTIN, "TTIN" },
  { SIGTTOU, "TTOU" },     { SIGURG, "URG" },       { SIGXCPU, "XCPU" },
  { SIGXFSZ, "XFSZ" },     { SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" },
  { SIGWINCH, "WINCH" },   { SIGIO, "IO" },         { SIGPWR, "PWR" },
  { SIGSYS, "SYS" },
};

/* "9", "KILL" or "SIGKILL" (any case).  */
static int
parse_signal (const char *s, struct sbx_error *err)
{
  char *end;
  long n = strtol (s, &end, 10);
  if (*s && *end == '\0')
    {
      if (n > 0 && n < NSIG)
        return (int) n;
    }
  else
    {
      const char *name = strncasecmp (s, "SIG", 3) == 0 ? s + 3 : s;
      for (size_t i = 0; i < sizeof signal_names / sizeof *signal_names; i++)
        if (strcasecmp (signal_names[i].name, name) == 0)
          return signal_names[i].sig;
    }
  return sbx_fail_usage (err,
                         "invalid signal \"%s\": use a number or a "
                         "name such as TERM or SIGKILL",
                         s);
}

/* Every other process of the sandbox, each through its own pidfd.  */
static void
signal_sandbox (pid_t pid1, int sig)
{
  pid_t *pids;
  size_t n;
  if (sbx_sandbox_pids (pid1, &pids, &n) < 0)
    return;
  for (size_t i = 0; i < n; i++)
    {
      if (pids[i] == pid1)
        continue;
      int fd = sbx_pidfd_open (pids[i]);
      if (fd >= 0)
        {
          sbx_pidfd_signal (fd, sig);
          close (fd);
        }
    }
  free (pids);
}

static int
terminate (const struct sbx_container *ct, int pidfd, struct sbx_error *err)
{
  struct sbx_cgroup *cg = NULL;
  int r = sbx_container_cgroup (ct, &cg, err);
  r = r ?: sbx_terminate (pidfd, cg, KILL_WAIT_MS, err);
  if (cg)
    sbx_cgroup_free (cg);
  return r;
}

int
sbx_cmd_kill (struct sbx_context *g, int argc, char **argv,
              struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "all", no_argument, NULL, 'a' },
    { NULL, 0, NULL, 0 },
  };
  bool all = false;
  int c;
  while ((c = getopt_long (argc, argv, "+a", longopts, NULL)) != -1)
    if (c == 'a')
      all = true;
    else
      return sbx_fail_usage (err, "kill: unknown option (see --help)");
  if (optind >= argc || argc - optind > 2)
    return sbx_fail_usage (err, "kill: expected a container id and a "
                                "signal");
  int sig = optind + 1 < argc ? parse_signal (argv[optind + 1], err) : SIGTERM;
  if (sig < 0)
    return sig;
  struct sbx_container ct;
  int r = sbx_state_open (sbx_state_root (g), argv[optind], true, &ct, err);
  int fd = r == 0 ? sbx_state_pidfd (&ct) : -1;
  if (r == 0 && fd < 0)
    r = sbx_fail (err, -ESRCH, "container not running");
  if (r == 0 && sig == SIGKILL)
    r = terminate (&ct, fd, err);
  else if (r == 0 && all)
    signal_sandbox (ct.pid, sig);
  if (r == 0 && sig != SIGKILL && sbx_pidfd_signal (fd, sig) < 0
      && errno != ESRCH)
    r = sbx_fail_errno (err, -errno, "cannot signal container \"%s\"", ct.id);
  if (fd >= 0)
    close (fd);
  sbx_state_close (&ct);
  return r < 0 ? r : 0;
}
