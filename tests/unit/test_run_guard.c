/* The run's guard (runtime/linux/supervise/run_guard.h) when sbx-oci
   dies without a word: it ends the runner's process group, the sandbox it
   was told of, and the sandbox bwrap named on its status channel that
   sbx-oci had not read yet.  That last one is a process of a session of
   its own (bwrap's first child after its setsid), which no group kill
   reaches: sbx-oci SIGKILLed in that window left it running
   (tests/integration/kill_loop.sh).  Here "sbx-oci's death" is the
   close of the guard's socket, and the sandbox a sleeping child of ours
   in a session of its own.  */
#include "tests/unit/tap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/linux/supervise/run_guard.h"

/* A child of ours in a session of its own, asleep until killed.  */
static pid_t
sandbox_like (void)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      setsid ();
      for (;;)
        pause ();
    }
  return pid;
}

/* Whether PID (our child) was killed by SIGKILL within about 2 s.  */
static bool
killed_soon (pid_t pid)
{
  for (int i = 0; i < 200; i++)
    {
      int status;
      pid_t r = waitpid (pid, &status, WNOHANG);
      if (r == pid)
        return WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL;
      nanosleep (&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
    }
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  return false;
}

/* A guard given a status channel carrying BEFORE, the sandbox's pid and
   AFTER, then left without a word: whether the sandbox ends.  */
static bool
ends_named_sandbox (const char *before, const char *after, bool watch)
{
  struct sbx_run_guard g;
  struct sbx_error err = { 0 };
  int p[2];
  pid_t sandbox = sandbox_like ();
  if (sandbox < 0 || pipe (p) < 0 || sbx_run_guard_start (&g, &err) < 0)
    return false;
  if (watch)
    sbx_run_guard_watch (g.fd, p[0]);
  dprintf (p[1], "%s%d%s", before, (int) sandbox, after);
  close (g.fd); /* sbx-oci dies */
  bool ended = killed_soon (sandbox);
  waitpid (g.pid, NULL, 0);
  g.fd = -1;
  sbx_run_guard_stop (&g);
  close (p[0]);
  close (p[1]);
  return ended;
}

int
main (void)
{
  static const char ids[] = ", \"cgroup-namespace\": 4026531835, "
                            "\"ipc-namespace\": 4026532300 }\n";
  tap_ok (ends_named_sandbox ("{ \"child-pid\": ", ids, true),
          "the sandbox named on the status channel sbx-oci left unread is "
          "killed");
  tap_ok (ends_named_sandbox ("{\n    \"child-pid\":   ", "\n}\n", true),
          "whatever the spaces around the pid");
  tap_ok (!ends_named_sandbox ("{ \"child-pid\": ", ids, false),
          "(without the channel it would run on: the test can fail)");
  tap_ok (!ends_named_sandbox ("{ \"exit-code\": ", " }\n", true),
          "a channel that names no child kills nothing");
  /* bwrap reported the end too (sbx-oci was stopped meanwhile): the pid
     may be another process's by now.  */
  tap_ok (!ends_named_sandbox (
              "{ \"child-pid\": ", " }\n{ \"exit-code\": 0 }\n", true),
          "a child whose exit code is on the channel too is not killed");
  return tap_done ();
}
