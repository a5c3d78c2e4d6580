#include "runtime/linux/supervise/port_listen.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "spec/spec.h"

enum
{
  MAX_CHAIN = 34, /* user namespaces nest at most 32 deep */
  BACKLOG = 128
};

/* What the helper sends back: 0 and the sockets, or where it failed.  */
struct helper_reply
{
  int errnum;
  int port; /* the port it failed on, 0: entering the namespace */
};

static bool
same_ns (int fd, const struct stat *ours)
{
  struct stat st;
  return fstat (fd, &st) == 0 && st.st_dev == ours->st_dev
         && st.st_ino == ours->st_ino;
}

/* Join the user namespaces from ours down to the owner of NET (none when
   we own it), outermost first, then NET itself.  In the forked helper
   only: a process that joins a user namespace cannot come back.  */
static int
enter_netns (int net)
{
  struct stat ours;
  if (stat ("/proc/self/ns/user", &ours) < 0)
    return -errno;
  int chain[MAX_CHAIN], n = 0;
  int fd = ioctl (net, NS_GET_USERNS);
  /* EPERM: the owner is ours or above it, where CAP_SYS_ADMIN already
     reaches (root) or never will (setns says so below).  */
  while (fd >= 0 && !same_ns (fd, &ours) && n < MAX_CHAIN)
    {
      chain[n++] = fd;
      fd = ioctl (fd, NS_GET_PARENT);
    }
  if (fd >= 0)
    close (fd);
  for (int i = n - 1; i >= 0; i--)
    if (setns (chain[i], CLONE_NEWUSER) < 0)
      return -errno;
  return setns (net, CLONE_NEWNET) < 0 ? -errno : 0;
}

static int
listen_on (uint16_t port)
{
  int s = socket (AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int one = 1;
  struct sockaddr_in a = { .sin_family = AF_INET,
                           .sin_port = htons (port),
                           .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (s < 0 || setsockopt (s, SOL_IP, IP_FREEBIND, &one, sizeof one) < 0
      || bind (s, (struct sockaddr *) &a, sizeof a) < 0
      || listen (s, BACKLOG) < 0)
    {
      int e = errno;
      if (s >= 0)
        close (s);
      return -e;
    }
  return s;
}

static int
send_reply (int sock, const struct helper_reply *rep, const int *fds, size_t n)
{
  char control[CMSG_SPACE (sizeof (int) * SBX_HOST_PORTS_MAX)] = { 0 };
  struct iovec iov = { (void *) rep, sizeof *rep };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
  if (n > 0)
    {
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE (sizeof (int) * n);
      struct cmsghdr *c = CMSG_FIRSTHDR (&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN (sizeof (int) * n);
      memcpy (CMSG_DATA (c), fds, sizeof (int) * n);
    }
  return sendmsg (sock, &msg, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

/* Landlock's TCP rule (the belt under the host ports) checks connect(2)
   of plain TCP only: a TCP Fast Open sendto and an MPTCP socket reach a
   port it does not allow.  In the sandbox's own network namespace both
   are switched off, as root of the namespace may.  A kernel without
   MPTCP has no such file, and nothing to switch off.  */
static int
close_side_doors (void)
{
  static const char *const knobs[]
      = { "/proc/sys/net/ipv4/tcp_fastopen", "/proc/sys/net/mptcp/enabled" };
  for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++)
    {
      int r = sbx_write_control_file (knobs[i], "0");
      if (r < 0 && r != -ENOENT)
        return r;
    }
  return 0;
}

static __attribute__ ((noreturn)) void
helper_main (int net, int sock, const uint16_t *ports, size_t n)
{
  struct helper_reply rep = { 0, 0 };
  int fds[SBX_HOST_PORTS_MAX];
  size_t made = 0;
  int r = enter_netns (net);
  r = r ?: close_side_doors ();
  for (; r == 0 && made < n; made++)
    if ((r = fds[made] = listen_on (ports[made])) >= 0)
      r = 0;
    else
      rep.port = ports[made];
  rep.errnum = -r;
  _exit (send_reply (sock, &rep, fds, r == 0 ? n : 0) < 0 ? 1 : 0);
}

static int
receive_reply (int sock, struct helper_reply *rep, int *fds, size_t n)
{
  char control[CMSG_SPACE (sizeof (int) * SBX_HOST_PORTS_MAX)];
  struct iovec iov = { rep, sizeof *rep };
  struct msghdr msg = { .msg_iov = &iov,
                        .msg_iovlen = 1,
                        .msg_control = control,
                        .msg_controllen = sizeof control };
  ssize_t got = recvmsg (sock, &msg, MSG_CMSG_CLOEXEC);
  if (got != (ssize_t) sizeof *rep)
    return -ECHILD;
  struct cmsghdr *c = CMSG_FIRSTHDR (&msg);
  if (rep->errnum != 0)
    return -rep->errnum;
  if (c == NULL || c->cmsg_type != SCM_RIGHTS
      || c->cmsg_len != CMSG_LEN (sizeof (int) * n))
    return -EPROTO;
  memcpy (fds, CMSG_DATA (c), sizeof (int) * n);
  return 0;
}

int
sbx_port_listen (pid_t pid, const uint16_t *ports, size_t n, int *fds,
                 struct sbx_error *err)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/ns/net", (int) pid);
  if (n > SBX_HOST_PORTS_MAX)
    return sbx_fail (err, -E2BIG, "sbx.network.hostPorts: too many ports");
  cleanup_close int net = open (path, O_RDONLY | O_CLOEXEC);
  if (net < 0)
    return sbx_fail_errno (err, -errno,
                           "sbx.network.hostPorts: cannot open %s", path);
  int sv[2];
  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
    return sbx_fail_errno (err, -errno, "cannot make a socketpair");
  pid_t helper = fork ();
  if (helper == 0)
    {
      close (sv[0]);
      helper_main (net, sv[1], ports, n);
    }
  close (sv[1]);
  struct helper_reply rep = { 0, 0 };
  int r = helper < 0 ? -errno : receive_reply (sv[0], &rep, fds, n);
  close (sv[0]);
  if (helper > 0)
    while (waitpid (helper, NULL, 0) < 0 && errno == EINTR)
      ;
  if (r < 0 && rep.port)
    return sbx_fail_errno (err, r,
                           "sbx.network.hostPorts: cannot listen on the "
                           "sandbox's 127.0.0.1:%d",
                           rep.port);
  if (r < 0)
    return sbx_fail_errno (err, r,
                           "sbx.network.hostPorts: cannot enter the "
                           "sandbox's network namespace (%s)",
                           path);
  return 0;
}
