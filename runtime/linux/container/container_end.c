#include "runtime/linux/container/container_end.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/supervise/limits_report.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/supervise/terminate.h"

void
sbx_container_procs_of (const struct sbx_container *c,
                        const struct sbx_record *rec,
                        struct sbx_container_procs *p)
{
  *p = (struct sbx_container_procs){ { 0 } };
  if (c->doc)
    {
      p->pid[0] = c->pid;
      p->start[0] = c->start_time;
      sbx_container_watcher_of (c, &p->watcher[0], &p->watcher_start[0]);
    }
  p->pid[1] = rec->pid;
  p->start[1] = rec->start;
  p->watcher[1] = rec->watcher;
  p->watcher_start[1] = rec->watcher_start;
  p->forwarder = rec->forwarder;
  p->forwarder_start = rec->forwarder_start;
}

static bool
names_first (const struct sbx_container_procs *p)
{
  return p->pid[0] > 0 || p->pid[1] > 0;
}

/* A pidfd of PID when it is still the process that started at START.  */
static int
verified_pidfd (pid_t pid, unsigned long long start)
{
  if (!sbx_pid_alive_since (pid, start))
    return -1;
  int fd = sbx_pidfd_open (pid);
  if (fd >= 0 && !sbx_pid_alive_since (pid, start))
    {
      close (fd);
      return -1;
    }
  return fd;
}

static bool
holds_file (const char *pid, const struct stat *want)
{
  char dir[300];
  snprintf (dir, sizeof dir, "/proc/%s/fd", pid);
  DIR *d = opendir (dir);
  if (d == NULL)
    return false;
  bool found = false;
  struct dirent *e;
  while (!found && (e = readdir (d)) != NULL)
    {
      struct stat st;
      found = fstatat (dirfd (d), e->d_name, &st, 0) == 0
              && st.st_ino == want->st_ino && st.st_dev == want->st_dev;
    }
  closedir (d);
  return found;
}

/* Up to MAX pidfds of the processes holding C's release FIFO; how many. */
static size_t
fifo_holders (const struct sbx_container *c, int *fds, pid_t *pids, size_t max)
{
  cleanup_free char *fifo = sbx_state_file (c, SBX_RELEASE_FIFO);
  struct stat want;
  size_t n = 0;
  if (fifo == NULL || stat (fifo, &want) < 0)
    return 0;
  DIR *d = opendir ("/proc");
  struct dirent *e;
  while (d && n < max && (e = readdir (d)) != NULL)
    if (e->d_name[0] >= '1' && e->d_name[0] <= '9'
        && holds_file (e->d_name, &want))
      {
        int fd = sbx_pidfd_open (atoi (e->d_name));
        /* Checked again through the pidfd: the pid was not recycled.  */
        if (fd >= 0 && holds_file (e->d_name, &want))
          {
            pids[n] = atoi (e->d_name);
            fds[n++] = fd;
          }
        else if (fd >= 0)
          close (fd);
      }
  if (d)
    closedir (d);
  return n;
}

/* Kill the FIFO's holders until a scan finds none: one may fork before
   it is killed (bwrap making the sandbox), and its child holds the FIFO
   too.  Each is waited for, so a dead one cannot fork any more.  */
static int
end_fifo_holders (const struct sbx_container *c, int wait_ms,
                  struct sbx_error *err)
{
  for (int round = 0; round < 20; round++)
    {
      int fds[64];
      pid_t pids[64];
      size_t n = fifo_holders (c, fds, pids, 64);
      int r = 0;
      for (size_t i = 0; i < n; i++)
        sbx_pidfd_signal (fds[i], SIGKILL);
      for (size_t i = 0; i < n; i++)
        {
          if (r == 0 && sbx_wait_gone (fds[i], wait_ms) < 0)
            r = sbx_fail (err, -ETIMEDOUT,
                          "process %d survived SIGKILL for %d ms",
                          (int) pids[i], wait_ms);
          close (fds[i]);
        }
      if (r < 0 || n == 0)
        return r;
    }
  return sbx_fail (err, -EAGAIN,
                   "the holders of the release FIFO kept coming back");
}

int
sbx_container_end (const struct sbx_container *c,
                   const struct sbx_container_procs *p, struct sbx_cgroup *cg,
                   int wait_ms, struct sbx_error *err)
{
  int r = 0;
  bool ended = false;
  for (int i = 0; r == 0 && i < 2; i++)
    {
      cleanup_close int fd = verified_pidfd (p->pid[i], p->start[i]);
      if (fd >= 0)
        {
          r = sbx_terminate (fd, cg, wait_ms, err);
          ended = true;
        }
    }
  if (r == 0 && !names_first (p))
    r = end_fifo_holders (c, wait_ms, err);
  if (r == 0 && cg && !ended)
    r = sbx_cgroup_kill (cg, SIGKILL, err);
  /* Waited for too: it is no child of ours, and one still dying would
     read as left.  The forwarder ends by itself with the sandbox's first
     process; this is for one whose sandbox never got that far.  */
  for (int i = 0; i < 3; i++)
    {
      cleanup_close int fd
          = i < 2 ? verified_pidfd (p->watcher[i], p->watcher_start[i])
                  : verified_pidfd (p->forwarder, p->forwarder_start);
      if (fd >= 0 && sbx_pidfd_signal (fd, SIGKILL) == 0)
        sbx_wait_gone (fd, wait_ms);
    }
  return r;
}

static void
add (char *what, size_t size, const char *label, int pid)
{
  size_t len = strlen (what);
  if (len + 2 < size)
    snprintf (what + len, size - len, "%s%s %d", len ? ", " : "", label, pid);
}

void
sbx_container_left (const struct sbx_container *c,
                    const struct sbx_container_procs *p, char *what,
                    size_t size)
{
  what[0] = '\0';
  for (int i = 0; i < 2; i++)
    if (sbx_pid_alive_since (p->pid[i], p->start[i])
        && (i == 0 || p->pid[1] != p->pid[0]))
      add (what, size, "the sandbox's first process, pid", p->pid[i]);
  for (int i = 0; i < 2; i++)
    if (sbx_pid_alive_since (p->watcher[i], p->watcher_start[i])
        && (i == 0 || p->watcher[1] != p->watcher[0]))
      add (what, size, "the limits watcher, pid", p->watcher[i]);
  if (sbx_pid_alive_since (p->forwarder, p->forwarder_start))
    add (what, size, "the host ports' forwarder, pid", p->forwarder);
  if (!names_first (p))
    {
      int fds[8];
      pid_t pids[8];
      size_t n = fifo_holders (c, fds, pids, 8);
      for (size_t i = 0; i < n; i++)
        {
          add (what, size, "a holder of the release FIFO, pid", pids[i]);
          close (fds[i]);
        }
    }
}
