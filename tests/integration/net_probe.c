/* `net_probe CASE...`: try each way a sandboxed process could make a socket
   or reach a file by handle, and print one line per CASE: "CASE: ok" when
   it worked, "CASE: refused ERRNO" (the number) when the kernel or a filter
   said no.  Exits 0 unless a CASE is unknown (2).  Run inside sandboxes by
   net_filters.sh; static, so that it runs in any root.

     socket:FAMILY      socket (FAMILY, SOCK_STREAM or the family's type)
     socketpair:FAMILY  socketpair (FAMILY, SOCK_STREAM)
     socketcall:FAMILY  the 32-bit socketcall (SYS_SOCKET) through int $0x80
                        (x86-64 only; "unavailable" where it cannot be tried)
     uring-socket       io_uring's IORING_OP_SOCKET, AF_INET
     name-to-handle     name_to_handle_at (".")
     open-by-handle     open_by_handle_at with a handle of "." (or a bad one)
     unix-server        a server and a client on ./net-probe.sock
     inet-loopback      a TCP server and client on 127.0.0.1

   FAMILY: unix, inet, inet6, packet, netlink, vsock, alg.  */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef AF_ALG
#define AF_ALG 38
#endif

static const struct
{
  const char *name;
  int family, type;
} families[] = {
  { "unix", AF_UNIX, SOCK_STREAM },    { "inet", AF_INET, SOCK_STREAM },
  { "inet6", AF_INET6, SOCK_STREAM },  { "packet", AF_PACKET, SOCK_DGRAM },
  { "netlink", AF_NETLINK, SOCK_RAW }, { "vsock", AF_VSOCK, SOCK_STREAM },
  { "alg", AF_ALG, SOCK_SEQPACKET },
};

static int
family_index (const char *name)
{
  for (size_t i = 0; i < sizeof families / sizeof *families; i++)
    if (strcmp (families[i].name, name) == 0)
      return (int) i;
  return -1;
}

/* R is a descriptor or -1 with errno set.  */
static void
report (const char *what, int r)
{
  if (r >= 0)
    printf ("%s: ok\n", what);
  else
    printf ("%s: refused %d\n", what, errno);
}

static int
try_socketcall (int family, int type)
{
#if defined(__x86_64__)
  /* socketcall's arguments are a pointer the 32-bit ABI can hold.  */
  uint32_t *args = mmap (NULL, 4096, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  if (args == MAP_FAILED)
    return -2;
  args[0] = (uint32_t) family;
  args[1] = (uint32_t) type;
  args[2] = 0;
  long r;
  __asm__ volatile("int $0x80"
                   : "=a"(r)
                   : "a"(102L), "b"(1L), "c"((long) (uintptr_t) args)
                   : "memory");
  if (r < 0)
    {
      errno = (int) -r;
      return -1;
    }
  return (int) r;
#else
  (void) family;
  (void) type;
  return -2;
#endif
}

/* A kernel without 32-bit emulation kills int $0x80 with SIGSEGV: tried
   in a child, whose death means "unavailable" (-2).  */
static int
socketcall_in_child (int family, int type)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int r = try_socketcall (family, type);
      _exit (r == -2 ? 255 : r >= 0 ? 0 : errno);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) == 255)
    return -2;
  errno = WEXITSTATUS (status);
  return errno ? -1 : 0;
}

static void *
ring_map (int fd, size_t len, off_t off)
{
  return mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
               fd, off);
}

/* One IORING_OP_SOCKET (Linux 5.19) through a ring set up by hand.  */
static int
try_uring_socket (void)
{
  struct io_uring_params p = { 0 };
  int fd = (int) syscall (__NR_io_uring_setup, 4, &p);
  if (fd < 0)
    return -1;
  size_t sq_len = p.sq_off.array + p.sq_entries * sizeof (unsigned);
  size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof (struct io_uring_cqe);
  char *sq = ring_map (fd, sq_len, IORING_OFF_SQ_RING);
  char *cq = ring_map (fd, cq_len, IORING_OFF_CQ_RING);
  struct io_uring_sqe *sqes = ring_map (
      fd, p.sq_entries * sizeof (struct io_uring_sqe), IORING_OFF_SQES);
  if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
    return -1;
  memset (&sqes[0], 0, sizeof sqes[0]);
  sqes[0].opcode = 45; /* IORING_OP_SOCKET, absent from older headers */
  sqes[0].fd = AF_INET;
  sqes[0].off = SOCK_STREAM;
  ((unsigned *) (sq + p.sq_off.array))[0] = 0;
  __atomic_store_n ((unsigned *) (sq + p.sq_off.tail), 1, __ATOMIC_RELEASE);
  if (syscall (__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0)
      < 0)
    return -1;
  struct io_uring_cqe *cqe = (struct io_uring_cqe *) (cq + p.cq_off.cqes);
  if (cqe[0].res < 0)
    {
      errno = -cqe[0].res;
      return -1;
    }
  return cqe[0].res;
}

static int
try_name_to_handle (struct file_handle *fh)
{
  int mount_id;
  fh->handle_bytes = MAX_HANDLE_SZ;
  return name_to_handle_at (AT_FDCWD, ".", fh, &mount_id, 0);
}

/* With no handle to be had, a bad one: the kernel checks its permission
   before the handle, so EPERM still tells a refusal from EINVAL.  */
static int
try_open_by_handle (void)
{
  union
  {
    struct file_handle fh;
    char space[sizeof (struct file_handle) + MAX_HANDLE_SZ];
  } u;
  if (try_name_to_handle (&u.fh) < 0)
    {
      u.fh.handle_bytes = 0;
      u.fh.handle_type = 0;
    }
  return open_by_handle_at (AT_FDCWD, &u.fh, O_RDONLY);
}

static int
try_unix_server (void)
{
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  strcpy (a.sun_path, "net-probe.sock");
  unlink (a.sun_path);
  int s = socket (AF_UNIX, SOCK_STREAM, 0);
  if (s < 0 || bind (s, (struct sockaddr *) &a, sizeof a) < 0
      || listen (s, 1) < 0)
    return -1;
  pid_t pid = fork ();
  if (pid == 0)
    {
      /* Its exit status is its errno, for the report.  */
      int c = socket (AF_UNIX, SOCK_STREAM, 0);
      _exit (c >= 0 && connect (c, (struct sockaddr *) &a, sizeof a) == 0
                     && write (c, "x", 1) == 1
                 ? 0
                 : (errno > 0 && errno < 256 ? errno : EIO));
    }
  /* The client first: a refused connect must not leave accept waiting.
     A connect queued on the listener completes, its byte with it, before
     the accept.  */
  int status = 1;
  waitpid (pid, &status, 0);
  if (pid < 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      unlink (a.sun_path);
      errno = WIFEXITED (status) ? WEXITSTATUS (status) : EIO;
      return -1;
    }
  int conn = accept (s, NULL, NULL);
  char c = 0;
  bool got = conn >= 0 && read (conn, &c, 1) == 1 && c == 'x';
  unlink (a.sun_path);
  if (!got)
    {
      errno = errno ? errno : EIO;
      return -1;
    }
  return conn;
}

static int
try_inet_loopback (void)
{
  struct sockaddr_in a
      = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof a;
  int s = socket (AF_INET, SOCK_STREAM, 0);
  if (s < 0 || bind (s, (struct sockaddr *) &a, sizeof a) < 0
      || listen (s, 1) < 0
      || getsockname (s, (struct sockaddr *) &a, &len) < 0)
    return -1;
  int c = socket (AF_INET, SOCK_STREAM, 0);
  if (c < 0 || connect (c, (struct sockaddr *) &a, sizeof a) < 0)
    return -1;
  return accept (s, NULL, NULL);
}

static int
run_case (const char *what)
{
  const char *colon = strchr (what, ':');
  int f = colon ? family_index (colon + 1) : -1;
  errno = 0;
  if (f >= 0 && strncmp (what, "socket:", 7) == 0)
    report (what, socket (families[f].family, families[f].type, 0));
  else if (f >= 0 && strncmp (what, "socketpair:", 11) == 0)
    {
      int sv[2];
      report (what, socketpair (families[f].family, SOCK_STREAM, 0, sv));
    }
  else if (f >= 0 && strncmp (what, "socketcall:", 11) == 0)
    {
      int r = socketcall_in_child (families[f].family, families[f].type);
      if (r == -2)
        printf ("%s: unavailable\n", what);
      else
        report (what, r);
    }
  else if (strcmp (what, "uring-socket") == 0)
    report (what, try_uring_socket ());
  else if (strcmp (what, "name-to-handle") == 0)
    {
      union
      {
        struct file_handle fh;
        char space[sizeof (struct file_handle) + MAX_HANDLE_SZ];
      } u;
      report (what, try_name_to_handle (&u.fh));
    }
  else if (strcmp (what, "open-by-handle") == 0)
    report (what, try_open_by_handle ());
  else if (strcmp (what, "unix-server") == 0)
    report (what, try_unix_server ());
  else if (strcmp (what, "inet-loopback") == 0)
    report (what, try_inet_loopback ());
  else
    return 2;
  return 0;
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (run_case (argv[i]) != 0)
      {
        fprintf (stderr, "net_probe: unknown case \"%s\"\n", argv[i]);
        return 2;
      }
  return 0;
}
