/* Pseudo-terminals for process.terminal and --console-socket.  */
#include "runtime/linux/container/console.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/stop_wait.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* The pair whose master MASTER (owned) is; errors name WHERE.  */
static int
pair_of (int master_fd, const char *where, int *master_out, int *slave_fd,
         struct sbx_error *err)
{
  cleanup_close int master = master_fd;
  int unlock = 0, slave = -1;
  if (master < 0 || ioctl (master, TIOCSPTLCK, &unlock) < 0
      || (slave = ioctl (master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC))
             < 0)
    return sbx_fail_errno (err, -errno, "cannot open a terminal at %s", where);
  *master_out = steal_fd (&master);
  *slave_fd = slave;
  return 0;
}

int
sbx_console_open (const char *ptmx, int *master_fd, int *slave_fd,
                  struct sbx_error *err)
{
  return pair_of (open (ptmx, O_RDWR | O_NOCTTY | O_CLOEXEC), ptmx, master_fd,
                  slave_fd, err);
}

int
sbx_console_open_in_root (int rootfd, const char *ptmx, int *master_fd,
                          int *slave_fd, struct sbx_error *err)
{
  struct open_how how = { .flags = O_PATH | O_CLOEXEC,
                          .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
  cleanup_close int node
      = (int) syscall (SYS_openat2, rootfd, ptmx, &how, sizeof how);
  struct stat st;
  if (node < 0 || fstat (node, &st) < 0)
    return sbx_fail_errno (
        err, -errno, "cannot open a terminal: %s in the container", ptmx);
  /* Checked before it is opened for real: opening some other device the
     sandbox put there could have effects of its own.  */
  if (!S_ISCHR (st.st_mode) || major (st.st_rdev) != 5
      || minor (st.st_rdev) != 2)
    return sbx_fail (err, -EPERM,
                     "cannot open a terminal: %s in the container is not the "
                     "pseudo-terminal multiplexer (5:2)",
                     ptmx);
  char self[64];
  snprintf (self, sizeof self, "/proc/self/fd/%d", node);
  return pair_of (open (self, O_RDWR | O_NOCTTY | O_CLOEXEC), ptmx, master_fd,
                  slave_fd, err);
}

int
sbx_console_give (int slave_fd, const int64_t owner[2], struct sbx_error *err)
{
  if (owner[0] < 0 && owner[1] < 0)
    return 0;
  if (fchown (slave_fd, (uid_t) owner[0], (gid_t) owner[1]) == 0)
    return 0;
  /* An id that this namespace, or the terminal's devpts, does not map
     (EINVAL, EOVERFLOW; a gid=5 under a namespace of fewer ids): the
     group is a convenience, so the uid alone, else nothing, as before
     sbx-oci gave terminals away.  */
  if (errno == EINVAL || errno == EOVERFLOW)
    {
      if (owner[0] >= 0)
        fchown (slave_fd, (uid_t) owner[0], (gid_t) -1);
      return 0;
    }
  return sbx_fail_errno (err, -errno, "cannot give the terminal to %lld:%lld",
                         (long long) owner[0], (long long) owner[1]);
}

/* One message: the payload runc sends, with FD attached as SCM_RIGHTS;
   SOCK is non-blocking, and a full one is waited for unless a held
   signal stops the wait (-EINTR).  */
static int
send_fd (int sock, int fd)
{
  union
  {
    char buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } ctrl;
  struct iovec iov = { .iov_base = (void *) SBX_CONSOLE_PAYLOAD,
                       .iov_len = sizeof SBX_CONSOLE_PAYLOAD - 1 };
  struct msghdr msg = { .msg_iov = &iov,
                        .msg_iovlen = 1,
                        .msg_control = ctrl.buf,
                        .msg_controllen = sizeof ctrl.buf };
  memset (&ctrl, 0, sizeof ctrl);
  struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (cmsg), &fd, sizeof fd);

  for (;;)
    {
      if (sendmsg (sock, &msg, MSG_NOSIGNAL) >= 0) /* EPIPE, never SIGPIPE */
        return 0;
      int e = errno, w = 0;
      if (e == EAGAIN)
        w = sbx_wait_unless_stopped (sock, POLLOUT, -1);
      else if (e != EINTR)
        return -e;
      if (w < 0)
        return w;
    }
}

/* Connect SOCK (non-blocking) to ADDR, however long its listener takes
   to make room, unless a held signal stops it (-EINTR).  A Unix socket's
   full backlog fails such a connect with EAGAIN and cannot be polled
   for: it is asked again every 10 ms.  */
static int
connect_unless_stopped (int sock, const struct sockaddr_un *addr)
{
  for (;;)
    {
      if (connect (sock, (const struct sockaddr *) addr, sizeof *addr) == 0)
        return 0;
      int e = errno, w = 0;
      if (e == EAGAIN)
        w = sbx_wait_unless_stopped (-1, 0, 10);
      else if (e != EINTR)
        return -e;
      if (w < 0)
        return w;
    }
}

int
sbx_console_send (const char *socket_path, int master_fd,
                  struct sbx_error *err)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (socket_path) >= sizeof addr.sun_path)
    return sbx_fail (err, -ENAMETOOLONG,
                     "console socket %s: path longer than %zu bytes; use a "
                     "shorter path",
                     socket_path, sizeof addr.sun_path - 1);
  strcpy (addr.sun_path, socket_path);

  cleanup_close int sock
      = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (sock < 0)
    return sbx_fail_errno (err, -errno,
                           "console socket %s: cannot create a "
                           "socket",
                           socket_path);
  int r = connect_unless_stopped (sock, &addr);
  if (r == -EINTR)
    return sbx_fail (err, r,
                     "console socket %s: sbx-oci was sent signal %d while it "
                     "waited for the listener",
                     socket_path, sbx_stop_pending ());
  if (r < 0)
    return sbx_fail_errno (err, r, "console socket %s: cannot connect",
                           socket_path);
  r = send_fd (sock, master_fd);
  if (r < 0)
    return sbx_fail_errno (
        err, r, "console socket %s: cannot send the console", socket_path);
  return 0;
}

int
sbx_console_make_controlling (int slave_fd, struct sbx_error *err)
{
  if (ioctl (slave_fd, TIOCSCTTY, 0) < 0)
    {
      int e = errno;
      return sbx_fail (
          err, -e,
          "console: cannot make the pseudo-terminal the controlling "
          "terminal: %s (the caller must be a session leader: call setsid "
          "first)",
          strerror (e));
    }
  for (int fd = 0; fd <= 2; fd++)
    {
      /* dup2 onto itself keeps O_CLOEXEC, which exec would then close.  */
      int r = fd == slave_fd ? fcntl (fd, F_SETFD, 0) : dup2 (slave_fd, fd);
      if (r < 0)
        return sbx_fail_errno (
            err, -errno, "console: cannot put the pseudo-terminal on fd %d",
            fd);
    }
  return 0;
}
