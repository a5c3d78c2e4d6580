/* process.terminal: a new pseudo-terminal for the container's process, its
 * master handed to the caller over --console-socket (as runc does: the
 * caller receives it with recvmsg and SCM_RIGHTS), its slave made the
 * process's controlling terminal and stdio.  */
#ifndef SBX_CONSOLE_H
#define SBX_CONSOLE_H

#include <stdint.h>

#include "common/error.h"

/* The payload sent with the master, as runc sends it (the master's file
   name); receivers such as conmon and containerd only look at the fd.  */
#define SBX_CONSOLE_PAYLOAD "/dev/ptmx"

/* Open a new pseudo-terminal pair from the devpts instance whose ptmx is
   PTMX (the host's /dev/ptmx, a private instance's, a sandbox's through
   /proc/PID/root).  The slave comes from the master itself (TIOCGPTPEER),
   never by name, so another devpts mounted on /dev/pts cannot hand over
   someone else's terminal.  Both ends are O_CLOEXEC and O_NOCTTY; termios
   is left at the kernel's defaults (echo, canonical, "\n" -> "\r\n").  */
int sbx_console_open (const char *ptmx, int *master_fd, int *slave_fd,
                      struct sbx_error *err);

/* The same from the sandbox whose root directory ROOTFD is: PTMX (such as
   "dev/ptmx") is resolved inside that root (openat2 RESOLVE_IN_ROOT,
   no magic links), so a symlink the sandbox made there cannot lead the
   caller, who may be the host's root, to a host file; and it is opened
   only if it is the pseudo-terminal multiplexer (char device 5:2).  */
int sbx_console_open_in_root (int rootfd, const char *ptmx, int *master_fd,
                              int *slave_fd, struct sbx_error *err);

/* Give the terminal SLAVE_FD to OWNER[0] and OWNER[1] (a uid and a gid,
   -1 to leave one), as sbx_policy_terminal_owner decides.  */
int sbx_console_give (int slave_fd, const int64_t owner[2],
                      struct sbx_error *err);

/* Connect to the AF_UNIX stream socket at SOCKET_PATH and send MASTER_FD
   with SCM_RIGHTS.  The caller keeps its MASTER_FD and should close it once
   sent, so the receiver holds the only copy.  Errors name SOCKET_PATH.  */
int sbx_console_send (const char *socket_path, int master_fd,
                      struct sbx_error *err);

/* In a child that has called setsid(): make SLAVE_FD the controlling
   terminal and dup it onto 0, 1 and 2.  SLAVE_FD itself is left open (it is
   O_CLOEXEC, so exec drops it).  */
int sbx_console_make_controlling (int slave_fd, struct sbx_error *err);

#endif
