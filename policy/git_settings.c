/* Where git takes settings and hooks from beyond a git directory's config
   and hooks, which protect.c holds: a commondir file sends git to another
   directory's config and hooks, and a core.hooksPath or an include path in
   the config sends it to files the config does not hold.  What exists of
   commondir is held read-only with the rest (protect.c); what cannot be
   held is said as a gap, never claimed: a commondir the sandbox could
   create (a mount cannot sit on a name that is not there, and git's data
   beside it must stay writable for git to work), and a config whose
   redirects lie within the sandbox's reach.  */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/build.h"

/* The keys that name a path git reads hooks or settings from, lowercased
   as git compares them, and as git's documentation spells them.  */
static const struct
{
  const char *section, *key, *shown;
} redirect_keys[] = {
  { "core", "hookspath", "core.hooksPath" },
  { "include", "path", "include.path" },
  { "includeif", "path", "includeIf.path" },
  /* Turns on config.worktree, a config the sandbox may make where none
     is (held where it is).  */
  { "extensions", "worktreeconfig", "extensions.worktreeConfig" },
};

/* Copy the value that starts at P (after "=") to OUT (at most CAP bytes)
   as git reads it: quotes removed, escapes taken, a comment outside quotes
   ending it, a backslash at the end of a line joining the next, trailing
   blanks dropped.  Returns where parsing stopped (a line's end or the
   text's).  */
static const char *
config_value (const char *p, char *out, size_t cap)
{
  size_t n = 0, kept = 0;
  bool quoted = false;
  for (; *p && *p != '\n'; p++)
    {
      char c = *p;
      if (c == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n')))
        {
          p += p[1] == '\r' ? 2 : 1;
          continue;
        }
      if (c == '\\' && p[1])
        {
          c = *++p;
          c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'b' ? '\b' : c;
        }
      else if (c == '"')
        {
          quoted = !quoted;
          kept = n;
          continue;
        }
      else if (!quoted && (c == '#' || c == ';'))
        break;
      else if (!quoted && (c == ' ' || c == '\t' || c == '\r') && n == 0)
        continue;
      if (n + 1 < cap)
        out[n++] = c;
      if (quoted || (c != ' ' && c != '\t' && c != '\r'))
        kept = n;
    }
  out[kept < cap ? kept : cap - 1] = '\0';
  while (*p && *p != '\n')
    p++;
  return p;
}

/* A section header at P ("[name]", "[name \"sub\"]", "[name.sub]"): its
   name lowercased into SECTION.  Returns what follows the "]" (git allows
   a key on the same line), or the line's end when it is malformed.  */
static const char *
config_section (const char *p, char *section, size_t cap)
{
  size_t n = 0;
  for (p++; isalnum ((unsigned char) *p) || *p == '-'; p++)
    if (n + 1 < cap)
      section[n++] = (char) tolower ((unsigned char) *p);
  section[n] = '\0';
  bool quoted = false;
  for (; *p && *p != '\n' && (quoted || *p != ']'); p++)
    if (*p == '"' && p[-1] != '\\')
      quoted = !quoted;
  return *p == ']' ? p + 1 : p;
}

int
policy_git_redirects (const char *text, struct strv *out)
{
  char section[32] = "";
  const char *p = text;
  if (strncmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3; /* a byte-order mark, which git skips */
  while (*p)
    {
      while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
      if (*p == '[')
        {
          p = config_section (p, section, sizeof section);
          continue;
        }
      char key[32];
      size_t n = 0;
      for (; isalnum ((unsigned char) *p) || *p == '-'; p++)
        if (n + 1 < sizeof key)
          key[n++] = (char) tolower ((unsigned char) *p);
      key[n] = '\0';
      while (*p == ' ' || *p == '\t')
        p++;
      if (n > 0 && *p == '=')
        {
          /* Every value is read whole: one continued over several lines
             holds what would otherwise look like a header or a key.  */
          char value[4096];
          p = config_value (p + 1, value, sizeof value);
          for (size_t k = 0; k < sizeof redirect_keys / sizeof *redirect_keys;
               k++)
            if (strcmp (section, redirect_keys[k].section) == 0
                && strcmp (key, redirect_keys[k].key) == 0
                && strv_pushf (out, "%s %s", redirect_keys[k].shown, value)
                       < 0)
              return -ENOMEM;
        }
      while (*p && *p != '\n')
        p++;
      if (*p)
        p++;
    }
  return 0;
}

/* Whether PATH (absolute) reaches into something the sandbox may write:
   it lies in a writable bind, or holds one.  */
static bool
reaches_writable (const struct sbx_plan *plan, const char *path)
{
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (m->op != SBX_PLAN_BIND_RW)
        continue;
      /* A host path: the bind's source is where the sandbox writes it.  */
      const char *host_path = m->source ? m->source : m->dest;
      if (sbx_path_is_under (path, host_path)
          || sbx_path_is_under (host_path, path))
        return true;
    }
  return false;
}

/* Whether a redirect's VALUE leads where the sandbox may write: an
   absolute path into a writable bind, a home-relative one into the home
   likewise, and anything else (relative to a work tree or to the config
   file, another user's home, git's install prefix) as it cannot be told
   here.  */
static bool
redirect_in_reach (const struct sbx_host_facts *host,
                   const struct sbx_plan *plan, const char *value)
{
  cleanup_free char *p = NULL;
  if (value[0] == '/')
    p = sbx_path_normalize (value);
  else if (value[0] == '~' && value[1] == '/' && host->home)
    p = sbx_path_join (host->home, value + 2);
  else
    return true;
  return p == NULL || reaches_writable (plan, p);
}

/* The redirects of the config file CONFIG that lead within reach, as one
   gap naming them.  */
static int
note_config_redirects (const struct sbx_host_facts *host,
                       struct sbx_plan *plan, const char *config)
{
  cleanup_free char *text = NULL;
  if (host->read_text == NULL
      || host->read_text (config, &text, host->path_ctx) < 0)
    return 0; /* absent, or a link (reported where it is protected) */
  cleanup_strv struct strv found = { 0 };
  if (policy_git_redirects (text, &found) < 0)
    return -ENOMEM;
  char names[512] = "";
  size_t len = 0, n = 0;
  for (size_t i = 0; i < found.n; i++)
    {
      const char *value = strchr (found.v[i], ' ') + 1;
      if (!redirect_in_reach (host, plan, value))
        continue;
      int w = snprintf (names + len, sizeof names - len, "%s%s",
                        n++ ? ", " : "", found.v[i]);
      if (w > 0 && (size_t) w < sizeof names - len)
        len += (size_t) w;
    }
  if (n == 0)
    return 0;
  return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                   "the git config %s names %s: git takes hooks or settings "
                   "from there, which the sandbox may write and sbx-oci does "
                   "not hold",
                   config, names);
}

int
policy_note_git_configs (const struct sbx_host_facts *host,
                         struct sbx_plan *plan, const char *dir)
{
  cleanup_free char *config = sbx_path_join (dir, "config");
  cleanup_free char *wt = sbx_path_join (dir, "config.worktree");
  if (config == NULL || wt == NULL)
    return -ENOMEM;
  int r = note_config_redirects (host, plan, config);
  return r ?: note_config_redirects (host, plan, wt);
}

int
policy_note_git_dir (const struct sbx_host_facts *host, struct sbx_plan *plan,
                     const char *dir)
{
  cleanup_free char *commondir = sbx_path_join (dir, "commondir");
  cleanup_free char *config = sbx_path_join (dir, "config");
  if (commondir == NULL || config == NULL)
    return -ENOMEM;
  bool common = host_path_kind (host, commondir) != SBX_PATH_ABSENT;
  bool own_config = host_path_kind (host, config) != SBX_PATH_ABSENT;
  if (!common
      && plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                   "the git directory %s lacks commondir%s: the sandbox can "
                   "create it, and the host's next git command there would "
                   "take its config and hooks from where it points; git's "
                   "data beside it must stay writable, so it cannot be "
                   "held: bind %s read-only in the config's mounts to hold "
                   "the whole directory",
                   dir, own_config ? "" : " and config", dir)
             < 0)
    return -ENOMEM;
  return policy_note_git_configs (host, plan, dir);
}
