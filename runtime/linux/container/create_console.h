/* process.terminal for `create`: the sandbox's /dev/pts is a devpts
   instance sbx mounts in the container's state directory, so its first
   pseudo-terminal is /dev/pts/0 inside, as with runc, and sbx can open it
   before the sandbox exists.  The master goes to --console-socket, the
   slave becomes the runner's stdio.  Needs root (mounting devpts).  */
#ifndef SBX_CREATE_CONSOLE_H
#define SBX_CREATE_CONSOLE_H

#include "common/error.h"
#include "policy/policy.h"

struct sbx_create_console
{
  char *pts_dir; /* STATE_DIR/pts while mounted, else NULL */
  int slave;     /* -1 when none */
  int saved[3];  /* sbx's own stdio while the slave stands in */
};

/* Mount the instance (its terminals of group OWNER[1] when that is not
   -1), open its first pty, give it to OWNER (sbx_policy_terminal_owner),
   send the master to SOCKET_PATH and bind the instance over /dev/pts in
   PLAN.  */
int sbx_create_console_open (struct sbx_create_console *con,
                             const char *state_dir, const char *socket_path,
                             const int64_t owner[2], struct sbx_plan *plan,
                             struct sbx_error *err);

/* Put the slave on fds 0-2 for the spawn, and put sbx's own back.  */
int sbx_create_console_swap_in (struct sbx_create_console *con);
void sbx_create_console_swap_out (struct sbx_create_console *con);

/* Detach the host side of the mount (the sandbox keeps its bind).  */
void sbx_create_console_close (struct sbx_create_console *con);

#endif
