/* exec's process object against the policy its container was created
   under (sbx_policy_exec): the same gates as create's, the same
   environment rules; and the network programs, which follow the kept
   approvals (sbx_policy_filters).  */
#include "policy/ceiling.h"
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define EXEC_JSON(PROCESS_EXTRA)                                              \
  "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/\", "                  \
  "\"readonly\": true}, \"process\": {\"args\": [\"true\"], "                 \
  "\"cwd\": \"/home/u/ws\", \"user\": {\"uid\": 1000, \"gid\": "              \
  "1000}" PROCESS_EXTRA "}, \"sbx\": {\"mode\": \"workspace-write\", "        \
  "\"workspace\": \"/home/u/ws\", "                                           \
  "\"network\": \"deny\"}}"

/* Run sbx_policy_exec on JSON; UNDER: with a ceiling holding TOKEN (or
   none).  Returns its result, *PLAN and ERR as it left them.  */
static int
exec_policy (const char *json, bool under, const char *token,
             struct sbx_plan **plan, struct sbx_error *err)
{
  struct sbx_spec *spec = NULL;
  struct sbx_ceiling ceiling = { 0 };
  struct sbx_host_facts host = fake_host (NULL);
  *plan = NULL;
  int r = sbx_spec_parse (json, strlen (json), "/bundle", &spec, err);
  if (r == 0 && token)
    r = strv_push (&ceiling.approvals, token);
  host.approved = &ceiling.approvals;
  if (r == 0)
    r = sbx_policy_exec (spec, &host, under ? &ceiling : NULL, plan, err);
  sbx_ceiling_free (&ceiling);
  sbx_spec_free (spec);
  return r;
}

static void
test_capabilities (void)
{
  const char *json = EXEC_JSON (", \"capabilities\": {\"bounding\": "
                                "[\"CAP_DAC_READ_SEARCH\"]}");
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = exec_policy (json, true, NULL, &plan, &err);
  tap_ok (r == -EPERM
              && strstr (err.msg, "add \"capabilities\" to the ceiling's"),
          "under a ceiling, capabilities need their token (%s)", err.msg);
  sbx_plan_free (plan);
  r = exec_policy (json, true, "capabilities", &plan, &err);
  tap_ok (r == 0 && plan && plan->under_ceiling,
          "under a ceiling, approved capabilities pass");
  sbx_plan_free (plan);
  r = exec_policy (json, false, NULL, &plan, &err);
  tap_ok (r == 0 && plan && !plan->under_ceiling,
          "without a ceiling, the operator's container takes them");
  sbx_plan_free (plan);
}

static void
test_unknown_field (void)
{
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = exec_policy (EXEC_JSON (", \"ioPriority\": {\"class\": "
                                  "\"IOPRIO_CLASS_RT\"}"),
                       true, NULL, &plan, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "process.ioPriority: not a field"),
          "under a ceiling, a field the allow-list does not know is refused");
  sbx_plan_free (plan);
}

static void
test_environment (void)
{
  const char *json = EXEC_JSON (", \"env\": [\"MYTOKEN=t\", "
                                "\"DATABASE_URL=pg://a:pw@h/d\", \"CI=1\"]");
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = exec_policy (json, true, NULL, &plan, &err);
  tap_ok (r == 0 && plan && strv_contains (&plan->env, "CI=1")
              && strv_contains (&plan->env, "DATABASE_URL=pg://a@h/d")
              && !strv_contains (&plan->env, "MYTOKEN=t")
              && strv_contains (&plan->env_dropped, "MYTOKEN")
              && strv_contains (&plan->env_redacted, "DATABASE_URL"),
          "the environment: a credential name dropped, a URL password "
          "removed, both recorded for the report");
  sbx_plan_free (plan);
  r = exec_policy (json, true, "env:MYTOKEN", &plan, &err);
  tap_ok (r == 0 && plan && strv_contains (&plan->env, "MYTOKEN=t"),
          "the environment: an env:NAME approval passes the name");
  sbx_plan_free (plan);
}

static void
test_network_filters (void)
{
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = exec_policy (EXEC_JSON (""), true, NULL, &plan, &err);
  tap_ok (r == 0 && plan && plan->filters.net_deny
              && plan->filters.unix_closed,
          "network deny: host unix sockets closed");
  sbx_plan_free (plan);
  r = exec_policy (EXEC_JSON (""), true, "socket:/run/x.sock", &plan, &err);
  tap_ok (r == 0 && plan && plan->filters.net_deny
              && !plan->filters.unix_closed,
          "network deny with a socket approved: unix sockets open");
  sbx_plan_free (plan);
}

int
main (void)
{
  test_capabilities ();
  test_unknown_field ();
  test_environment ();
  test_network_filters ();
  return tap_done ();
}
