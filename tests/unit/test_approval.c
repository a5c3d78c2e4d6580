/* An agent config may narrow the default policy by itself; every widening
   must be named in the operator's approval.  */
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdlib.h>

struct approval_case
{
  const char *name;
  const char *json;
  const char *token; /* what must be approved; NULL: nothing */
};

#define WS "\"mode\": \"workspace-write\", \"workspace\": \"/home/u/ws\""
#define BIND_RW(P)                                                            \
  "{\"destination\": \"" P "\", \"type\": \"bind\", \"source\": \"" P         \
  "\", \"options\": [\"rw\"]}"

static const struct approval_case cases[] = {
  { "the default agent policy", AGENT_JSON ("", WS ", \"network\": \"deny\""),
    NULL },
  { "a narrower read-only policy",
    AGENT_JSON ("", "\"mode\": \"read-only\", \"network\": \"deny\""), NULL },
  { "a deny layer inside the workspace",
    AGENT_JSON ("{\"destination\": \"/home/u/ws\", \"type\": \"tmpfs\", "
                "\"options\": [\"ro\"]}",
                WS ", \"network\": \"loopback\""),
    NULL },
  { "a writable bind inside the workspace",
    AGENT_JSON (BIND_RW ("/home/u/ws"), WS ", \"network\": \"deny\""), NULL },
  { "danger-full-access",
    AGENT_JSON ("", "\"mode\": \"danger-full-access\", \"network\": "
                    "\"deny\""),
    "danger-full-access" },
  { "the host network", AGENT_JSON ("", WS ", \"network\": \"allow\""),
    "network" },
  { "hardened defaults off",
    AGENT_JSON ("", WS ", \"network\": \"deny\", \"hardenedDefaults\": "
                       "false"),
    "hardened-defaults-off" },
  { "its own protected paths",
    AGENT_JSON ("", WS ", \"network\": \"deny\", \"protectedPaths\": []"),
    "protected-paths" },
  { "user namespaces",
    AGENT_JSON ("", WS ", \"network\": \"deny\", \"allowUserNamespaces\": "
                       "true"),
    "user-namespaces" },
  { "a writable root outside the workspace",
    AGENT_JSON ("", WS ", \"network\": \"deny\", \"writableRoots\": "
                       "[\"/data\"]"),
    "/data" },
  { "a writable bind outside the workspace",
    AGENT_JSON (BIND_RW ("/repo"), WS ", \"network\": \"deny\""), "/repo" },
};

static int
check (const char *json, const struct strv *approved, struct sbx_error *err)
{
  struct sbx_host_facts host = fake_host (NULL);
  struct sbx_spec *spec = NULL;
  struct sbx_plan *plan = NULL;
  int r = sbx_spec_parse (json, strlen (json), "/bundle", &spec, err);
  if (r == 0)
    r = sbx_policy_resolve (spec, &host, &plan, err);
  if (r == 0)
    r = sbx_policy_check_approvals (spec, plan, approved, err);
  sbx_plan_free (plan);
  sbx_spec_free (spec);
  return r;
}

int
main (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      const struct approval_case *c = &cases[i];
      struct sbx_error err = { 0 };
      struct strv none = { 0 }, approved = { 0 }, other = { 0 };
      int r = check (c->json, &none, &err);
      if (c->token == NULL)
        {
          tap_ok (r == 0, "%s: runs without approval (%s)", c->name, err.msg);
          continue;
        }
      tap_ok (r == -EPERM, "%s: refused without approval", c->name);
      char want[256];
      snprintf (want, sizeof want, "with a line \"%s\"", c->token);
      tap_ok (strstr (err.msg, want) != NULL, "%s: the refusal names %s (%s)",
              c->name, want, err.msg);
      sbx_error_clear (&err);
      strv_push (&other, "something-else");
      tap_ok (check (c->json, &other, &err) == -EPERM,
              "%s: another approval does not do", c->name);
      sbx_error_clear (&err);
      strv_push (&approved, c->token);
      tap_ok (check (c->json, &approved, &err) == 0,
              "%s: runs with \"%s\" approved (%s)", c->name, c->token,
              err.msg);
      strv_free (&approved);
      strv_free (&other);
    }
  return tap_done ();
}
