/* `userns_range OWNER CMD [ARG...]` (run as root): run CMD as uid 0 of a
   new user namespace owned by uid OWNER, whose map is "0 OWNER 1" and
   "1 100000 65536" for uids and gids alike, setgroups allowed: the
   namespace rootless podman runs its runtime in (newuidmap writes such
   maps from /etc/subuid).  CMD holds every capability there.
   USERNS_RANGE_GIDS=N makes the gids' range N long instead: a namespace
   that does not map gid 5 (tty) when N < 5.  */
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int
write_map (pid_t pid, const char *name, unsigned long owner,
           unsigned long range)
{
  char path[64], map[64];
  snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, name);
  int n = snprintf (map, sizeof map, "0 %lu 1\n1 100000 %lu\n", owner, range);
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write (fd, map, (size_t) n) != n)
    {
      perror (path);
      return -1;
    }
  close (fd);
  return 0;
}

static void
child (unsigned long owner, int ready, int go, char **cmd)
{
  char c;
  if (owner != 0
      && (setgroups (0, NULL) < 0 || setresgid (owner, owner, owner) < 0
          || setresuid (owner, owner, owner) < 0))
    {
      perror ("userns_range: drop to OWNER");
      _exit (125);
    }
  if (unshare (CLONE_NEWUSER) < 0)
    {
      perror ("userns_range: unshare");
      _exit (125);
    }
  if (write (ready, "r", 1) != 1 || read (go, &c, 1) != 1)
    _exit (125);
  execvp (cmd[0], cmd);
  perror (cmd[0]);
  _exit (127);
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: userns_range OWNER CMD [ARG...]\n");
      return 2;
    }
  unsigned long owner = strtoul (argv[1], NULL, 10);
  const char *gids = getenv ("USERNS_RANGE_GIDS");
  unsigned long gid_range = gids ? strtoul (gids, NULL, 10) : 65536;
  int ready[2], go[2];
  if (pipe2 (ready, O_CLOEXEC) < 0 || pipe2 (go, O_CLOEXEC) < 0)
    return 125;
  pid_t pid = fork ();
  if (pid < 0)
    return 125;
  if (pid == 0)
    child (owner, ready[1], go[0], argv + 2);
  char c;
  if (read (ready[0], &c, 1) != 1
      || write_map (pid, "uid_map", owner, 65536) < 0
      || write_map (pid, "gid_map", owner, gid_range) < 0
      || write (go[1], "g", 1) != 1)
    {
      kill (pid, SIGKILL);
      return 125;
    }
  int status;
  if (waitpid (pid, &status, 0) < 0)
    return 125;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
