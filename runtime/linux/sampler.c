#include "runtime/linux/sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Big enough for /proc/PID/stat and for a children list of a few hundred
   pids; a longer children list is read in several pieces.  */
enum
{
  READ_BUF = 4096
};

void
sbx_sampler_init (struct sbx_sampler *s)
{
  *s = (struct sbx_sampler){ 0 };
  s->page_size = sysconf (_SC_PAGESIZE);
}

void
sbx_sampler_free (struct sbx_sampler *s)
{
  free (s->stack);
  s->stack = NULL;
  s->cap = 0;
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

static ssize_t
read_small (const char *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  ssize_t n = read (fd, buf, size - 1);
  int saved = errno;
  close (fd);
  if (n < 0)
    return -saved;
  buf[n] = '\0';
  return n;
}

/* From /proc/PID/stat: field 20 num_threads and field 24 rss (pages).
   The command name (field 2) may hold spaces and parentheses, so fields
   are counted from the last ')'.  */
static int
read_stat (pid_t pid, char *buf, long *threads, long *rss_pages)
{
  char path[48];
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  ssize_t n = read_small (path, buf, READ_BUF);
  if (n < 0)
    return (int) n;
  char *p = strrchr (buf, ')');
  if (p == NULL)
    return -EIO;
  /* P is at the space before field 3; move to the one before field 20.  */
  p++;
  for (int field = 3; field < 20 && p; field++)
    p = strchr (p + 1, ' ');
  if (p == NULL || sscanf (p, " %ld %*d %*u %*u %ld", threads, rss_pages)
                       != 2)
    return -EIO;
  return 0;
}

/* Push the children of one thread.  */
static int
push_children (struct sbx_sampler *s, size_t *n, pid_t pid, pid_t tid,
               char *buf)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/task/%d/children", (int) pid,
            (int) tid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0; /* gone meanwhile */
  size_t keep = 0;
  ssize_t got;
  int r = 0;
  while (r == 0 && (got = read (fd, buf + keep, READ_BUF - 1 - keep)) > 0)
    {
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
  close (fd);
  return r;
}

/* Threads other than the leader can have children too: list them only
   for multi-threaded processes, which are rare in a sandbox.  */
static int
push_thread_children (struct sbx_sampler *s, size_t *n, pid_t pid,
                      char *buf)
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

int
sbx_sampler_take (struct sbx_sampler *s, pid_t root, struct sbx_sample *out)
{
  char buf[READ_BUF];
  size_t n = 0;
  *out = (struct sbx_sample){ 0 };
  int r = push (s, &n, root);
  while (r == 0 && n > 0)
    {
      pid_t pid = s->stack[--n];
      long threads, rss;
      int sr = read_stat (pid, buf, &threads, &rss);
      if (sr < 0)
        {
          if (pid == root)
            return -ESRCH;
          continue; /* exited during the walk */
        }
      out->processes++;
      out->rss_bytes += (uint64_t) (rss > 0 ? rss : 0)
                        * (uint64_t) s->page_size;
      r = threads > 1 ? push_thread_children (s, &n, pid, buf)
                      : push_children (s, &n, pid, pid, buf);
    }
  return r;
}
