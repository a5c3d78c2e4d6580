/* Credentials in an agent's environment (policy/env_secrets.c and
   policy/env.c): the names dropped, the URL passwords removed, the
   record of both that the run reports, and the operator's "env:NAME". */
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>

static void
test_names (void)
{
  static const char *const yes[] = {
    "PGPASSWORD",
    "MYSQL_PWD",
    "PASSWD",
    "APIKEY",
    "PRIVATE_KEY",
    "CREDENTIALS",
    "GITHUB_PAT",
    "STRIPE_KEY",
    "MYTOKEN",
    "ghtoken",
    "KUBECONFIG",
    "DOCKER_AUTH_CONFIG",
    "NPM_CONFIG__AUTH",
    "npm_config__authToken",
    "npm_config_//registry.example.com/:_authToken",
    "SENTRY_DSN",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_ACCESS_KEY_ID",
    "KRB5CCNAME",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "CLIENTSECRET",
    "GITHUB_TOKEN",
    "SSH_AUTH_SOCK",
    "npm_token",
    "AWS_SECRET_ACCESS_KEY",
    "MY_API_KEY",
    "db_password",
    "GOOGLE_CREDENTIALS",
    "SSH_PRIVATE_KEY",
    NULL,
  };
  static const char *const no[] = {
    "PATH",
    "HOME",
    "PWD",
    "OLDPWD",
    "TOKENIZER",
    "PASSWORD_STORE_DIR",
    "NPM_CONFIG_REGISTRY",
    "EDITOR",
    "KEYMAP",
    "LANG",
    NULL,
  };
  for (size_t i = 0; yes[i]; i++)
    tap_ok (sbx_env_name_is_secret (yes[i], strlen (yes[i])),
            "%s is credential-shaped", yes[i]);
  for (size_t i = 0; no[i]; i++)
    tap_ok (!sbx_env_name_is_secret (no[i], strlen (no[i])),
            "%s is not credential-shaped", no[i]);
}

static void
check_redact (const char *value, const char *want)
{
  char *out = NULL;
  int r = sbx_env_redact_url (value, &out);
  if (want == NULL)
    tap_ok (r == 0 && out == NULL, "%s: nothing to remove", value);
  else
    tap_ok (r == 1 && out && strcmp (out, want) == 0, "%s -> %s (got %s)",
            value, want, out ? out : "(none)");
  free (out);
}

static void
test_redact (void)
{
  check_redact ("postgres://app:s3cret@db:5432/x", "postgres://app@db:5432/x");
  check_redact ("redis://:hunter2@cache:6379/0", "redis://@cache:6379/0");
  check_redact ("http://u:p@proxy:3128", "http://u@proxy:3128");
  /* A password with an unencoded '@' or '/' goes whole.  */
  check_redact ("mysql://u:p@ss/w@db/x", "mysql://u@db/x");
  check_redact ("a=http://u:p@h1 b=https://v:q@h2",
                "a=http://u@h1 b=https://v@h2");
  check_redact ("https://example.com/path", NULL);
  check_redact ("https://user@example.com/path", NULL);
  check_redact ("git@github.com:org/repo.git", NULL);
  check_redact ("plain value", NULL);
}

static char *secret_environ[] = {
  "PATH=/usr/bin:/bin",
  "PGPASSWORD=pg",
  "MYTOKEN=t",
  "DATABASE_URL=postgres://app:s3cret@db/x",
  "https_proxy=http://u:p@proxy:3128",
  "KUBECONFIG=/home/u/.kube/config",
  NULL,
};

static struct sbx_plan *
resolve_with (const struct strv *approved)
{
  struct sbx_host_facts host = fake_host (NULL);
  host.environ = secret_environ;
  host.approved = approved;
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  int r = fake_resolve_json (
      AGENT_JSON ("", "\"mode\": \"read-only\", \"env\": {\"mode\": "
                      "\"inherit\"}"),
      &host, &plan, &err);
  if (!tap_ok (r == 0, "agent with credentials in its environment resolves"))
    printf ("# %s\n", err.msg);
  return plan;
}

static void
test_plan (void)
{
  struct sbx_plan *plan = resolve_with (NULL);
  if (plan == NULL)
    return;
  tap_ok (strv_env_value (plan->env.v, "PGPASSWORD") == NULL
              && strv_env_value (plan->env.v, "MYTOKEN") == NULL
              && strv_env_value (plan->env.v, "KUBECONFIG") == NULL,
          "PGPASSWORD, MYTOKEN, KUBECONFIG are not passed");
  tap_ok (plan->env_dropped.n == 3
              && strv_contains (&plan->env_dropped, "PGPASSWORD")
              && strv_contains (&plan->env_dropped, "MYTOKEN")
              && strv_contains (&plan->env_dropped, "KUBECONFIG"),
          "the dropped names are recorded (%zu)", plan->env_dropped.n);
  tap_streq (strv_env_value (plan->env.v, "DATABASE_URL"),
             "postgres://app@db/x", "DATABASE_URL loses its password");
  tap_streq (strv_env_value (plan->env.v, "https_proxy"),
             "http://u@proxy:3128", "a proxy URL loses its password");
  tap_ok (plan->env_redacted.n == 2
              && strv_contains (&plan->env_redacted, "DATABASE_URL")
              && strv_contains (&plan->env_redacted, "https_proxy"),
          "the redacted names are recorded");
  sbx_plan_free (plan);

  struct strv approved = { 0 };
  strv_push (&approved, "env:PGPASSWORD");
  strv_push (&approved, "env:DATABASE_URL");
  strv_push (&approved, "env:mytoken"); /* names are exact */
  plan = resolve_with (&approved);
  if (plan)
    {
      tap_streq (strv_env_value (plan->env.v, "PGPASSWORD"), "pg",
                 "env:PGPASSWORD lets it through");
      tap_streq (strv_env_value (plan->env.v, "DATABASE_URL"),
                 "postgres://app:s3cret@db/x",
                 "env:DATABASE_URL keeps its password");
      tap_ok (strv_env_value (plan->env.v, "MYTOKEN") == NULL
                  && !strv_contains (&plan->env_dropped, "PGPASSWORD")
                  && strv_contains (&plan->env_dropped, "MYTOKEN"),
              "an approval names one exact name");
    }
  sbx_plan_free (plan);
  strv_free (&approved);
}

int
main (void)
{
  test_names ();
  test_redact ();
  test_plan ();
  return tap_done ();
}
