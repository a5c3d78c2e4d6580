#include "runtime/linux/supervise/process_sample.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <unistd.h>

#include "runtime/linux/container/ns_procs.h"

/* Big enough for /proc/PID/stat and for a children list of a few hundred
   pids; a longer children list is read in several pieces.  */
enum
{
  READ_BUF = 4096
};

/* /proc/loadavg, unless something other than procfs sits there: lxcfs
   mounts its own over it, and its last field need not move with forks. */
static int
open_loadavg (void)
{
  int fd = open ("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  struct statfs fs;
  if (fd >= 0 && (fstatfs (fd, &fs) < 0 || fs.f_type != PROC_SUPER_MAGIC))
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

void
sbx_sampler_init (struct sbx_sampler *s)
{
  *s = (struct sbx_sampler){ 0 };
  s->page_size = sysconf (_SC_PAGESIZE);
  /* Without a cache the sampler still works, opening files every tick. */
  s->cache = calloc (SBX_SAMPLER_CACHE, sizeof *s->cache);
  s->ns_proc_fd = -1;
  s->loadavg_fd = open_loadavg ();
  s->listed_at = -1;
}

static void
forget (struct sbx_sampler *s, struct sbx_proc_fds *e)
{
  if (e->stat_fd >= 0)
    close (e->stat_fd);
  if (e->children_fd >= 0)
    close (e->children_fd);
  if (e->statm_fd >= 0)
    close (e->statm_fd);
  e->pid = 0;
  s->cached--;
}

void
sbx_sampler_free (struct sbx_sampler *s)
{
  for (size_t i = 0; s->cache && i < SBX_SAMPLER_CACHE; i++)
    if (s->cache[i].pid)
      forget (s, &s->cache[i]);
  free (s->cache);
  free (s->stack);
  if (s->ns_proc_fd >= 0)
    close (s->ns_proc_fd);
  if (s->loadavg_fd >= 0)
    close (s->loadavg_fd);
  *s = (struct sbx_sampler){ .ns_proc_fd = -1, .loadavg_fd = -1 };
}

/* Linear probing; the table is kept at most half full.  */
static struct sbx_proc_fds *
slot (struct sbx_sampler *s, pid_t pid, bool create)
{
  if (s->cache == NULL)
    return NULL;
  for (size_t i = (size_t) pid & (SBX_SAMPLER_CACHE - 1);;
       i = (i + 1) & (SBX_SAMPLER_CACHE - 1))
    {
      struct sbx_proc_fds *e = &s->cache[i];
      if (e->pid == pid)
        return e;
      if (e->pid == 0)
        return create && s->cached < SBX_SAMPLER_CACHE / 2 ? e : NULL;
    }
}

/* Close what the last tick did not see: those processes are gone.  Slots
   are emptied only here, between walks, and the table is then rebuilt so
   that probing never stops at a hole.  */
static void
sweep_cache (struct sbx_sampler *s)
{
  bool removed = false;
  for (size_t i = 0; s->cache && i < SBX_SAMPLER_CACHE; i++)
    if (s->cache[i].pid && s->cache[i].tick != s->tick)
      {
        forget (s, &s->cache[i]);
        removed = true;
      }
  if (!removed)
    return;
  struct sbx_proc_fds old[SBX_SAMPLER_CACHE];
  memcpy (old, s->cache, sizeof old);
  memset (s->cache, 0, sizeof old);
  for (size_t i = 0; i < SBX_SAMPLER_CACHE; i++)
    if (old[i].pid)
      *slot (s, old[i].pid, true) = old[i];
}

/* Read an open procfs file from its start.  */
static ssize_t
reread (int fd, char *buf, size_t size)
{
  ssize_t n = pread (fd, buf, size - 1, 0);
  if (n >= 0)
    buf[n] = '\0';
  return n < 0 ? -errno : n;
}

/* Resident pages, the second field of an open statm file.  A reaped
   process's file reads as an error, a zombie's as zeros.  */
static int
read_resident (int fd, char *buf, long *pages)
{
  if (reread (fd, buf, READ_BUF) <= 0)
    return -ESRCH;
  char *p, *end;
  strtol (buf, &p, 10);
  *pages = strtol (p, &end, 10);
  return end != p ? 0 : -EIO;
}

static int
push (struct sbx_sampler *s, size_t *n, pid_t pid)
{
  if (*n == s->cap)
    {
      size_t cap = s->cap ? s->cap * 2 : 256;
      pid_t *stack = realloc (s->stack, cap * sizeof *stack);
      if (stack == NULL)
        return -ENOMEM;
      s->stack = stack;
      s->cap = cap;
    }
  s->stack[(*n)++] = pid;
  return 0;
}

static int
open_proc (pid_t pid, const char *what)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, what);
  return open (path, O_RDONLY | O_CLOEXEC);
}

/* The stat file of PID, from the cache or opened (and cached).  *OWNED
   says the caller must close it.  */
static int
stat_fd (struct sbx_sampler *s, pid_t pid, bool *owned)
{
  struct sbx_proc_fds *e = slot (s, pid, true);
  *owned = false;
  if (e && e->pid == pid)
    {
      e->tick = s->tick;
      return e->stat_fd;
    }
  int fd = open_proc (pid, "stat");
  if (fd < 0 || e == NULL)
    {
      *owned = fd >= 0;
      return fd;
    }
  *e = (struct sbx_proc_fds){ .pid = pid,
                              .stat_fd = fd,
                              .children_fd = -1,
                              .statm_fd = -1,
                              .tick = s->tick };
  s->cached++;
  return fd;
}

/* From /proc/PID/stat: field 20 num_threads and field 24 rss (pages).
   The command name (field 2) may hold spaces and parentheses, so fields
   are counted from the last ')'.  */
/* /proc/PID/stat is the expensive file (the kernel gathers dozens of
   fields); statm gives the resident pages alone.  The thread count, which
   only decides whether every thread's children are listed, is refreshed
   from stat every STAT_EVERY ticks.  */
#define STAT_EVERY 4u

static int
read_statm (struct sbx_proc_fds *e, char *buf, long *threads, long *rss_pages)
{
  if (read_resident (e->statm_fd, buf, rss_pages) < 0)
    return -ESRCH;
  *threads = e->threads;
  return 0;
}

static int
read_stat (struct sbx_sampler *s, pid_t pid, char *buf, long *threads,
           long *rss_pages)
{
  bool owned;
  int fd = stat_fd (s, pid, &owned);
  if (fd < 0)
    return -ESRCH;
  struct sbx_proc_fds *e = owned ? NULL : slot (s, pid, false);
  if (e && e->statm_fd >= 0 && s->tick - e->stat_tick < STAT_EVERY)
    return read_statm (e, buf, threads, rss_pages);
  ssize_t n = reread (fd, buf, READ_BUF);
  if (owned)
    close (fd);
  if (n <= 0)
    return -ESRCH; /* a dead process's stat reads as an error or empty */
  char *p = strrchr (buf, ')');
  if (p == NULL)
    return -EIO;
  /* P is at the space before field 3; move to the one before field 20.  */
  p++;
  for (int field = 3; field < 20 && p; field++)
    p = strchr (p + 1, ' ');
  if (p == NULL || sscanf (p, " %ld %*d %*u %*u %ld", threads, rss_pages) != 2)
    return -EIO;
  if (e)
    {
      e->threads = *threads;
      e->stat_tick = s->tick;
      if (e->statm_fd < 0)
        e->statm_fd = open_proc (pid, "statm");
    }
  return 0;
}

/* Push the children of one thread.  */
static int
push_children (struct sbx_sampler *s, size_t *n, pid_t pid, pid_t tid,
               char *buf)
{
  char what[48];
  snprintf (what, sizeof what, "task/%d/children", (int) tid);
  struct sbx_proc_fds *e = pid == tid ? slot (s, pid, false) : NULL;
  bool cached = e && e->pid == pid;
  int fd = cached ? e->children_fd : -1;
  if (fd < 0)
    fd = open_proc (pid, what);
  if (fd < 0)
    return 0; /* gone meanwhile */
  if (cached && e->children_fd < 0)
    e->children_fd = fd;
  /* pread from offset 0: a cached file needs no seek, and most children
     lists (leaves) end at the first read.  */
  size_t keep = 0;
  off_t offset = 0;
  ssize_t got;
  int r = 0;
  while (r == 0
         && (got = pread (fd, buf + keep, READ_BUF - 1 - keep, offset)) > 0)
    {
      offset += got;
      size_t len = keep + (size_t) got;
      buf[len] = '\0';
      char *p = buf, *end;
      long v;
      while (r == 0 && (v = strtol (p, &end, 10), end != p) && *end == ' ')
        {
          r = push (s, n, (pid_t) v);
          p = end + 1;
        }
      /* A number cut at the end of the buffer is read again whole.  */
      keep = len - (size_t) (p - buf);
      memmove (buf, p, keep);
    }
  if (!cached)
    close (fd);
  return r;
}

/* Threads other than the leader can have children too: list them only
   for multi-threaded processes, which are rare in a sandbox.  */
static int
push_thread_children (struct sbx_sampler *s, size_t *n, pid_t pid, char *buf)
{
  char path[48];
  snprintf (path, sizeof path, "/proc/%d/task", (int) pid);
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  char dents[READ_BUF];
  long got;
  int r = 0;
  while (r == 0
         && (got = syscall (SYS_getdents64, fd, dents, sizeof dents)) > 0)
    for (long off = 0; r == 0 && off < got;)
      {
        /* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name.  */
        unsigned short reclen;
        memcpy (&reclen, dents + off + 16, sizeof reclen);
        const char *name = dents + off + 19;
        int tid = atoi (name);
        if (tid > 0)
          r = push_children (s, n, pid, tid, buf);
        off += reclen;
      }
  close (fd);
  return r;
}

/* REL below the sandbox's procfs DIR, on that procfs mount alone: the
   sandbox may lay links or mounts of its own over its /proc (one that
   may mount made the monitor, which runs on the host's side, open a host
   path its link named, read a host-only file, block on a host FIFO).  */
static int
open_in_ns_proc (int dir, const char *rel, int flags)
{
  struct open_how how = {
    .flags = (uint64_t) (flags | O_CLOEXEC | O_NONBLOCK),
    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
               | RESOLVE_NO_XDEV,
  };
  long fd = syscall (SYS_openat2, dir, rel, &how, sizeof how);
  return fd < 0 ? -1 : (int) fd;
}

/* The sandbox's own procfs, if ROOT is the init of the PID namespace it
   lists: a procfs, whose "1" must be ROOT's namespace seen from inside,
   and ROOT that "1" (a sandbox that joined another's namespace sees the
   other's processes there too).  */
static int
open_ns_proc (pid_t root)
{
  if (!sbx_pid_is_ns_init (root))
    return -1;
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/root/proc", (int) root);
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct statfs fs;
  int ns_dir = -1;
  if (fd >= 0 && fstatfs (fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC)
    ns_dir = open_in_ns_proc (fd, "1/ns", O_PATH | O_DIRECTORY);
  struct stat inside, outside;
  snprintf (path, sizeof path, "/proc/%d/ns/pid", (int) root);
  if (fd >= 0
      && (ns_dir < 0 || fstatat (ns_dir, "pid", &inside, 0) < 0
          || stat (path, &outside) < 0 || inside.st_ino != outside.st_ino
          || inside.st_dev != outside.st_dev))
    {
      close (fd);
      fd = -1;
    }
  if (ns_dir >= 0)
    close (ns_dir);
  return fd;
}

static void
count (const struct sbx_sampler *s, struct sbx_sample *out, long rss_pages)
{
  out->processes++;
  out->rss_bytes
      += (uint64_t) (rss_pages > 0 ? rss_pages : 0) * (uint64_t) s->page_size;
}

/* Resident pages of namespace pid PID, through a cached statm.  A cached
   file that no longer reads belongs to a reaped process whose pid was
   given again: it is replaced.  Sets *UNCACHED when the cache is full. */
static int
ns_statm (struct sbx_sampler *s, pid_t pid, char *buf, long *rss,
          bool *uncached)
{
  struct sbx_proc_fds *e = slot (s, pid, true);
  bool known = e && e->pid == pid;
  if (known && e->statm_fd >= 0 && read_resident (e->statm_fd, buf, rss) == 0)
    {
      e->tick = s->tick;
      return 0;
    }
  char name[32];
  snprintf (name, sizeof name, "%d/statm", (int) pid);
  int fd = open_in_ns_proc (s->ns_proc_fd, name, O_RDONLY);
  if (fd < 0)
    return -ESRCH;
  int r = read_resident (fd, buf, rss);
  if (e == NULL)
    {
      *uncached = true;
      close (fd);
      return r;
    }
  if (known)
    forget (s, e);
  *e = (struct sbx_proc_fds){ .pid = pid,
                              .stat_fd = -1,
                              .children_fd = -1,
                              .statm_fd = fd,
                              .tick = s->tick };
  s->cached++;
  return r;
}

/* The last pid handed out in our own PID namespace: the fifth field of
   /proc/loadavg, or -1.  The sandbox's namespace descends from ours, so
   each of its processes takes a pid here too: while this number stands
   still, no process has joined the sandbox.  */
static long
last_pid (struct sbx_sampler *s, char *buf)
{
  if (s->loadavg_fd < 0 || reread (s->loadavg_fd, buf, READ_BUF) <= 0)
    return -1;
  char *p = strrchr (buf, ' ');
  return p ? strtol (p + 1, NULL, 10) : -1;
}

/* No fork since the last listing: the processes it cached are all there
   can be.  Re-read them and let the sweep drop those that were reaped.
   This spares the directory read, most of a tick's cost.  */
static int
take_known (struct sbx_sampler *s, char *buf, struct sbx_sample *out)
{
  bool root_seen = false;
  for (size_t i = 0; i < SBX_SAMPLER_CACHE; i++)
    {
      struct sbx_proc_fds *e = &s->cache[i];
      long rss;
      if (e->pid == 0 || read_resident (e->statm_fd, buf, &rss) < 0)
        continue;
      e->tick = s->tick;
      root_seen |= e->pid == 1;
      count (s, out, rss);
    }
  sweep_cache (s);
  return root_seen ? 0 : -ESRCH;
}

static int
take_ns (struct sbx_sampler *s, struct sbx_sample *out)
{
  char dents[2 * READ_BUF], buf[READ_BUF]; /* ~100 pids a read */
  long got, cursor = last_pid (s, buf);
  if (cursor >= 0 && cursor == s->listed_at)
    return take_known (s, buf, out);
  bool root_seen = false, uncached = false;
  if (lseek (s->ns_proc_fd, 0, SEEK_SET) < 0)
    return -errno;
  while ((got = syscall (SYS_getdents64, s->ns_proc_fd, dents, sizeof dents))
         > 0)
    for (long off = 0; off < got;)
      {
        unsigned short reclen;
        memcpy (&reclen, dents + off + 16, sizeof reclen);
        const char *name = dents + off + 19;
        off += reclen;
        long rss;
        int pid = atoi (name);
        if (pid <= 0 || ns_statm (s, pid, buf, &rss, &uncached) < 0)
          continue;
        root_seen |= pid == 1;
        count (s, out, rss);
      }
  sweep_cache (s);
  /* The cursor was read before the listing, so a fork during it shows as
     a new cursor at the next tick.  */
  s->listed_at = uncached || s->cache == NULL ? -1 : cursor;
  return root_seen ? 0 : -ESRCH;
}

int
sbx_sampler_take (struct sbx_sampler *s, pid_t root, struct sbx_sample *out)
{
  char buf[READ_BUF];
  size_t n = 0;
  *out = (struct sbx_sample){ 0 };
  s->tick++;
  if (s->ns_root != root)
    {
      if (s->ns_proc_fd >= 0)
        close (s->ns_proc_fd);
      s->ns_root = root;
      s->ns_proc_fd = open_ns_proc (root);
    }
  if (s->ns_proc_fd >= 0)
    return take_ns (s, out);
  int r = push (s, &n, root);
  while (r == 0 && n > 0)
    {
      pid_t pid = s->stack[--n];
      long threads, rss;
      int sr = read_stat (s, pid, buf, &threads, &rss);
      if (sr < 0)
        {
          if (pid == root)
            return -ESRCH;
          continue; /* exited during the walk */
        }
      count (s, out, rss);
      r = threads > 1 ? push_thread_children (s, &n, pid, buf)
                      : push_children (s, &n, pid, pid, buf);
    }
  sweep_cache (s);
  return r;
}
