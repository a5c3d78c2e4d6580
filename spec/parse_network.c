/* "sbx.network": the reach of the sandbox's network, as a word ("deny",
   "loopback", "allow") or as an object that can also name the host's
   services the sandbox may reach by port:
     {"mode": "loopback", "hostPorts": [5432, 6379]}
   Whether those ports are allowed is the policy's to say (the mode they
   need, the operator's approval): policy/ports.c.  */
#include <stdlib.h>

#include "spec/parse_sections.h"

static int
parse_host_ports (struct sbx_jctx *c, yajl_val obj, struct sbx_ext *ext)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, "hostPorts", 0, &v, &mark);
  if (r <= 0)
    return r;
  if (!YAJL_IS_ARRAY (v))
    return jfail (c, "expected an array of TCP port numbers");
  if (v->u.array.len > SBX_HOST_PORTS_MAX)
    return jfail (c, "at most %u ports", SBX_HOST_PORTS_MAX);
  ext->host_ports = calloc (v->u.array.len + 1, sizeof *ext->host_ports);
  if (ext->host_ports == NULL)
    return jfail_nomem (c);
  for (size_t i = 0; i < v->u.array.len; i++)
    {
      uint64_t port;
      size_t item_mark = jpath_push_index (c, i);
      r = jv_u64 (c, v->u.array.values[i], 1, 65535, &port);
      if (r < 0)
        return r;
      for (size_t j = 0; j < i; j++)
        if (ext->host_ports[j] == port)
          return jfail (c, "port %u is listed twice", (unsigned) port);
      ext->host_ports[ext->n_host_ports++] = (uint16_t) port;
      jpath_pop (c, item_mark);
    }
  jpath_pop (c, mark);
  return 0;
}

int
sbx_parse_network (struct sbx_jctx *c, yajl_val sbx, struct sbx_ext *ext)
{
  yajl_val v;
  size_t mark;
  int net = SBX_NET_UNSET;
  int r = json_field (c, sbx, "network", 0, &v, &mark);
  if (r <= 0)
    return r;
  if (YAJL_IS_OBJECT (v))
    {
      r = json_enum (c, v, "mode", JSON_REQUIRED, sbx_net_jenum,
                     SBX_NET_JENUM_N, &net);
      if (r >= 0)
        r = parse_host_ports (c, v, ext);
    }
  else if (YAJL_IS_STRING (v))
    r = jv_enum (c, v, sbx_net_jenum, SBX_NET_JENUM_N, &net);
  else
    r = jfail (c, "expected \"deny\", \"loopback\", \"allow\" or an object "
                  "{\"mode\": ..., \"hostPorts\": [...]}");
  if (r < 0)
    return r;
  ext->network = (enum sbx_net) net;
  jpath_pop (c, mark);
  return 0;
}
