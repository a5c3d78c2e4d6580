#include "runtime/linux/bwrap/setup_retry.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* The kernel counts a mount namespace's changes; an open mountinfo file
   remembers the count it was opened at and polls with POLLPRI once the
   count moved on (fs/proc_namespace.c).  Nothing need be read.  */
int
sbx_mounts_watch (void)
{
  return open ("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
}

void
sbx_setup_pause (int attempt)
{
  unsigned int jitter = 0;
  long ms = 1L << (attempt - 1);
  if (getrandom (&jitter, sizeof jitter, GRND_NONBLOCK) == sizeof jitter)
    ms += (long) (jitter % (unsigned int) ms);
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
  while (nanosleep (&t, &t) < 0 && errno == EINTR)
    ;
}

bool
sbx_mounts_changed (int *watch)
{
  struct pollfd p = { *watch, POLLPRI, 0 };
  if (*watch < 0 || poll (&p, 1, 0) <= 0 || !(p.revents & (POLLPRI | POLLERR)))
    return false;
  close (*watch);
  *watch = sbx_mounts_watch ();
  return true;
}

bool
sbx_setup_again (const struct sbx_context *g, int *watch, int attempt,
                 int sockets)
{
  bool mounts = sbx_mounts_changed (watch);
  if (attempt >= SBX_SETUP_ATTEMPTS || (!mounts && sockets == 0))
    return false;
  if (sockets > 0)
    sbx_log_warning (g,
                     "%d host socket%s to be covered went away or %s made "
                     "anew while bubblewrap set the sandbox up (a daemon "
                     "restarting): setting it up again, attempt %d of %d",
                     sockets, sockets == 1 ? "" : "s",
                     sockets == 1 ? "was" : "were", attempt + 1,
                     SBX_SETUP_ATTEMPTS);
  else
    sbx_log_warning (g,
                     "the host's mounts changed while bubblewrap set the "
                     "sandbox up (containers/bubblewrap#650): setting it up "
                     "again, attempt %d of %d",
                     attempt + 1, SBX_SETUP_ATTEMPTS);
  sbx_setup_pause (attempt);
  /* What changes during the pause reaches no set-up.  */
  if (*watch >= 0)
    close (*watch);
  *watch = sbx_mounts_watch ();
  return true;
}
