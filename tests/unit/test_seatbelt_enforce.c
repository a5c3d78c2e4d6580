/* What a plan resolved for the Seatbelt backend claims: the process gaps
   macOS leaves, no bubblewrap version checks, and the refusal of a config
   that requires full enforcement.  */
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>

static bool
has_reason (const struct sbx_plan *plan, const char *prefix)
{
  const struct strv *r = &plan->enforcement.reasons;
  for (size_t i = 0; i < r->n; i++)
    if (strncmp (r->v[i], prefix, strlen (prefix)) == 0)
      return true;
  return false;
}

static struct sbx_host_facts
seatbelt_host (void)
{
  struct sbx_host_facts h = fake_host (NULL);
  h.seatbelt = true;
  h.runner_path = "/usr/bin/sandbox-exec";
  h.runner_version[1] = 0; /* no version: must not matter */
  return h;
}

int
main (void)
{
  struct sbx_host_facts host = seatbelt_host ();
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (
      AGENT_JSON ("", "\"mode\": \"workspace-write\", \"workspace\": "
                      "\"/home/u/ws\", \"network\": \"deny\""),
      &host, &plan, &err);
  tap_ok (r == 0, "workspace-write resolves for seatbelt (%s)", err.msg);
  if (plan)
    {
      const struct sbx_enforcement *e = &plan->enforcement;
      tap_ok (e->level == SBX_LEVEL_PARTIAL, "level partial");
      tap_ok (e->filesystem == SBX_LEVEL_FULL && e->network == SBX_LEVEL_FULL,
              "files and network keep their own levels");
      tap_ok (has_reason (plan, "process: visibility and signalling are "
                                "not confined"),
              "reason: process visibility and signalling");
      tap_ok (has_reason (plan, "termination: no pid namespace or cgroup"),
              "reason: termination by group and sampled descendants");
      tap_ok (!e->no_new_privs, "no no_new_privs");
      tap_ok (!has_reason (plan, "the version of")
                  && !has_reason (plan, "bubblewrap"),
              "no bubblewrap version reasons");
      tap_ok (!has_reason (plan, "network: unix-domain"),
              "deny covers unix sockets: no unix-socket gap");
      /* XNU refuses to exec a setuid or setgid program from a sandboxed
         process; Homebrew's sandbox.rb has to let /bin/ps (setuid) out
         of the sandbox with (with no-sandbox) for that reason.  */
      tap_ok (has_reason (plan, "privileges: no no_new_privs, seccomp "
                                "filter or capability bounding on macOS; "
                                "the kernel refuses to run setuid"),
              "reason: setuid programs are refused, not privileged");
      bool claims_gain = false;
      for (size_t i = 0; i < e->reasons.n; i++)
        claims_gain
            = claims_gain || strstr (e->reasons.v[i], "still gain privileges");
      tap_ok (!claims_gain, "no claim that setuid programs gain privileges");
      tap_streq (strv_env_value (plan->env.v, "SBX_OCI_SANDBOX"), "seatbelt",
                 "SBX_OCI_SANDBOX names seatbelt");
    }
  sbx_plan_free (plan);

  struct sbx_error e2 = { 0 };
  r = fake_resolve_json (AGENT_JSON ("", "\"mode\": \"read-only\", "
                                         "\"network\": \"loopback\""),
                         &host, &plan, &e2);
  tap_ok (r == 0 && plan && plan->enforcement.network == SBX_LEVEL_PARTIAL
              && has_reason (plan, "network: loopback on macOS is the "
                                   "host's own"),
          "loopback: partial, the host's own localhost");
  sbx_plan_free (plan);

  struct sbx_error e3 = { 0 };
  r = fake_resolve_json (AGENT_JSON ("", "\"mode\": \"read-only\", "
                                         "\"network\": \"deny\", "
                                         "\"requireEnforcement\": \"full\""),
                         &host, &plan, &e3);
  tap_ok (r == -EPERM && strstr (e3.msg, "process: visibility"),
          "requireEnforcement full is refused, naming the process gap");
  sbx_plan_free (plan);

  struct sbx_host_facts linux_host = fake_host (NULL);
  struct sbx_error e4 = { 0 };
  r = fake_resolve_json (AGENT_JSON ("", "\"mode\": \"read-only\", "
                                         "\"network\": \"deny\""),
                         &linux_host, &plan, &e4);
  tap_ok (r == 0 && plan && plan->enforcement.no_new_privs
              && !has_reason (plan, "process: visibility"),
          "linux plans keep no_new_privs and have no process gap");
  sbx_plan_free (plan);
  return tap_done ();
}
