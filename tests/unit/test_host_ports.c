/* Host services by port: "sbx.network" as a word or as {"mode",
   "hostPorts"} (spec/parse_network.c), and what the policy makes of the
   ports (policy/ports.c): a loopback of the sandbox's own, each
   port approved by the operator ("port:N"), the list kept in the plan.  */
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "policy/ceiling.h"

#define NET(V) AGENT_JSON ("", "\"network\": " V)

/* Resolve JSON with the approval tokens TOKENS (NULL-ended, or NULL).  */
static int
resolve (const char *json, const char *const *tokens, struct sbx_plan **plan,
         struct sbx_error *err)
{
  struct strv approved = { 0 };
  for (size_t i = 0; tokens && tokens[i]; i++)
    strv_push (&approved, tokens[i]);
  struct sbx_host_facts host = fake_host (NULL);
  host.approved = &approved;
  int r = fake_resolve_json (json, &host, plan, err);
  strv_free (&approved);
  return r;
}

static void
test_parse_refusals (void)
{
  static const struct
  {
    const char *json, *want, *what;
  } cases[] = {
    { NET ("{\"hostPorts\": [5432]}"), "sbx.network.mode: required",
      "an object without a mode" },
    { NET ("{\"mode\": \"loopback\", \"hostPorts\": [0]}"),
      "sbx.network.hostPorts[0]:", "port 0" },
    { NET ("{\"mode\": \"loopback\", \"hostPorts\": [65536]}"),
      "sbx.network.hostPorts[0]:", "port 65536" },
    { NET ("{\"mode\": \"loopback\", \"hostPorts\": [\"5432\"]}"),
      "sbx.network.hostPorts[0]:", "a port as a string" },
    { NET ("{\"mode\": \"loopback\", \"hostPorts\": [80, 80]}"),
      "sbx.network.hostPorts[1]: port 80 is listed twice", "a port twice" },
    { NET ("{\"mode\": \"loopback\", \"hostPorts\": 5432}"),
      "sbx.network.hostPorts: expected an array", "not an array" },
    { NET ("{\"mode\": \"loopback\", \"hostPorts\": [1,2,3,4,5,6,7,8,9,10,"
           "11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,"
           "32,33]}"),
      "sbx.network.hostPorts: at most 32 ports", "33 ports" },
    { NET ("5"), "sbx.network: expected \"deny\"", "a number" },
    { NET ("\"open\""), "sbx.network: unknown value", "an unknown word" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      struct sbx_plan *plan = NULL;
      struct sbx_error err = { 0 };
      int r = resolve (cases[i].json, NULL, &plan, &err);
      if (!tap_ok (r < 0 && strstr (err.msg, cases[i].want),
                   "%s: refused naming the field", cases[i].what))
        printf ("# got %d: %s\n", r, err.msg);
      sbx_plan_free (plan);
    }
}

static void
test_forms (void)
{
  const char *const approve[] = { "port:5432", "port:6379", NULL };
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  int r = resolve (NET ("\"loopback\""), NULL, &plan, &err);
  tap_ok (r == 0 && plan->network == SBX_NET_LOOPBACK
              && plan->n_host_ports == 0,
          "the word \"loopback\" still works, with no host ports");
  enum sbx_level plain = plan ? plan->enforcement.network : SBX_LEVEL_NONE;
  sbx_plan_free (plan);
  r = resolve (NET ("{\"mode\": \"deny\"}"), NULL, &plan, &err);
  tap_ok (r == 0 && plan->network == SBX_NET_DENY && plan->filters.net_deny,
          "{\"mode\": \"deny\"} is network deny, its filter included");
  sbx_plan_free (plan);
  r = resolve (NET ("{\"mode\": \"loopback\", \"hostPorts\": [5432, 6379]}"),
               approve, &plan, &err);
  tap_ok (r == 0 && plan->network == SBX_NET_LOOPBACK
              && plan->unshare[SBX_NS_NETWORK] && plan->n_host_ports == 2
              && plan->host_ports[0] == 5432 && plan->host_ports[1] == 6379,
          "approved ports are in the plan, in order, with the sandbox's own "
          "network namespace");
  bool said = false;
  for (size_t i = 0; plan && i < plan->enforcement.reasons.n; i++)
    said |= strstr (plan->enforcement.reasons.v[i], "127.0.0.1:6379") != NULL;
  tap_ok (said && plan->enforcement.network == plain,
          "each port is an enforcement reason; the network level is "
          "loopback's");
  sbx_plan_free (plan);
}

static void
test_policy_refusals (void)
{
  const char *const one[] = { "port:5432", NULL };
  static const struct
  {
    const char *json, *want, *what;
  } cases[] = {
    { NET ("{\"mode\": \"loopback\", \"hostPorts\": [5432, 6379]}"),
      "sbx.network.hostPorts[1]: host port 6379 needs the operator's "
      "approval: add a line \"port:6379\"",
      "a port not approved" },
    { NET ("{\"mode\": \"deny\", \"hostPorts\": [5432]}"),
      "sbx.network.hostPorts: needs \"mode\": \"loopback\"",
      "host ports with deny" },
    { NET ("{\"mode\": \"allow\", \"hostPorts\": [5432]}"),
      "not network \"allow\"", "host ports with allow" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      struct sbx_plan *plan = NULL;
      struct sbx_error err = { 0 };
      int r = resolve (cases[i].json, one, &plan, &err);
      if (!tap_ok (r < 0 && plan == NULL && strstr (err.msg, cases[i].want),
                   "%s: refused, one line naming the field", cases[i].what))
        printf ("# got %d: %s\n", r, err.msg);
      sbx_plan_free (plan);
    }
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  int r = resolve (NET ("{\"mode\": \"loopback\", \"hostPorts\": [5432]}"),
                   NULL, &plan, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "\"port:5432\""),
          "no --approve at all: refused with the token to add");
  sbx_plan_free (plan);
}

/* Under the operator's ceiling: the keys are allowed, the network must be
   under maxNetwork, and the token comes from the ceiling's "approve".  */
static void
test_under_ceiling (void)
{
  static const struct
  {
    const char *max, *token, *want, *what;
  } cases[] = {
    { "loopback", "port:5432", NULL, "approved by the ceiling: runs" },
    { "loopback", NULL, "add a line \"port:5432\"",
      "not approved: refused with the token" },
    { "deny", "port:5432", "above the ceiling's maxNetwork",
      "maxNetwork deny: refused by the ceiling" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      char json[256];
      snprintf (json, sizeof json,
                "{\"workspaces\": [\"/home/u/ws\"], \"maxNetwork\": "
                "\"%s\"%s%s%s}",
                cases[i].max, cases[i].token ? ", \"approve\": [\"" : "",
                cases[i].token ? cases[i].token : "",
                cases[i].token ? "\"]" : "");
      struct sbx_ceiling c;
      struct sbx_error err = { 0 };
      struct sbx_spec *spec = NULL;
      struct sbx_plan *plan = NULL;
      struct sbx_host_facts host = fake_host (NULL);
      int r = sbx_ceiling_parse (json, strlen (json), &c, &err);
      host.approved = &c.approvals;
      r = r < 0 ? r : 0; /* the parse says 1 when "approve" was there */
      const char *config
          = NET ("{\"mode\": \"loopback\", \"hostPorts\": [5432]}");
      if (r == 0)
        r = sbx_spec_parse (config, strlen (config), "/bundle", &spec, &err);
      if (r == 0)
        r = sbx_policy_resolve (spec, &host, &c, &plan, &err);
      bool ok = cases[i].want
                    ? r < 0 && strstr (err.msg, cases[i].want)
                    : r == 0 && plan->under_ceiling && plan->n_host_ports == 1;
      if (!tap_ok (ok, "under a ceiling, %s", cases[i].what))
        printf ("# got %d: %s\n", r, err.msg);
      sbx_plan_free (plan);
      sbx_spec_free (spec);
      sbx_ceiling_free (&c);
    }
}

int
main (void)
{
  test_parse_refusals ();
  test_forms ();
  test_policy_refusals ();
  test_under_ceiling ();
  return tap_done ();
}
