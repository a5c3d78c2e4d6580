/* The host ports' forwarder against a direct loopback connection (by
   tests/bench/port_bench.sh; not a test).

     port_bench serve PORTFILE   a host server on 127.0.0.1, a free port
                                 written to PORTFILE; one connection at a
                                 time: "L" echoes one byte per byte read,
                                 "T" reads to end of file and answers the
                                 count (8 bytes)
     port_bench client PORT CONNS MIB
                                 CONNS connections, each: connect, one
                                 byte there and back, close (the latency a
                                 connection costs, median in us); then one
                                 connection carrying MIB MiB (MiB/s)
   Prints "latency_us=M throughput_mib_s=T".  */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double
now_us (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int
full_write (int fd, const void *buf, size_t n)
{
  const char *p = buf;
  while (n > 0)
    {
      ssize_t w = write (fd, p, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return -1;
      p += w;
      n -= (size_t) w;
    }
  return 0;
}

static void
serve_one (int c)
{
  char kind, buf[1 << 16];
  if (read (c, &kind, 1) != 1)
    return;
  if (kind == 'L')
    {
      while (read (c, buf, 1) == 1)
        if (write (c, buf, 1) != 1)
          return;
      return;
    }
  uint64_t total = 0;
  ssize_t n;
  while ((n = read (c, buf, sizeof buf)) > 0)
    total += (uint64_t) n;
  full_write (c, &total, sizeof total);
}

static int
serve (const char *portfile)
{
  int s = socket (AF_INET, SOCK_STREAM, 0), one = 1;
  struct sockaddr_in a
      = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof a;
  setsockopt (s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind (s, (struct sockaddr *) &a, sizeof a) < 0 || listen (s, 128) < 0
      || getsockname (s, (struct sockaddr *) &a, &len) < 0)
    return perror ("port_bench serve"), 1;
  FILE *f = fopen (portfile, "w");
  if (f == NULL)
    return perror (portfile), 1;
  fprintf (f, "%d\n", ntohs (a.sin_port));
  fclose (f);
  for (;;)
    {
      int c = accept (s, NULL, NULL);
      if (c < 0)
        continue;
      setsockopt (c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      serve_one (c);
      close (c);
    }
}

static int
dial (int port)
{
  int s = socket (AF_INET, SOCK_STREAM, 0), one = 1;
  struct sockaddr_in a = { .sin_family = AF_INET,
                           .sin_port = htons (port),
                           .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  setsockopt (s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect (s, (struct sockaddr *) &a, sizeof a) < 0)
    {
      close (s);
      return -1;
    }
  return s;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* One connection's cost: connect, "L" and a byte there and back, close. */
static double
one_connection (int port)
{
  double t0 = now_us ();
  int s = dial (port);
  char b[2] = { 'L', 'x' };
  if (s < 0 || full_write (s, b, 2) < 0 || read (s, b, 1) != 1)
    {
      fprintf (stderr, "port_bench: a connection failed\n");
      exit (1);
    }
  close (s);
  return now_us () - t0;
}

static double
throughput (int port, uint64_t mib)
{
  static char buf[1 << 20];
  memset (buf, 'x', sizeof buf);
  int s = dial (port);
  uint64_t total = 0;
  double t0 = now_us ();
  if (s < 0 || full_write (s, "T", 1) < 0)
    return -1;
  for (uint64_t i = 0; i < mib; i++)
    if (full_write (s, buf, sizeof buf) < 0)
      return -1;
  shutdown (s, SHUT_WR);
  if (read (s, &total, sizeof total) != sizeof total || total != mib << 20)
    return -1;
  double secs = (now_us () - t0) / 1e6;
  close (s);
  return (double) mib / secs;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "serve") == 0)
    return serve (argv[2]);
  if (argc != 5 || strcmp (argv[1], "client") != 0)
    {
      fprintf (stderr, "usage: port_bench serve PORTFILE | "
                       "port_bench client PORT CONNS MIB\n");
      return 2;
    }
  int port = atoi (argv[2]), conns = atoi (argv[3]);
  if (conns < 1)
    conns = 1;
  double *t = calloc ((size_t) conns, sizeof *t);
  if (t == NULL)
    return 1;
  for (int i = 0; i < conns; i++)
    t[i] = one_connection (port);
  qsort (t, (size_t) conns, sizeof *t, cmp);
  double mibs = throughput (port, strtoull (argv[4], NULL, 10));
  printf ("latency_us=%.1f throughput_mib_s=%.0f\n", t[conns / 2], mibs);
  return mibs < 0;
}
