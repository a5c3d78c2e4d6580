#include "runtime/linux/child_step.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

void
sbx_child_step_fail (int report_fd, int step, int errnum, const char *detail)
{
  struct sbx_child_step f = { step, errnum, "" };
  if (detail)
    snprintf (f.detail, sizeof f.detail, "%s", detail);
  /* One write below PIPE_BUF: the parent reads it whole or not at all. */
  (void) !write (report_fd, &f, sizeof f);
  _exit (127);
}

int
sbx_child_step_read (int report_fd, int last_step, struct sbx_child_step *out)
{
  ssize_t n;
  do
    n = read (report_fd, out, sizeof *out);
  while (n < 0 && errno == EINTR);
  if (n != (ssize_t) sizeof *out)
    return 0;
  if (out->step < 1 || out->step > last_step)
    out->step = last_step;
  out->detail[sizeof out->detail - 1] = '\0';
  return 1;
}
