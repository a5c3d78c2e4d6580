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

/* Wait until the child pid is known (TO_END: and the channel closed) or
   the channel closes, unless a held signal stops the wait (-EINTR:
   stop_wait.h).  Stopped, the runner has a second more to report a
   sandbox it made a moment ago, so that ST->child_pid knows it and it is
   killed with the runner: killed unknown, it would run on, recorded
   nowhere.  0, or -errno.  */
int sbx_runner_status_wait_child (struct sbx_runner_status *st, int fd,
                                  bool to_end);

#endif
