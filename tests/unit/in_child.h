/* Test helper: run a case in a forked child, for cases that change the
   process for good (limits, credentials, mount namespaces).  */
#ifndef SBX_TEST_IN_CHILD_H
#define SBX_TEST_IN_CHILD_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run FN in a child; the text it leaves in its buffer comes back in OUT
   (LEN bytes, NUL-terminated), and its exit status is returned (-1 when
   it did not exit).  */
static int
in_child (int (*fn) (char *out, size_t len), char *out, size_t len)
{
  int p[2];
  if (pipe (p) < 0)
    return -1;
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      char buf[2048] = "";
      close (p[0]);
      int status = fn (buf, sizeof buf);
      if (write (p[1], buf, strlen (buf)) < 0)
        status = 99;
      _exit (status);
    }
  close (p[1]);
  ssize_t n = read (p[0], out, len - 1);
  out[n > 0 ? n : 0] = '\0';
  close (p[0]);
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return -1;
  return WEXITSTATUS (status);
}

#endif
