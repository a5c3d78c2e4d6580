/* The child's environment.  Containers get exactly process.env, as OCI
   says.  Agents get an allow-list (or the caller's whole environment when
   the config asks to inherit), the config's own entries on top, and never
   anything shaped like a credential (policy/env_secrets.c) unless the
   operator's approval names it; the names left out, and those whose URL
   password was removed, are kept in the plan for the report.  */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "policy/build.h"

#define SBX_DEFAULT_PATH                                                      \
  "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin"

static const char *const agent_allow[] = {
  "PATH", "HOME", "LANG",    "LANGUAGE", "TERM",     "COLORTERM",
  "TZ",   "USER", "LOGNAME", "SHELL",    "NO_COLOR", NULL,
};

static size_t
name_len (const char *entry)
{
  const char *eq = strchr (entry, '=');
  return eq ? (size_t) (eq - entry) : strlen (entry);
}

/* Set ENTRY ("NAME=value"), replacing an earlier entry of the same name. */
static int
env_put (struct strv *env, const char *entry)
{
  size_t len = name_len (entry);
  for (size_t i = 0; i < env->n; i++)
    if (name_len (env->v[i]) == len && strncmp (env->v[i], entry, len) == 0)
      {
        char *copy = strdup (entry);
        if (copy == NULL)
          return -ENOMEM;
        free (env->v[i]);
        env->v[i] = copy;
        return 0;
      }
  return strv_push (env, entry);
}

static bool
env_has (const struct strv *env, const char *name)
{
  size_t len = strlen (name);
  for (size_t i = 0; i < env->n; i++)
    if (name_len (env->v[i]) == len && strncmp (env->v[i], name, len) == 0)
      return true;
  return false;
}

static int
env_putf (struct strv *env, const char *name, const char *value)
{
  char *entry = NULL;
  if (asprintf (&entry, "%s=%s", name, value) < 0)
    return -ENOMEM;
  int r = env_put (env, entry);
  free (entry);
  return r;
}

static bool
allowed_from_host (const struct sbx_spec *spec, const char *entry)
{
  size_t len = name_len (entry);
  if (spec->ext.env_mode == SBX_ENV_INHERIT)
    return true;
  if (strncmp (entry, "LC_", 3) == 0
      || policy_env_name_in (entry, len, agent_allow))
    return true;
  const struct strv *extra = &spec->ext.env_allow;
  for (size_t i = 0; i < extra->n; i++)
    if (strlen (extra->v[i]) == len && strncmp (entry, extra->v[i], len) == 0)
      return true;
  return false;
}

static const char *
tmpdir_for (const struct sbx_spec *spec, const struct sbx_plan *plan)
{
  if (spec->ext.temp_roots.n > 0)
    return spec->ext.temp_roots.v[0];
  if (plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    return NULL; /* the host's own TMPDIR is writable there */
  return "/tmp";
}

/* Whether the operator's approval names NAME (LEN bytes): "env:NAME",
   case and all.  */
static bool
approved_name (const struct strv *approved, const char *name, size_t len)
{
  for (size_t i = 0; approved && i < approved->n; i++)
    {
      const char *t = approved->v[i];
      if (strncmp (t, "env:", 4) == 0 && strlen (t + 4) == len
          && strncmp (t + 4, name, len) == 0)
        return true;
    }
  return false;
}

/* ENTRY into the plan's environment: an approved name as it is, a
   credential-shaped one never (its name recorded), any other with the
   passwords of its URLs removed (its name recorded when there were).  */
static int
pass_entry (const struct strv *approved, const char *entry,
            struct sbx_plan *plan)
{
  size_t len = name_len (entry);
  if (approved_name (approved, entry, len))
    return strv_push (&plan->env, entry);
  char *name = strndup (entry, len);
  if (name == NULL)
    return -ENOMEM;
  int r;
  char *redacted = NULL;
  if (sbx_env_name_is_secret (entry, len))
    r = strv_push (&plan->env_dropped, name);
  else if ((r = sbx_env_redact_url (entry[len] ? entry + len + 1 : "",
                                    &redacted))
           == 1)
    {
      r = strv_pushf (&plan->env, "%s=%s", name, redacted);
      if (r == 0)
        r = strv_push (&plan->env_redacted, name);
    }
  else if (r == 0)
    r = strv_push (&plan->env, entry);
  free (redacted);
  free (name);
  return r;
}

static int
agent_env (const struct sbx_spec *spec, const struct sbx_host_facts *host,
           struct sbx_plan *plan)
{
  struct strv env = { 0 };
  int r = 0;
  for (char *const *e = host->environ; r == 0 && e && *e; e++)
    if (strchr (*e, '=') && allowed_from_host (spec, *e))
      r = env_put (&env, *e);
  for (size_t i = 0; r == 0 && i < spec->process.env.n; i++)
    r = env_put (&env, spec->process.env.v[i]);
  const char *tmpdir = tmpdir_for (spec, plan);
  if (r == 0 && tmpdir)
    r = env_putf (&env, "TMPDIR", tmpdir);
  if (r == 0 && !env_has (&env, "PATH"))
    r = env_put (&env, "PATH=" SBX_DEFAULT_PATH);
  for (size_t i = 0; r == 0 && i < env.n; i++)
    r = pass_entry (host->approved, env.v[i], plan);
  if (r == 0)
    r = strv_push (&plan->env, host->seatbelt ? "SBX_OCI_SANDBOX=seatbelt"
                                              : "SBX_OCI_SANDBOX=bwrap");
  if (r == 0)
    r = strv_pushf (&plan->env, "SBX_OCI_SANDBOX_MODE=%s",
                    sbx_mode_name (plan->mode));
  strv_free (&env);
  return r;
}

int
policy_env (const struct sbx_spec *spec, const struct sbx_host_facts *host,
            struct sbx_plan *plan, struct sbx_error *err)
{
  (void) err;
  if (plan->agent || spec->ext.env_mode != SBX_ENV_UNSET)
    return agent_env (spec, host, plan);
  for (size_t i = 0; i < spec->process.env.n; i++)
    if (strv_push (&plan->env, spec->process.env.v[i]) < 0)
      return -ENOMEM;
  return 0;
}
