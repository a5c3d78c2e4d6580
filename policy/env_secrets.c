/* What in an environment looks like a credential: names (dropped from an
   agent sandbox's environment unless the operator approves them) and the
   password of a URL in a value (removed).  Pure string functions.

   A name is credential-shaped, case-insensitively, when it is one of
   secret_names, ends with one of secret_suffixes, or is an npm setting
   that carries auth (NPM_CONFIG__AUTH, NPM_CONFIG__AUTHTOKEN, or a
   per-registry one, "NPM_CONFIG_//host/:_authToken").  The lists err on
   the side of dropping: an orchestrator that means to pass one names it
   in the approval file ("env:NAME").  */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "policy/build.h"

/* Exact names: the bare ones, and well-known variables that point at a
   credential (a file, a socket, an endpoint that hands out keys).  */
static const char *const secret_names[] = {
  "TOKEN",
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "API_KEY",
  "APIKEY",
  "PRIVATE_KEY",
  "CREDENTIALS",
  "CREDENTIAL",
  "SSH_AUTH_SOCK",
  "GPG_AGENT_INFO",
  "KUBECONFIG",
  "DOCKER_AUTH_CONFIG",
  "KRB5CCNAME",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
  NULL,
};

/* "TOKEN" also catches MYTOKEN and *_TOKEN, "PASSWORD" PGPASSWORD, "_KEY"
   every *_API_KEY, *_SECRET_KEY, *_PRIVATE_KEY...  */
static const char *const secret_suffixes[] = {
  "TOKEN", "SECRET", "PASSWORD", "PASSWD",      "_PWD",
  "_KEY",  "APIKEY", "_KEY_ID",  "CREDENTIALS", "_CREDENTIAL",
  "_PAT",  "_AUTH",  "_DSN",     "_TOKEN_FILE", NULL,
};

bool
policy_env_name_in (const char *name, size_t len, const char *const *list)
{
  for (size_t i = 0; list[i]; i++)
    if (strlen (list[i]) == len && strncasecmp (name, list[i], len) == 0)
      return true;
  return false;
}

static bool
contains_nocase (const char *s, size_t len, const char *needle)
{
  size_t n = strlen (needle);
  for (size_t i = 0; i + n <= len; i++)
    if (strncasecmp (s + i, needle, n) == 0)
      return true;
  return false;
}

static bool
npm_auth (const char *name, size_t len)
{
  static const char prefix[] = "NPM_CONFIG_";
  size_t pl = sizeof prefix - 1;
  if (len <= pl || strncasecmp (name, prefix, pl) != 0)
    return false;
  return contains_nocase (name + pl, len - pl, "_AUTH")
         || contains_nocase (name + pl, len - pl, ":_");
}

bool
sbx_env_name_is_secret (const char *name, size_t len)
{
  if (policy_env_name_in (name, len, secret_names) || npm_auth (name, len))
    return true;
  for (size_t i = 0; secret_suffixes[i]; i++)
    {
      size_t sl = strlen (secret_suffixes[i]);
      if (len >= sl
          && strncasecmp (name + len - sl, secret_suffixes[i], sl) == 0)
        return true;
    }
  return false;
}

/* In S, at the start of what follows a "://": the span of a password,
   *AT set to its end (the '@').  The userinfo ends at the last '@' before
   the end of the URL (blank or end of string), so that a password with
   an unencoded '@' or '/' is removed whole: a URL with an '@' later in
   its query loses more than its password, never less.  Returns false when
   there is no "user:password@".  */
static bool
password_span (const char *s, size_t *colon, size_t *at)
{
  size_t end = strcspn (s, " \t\n");
  const char *last_at = NULL;
  for (size_t i = 0; i < end; i++)
    if (s[i] == '@')
      last_at = s + i;
  if (last_at == NULL)
    return false;
  const char *c = memchr (s, ':', (size_t) (last_at - s));
  if (c == NULL || c + 1 == last_at)
    return false;
  *colon = (size_t) (c - s);
  *at = (size_t) (last_at - s);
  return true;
}

int
sbx_env_redact_url (const char *value, char **out)
{
  *out = NULL;
  char *copy = strdup (value);
  if (copy == NULL)
    return -ENOMEM;
  bool changed = false;
  for (char *p = strstr (copy, "://"); p; p = strstr (p, "://"))
    {
      p += 3;
      size_t colon, at;
      if (!password_span (p, &colon, &at))
        continue;
      memmove (p + colon, p + at, strlen (p + at) + 1);
      changed = true;
    }
  if (!changed)
    {
      free (copy);
      return 0;
    }
  *out = copy;
  return 1;
}
