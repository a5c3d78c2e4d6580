#include "runtime/linux/container/ns_join.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

enum
{
  N_OTHER = 6,
  MAX_CHAIN = SBX_NS_JOIN_MAX - N_OTHER
};

/* Within one owner, the order the runtime has always used: the mount
   namespace last, as it changes the root and the working directory.  */
static const char *const other_names[N_OTHER]
    = { "cgroup", "ipc", "uts", "net", "pid", "mnt" };

/* The user namespaces from the one below ours down to PID's, outermost
   first, as fds.  */
struct chain
{
  int fds[MAX_CHAIN];
  struct stat st[MAX_CHAIN];
  size_t n;
};

static bool
same_file (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* 1: /proc/PID/ns/NAME is the caller's own; 0: another; -1: not there. */
static int
is_ours (pid_t pid, const char *name)
{
  char a[64], b[64];
  struct stat sa, sb;
  snprintf (a, sizeof a, "/proc/self/ns/%s", name);
  snprintf (b, sizeof b, "/proc/%d/ns/%s", (int) pid, name);
  if (stat (a, &sa) < 0 || stat (b, &sb) < 0)
    return -1;
  return same_file (&sa, &sb);
}

/* Prepend FD (closed on failure) to C.  */
static int
chain_prepend (struct chain *c, int fd)
{
  struct stat st;
  if (c->n == MAX_CHAIN || fstat (fd, &st) < 0)
    {
      close (fd);
      return -ELOOP;
    }
  for (size_t i = c->n; i > 0; i--)
    {
      c->fds[i] = c->fds[i - 1];
      c->st[i] = c->st[i - 1];
    }
  c->fds[0] = fd;
  c->st[0] = st;
  c->n++;
  return 0;
}

/* PID's user namespace and its ancestors below ours.  NS_GET_PARENT
   fails with EPERM at the top of the caller's hierarchy: a sandbox's user
   namespace that is not below ours (entered some other way) is then
   joined alone, as before.  */
static int
open_chain (pid_t pid, struct chain *c, struct sbx_error *err)
{
  char path[64];
  struct stat self;
  snprintf (path, sizeof path, "/proc/%d/ns/user", (int) pid);
  if (is_ours (pid, "user") == 1)
    return 0;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s", path);
  if (stat ("/proc/self/ns/user", &self) < 0)
    {
      close (fd);
      return sbx_fail_errno (err, -errno, "cannot stat /proc/self/ns/user");
    }
  while (fd >= 0)
    {
      int r = chain_prepend (c, fd);
      if (r < 0)
        return sbx_fail (err, r, "%s: user namespaces nested too deep", path);
      fd = ioctl (c->fds[0], NS_GET_PARENT);
      struct stat st;
      if (fd >= 0 && (fstat (fd, &st) < 0 || same_file (&st, &self)))
        {
          close (fd);
          fd = -1;
        }
    }
  return 0;
}

/* The index in C of the user namespace owning the namespace FD, or -1
   (ours, an ancestor of ours, or outside the chain).  */
static int
owner_in_chain (int fd, const struct chain *c)
{
  int owner = ioctl (fd, NS_GET_USERNS);
  struct stat st;
  int found = -1;
  if (owner < 0)
    return -1;
  if (fstat (owner, &st) == 0)
    for (size_t i = 0; i < c->n; i++)
      if (same_file (&st, &c->st[i]))
        found = (int) i;
  close (owner);
  return found;
}

static int
open_others (pid_t pid, int fds[N_OTHER], struct sbx_error *err)
{
  for (size_t i = 0; i < N_OTHER; i++)
    {
      char path[64];
      snprintf (path, sizeof path, "/proc/%d/ns/%s", (int) pid,
                other_names[i]);
      int ours = is_ours (pid, other_names[i]);
      if (ours == 1 || (ours < 0 && i == 0))
        continue; /* shared with us (or no cgroup namespaces here) */
      fds[i] = open (path, O_RDONLY | O_CLOEXEC);
      if (fds[i] < 0)
        return sbx_fail_errno (err, -errno, "cannot open %s", path);
    }
  return 0;
}

/* J: the namespaces outside the chain, then each user namespace of the
   chain followed by those it owns.  Takes the fds of OTHERS and C.  */
static void
order (int others[N_OTHER], struct chain *c, struct sbx_ns_join *j)
{
  int level[N_OTHER];
  for (size_t i = 0; i < N_OTHER; i++)
    level[i] = others[i] >= 0 ? owner_in_chain (others[i], c) : -2;
  for (int l = -1; l < (int) c->n; l++)
    {
      if (l >= 0)
        j->fds[j->n++] = c->fds[l];
      for (size_t i = 0; i < N_OTHER; i++)
        if (level[i] == l)
          j->fds[j->n++] = others[i];
    }
}

int
sbx_ns_join_open (pid_t pid, struct sbx_ns_join *j, struct sbx_error *err)
{
  struct chain c = { .n = 0 };
  int others[N_OTHER] = { -1, -1, -1, -1, -1, -1 };
  j->n = 0;
  int r = open_chain (pid, &c, err);
  r = r ?: open_others (pid, others, err);
  if (r < 0)
    {
      for (size_t i = 0; i < c.n; i++)
        close (c.fds[i]);
      for (size_t i = 0; i < N_OTHER; i++)
        if (others[i] >= 0)
          close (others[i]);
      return r;
    }
  order (others, &c, j);
  return 0;
}

int
sbx_ns_join_enter (const struct sbx_ns_join *j)
{
  for (size_t i = 0; i < j->n; i++)
    if (setns (j->fds[i], 0) < 0)
      return -errno;
  return 0;
}

void
sbx_ns_join_close (struct sbx_ns_join *j)
{
  for (size_t i = 0; i < j->n; i++)
    close (j->fds[i]);
  j->n = 0;
}
