#include "runtime/linux/supervise/host_ports.h"

#include <errno.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/supervise/port_forward.h"
#include "runtime/linux/supervise/port_listen.h"
#include "runtime/linux/state/sandbox_record.h"
#include "runtime/linux/pid_identity.h"

/* Listen in SANDBOX's network namespace and start the forwarder watching
   WATCH (a pidfd).  */
static int
start (const struct sbx_plan *plan, pid_t sandbox, int watch, bool detach,
       pid_t *forwarder, struct sbx_error *err)
{
  int fds[SBX_HOST_PORTS_MAX];
  int r = sbx_port_listen (sandbox, plan->host_ports, plan->n_host_ports, fds,
                           err);
  if (r < 0)
    return r;
  struct sbx_port_forward f
      = { fds, plan->host_ports, plan->n_host_ports, watch, detach };
  r = sbx_port_forward_start (&f, forwarder, err);
  for (size_t i = 0; i < plan->n_host_ports; i++)
    close (fds[i]);
  return r;
}

int
sbx_host_ports_run (const struct sbx_plan *plan, pid_t runner, pid_t sandbox,
                    struct sbx_error *err)
{
  if (plan->n_host_ports == 0)
    return 0;
  cleanup_close int watch = sbx_pidfd_open (runner);
  if (watch < 0)
    return sbx_fail_errno (err, -errno, "cannot watch the runner");
  pid_t forwarder;
  return start (plan, sandbox, watch, false, &forwarder, err);
}

int
sbx_host_ports_create (const struct sbx_plan *plan, pid_t sandbox,
                       unsigned long long start_time, const char *dir,
                       struct sbx_error *err)
{
  if (plan->n_host_ports == 0)
    return 0;
  /* Checked after the open: the pidfd is of the sandbox, not of a
     recycled pid.  */
  cleanup_close int watch = sbx_pidfd_open (sandbox);
  if (watch < 0 || !sbx_pid_alive_since (sandbox, start_time))
    return sbx_fail (err, -ESRCH, "the sandbox ended during setup");
  pid_t forwarder;
  int r = start (plan, sandbox, watch, true, &forwarder, err);
  if (r < 0)
    return r;
  unsigned long long fstart = sbx_pid_start_time (forwarder);
  if (fstart == 0)
    return sbx_fail (err, -ESRCH, "the host ports' forwarder ended at once");
  return sbx_record_pid (dir, "forwarder", forwarder, fstart, err);
}
