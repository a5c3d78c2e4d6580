/* See seatbelt_spawn.h.  sandbox-exec applies the profile and then execs
   the command in the same process, so the child's pid is the command's:
   its exit status and its death by a signal reach sbx-oci unchanged.  */
#include "runtime/darwin/seatbelt_spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"

/* What the child reports on its error pipe before it gives up.  */
enum spawn_stage
{
  STAGE_CWD = 1,
  STAGE_EXEC,
};

struct spawn_failure
{
  int stage;
  int error;
};

/* Everything above the preserved fds is closed on exec, the preserved
   ones are passed on.  /dev/fd lists what is open on macOS and Linux
   alike; without it, every fd up to the limit is marked.  KEEP_CLOEXEC:
   the error pipe, which must close on a successful exec whatever its
   number.  */
static void
mark_fds (int preserve_fds, int keep_cloexec)
{
  int first_closed = 3 + preserve_fds;
  for (int fd = 3; fd < first_closed; fd++)
    if (fd != keep_cloexec)
      fcntl (fd, F_SETFD, 0);
  DIR *d = opendir ("/dev/fd");
  if (d == NULL)
    {
      long max = sysconf (_SC_OPEN_MAX);
      for (long fd = first_closed; fd < (max > 0 ? max : 1024); fd++)
        fcntl ((int) fd, F_SETFD, FD_CLOEXEC);
      return;
    }
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      int fd = atoi (e->d_name);
      if (fd >= first_closed || fd == keep_cloexec)
        fcntl (fd, F_SETFD, FD_CLOEXEC);
    }
  closedir (d);
}

static void
reset_signals (const int *forwarded, size_t n)
{
  sigset_t none;
  sigemptyset (&none);
  for (size_t i = 0; i < n; i++)
    signal (forwarded[i], SIG_DFL);
  sigprocmask (SIG_SETMASK, &none, NULL);
}

static _Noreturn void
child (const struct sbx_seatbelt_command *cmd, char **args,
       const int *forwarded, size_t n, int report_fd)
{
  struct spawn_failure f = { STAGE_CWD, 0 };
  setpgid (0, 0);
  reset_signals (forwarded, n);
  mark_fds (cmd->preserve_fds, report_fd);
  if (chdir (cmd->cwd) == 0)
    {
      f.stage = STAGE_EXEC;
      execve (cmd->sandbox_exec, args, cmd->envp);
    }
  f.error = errno;
  ssize_t written = write (report_fd, &f, sizeof f);
  (void) written; /* nothing else to tell: the parent sees EOF then */
  _exit (127);
}

/* sandbox-exec -p PROFILE -- ARGV...: "--" ends sandbox-exec's options,
   so a command whose name starts with '-' is run, not parsed.  */
static char **
runner_args (const struct sbx_seatbelt_command *cmd)
{
  size_t n = 0;
  while (cmd->argv[n])
    n++;
  char **args = calloc (n + 5, sizeof *args);
  if (args == NULL)
    return NULL;
  args[0] = (char *) "sandbox-exec";
  args[1] = (char *) "-p";
  args[2] = (char *) cmd->profile;
  args[3] = (char *) "--";
  memcpy (args + 4, cmd->argv, n * sizeof *args);
  return args;
}

static int
open_report_pipe (int fds[2])
{
  if (pipe (fds) < 0)
    return -errno;
  fcntl (fds[0], F_SETFD, FD_CLOEXEC);
  fcntl (fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
}

int
sbx_seatbelt_spawn (const struct sbx_seatbelt_command *cmd,
                    const int *forwarded, size_t n_forwarded, pid_t *pid,
                    struct sbx_error *err)
{
  if (cmd->argv[0] == NULL)
    return sbx_fail (err, -EINVAL,
                     "process.args: empty; name the command to run");
  cleanup_free char **args = runner_args (cmd);
  if (args == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  int fds[2];
  int r = open_report_pipe (fds);
  if (r < 0)
    return sbx_fail_errno (err, r, "pipe");
  pid_t p = fork ();
  if (p == 0)
    child (cmd, args, forwarded, n_forwarded, fds[1]);
  close (fds[1]);
  cleanup_close int report = fds[0];
  if (p < 0)
    return sbx_fail_errno (err, -errno, "fork");
  setpgid (p, p); /* also here: no signal may reach a group not made yet */
  struct spawn_failure f = { 0, 0 };
  ssize_t n;
  while ((n = read (report, &f, sizeof f)) < 0 && errno == EINTR)
    ;
  if (n <= 0)
    {
      *pid = p; /* exec'd: the pipe closed on exec */
      return 0;
    }
  while (waitpid (p, NULL, 0) < 0 && errno == EINTR)
    ;
  if (f.stage == STAGE_CWD)
    return sbx_fail_errno (err, -f.error, "process.cwd: cannot enter %s",
                           cmd->cwd);
  return sbx_fail_errno (err, -f.error,
                         "cannot start the seatbelt runner %s (use --runner "
                         "PATH to name another)",
                         cmd->sandbox_exec);
}
