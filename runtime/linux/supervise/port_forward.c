#include "runtime/linux/supervise/port_forward.h"

#include <cap-ng.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/linux/confine/fd_scrub.h"
#include "runtime/linux/supervise/detach.h"
#include "spec/spec.h"

/* One direction of a connection: FROM -> pipe -> TO.  */
struct flow
{
  int from, to;
  int pipe[2];
  size_t pending; /* bytes in the pipe */
  size_t cap;     /* the pipe's size */
  bool eof;       /* FROM said end of file */
  bool shut;      /* TO was told (shutdown SHUT_WR) */
};

struct conn
{
  bool used;
  bool connecting; /* the host side's connect is in progress */
  int in, out;     /* the sandbox's side, the host's side */
  struct flow f[2];
};

struct forwarder
{
  const int *listen_fds;
  const uint16_t *ports;
  size_t n;
  int watch;
  struct conn conns[SBX_FORWARD_MAX_CONNS];
  size_t live;
};

static void
conn_close (struct forwarder *w, struct conn *c, bool reset)
{
  /* A reset tells the sandbox's client the host side failed; a clean
     close would read as an empty answer.  */
  struct linger hard = { 1, 0 };
  if (reset)
    setsockopt (c->in, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
  close (c->in);
  close (c->out);
  for (int i = 0; i < 2; i++)
    {
      close (c->f[i].pipe[0]);
      close (c->f[i].pipe[1]);
    }
  c->used = false;
  w->live--;
}

static int
flow_init (struct flow *f, int from, int to)
{
  *f = (struct flow){ .from = from, .to = to };
  if (pipe2 (f->pipe, O_CLOEXEC | O_NONBLOCK) < 0)
    return -errno;
  /* A larger pipe moves more per wake-up; the default where refused.  */
  fcntl (f->pipe[1], F_SETPIPE_SZ, 256 * 1024);
  int cap = fcntl (f->pipe[1], F_GETPIPE_SZ);
  f->cap = cap > 0 ? (size_t) cap : 65536;
  return 0;
}

/* Connect to the host's 127.0.0.1:PORT without blocking.  */
static int
connect_host (uint16_t port, bool *in_progress)
{
  int s = socket (AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = { .sin_family = AF_INET,
                           .sin_port = htons (port),
                           .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (s < 0)
    return -errno;
  *in_progress = false;
  if (connect (s, (struct sockaddr *) &a, sizeof a) < 0)
    {
      if (errno != EINPROGRESS)
        {
          close (s);
          return -1;
        }
      *in_progress = true;
    }
  return s;
}

static void
accept_one (struct forwarder *w, size_t i)
{
  int in
      = accept4 (w->listen_fds[i], NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (in < 0)
    return;
  struct conn *c = NULL;
  for (size_t k = 0; c == NULL && k < SBX_FORWARD_MAX_CONNS; k++)
    if (!w->conns[k].used)
      c = &w->conns[k];
  bool in_progress = false;
  int out = c ? connect_host (w->ports[i], &in_progress) : -1;
  if (out < 0)
    {
      struct linger hard = { 1, 0 };
      setsockopt (in, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
      close (in);
      return;
    }
  *c = (struct conn){ .used = true,
                      .connecting = in_progress,
                      .in = in,
                      .out = out,
                      .f
                      = { { .pipe = { -1, -1 } }, { .pipe = { -1, -1 } } } };
  w->live++;
  if (flow_init (&c->f[0], in, out) < 0 || flow_init (&c->f[1], out, in) < 0)
    conn_close (w, c, true);
}

/* Move what can be moved now, until both sides would block: one
   wake-up carries as much as the socket buffers hold.  Returns 0, or
   -errno when the connection is broken.  */
static int
flow_pump (struct flow *f)
{
  const unsigned flags = SPLICE_F_MOVE | SPLICE_F_NONBLOCK;
  for (bool moved = true; moved;)
    {
      moved = false;
      if (!f->eof && f->pending < f->cap)
        {
          ssize_t n = splice (f->from, NULL, f->pipe[1], NULL,
                              f->cap - f->pending, flags);
          if (n > 0)
            f->pending += (size_t) n;
          else if (n == 0)
            f->eof = true;
          else if (errno != EAGAIN && errno != EINTR)
            return -errno;
          moved = n > 0;
        }
      if (f->pending > 0)
        {
          ssize_t n
              = splice (f->pipe[0], NULL, f->to, NULL, f->pending, flags);
          if (n > 0)
            f->pending -= (size_t) n;
          else if (n == 0 || (errno != EAGAIN && errno != EINTR))
            return n < 0 ? -errno : -EPIPE;
          moved |= n > 0;
        }
    }
  if (f->eof && f->pending == 0 && !f->shut)
    {
      shutdown (f->to, SHUT_WR);
      f->shut = true;
    }
  return 0;
}

static void
conn_step (struct forwarder *w, struct conn *c)
{
  if (c->connecting)
    {
      int e = 0;
      socklen_t len = sizeof e;
      if (getsockopt (c->out, SOL_SOCKET, SO_ERROR, &e, &len) < 0 || e != 0)
        {
          conn_close (w, c, true);
          return;
        }
      c->connecting = false;
    }
  if (flow_pump (&c->f[0]) < 0 || flow_pump (&c->f[1]) < 0)
    conn_close (w, c, true);
  else if (c->f[0].shut && c->f[1].shut)
    conn_close (w, c, false);
}

/* The events SOCK must be watched for in C.  */
static short
conn_events (const struct conn *c, int sock)
{
  if (c->connecting)
    return sock == c->out ? POLLOUT : 0;
  short ev = 0;
  for (int i = 0; i < 2; i++)
    {
      const struct flow *f = &c->f[i];
      if (f->from == sock && !f->eof && f->pending < f->cap)
        ev |= POLLIN;
      if (f->to == sock && f->pending > 0)
        ev |= POLLOUT;
    }
  return ev;
}

enum
{
  MAX_POLL = 1 + SBX_HOST_PORTS_MAX + 2 * SBX_FORWARD_MAX_CONNS
};

static __attribute__ ((noreturn)) void
forward_loop (struct forwarder *w)
{
  for (;;)
    {
      struct pollfd p[MAX_POLL];
      struct conn *owner[MAX_POLL];
      size_t np = 0;
      p[np] = (struct pollfd){ w->watch, POLLIN, 0 };
      owner[np++] = NULL;
      /* At the bound, connections wait in the listeners' backlogs.  */
      size_t nl = w->live < SBX_FORWARD_MAX_CONNS ? w->n : 0;
      for (size_t i = 0; i < nl; i++)
        {
          p[np] = (struct pollfd){ w->listen_fds[i], POLLIN, 0 };
          owner[np++] = NULL;
        }
      for (size_t k = 0; k < SBX_FORWARD_MAX_CONNS; k++)
        if (w->conns[k].used)
          {
            struct conn *c = &w->conns[k];
            p[np] = (struct pollfd){ c->in, conn_events (c, c->in), 0 };
            owner[np++] = c;
            p[np] = (struct pollfd){ c->out, conn_events (c, c->out), 0 };
            owner[np++] = c;
          }
      if (poll (p, np, -1) < 0 && errno != EINTR)
        _exit (1);
      if (p[0].revents)
        _exit (0); /* the sandbox has ended */
      for (size_t i = 0; i < nl; i++)
        if (p[1 + i].revents & POLLIN)
          accept_one (w, i);
      /* Each connection stepped once, however many of its fds woke.  */
      for (size_t i = 1 + nl; i < np; i += 2)
        if ((p[i].revents || p[i + 1].revents) && owner[i]->used)
          conn_step (w, owner[i]);
    }
}

/* In the forwarder: stdio on /dev/null (the caller's may be pipes whose
   end of file it waits for), only its own descriptors at 3 and up, the
   signals sbx blocked for its signalfd open again.  */
static void
become_forwarder (const struct sbx_port_forward *f)
{
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  signal (SIGPIPE, SIG_IGN);
  prctl (PR_SET_NAME, "sbx-oci-ports");
  int null = open ("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; null >= 0 && fd < 3; fd++)
    dup2 (null, fd);
  int high = 3 + (int) f->n + 1 + 64;
  int lifted[SBX_HOST_PORTS_MAX + 1];
  for (size_t i = 0; i <= f->n; i++)
    {
      int fd = i < f->n ? f->listen_fds[i] : f->watch_pidfd;
      if ((lifted[i] = fcntl (fd, F_DUPFD_CLOEXEC, high)) < 0)
        _exit (1);
    }
  for (size_t i = 0; i <= f->n; i++)
    if (dup3 (lifted[i], 3 + (int) i, O_CLOEXEC) < 0)
      _exit (1);
  sbx_close_fds_from (3 + (int) f->n + 1);
  if (chdir ("/") < 0)
    _exit (1);
}

/* Accepting and connecting on 127.0.0.1 needs no privilege: a root
   forwarder becomes nobody (a capless uid 0 could still write root's
   files and signal root's processes), keeps no capability, and nothing it
   could exec gains any.  The uid change clears the death signal, so
   PDEATHSIG is armed again after it, and the parent checked again.  */
static void
drop_privileges (pid_t parent)
{
  if (geteuid () == 0
      && (setgroups (0, NULL) < 0 || setresgid (65534, 65534, 65534) < 0
          || setresuid (65534, 65534, 65534) < 0))
    _exit (1);
  if (parent > 0
      && (prctl (PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid () != parent))
    _exit (1);
  capng_clear (CAPNG_SELECT_CAPS);
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
      || capng_apply (CAPNG_SELECT_CAPS) < 0)
    _exit (1);
}

/* PARENT: the sbx-oci it dies with (run), or 0 (create's, detached).  */
static __attribute__ ((noreturn)) void
forwarder_main (const struct sbx_port_forward *f, pid_t parent)
{
  become_forwarder (f);
  drop_privileges (parent);
  static struct forwarder w;
  static int fds[SBX_HOST_PORTS_MAX];
  for (size_t i = 0; i < f->n; i++)
    fds[i] = 3 + (int) i;
  w.listen_fds = fds;
  w.ports = f->ports;
  w.n = f->n;
  w.watch = 3 + (int) f->n;
  forward_loop (&w);
}

/* run: a child of sbx that dies with it.  */
static int
start_attached (const struct sbx_port_forward *f, pid_t *pid)
{
  pid_t parent = getpid ();
  pid_t child = fork ();
  if (child < 0)
    return -errno;
  if (child == 0)
    {
      if (prctl (PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid () != parent)
        _exit (1);
      forwarder_main (f, parent);
    }
  *pid = child;
  return 0;
}

/* create: forked twice (detach.h), so that the forwarder is nobody's
   child here.  */
static void
detached_main (const void *f)
{
  forwarder_main (f, 0);
}

int
sbx_port_forward_start (const struct sbx_port_forward *f, pid_t *pid,
                        struct sbx_error *err)
{
  int r = f->detach ? sbx_fork_detached (detached_main, f, pid)
                    : start_attached (f, pid);
  if (r < 0)
    return sbx_fail_errno (err, r, "cannot start the host ports' forwarder");
  return 0;
}
