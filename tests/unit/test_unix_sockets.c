/* Host unix sockets listening at launch: /proc/net/unix parsed
   (runtime/linux/confine/unix_sockets.c), and hidden by hardened defaults
   unless in a writable root or approved (policy/agent.c).  */
#include "runtime/linux/confine/unix_sockets.h"
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>

static const char proc_net_unix[]
    = "Num       RefCount Protocol Flags    Type St Inode Path\n"
      "0000000000000000: 00000002 00000000 00010000 0001 01 11 "
      "/run/listen.sock\n"
      "0000000000000000: 00000002 00000000 00010000 0005 01 12 "
      "/run/seqpacket sock\n"
      "0000000000000000: 00000002 00000000 00000000 0002 01 13 /run/dgram\n"
      "0000000000000000: 00000003 00000000 00000000 0001 03 14 "
      "/run/listen.sock\n"
      "0000000000000000: 00000002 00000000 00010000 0001 01 15 @abstract\n"
      "0000000000000000: 00000002 00000000 00010000 0001 01 16 relative\n"
      "0000000000000000: 00000003 00000000 00000000 0001 03 17 "
      "/run/connected-client\n"
      "0000000000000000: 00000003 00000000 00000000 0001 03    18\n";

static void
test_parse (void)
{
  FILE *f = fmemopen ((void *) proc_net_unix, sizeof proc_net_unix - 1, "r");
  struct strv paths = { 0 };
  int r = sbx_unix_sockets_parse (f, &paths);
  fclose (f);
  tap_ok (r == 0 && paths.n == 3, "three reachable path sockets (%zu)",
          paths.n);
  tap_ok (strv_contains (&paths, "/run/listen.sock"),
          "a listening stream socket, once");
  tap_ok (strv_contains (&paths, "/run/seqpacket sock"),
          "a listening seqpacket socket, spaces and all");
  tap_ok (strv_contains (&paths, "/run/dgram"), "a bound datagram socket");
  strv_free (&paths);
}

static const struct fake_path sockets[] = {
  { "/run/app.sock", SBX_PATH_SOCKET },
  { "/run/ok.sock", SBX_PATH_SOCKET },
  { "/home/u/ws/dev.sock", SBX_PATH_SOCKET },
  { "/run/gone.sock", SBX_PATH_FILE },
  { NULL, SBX_PATH_ABSENT },
};

static bool
hidden (const struct sbx_plan *plan, const char *path)
{
  for (size_t i = 0; i < plan->n_mounts; i++)
    if (plan->mounts[i].op == SBX_PLAN_HIDE_FILE
        && strcmp (plan->mounts[i].dest, path) == 0)
      return true;
  return false;
}

static void
test_policy (void)
{
  struct strv socks = { 0 }, approved = { 0 };
  strv_push (&socks, "/run/app.sock");
  strv_push (&socks, "/run/ok.sock");
  strv_push (&socks, "/home/u/ws/dev.sock");
  strv_push (&socks, "/run/gone.sock");
  strv_push (&socks, "/run/docker.sock");
  strv_push (&approved, "socket:/run/ok.sock");
  struct sbx_host_facts host = fake_host (sockets);
  host.host_sockets = &socks;
  host.approved = &approved;
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (
      AGENT_JSON ("", "\"mode\": \"workspace-write\", \"workspace\": "
                      "\"/home/u/ws\", \"network\": \"deny\""),
      &host, &plan, &err);
  if (!tap_ok (r == 0, "agent with host sockets resolves"))
    printf ("# %s\n", err.msg);
  if (plan)
    {
      tap_ok (hidden (plan, "/run/app.sock"),
              "a socket listening outside the workspace is hidden");
      tap_ok (!hidden (plan, "/run/ok.sock"),
              "one the operator approved (socket:PATH) is not");
      tap_ok (!hidden (plan, "/home/u/ws/dev.sock"),
              "one in the workspace is not");
      tap_ok (!hidden (plan, "/run/gone.sock"),
              "a path that is no longer a socket is left alone");
      size_t docker = 0;
      for (size_t i = 0; i < plan->n_mounts; i++)
        docker += strcmp (plan->mounts[i].dest, "/run/docker.sock") == 0;
      tap_ok (docker == 1, "a known daemon socket is hidden once");
      bool said = false;
      for (size_t i = 0; i < plan->enforcement.reasons.n; i++)
        said |= strstr (plan->enforcement.reasons.v[i], "bound later") != NULL;
      if (!tap_ok (said, "the reasons say sockets bound later stay reachable"))
        for (size_t i = 0; i < plan->enforcement.reasons.n; i++)
          printf ("# %s\n", plan->enforcement.reasons.v[i]);
    }
  sbx_plan_free (plan);
  strv_free (&socks);
  strv_free (&approved);
}

int
main (void)
{
  test_parse ();
  test_policy ();
  return tap_done ();
}
