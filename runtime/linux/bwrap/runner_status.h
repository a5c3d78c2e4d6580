/* Reading bwrap's --json-status-fd: one JSON document per line, first
   {"child-pid": N, ...}, at the end {"exit-code": N} if the command ran. */
#ifndef SBX_RUNNER_STATUS_H
#define SBX_RUNNER_STATUS_H

#include <stdbool.h>
#include <sys/types.h>

struct sbx_runner_status
{
  char buf[8192];
  size_t len;
  pid_t child_pid; /* 0 until reported */
  bool have_exit_code;
  int exit_code;
  bool eof;
};

/* Read what is available from FD (non-blocking or after poll) and parse
   complete lines.  Returns 0, or -errno on a read error.  */
int sbx_runner_status_read (struct sbx_runner_status *st, int fd);

/* Wait until the child pid is known or the channel closes, unless a
   held signal stops the wait first (-EINTR: stop_wait.h).  */
int sbx_runner_status_wait_child (struct sbx_runner_status *st, int fd);

/* After such a stop, how long a runner that is not hung has to report a
   sandbox it made a moment ago, so that the sandbox is known and killed
   with it: killed unknown, it would run on, recorded nowhere.  */
#define SBX_RUNNER_REPORT_GRACE_MS 1000

/* Wait up to TIMEOUT_MS for the child pid or the channel's end, whatever
   signal is pending.  */
void sbx_runner_status_wait_child_for (struct sbx_runner_status *st, int fd,
                                       int timeout_ms);

#endif
