/* `sbx-oci limits-watcher DIR PID START MEMORY PIDS INTERVAL_MS WALL_MS`
   (hidden; started by `create`, see
   runtime/linux/supervise/limits.h): sample the tree of the sandbox
   whose pid 1 is PID until it ends (unless MEMORY and PIDS are both 0: a quota
   holds them), end it on a breach or when WALL_MS have passed since `start`,
   and keep DIR/limits.json saying the breach and the peaks.  It holds a pidfd
   of PID, so a recycled pid is never sampled or killed, and it allocates
   nothing per tick: it must stay cheap for as long as the container lives.  */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file_io.h"
#include "runtime/cli.h"
#include "runtime/linux/supervise/limits.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/state/state_store.h"
#include "runtime/linux/supervise/terminate.h"
#include "spec/spec.h"

/* The peaks are written when they rise, at most this often; the breach
   and the last peaks when the sandbox ends.  */
#define REPORT_EVERY_MS 1000
#define KILL_WAIT_MS 5000

struct watch
{
  const char *dir;
  pid_t pid;
  int pidfd;
  struct sbx_limits lim;
  uint64_t wall_ms;  /* 0: no wall clock */
  uint64_t deadline; /* when it runs out; 0 until `start` */
  enum sbx_limit_kind breach;
  uint64_t reported_rss, reported_processes, reported_ms;
};

static void
report (struct watch *w, uint64_t now)
{
  char path[4096], text[256];
  snprintf (path, sizeof path, "%s/%s", w->dir, SBX_LIMITS_REPORT);
  int n = snprintf (
      text, sizeof text,
      "{\"breach\":%s%s%s,\"peakMemoryBytes\":%llu,"
      "\"peakProcesses\":%llu}\n",
      w->breach ? "\"" : "", w->breach ? sbx_limit_name (w->breach) : "null",
      w->breach ? "\"" : "", (unsigned long long) w->lim.peak_rss,
      (unsigned long long) w->lim.peak_processes);
  struct sbx_error ignored = { 0 };
  sbx_write_file_atomic (path, text, (size_t) n, 0600, &ignored);
  w->reported_rss = w->lim.peak_rss;
  w->reported_processes = w->lim.peak_processes;
  w->reported_ms = now;
}

static void
arm (int fd, uint64_t ms)
{
  struct itimerspec its
      = { .it_value = { (time_t) (ms / 1000), (long) (ms % 1000) * 1000000 } };
  timerfd_settime (fd, 0, &its, NULL);
}

/* The wall clock runs from `start`, which leaves the started mark in DIR:
   its modification time is the moment, whenever the watcher notices.  */
static bool
out_of_time (struct watch *w, uint64_t now)
{
  if (w->wall_ms == 0)
    return false;
  if (w->deadline == 0)
    {
      char path[4096];
      struct stat st;
      snprintf (path, sizeof path, "%s/%s", w->dir, SBX_STARTED_MARK);
      if (stat (path, &st) < 0)
        return false;
      struct timespec real;
      clock_gettime (CLOCK_REALTIME, &real);
      int64_t age = (int64_t) (real.tv_sec - st.st_mtim.tv_sec) * 1000
                    + (real.tv_nsec - st.st_mtim.tv_nsec) / 1000000;
      age = age < 0 ? 0 : age > (int64_t) now ? (int64_t) now : age;
      w->deadline = now - (uint64_t) age + w->wall_ms;
    }
  return now >= w->deadline;
}

/* One sample; false once the sandbox has been ended for a breach.  */
static bool
tick (struct watch *w, int timer_fd)
{
  uint64_t now = sbx_now_ms (), next;
  w->breach = sbx_limits_tick (&w->lim, w->pid, now, &next);
  if (w->breach == SBX_LIMIT_NONE && out_of_time (w, now))
    w->breach = SBX_LIMIT_WALL_CLOCK;
  if (w->breach != SBX_LIMIT_NONE)
    {
      struct sbx_error ignored = { 0 };
      sbx_terminate (w->pidfd, NULL, KILL_WAIT_MS, &ignored);
      report (w, now);
      return false;
    }
  bool rose = w->lim.peak_rss > w->reported_rss
              || w->lim.peak_processes > w->reported_processes;
  if (rose && now - w->reported_ms >= REPORT_EVERY_MS)
    report (w, now);
  arm (timer_fd, next);
  return true;
}

static int
watch (struct watch *w)
{
  int timer_fd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC);
  if (timer_fd < 0)
    return -errno;
  arm (timer_fd, 1);
  for (;;)
    {
      struct pollfd fds[2]
          = { { w->pidfd, POLLIN, 0 }, { timer_fd, POLLIN, 0 } };
      if (poll (fds, 2, -1) < 0 && errno != EINTR)
        break;
      if (fds[0].revents)
        break; /* the sandbox has ended */
      uint64_t ticks;
      if ((fds[1].revents & POLLIN)
          && read (timer_fd, &ticks, sizeof ticks) == sizeof ticks
          && !tick (w, timer_fd))
        break;
    }
  if (w->breach == SBX_LIMIT_NONE)
    report (w, sbx_now_ms ());
  close (timer_fd);
  return 0;
}

/* The numbers create wrote (sbx_limits_watch), each checked
   whole against its field's range: a mistake is refused, naming the
   argument, rather than read as 0 or wrapped into a huge limit.  */
static int
parse_args (char **argv, struct watch *w, unsigned long long *start,
            struct sbx_error *err)
{
  static const struct
  {
    const char *name;
    unsigned long long min, max;
  } args[] = {
    { "limits-watcher: pid", 1, INT_MAX },
    { "limits-watcher: start", 0, INT64_MAX },
    { "limits-watcher: memory", 0, INT64_MAX },
    { "limits-watcher: pids", 0, INT64_MAX },
    { "limits-watcher: interval_ms", 0, UINT32_MAX },
    { "limits-watcher: wall_ms", 0, INT64_MAX },
  };
  unsigned long long v[sizeof args / sizeof args[0]];
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
    {
      int r = sbx_parse_number (args[i].name, argv[i + 2], args[i].min,
                                args[i].max, &v[i], err);
      if (r < 0)
        return r;
    }
  *w = (struct watch){ .dir = argv[1], .pid = (pid_t) v[0], .wall_ms = v[5] };
  *start = v[1];
  w->lim = (struct sbx_limits){ .memory_limit = (int64_t) v[2],
                                .pids_limit = (int64_t) v[3],
                                .interval_ms = (uint32_t) v[4] };
  return 0;
}

int
sbx_cmd_limits_watcher (struct sbx_context *g, int argc, char **argv,
                        struct sbx_error *err)
{
  (void) g;
  if (argc != 8)
    return sbx_fail (err, -EINVAL,
                     "limits-watcher: internal command, "
                     "started by create");
  struct watch w;
  unsigned long long start;
  int r = parse_args (argv, &w, &start, err);
  if (r < 0)
    return r;
  w.lim.mechanism = w.lim.memory_limit > 0 || w.lim.pids_limit > 0
                        ? SBX_LIMITS_MONITOR
                        : SBX_LIMITS_NONE;
  if (w.lim.interval_ms == 0)
    w.lim.interval_ms = SBX_SAMPLE_INTERVAL_MS_DEFAULT;
  prctl (PR_SET_NAME, "sbx-oci-watch");
  w.pidfd = sbx_pidfd_open (w.pid);
  if (w.pidfd < 0 || !sbx_pid_alive_since (w.pid, start))
    return 0; /* the sandbox is already gone: nothing to watch */
  r = watch (&w);
  sbx_limits_release (&w.lim);
  close (w.pidfd);
  if (r < 0)
    return sbx_fail_errno (err, r, "limits-watcher");
  return 0;
}
