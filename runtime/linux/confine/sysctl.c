/* bwrap cannot set sysctls, so sbx writes them while the sandbox waits on
   its block fd: a child joins the sandbox's network and IPC namespaces
   (through its user namespace when it lacks the capabilities for that)
   and writes /proc/sys as a process inside would.  The network and IPC
   sysctl tables follow the writer's namespaces, so the host's /proc
   serves.  */
#include "runtime/linux/confine/sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file_io.h"

enum
{
  NS_USER,
  NS_NET,
  NS_IPC,
  NS_N
};

static const char *const ns_names[NS_N] = { "user", "net", "ipc" };
static const int ns_types[NS_N]
    = { CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWIPC };

/* What the child sends back when a step fails: the entry, or -1 when it
   could not join a namespace.  */
struct sysctl_failure
{
  long index;
  int errnum;
};

static int
write_value (const char *key, const char *value)
{
  char path[512] = "/proc/sys/";
  size_t len = strlen (path);
  if (len + strlen (key) >= sizeof path)
    return -ENAMETOOLONG;
  for (const char *k = key; *k; k++)
    path[len++] = *k == '.' ? '/' : *k;
  path[len] = '\0';
  return sbx_write_control_file (path, value);
}

/* Join the namespaces of FDS from FROM on that differ from ours: joining
   our own user namespace would fail, and the others need not be joined
   twice.  */
static int
join_from (const int fds[NS_N], int from)
{
  for (int i = from; i < NS_N; i++)
    {
      char self[32];
      struct stat a, b;
      snprintf (self, sizeof self, "/proc/self/ns/%s", ns_names[i]);
      if (fstat (fds[i], &a) == 0 && stat (self, &b) == 0
          && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
        continue;
      if (setns (fds[i], ns_types[i]) < 0)
        return -errno;
    }
  return 0;
}

/* Root joins the network and IPC namespaces as it is: it holds the
   capabilities they ask for in their owners, and a network namespace the
   container joined (podman's) is not owned by the sandbox's user
   namespace.  A user gains them by joining that user namespace first.  */
static int
join (const int fds[NS_N])
{
  int r = join_from (fds, NS_NET);
  return r == -EPERM ? join_from (fds, NS_USER) : r;
}

static __attribute__ ((noreturn)) void
child (const int fds[NS_N], const struct sbx_kv *kv, size_t n, int report)
{
  struct sysctl_failure f = { -1, 0 };
  int r = join (fds);
  for (size_t i = 0; r == 0 && i < n; i++)
    if ((r = write_value (kv[i].key, kv[i].value)) < 0)
      f.index = (long) i;
  if (r < 0)
    {
      f.errnum = -r;
      if (write (report, &f, sizeof f) < 0)
        _exit (1);
    }
  _exit (r < 0);
}

static int
open_ns (pid_t pid, int fds[NS_N])
{
  for (int i = 0; i < NS_N; i++)
    {
      char path[64];
      snprintf (path, sizeof path, "/proc/%d/ns/%s", (int) pid, ns_names[i]);
      if ((fds[i] = open (path, O_RDONLY | O_CLOEXEC)) < 0)
        return -errno;
    }
  return 0;
}

static int
report_failure (const struct sysctl_failure *f, const struct sbx_kv *kv,
                struct sbx_error *err)
{
  if (f->index < 0)
    return sbx_fail_errno (err, -f->errnum,
                           "linux.sysctl: cannot enter the sandbox's "
                           "namespaces");
  const struct sbx_kv *e = &kv[f->index];
  return sbx_fail_errno (err, -f->errnum, "linux.sysctl.%s: cannot set \"%s\"",
                         e->key, e->value);
}

int
sbx_sysctl_apply (pid_t pid, const struct sbx_kv *kv, size_t n,
                  struct sbx_error *err)
{
  if (n == 0)
    return 0;
  int fds[NS_N] = { -1, -1, -1 }, pipefd[2] = { -1, -1 };
  int r = open_ns (pid, fds);
  if (r == 0 && pipe2 (pipefd, O_CLOEXEC) < 0)
    r = -errno;
  pid_t c = r == 0 ? fork () : -1;
  if (c == 0)
    child (fds, kv, n, pipefd[1]);
  if (r == 0 && c < 0)
    r = -errno;
  for (int i = 0; i < NS_N; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  if (pipefd[1] >= 0)
    close (pipefd[1]);
  if (r < 0)
    {
      if (pipefd[0] >= 0)
        close (pipefd[0]);
      return sbx_fail_errno (err, r,
                             "linux.sysctl: cannot reach the sandbox "
                             "(pid %d)",
                             (int) pid);
    }
  struct sysctl_failure f;
  ssize_t got = read (pipefd[0], &f, sizeof f);
  close (pipefd[0]);
  int status = 0;
  while (waitpid (c, &status, 0) < 0 && errno == EINTR)
    ;
  if (got == (ssize_t) sizeof f)
    return report_failure (&f, kv, err);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return sbx_fail (err, -ECHILD,
                     "linux.sysctl: the process writing them ended "
                     "abnormally (status %d)",
                     status);
  return 0;
}
