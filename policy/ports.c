/* Host services by port ("network": {"mode": "loopback", "hostPorts"}):
   which host ports the sandbox may reach at its own 127.0.0.1, decided
   here and kept in the plan (plan->host_ports) for the forwarder that
   carries them (runtime/linux/supervise/port_forward.h) and for any later
   layer that must let exactly these connects through.

   Each port is a way out of the sandbox's network namespace to whatever
   listens on the host, so each needs the operator's own word, with or
   without a ceiling: a line "port:N" in --approve FILE (or the ceiling's
   "approve").  Nothing else of the host's network is reached: the
   namespace stays the sandbox's own.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/build.h"

static bool
approved (const struct sbx_host_facts *host, unsigned port)
{
  char token[16];
  snprintf (token, sizeof token, "port:%u", port);
  return host->approved && strv_contains (host->approved, token);
}

/* The forwarder listens in a network namespace of the sandbox's own, made
   by bwrap; "deny" refuses IP sockets inside, "allow" and a joined
   namespace have the host's (or another's) network already.  */
static bool
own_loopback (const struct sbx_plan *plan)
{
  return plan->network == SBX_NET_LOOPBACK && plan->unshare[SBX_NS_NETWORK]
         && plan->join[SBX_NS_NETWORK] == NULL;
}

int
policy_host_ports (const struct sbx_spec *spec,
                   const struct sbx_host_facts *host, struct sbx_plan *plan,
                   struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  if (x->n_host_ports == 0)
    return 0;
  if (host->seatbelt)
    return sbx_refuse (err, -ENOTSUP, "sbx.network.hostPorts",
                       "not on macOS, whose loopback "
                       "is the host's own (\"loopback\" reaches every local "
                       "service there)");
  if (!own_loopback (plan))
    return sbx_refuse (err, -EINVAL, "sbx.network.hostPorts",
                       "needs \"mode\": \"loopback\" "
                       "(a network namespace of the sandbox's own), not "
                       "network \"%s\"",
                       sbx_net_name (plan->network));
  for (size_t i = 0; i < x->n_host_ports; i++)
    if (!approved (host, x->host_ports[i]))
      {
        char field[64];
        snprintf (field, sizeof field, "sbx.network.hostPorts[%zu]", i);
        return sbx_refuse (err, -EPERM, field,
                           "host port %u needs the operator's approval: add "
                           "a line \"port:%u\" to --approve FILE (or to the "
                           "ceiling's \"approve\")",
                           x->host_ports[i], x->host_ports[i]);
      }
  plan->host_ports = calloc (x->n_host_ports, sizeof *plan->host_ports);
  if (plan->host_ports == NULL)
    return -ENOMEM;
  memcpy (plan->host_ports, x->host_ports,
          x->n_host_ports * sizeof *plan->host_ports);
  plan->n_host_ports = x->n_host_ports;
  int r = 0;
  for (size_t i = 0; r == 0 && i < x->n_host_ports; i++)
    r = plan_gap (plan, true, SBX_LEVEL_FULL,
                  "network: the host's 127.0.0.1:%u is reachable at the "
                  "sandbox's 127.0.0.1:%u (approved \"port:%u\")",
                  x->host_ports[i], x->host_ports[i], x->host_ports[i]);
  return r;
}
