/* `setid_probe DIR`: try every way a sandboxed process could leave a
   set-user-ID or set-group-ID file in DIR (the workspace, which the host
   later runs things from) and print one line per way: "WAY: ok" when the
   call succeeded, "WAY: refused ERRNO" when it did not.  The suite then
   looks at the modes on the host: the printed lines only explain them.
   Each way makes DIR/WAY.

     chmod-suid, chmod-sgid   chmod (04755 / 02755) of a file it made
     fchmod, fchmodat         the same through a descriptor / a dir fd
     fchmodat2                the same through fchmodat2 (Linux 6.6)
     open-creat, openat-creat open with O_CREAT and mode 04755
     creat                    creat (04755), where the architecture has it
     open-tmpfile             an O_TMPFILE with mode 04755, linked in
     mknod, mknodat           mknod of S_IFREG|04755
     openat2                  openat2 with O_CREAT and mode 04755
     sgid-dir                 a directory made set-group-ID (02775)
     fcaps                    a security.capability xattr (cap_setuid+ep)
     chown-root               chown of a file it made to 0:0
     hardlink                 a hard link of a setuid binary of the host
                              (/usr/bin/su, /bin/su or /usr/bin/passwd)  */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#define SETID_MODE 04755
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

static int dir_fd;

static void
report (const char *way, int r)
{
  if (r < 0)
    printf ("%s: refused %d\n", way, errno);
  else
    printf ("%s: ok\n", way);
}

/* A plain 0755 file WAY in the directory, for the ways that change one.  */
static int
plain (const char *way)
{
  int fd = openat (dir_fd, way, O_CREAT | O_WRONLY | O_CLOEXEC, 0755);
  if (fd >= 0)
    close (fd);
  return fd;
}

static int
close_r (int fd)
{
  if (fd >= 0)
    close (fd);
  return fd < 0 ? -1 : 0;
}

static int
via_tmpfile (void)
{
  int fd = openat (dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, SETID_MODE);
  if (fd < 0)
    return -1;
  char proc[64];
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
  int r = linkat (AT_FDCWD, proc, dir_fd, "open-tmpfile", AT_SYMLINK_FOLLOW);
  close (fd);
  return r;
}

static int
via_openat2 (void)
{
  struct open_how how
      = { .flags = O_CREAT | O_WRONLY | O_CLOEXEC, .mode = SETID_MODE };
  return close_r (
      (int) syscall (SYS_openat2, dir_fd, "openat2", &how, sizeof how));
}

/* A version 2 capability set granting cap_setuid (7), permitted and
   effective: what `setcap cap_setuid+ep` writes.  */
static int
via_fcaps (void)
{
  if (plain ("fcaps") < 0)
    return -1;
  uint32_t caps[5] = { 0x02000001u, 1u << 7, 0, 0, 0 };
  return setxattr ("fcaps", "security.capability", caps, sizeof caps, 0);
}

static int
via_hardlink (void)
{
  static const char *const setuid_bins[]
      = { "/usr/bin/su", "/bin/su", "/usr/bin/passwd", NULL };
  for (size_t i = 0; setuid_bins[i]; i++)
    if (access (setuid_bins[i], F_OK) == 0)
      return link (setuid_bins[i], "hardlink");
  errno = ENOENT;
  return -1;
}

int
main (int argc, char **argv)
{
  if (argc != 2 || chdir (argv[1]) < 0
      || (dir_fd = open (".", O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      fprintf (stderr, "usage: setid_probe DIR\n");
      return 2;
    }
  int fd;
  report ("chmod-suid",
          plain ("chmod-suid") < 0 ? -1 : chmod ("chmod-suid", SETID_MODE));
  report ("chmod-sgid",
          plain ("chmod-sgid") < 0 ? -1 : chmod ("chmod-sgid", 02755));
  fd = openat (dir_fd, "fchmod", O_CREAT | O_WRONLY | O_CLOEXEC, 0755);
  report ("fchmod", fd < 0 ? -1 : fchmod (fd, SETID_MODE));
  close_r (fd);
  report ("fchmodat", plain ("fchmodat") < 0
                          ? -1
                          : fchmodat (dir_fd, "fchmodat", SETID_MODE, 0));
  report ("fchmodat2", plain ("fchmodat2") < 0
                           ? -1
                           : (int) syscall (SYS_fchmodat2, dir_fd, "fchmodat2",
                                            SETID_MODE, 0));
#ifdef SYS_open
  /* The old entry, where the architecture has it (x86-64 does).  */
  report ("open-creat",
          close_r ((int) syscall (SYS_open, "open-creat", O_CREAT | O_WRONLY,
                                  SETID_MODE)));
#endif
  report ("openat-creat",
          close_r (openat (dir_fd, "openat-creat",
                           O_CREAT | O_WRONLY | O_CLOEXEC, SETID_MODE)));
#ifdef SYS_creat
  report ("creat", close_r ((int) syscall (SYS_creat, "creat", SETID_MODE)));
#endif
  report ("open-tmpfile", via_tmpfile ());
#ifdef SYS_mknod
  report ("mknod",
          (int) syscall (SYS_mknod, "mknod", S_IFREG | SETID_MODE, 0));
#endif
  report ("mknodat", mknodat (dir_fd, "mknodat", S_IFREG | SETID_MODE, 0));
  report ("openat2", via_openat2 ());
  report ("sgid-dir", mkdirat (dir_fd, "sgid-dir", 0775) < 0
                          ? -1
                          : chmod ("sgid-dir", 02775));
  report ("fcaps", via_fcaps ());
  report ("chown-root",
          plain ("chown-root") < 0 ? -1 : chown ("chown-root", 0, 0));
  report ("hardlink", via_hardlink ());
  return 0;
}
