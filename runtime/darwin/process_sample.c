#include "runtime/darwin/process_sample.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/pid_list.h"

size_t
sbx_descendants (const struct sbx_pid_pair *table, size_t n, pid_t root,
                 pid_t *out, size_t max)
{
  size_t found = 0;
  /* Breadth first over what is found so far: the rows need no order.  */
  for (size_t next = 0;; next++)
    {
      pid_t parent = next == 0 ? root : out[next - 1];
      for (size_t i = 0; i < n && found < max; i++)
        if (table[i].ppid == parent && table[i].pid != root && table[i].pid > 1
            && !sbx_pid_listed (out, found, table[i].pid))
          out[found++] = table[i].pid;
      if (next >= found)
        return found;
    }
}

size_t
sbx_parse_ps (const char *text, struct sbx_pid_pair *table, size_t max)
{
  size_t n = 0;
  while (*text && n < max)
    {
      char *end;
      long pid = strtol (text, &end, 10);
      long ppid = end != text ? strtol (end, &end, 10) : -1;
      if (pid > 0 && ppid >= 0 && (*end == '\n' || *end == '\0'))
        table[n++] = (struct sbx_pid_pair){ (pid_t) pid, (pid_t) ppid };
      const char *nl = strchr (text, '\n');
      if (nl == NULL)
        break;
      text = nl + 1;
    }
  return n;
}

/* PS's output, read through a pipe from a child of ours.  */
static int
run_ps (const char *ps, char **out)
{
  int fds[2];
  if (pipe (fds) < 0)
    return -errno;
  pid_t pid = fork ();
  if (pid == 0)
    {
      dup2 (fds[1], STDOUT_FILENO);
      close (fds[0]);
      close (fds[1]);
      execl (ps, "ps", "-A", "-o", "pid=", "-o", "ppid=", (char *) NULL);
      _exit (127);
    }
  close (fds[1]);
  cleanup_close int rd = fds[0];
  if (pid < 0)
    return -errno;
  size_t len = 0;
  FILE *f = open_memstream (out, &len);
  char buf[4096];
  ssize_t n;
  while (
      f && ((n = read (rd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
    if (n > 0)
      fwrite (buf, 1, (size_t) n, f);
  int status = 0;
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (f == NULL || fclose (f) != 0)
    return -ENOMEM;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : -ECHILD;
}

long
sbx_sample_descendants (const char *ps, pid_t root, pid_t *out, size_t max)
{
  cleanup_free char *text = NULL;
  int r = run_ps (ps, &text);
  if (r < 0)
    return r;
  size_t cap = 16384;
  cleanup_free struct sbx_pid_pair *table = calloc (cap, sizeof *table);
  if (table == NULL)
    return -ENOMEM;
  size_t n = sbx_parse_ps (text, table, cap);
  return (long) sbx_descendants (table, n, root, out, max);
}
