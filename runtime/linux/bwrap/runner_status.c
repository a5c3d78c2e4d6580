#include "runtime/linux/bwrap/runner_status.h"

#include <errno.h>
#include <stdint.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "runtime/linux/stop_wait.h"

static bool
number_after (const char *line, const char *key, long *out)
{
  const char *p = strstr (line, key);
  if (p == NULL)
    return false;
  p += strlen (key);
  while (*p == ' ' || *p == ':')
    p++;
  char *end;
  long v = strtol (p, &end, 10);
  if (end == p)
    return false;
  *out = v;
  return true;
}

static void
parse_line (struct sbx_runner_status *st, const char *line)
{
  long v;
  if (st->child_pid == 0 && number_after (line, "\"child-pid\"", &v) && v > 0)
    st->child_pid = (pid_t) v;
  if (number_after (line, "\"exit-code\"", &v))
    {
      st->have_exit_code = true;
      st->exit_code = (int) v;
    }
}

int
sbx_runner_status_read (struct sbx_runner_status *st, int fd)
{
  if (st->eof)
    return 0;
  ssize_t n;
  do
    n = read (fd, st->buf + st->len, sizeof st->buf - 1 - st->len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return errno == EAGAIN ? 0 : -errno;
  if (n == 0)
    st->eof = true;
  st->len += (size_t) n;
  st->buf[st->len] = '\0';
  char *nl;
  while ((nl = strchr (st->buf, '\n')) != NULL)
    {
      *nl = '\0';
      parse_line (st, st->buf);
      size_t rest = st->len - (size_t) (nl + 1 - st->buf);
      memmove (st->buf, nl + 1, rest + 1);
      st->len = rest;
    }
  /* A line longer than the buffer is not bwrap's: drop it.  */
  if (st->len == sizeof st->buf - 1)
    st->len = 0;
  return 0;
}

/* After a stop, how long a runner that is not hung has to report the
   sandbox it made.  */
#define REPORT_GRACE_MS 1000

/* Wait up to TIMEOUT_MS for the child pid or the channel's end, whatever
   signal is pending.  */
static void
wait_child_for (struct sbx_runner_status *st, int fd, int timeout_ms)
{
  uint64_t until = sbx_now_ms () + (uint64_t) timeout_ms;
  while (st->child_pid == 0 && !st->eof)
    {
      uint64_t now = sbx_now_ms ();
      struct pollfd p = { .fd = fd, .events = POLLIN };
      if (now >= until)
        return;
      int n = poll (&p, 1, (int) (until - now));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || sbx_runner_status_read (st, fd) < 0)
        return;
    }
}

int
sbx_runner_status_wait_child (struct sbx_runner_status *st, int fd,
                              bool to_end)
{
  while (!st->eof && (to_end || st->child_pid == 0))
    {
      int r = sbx_wait_unless_stopped (fd, POLLIN, -1);
      if (r == -EINTR)
        wait_child_for (st, fd, REPORT_GRACE_MS);
      r = r < 0 ? r : sbx_runner_status_read (st, fd);
      if (r < 0)
        return r;
    }
  return 0;
}
