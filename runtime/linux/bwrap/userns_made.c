#include "runtime/linux/bwrap/userns_made.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"

/* The holder: a child that makes the namespace, says so (0, or the
   errno of its failure), and waits to be killed; the namespace outlives it
   through the descriptor.  */
static void
hold (int ready_w)
{
  unsigned char e = 0;
  if (prctl (PR_SET_PDEATHSIG, SIGKILL) < 0 || unshare (CLONE_NEWUSER) < 0)
    e = (unsigned char) errno;
  if (write (ready_w, &e, 1) != 1 || e)
    _exit (1);
  for (;;)
    pause ();
}

static int
map_holder (pid_t pid, const char *uid_map, const char *gid_map, int *fd,
            struct sbx_error *err)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/uid_map", (int) pid);
  int r = sbx_write_control_file (path, uid_map);
  if (r == 0)
    {
      snprintf (path, sizeof path, "/proc/%d/gid_map", (int) pid);
      r = sbx_write_control_file (path, gid_map);
    }
  if (r < 0)
    return sbx_fail_errno (err, r,
                           "linux.uidMappings: cannot write the sandbox's "
                           "id maps");
  snprintf (path, sizeof path, "/proc/%d/ns/user", (int) pid);
  *fd = open (path, O_RDONLY | O_CLOEXEC);
  if (*fd < 0)
    return sbx_fail_errno (err, -errno, "cannot open %s", path);
  return 0;
}

int
sbx_userns_make (const char *uid_map, const char *gid_map, int *fd,
                 struct sbx_error *err)
{
  int ready[2];
  if (pipe2 (ready, O_CLOEXEC) < 0)
    return sbx_fail_errno (err, -errno, "cannot make a pipe");
  pid_t pid = fork ();
  if (pid == 0)
    {
      close (ready[0]);
      hold (ready[1]);
    }
  int e = errno;
  close (ready[1]);
  cleanup_close int ready_r = ready[0];
  if (pid < 0)
    return sbx_fail_errno (err, -e, "cannot fork");
  unsigned char b = EPIPE;
  int r = read (ready_r, &b, 1) == 1 && b == 0
              ? map_holder (pid, uid_map, gid_map, fd, err)
              : sbx_fail_errno (err, -(int) b,
                                "cannot make the sandbox's user namespace");
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  return r;
}

int
sbx_userns_enter (int fd)
{
  if (setns (fd, CLONE_NEWUSER) < 0)
    return -errno;
  if (syscall (SYS_setresgid, 0, 0, 0) < 0
      || syscall (SYS_setgroups, 0, NULL) < 0
      || syscall (SYS_setresuid, 0, 0, 0) < 0)
    return -errno;
  return 0;
}
