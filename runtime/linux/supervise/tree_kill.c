#include "runtime/linux/supervise/tree_kill.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signal_hold.h"
#include "runtime/linux/pid_identity.h"
#include "runtime/linux/pidfd.h"

struct member
{
  pid_t pid;
  int pidfd;
};

struct walk
{
  struct member *v;
  size_t n, cap;
};

/* Room for one more member; false (and the process left to the sweep's
   next round) when there is none.  */
static bool
reserve (struct walk *w)
{
  if (w->n == w->cap)
    {
      size_t cap = w->cap ? w->cap * 2 : 64;
      struct member *v = realloc (w->v, cap * sizeof *v);
      if (v == NULL)
        return false;
      w->v = v, w->cap = cap;
    }
  return true;
}

/* Add PID, a child of PARENT: its pidfd is opened, then the pid is
   checked to be still PARENT's child (or re-parented here), so a pid
   PARENT reaped and the kernel handed to another process is never
   signalled.  */
static void
add (struct walk *w, pid_t pid, pid_t parent)
{
  if (!reserve (w))
    return;
  int fd = sbx_pidfd_open (pid);
  if (fd < 0)
    return;
  pid_t now = sbx_pid_parent (pid);
  if (now != parent && now != getpid ())
    {
      close (fd);
      return;
    }
  w->v[w->n++] = (struct member){ pid, fd };
}

/* Every child of every thread of PID.  */
static void
add_children (struct walk *w, pid_t pid)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/task", (int) pid);
  DIR *d = opendir (path);
  if (d == NULL)
    return;
  for (struct dirent *e; (e = readdir (d)) != NULL;)
    {
      if (e->d_name[0] == '.')
        continue;
      char file[96], buf[4096];
      snprintf (file, sizeof file, "/proc/%d/task/%s/children", (int) pid,
                e->d_name);
      cleanup_close int fd = open (file, O_RDONLY | O_CLOEXEC);
      ssize_t len = fd < 0 ? -1 : read (fd, buf, sizeof buf - 1);
      if (len <= 0)
        continue;
      buf[len] = '\0';
      /* Every pid ends with a space; one cut by the buffer is left: its
         parent's SIGKILL below re-parents it here, for the next round. */
      for (char *p = buf, *end;; p = end)
        {
          long child = strtol (p, &end, 10);
          if (end == p || *end != ' ' || child <= 0)
            break;
          add (w, (pid_t) child, pid);
        }
    }
  closedir (d);
}

/* SIGSTOP is delivered when PID next runs: a fork it is making ends
   first.  Its children are read once it is stopped (or gone), so that
   one forked meanwhile is not missed; bounded, as a process in an
   uninterruptible sleep stops only when it wakes.  */
static void
stop (const struct member *m)
{
  sbx_pidfd_signal (m->pidfd, SIGSTOP);
  for (int i = 0; i < 1000; i++)
    {
      char state = sbx_pid_state (m->pid);
      if (state == 0 || state == 'T' || state == 't' || state == 'Z'
          || state == 'X')
        return;
      sched_yield ();
    }
}

/* Held from the first stop to the last kill: a stopped member left by a
   signal meanwhile would be a sandbox said to be running that does
   nothing.  */
static void
kill_walk (struct walk *w)
{
  sigset_t old;
  sbx_signals_hold (&old);
  while (w->n > 0)
    {
      struct member m = w->v[--w->n];
      stop (&m);
      add_children (w, m.pid);
      sbx_pidfd_signal (m.pidfd, SIGKILL);
      close (m.pidfd);
    }
  free (w->v);
  sbx_signals_release (&old);
}

void
sbx_tree_kill (pid_t root)
{
  struct walk w = { 0 };
  add (&w, root, getpid ());
  kill_walk (&w);
}

void
sbx_tree_kill_held (pid_t root, int root_pidfd)
{
  struct walk w = { 0 };
  int fd = reserve (&w) ? fcntl (root_pidfd, F_DUPFD_CLOEXEC, 3) : -1;
  if (fd >= 0)
    w.v[w.n++] = (struct member){ root, fd };
  kill_walk (&w);
}
