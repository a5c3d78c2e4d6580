/* Console: a real pty pair, a real --console-socket listener, and a forked
   child that takes the slave as its controlling terminal.  */
#include "common/error.h"
#include "common/signal_hold.h"
#include "runtime/linux/container/console.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/sbx-test-console-XXXXXX";

static bool
is_cloexec (int fd)
{
  int flags = fcntl (fd, F_GETFD);
  return flags >= 0 && (flags & FD_CLOEXEC);
}

/* The slave's device name as the kernel reports it for FD.  */
static bool
fd_path (int fd, char *buf, size_t size)
{
  char link[64];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (link, buf, size - 1);
  if (n < 0)
    return false;
  buf[n] = '\0';
  return true;
}

/* Write TEXT on FROM and read it back on TO: what arrives is gathered
   until it is as long as WANT, since the pty may hand it over in pieces
   ("hello\r", then "\n"), and waited for up to ten seconds each time, so
   that a loaded machine is not taken for a broken terminal.  */
static bool
passes_through (int from, int to, const char *text, const char *want)
{
  char buf[256];
  size_t got = 0, len = strlen (want);
  if (write (from, text, strlen (text)) != (ssize_t) strlen (text))
    return false;
  while (got < len)
    {
      struct pollfd pfd = { .fd = to, .events = POLLIN };
      if (poll (&pfd, 1, 10000) != 1)
        return false;
      ssize_t n = read (to, buf + got, sizeof buf - 1 - got);
      if (n <= 0)
        return false;
      got += (size_t) n;
    }
  buf[got] = '\0';
  return strcmp (buf, want) == 0;
}

static int
receive_fd (int listener, char *payload, size_t size)
{
  int conn = accept (listener, NULL, NULL);
  union
  {
    char buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } ctrl;
  struct iovec iov = { .iov_base = payload, .iov_len = size - 1 };
  struct msghdr msg = { .msg_iov = &iov,
                        .msg_iovlen = 1,
                        .msg_control = ctrl.buf,
                        .msg_controllen = sizeof ctrl.buf };
  int fd = -1;
  ssize_t n = conn >= 0 ? recvmsg (conn, &msg, MSG_CMSG_CLOEXEC) : -1;
  struct cmsghdr *cmsg = n >= 0 ? CMSG_FIRSTHDR (&msg) : NULL;
  if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
    memcpy (&fd, CMSG_DATA (cmsg), sizeof fd);
  payload[n > 0 ? n : 0] = '\0';
  if (conn >= 0)
    close (conn);
  return fd;
}

static void
test_create (int master, int slave)
{
  char name[PATH_MAX], slave_path[PATH_MAX];
  tap_ok (is_cloexec (master) && is_cloexec (slave), "both ends are CLOEXEC");
  tap_ok (isatty (slave) && ptsname_r (master, name, sizeof name) == 0
              && fd_path (slave, slave_path, sizeof slave_path)
              && strcmp (name, slave_path) == 0,
          "the slave is the terminal the master names (%s)", name);
  tap_ok (passes_through (slave, master, "hello\n", "hello\r\n"),
          "slave output reaches the master with default termios (onlcr)");
}

/* A socket listening at PATH with BACKLOG, its address in *ADDR.  */
static int
listen_at (const char *path, int backlog, struct sockaddr_un *addr)
{
  *addr = (struct sockaddr_un){ .sun_family = AF_UNIX };
  snprintf (addr->sun_path, sizeof addr->sun_path, "%s", path);
  int listener = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (bind (listener, (struct sockaddr *) addr, sizeof *addr) < 0
      || listen (listener, backlog) < 0)
    abort ();
  return listener;
}

/* A listener that never accepts, its backlog full: the connect waits
   for room, until a held signal stops it.  */
static void
test_send_stopped (int master)
{
  struct sbx_error err = { 0 };
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/full.sock", tmpdir);
  struct sockaddr_un addr;
  int listener = listen_at (path, 0, &addr);
  int held[4], n = 0;
  for (; n < 4; n++)
    {
      held[n]
          = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (connect (held[n], (struct sockaddr *) &addr, sizeof addr) < 0)
        break;
    }
  tap_ok (n < 4, "the listener's backlog is full after %d connections", n);
  sigset_t old;
  sbx_signals_hold (&old);
  raise (SIGTERM);
  int r = sbx_console_send (path, master, &err);
  tap_ok (r == -EINTR, "a held SIGTERM stops the wait for room (got %d: %s)",
          r, err.msg);
  sigset_t term;
  sigemptyset (&term);
  sigaddset (&term, SIGTERM);
  sigtimedwait (&term, NULL, &(struct timespec){ 0, 0 });
  sbx_signals_release (&old);
  for (int i = 0; i <= n && i < 4; i++)
    close (held[i]);
  close (listener);
  unlink (path);
}

static void
test_send (int master, int slave)
{
  struct sbx_error err = { 0 };
  char path[PATH_MAX], payload[64], name[PATH_MAX], got_name[PATH_MAX];
  snprintf (path, sizeof path, "%s/console.sock", tmpdir);
  struct sockaddr_un addr;
  int listener = listen_at (path, 1, &addr);

  /* The listen backlog accepts the connection before accept() runs.  */
  int r = sbx_console_send (path, master, &err);
  tap_ok (r == 0, "send to a listening socket (%s)", err.msg);
  int got = receive_fd (listener, payload, sizeof payload);
  tap_ok (got >= 0, "the listener receives an fd with SCM_RIGHTS");
  tap_streq (payload, SBX_CONSOLE_PAYLOAD, "payload is what runc sends");
  tap_ok (got >= 0 && ptsname_r (got, got_name, sizeof got_name) == 0
              && ptsname_r (master, name, sizeof name) == 0
              && strcmp (name, got_name) == 0,
          "the received fd is the same pty master");
  tap_ok (got >= 0
              && passes_through (slave, got, "via socket\n", "via socket\r\n"),
          "slave output is readable on the received master");
  if (got >= 0)
    close (got);
  close (listener);

  sbx_error_clear (&err);
  snprintf (path, sizeof path, "%s/missing.sock", tmpdir);
  r = sbx_console_send (path, master, &err);
  char want[PATH_MAX + 64];
  snprintf (want, sizeof want,
            "console socket %s: cannot connect: No such file or directory",
            path);
  tap_ok (r == -ENOENT, "missing socket gives -ENOENT (got %d)", r);
  tap_streq (err.msg, want, "missing socket message names the path");
  test_send_stopped (master);
}

/* In the child: each failed check sets one bit of the exit status.  With
   AT >= 0 the slave is first moved to fd AT (still CLOEXEC), which
   make_controlling must handle without losing it at exec.  */
static int
child_takes_terminal (int slave, int at, const char *slave_name)
{
  struct sbx_error err = { 0 };
  char path[PATH_MAX];
  int bad = 0;
  if (setsid () < 0)
    return 1;
  if (at >= 0 && dup3 (slave, at, O_CLOEXEC) == at)
    slave = at;
  if (sbx_console_make_controlling (slave, &err) < 0)
    return 2;
  for (int fd = 0; fd <= 2; fd++)
    if (!isatty (fd) || is_cloexec (fd) || !fd_path (fd, path, sizeof path)
        || strcmp (path, slave_name) != 0)
      bad |= 4;
  if (tcgetpgrp (0) != getpid ())
    bad |= 8;
  int tty = open ("/dev/tty", O_RDWR | O_CLOEXEC);
  if (tty < 0)
    bad |= 16;
  return bad;
}

static void
test_make_controlling (int master, int slave)
{
  char name[PATH_MAX];
  ptsname_r (master, name, sizeof name);
  int status = -1;
  for (int at = -1; at <= 2; at++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        _exit (child_takes_terminal (slave, at, name));
      waitpid (pid, &status, 0);
      tap_ok (WIFEXITED (status) && WEXITSTATUS (status) == 0,
              "after setsid the slave (at fd %d) becomes the controlling "
              "terminal on 0-2, foreground group is the child (status %#x)",
              at, status);
    }

  /* Without setsid the child is no session leader: TIOCSCTTY fails.  */
  int pipefd[2];
  if (pipe (pipefd) < 0)
    abort ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      struct sbx_error err = { 0 };
      int r = sbx_console_make_controlling (slave, &err);
      dprintf (pipefd[1], "%d %s", r, err.msg);
      _exit (0);
    }
  close (pipefd[1]);
  char msg[1200] = "";
  ssize_t n = read (pipefd[0], msg, sizeof msg - 1);
  msg[n > 0 ? n : 0] = '\0';
  close (pipefd[0]);
  waitpid (pid, &status, 0);
  tap_streq (msg,
             "-1 console: cannot make the pseudo-terminal the controlling "
             "terminal: Operation not permitted (the caller must be a "
             "session leader: call setsid first)",
             "without setsid the error says what to do");
}

int
main (void)
{
  struct sbx_error err = { 0 };
  int master = -1, slave = -1;
  if (mkdtemp (tmpdir) == NULL)
    return 99;
  int r = sbx_console_open ("/dev/ptmx", &master, &slave, &err);
  if (!tap_ok (r == 0, "create a pty pair (%s)", err.msg))
    return tap_done ();
  test_create (master, slave);
  test_send (master, slave);
  test_make_controlling (master, slave);
  close (master);
  close (slave);

  char sock[PATH_MAX];
  snprintf (sock, sizeof sock, "%s/console.sock", tmpdir);
  unlink (sock);
  rmdir (tmpdir);
  return tap_done ();
}
