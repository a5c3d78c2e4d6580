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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/build.h"

/* What a key's value is to git.  */
enum value_kind
{
  VALUE_PATH,    /* where git reads hooks or settings */
  VALUE_INCLUDE, /* a config file git reads as well */
  VALUE_COMMAND, /* a program git runs (its first word) */
  VALUE_FLAG,    /* turns on a file the sandbox may make */
};

/* The keys whose values send git elsewhere, lowercased as git compares
   them ("*": any key, or any subsection's), and spelt as git's
   documentation does.  */
static const struct
{
  const char *section, *key, *shown;
  enum value_kind kind;
} redirect_keys[] = {
  { "core", "hookspath", "core.hooksPath", VALUE_PATH },
  { "include", "path", "include.path", VALUE_INCLUDE },
  { "includeif", "path", "includeIf.path", VALUE_INCLUDE },
  /* config.worktree, which the sandbox may make where none is.  */
  { "extensions", "worktreeconfig", "extensions.worktreeConfig", VALUE_FLAG },
  { "core", "fsmonitor", "core.fsmonitor", VALUE_COMMAND },
  { "core", "sshcommand", "core.sshCommand", VALUE_COMMAND },
  { "core", "editor", "core.editor", VALUE_COMMAND },
  { "core", "pager", "core.pager", VALUE_COMMAND },
  { "core", "askpass", "core.askPass", VALUE_COMMAND },
  { "sequence", "editor", "sequence.editor", VALUE_COMMAND },
  { "diff", "external", "diff.external", VALUE_COMMAND },
  { "diff", "textconv", "diff.*.textconv", VALUE_COMMAND },
  { "diff", "command", "diff.*.command", VALUE_COMMAND },
  { "filter", "clean", "filter.*.clean", VALUE_COMMAND },
  { "filter", "smudge", "filter.*.smudge", VALUE_COMMAND },
  { "filter", "process", "filter.*.process", VALUE_COMMAND },
  { "merge", "driver", "merge.*.driver", VALUE_COMMAND },
  { "credential", "helper", "credential.helper", VALUE_COMMAND },
  { "gpg", "program", "gpg.program", VALUE_COMMAND },
  { "interactive", "difffilter", "interactive.diffFilter", VALUE_COMMAND },
  { "uploadpack", "packobjectshook", "uploadpack.packObjectsHook",
    VALUE_COMMAND },
  { "alias", "*", "alias.*", VALUE_COMMAND },
  { "pager", "*", "pager.*", VALUE_COMMAND },
};

#define N_REDIRECT_KEYS (sizeof redirect_keys / sizeof *redirect_keys)

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
          for (size_t k = 0; k < N_REDIRECT_KEYS; k++)
            if (strcmp (section, redirect_keys[k].section) == 0
                && (strcmp (key, redirect_keys[k].key) == 0
                    || strcmp (redirect_keys[k].key, "*") == 0)
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

/* Where VALUE, a path in the config file CONFIG, leads on the host: an
   absolute path normalised, a home-relative one in the home, an
   include's relative one beside CONFIG.  NULL when that cannot be told
   here (relative to a work tree, another user's home, git's prefix).  */
static char *
value_path (const struct sbx_host_facts *host, const char *config,
            const char *value, enum value_kind kind)
{
  if (value[0] == '/')
    return sbx_path_normalize (value);
  if (value[0] == '~' && value[1] == '/')
    return host->home ? sbx_path_join (host->home, value + 2) : NULL;
  if (kind != VALUE_INCLUDE || value[0] == '~' || value[0] == '%')
    return NULL;
  cleanup_free char *dir = strdup (config);
  char *slash = dir ? strrchr (dir, '/') : NULL;
  if (slash == NULL)
    return NULL;
  slash[slash == dir] = '\0';
  return sbx_path_join (dir, value);
}

/* The program a command VALUE runs: its first word (an alias's after its
   "!"), into WORD; false when it is git's own (core.fsmonitor's true or
   false) or none.  */
static bool
command_word (const char *shown, const char *value, char *word, size_t cap)
{
  if (strcmp (shown, "alias.*") == 0)
    {
      if (value[0] != '!')
        return false; /* another git command */
      value++;
    }
  value += strspn (value, " \t");
  size_t n = strcspn (value, " \t");
  if (n == 0 || n >= cap)
    return n != 0;
  memcpy (word, value, n);
  word[n] = '\0';
  static const char *const booleans[]
      = { "true", "false", "yes", "no", "on", "off", "1", "0" };
  for (size_t i = 0; strcmp (shown, "core.fsmonitor") == 0 && i < 8; i++)
    if (strcasecmp (word, booleans[i]) == 0)
      return false;
  return true;
}

/* Why a config could not be read, in a few words.  */
static const char *
read_failure (int r)
{
  switch (r)
    {
    case -EFBIG:
      return "larger than 256 KiB";
    case -EINVAL:
      return "not a regular file";
    case -EILSEQ:
      return "it holds a NUL byte";
    default:
      return "it cannot be opened";
    }
}

static int note_config_redirects (const struct sbx_host_facts *host,
                                  struct sbx_plan *plan, const char *config,
                                  int depth);

/* Whether the redirect ENTRY ("KEY VALUE") of CONFIG leads where the
   sandbox may write; an include that does not is read in its turn.  */
static int
redirect_in_reach (const struct sbx_host_facts *host, struct sbx_plan *plan,
                   const char *config, const char *entry, int depth)
{
  const char *value = strchr (entry, ' ') + 1;
  size_t klen = (size_t) (value - 1 - entry);
  enum value_kind kind = VALUE_PATH;
  for (size_t k = 0; k < N_REDIRECT_KEYS; k++)
    if (strlen (redirect_keys[k].shown) == klen
        && strncmp (redirect_keys[k].shown, entry, klen) == 0)
      kind = redirect_keys[k].kind;
  char word[4096];
  if (kind == VALUE_FLAG)
    return true;
  if (kind == VALUE_COMMAND)
    {
      /* A bare name is found on the host's PATH, not in the sandbox's
         reach; a path is looked at as any other.  */
      if (!command_word (entry, value, word, sizeof word))
        return false;
      if (strchr (word, '/') == NULL)
        return false;
      value = word;
    }
  cleanup_free char *path = value_path (host, config, value, kind);
  if (path == NULL)
    return true;
  if (reaches_writable (plan, path))
    return true;
  if (kind != VALUE_INCLUDE)
    return false;
  /* git stops at ten levels of includes: past that, say so.  */
  int r = depth < 10 ? note_config_redirects (host, plan, path, depth + 1) : 1;
  return r < 0 ? r : r > 0;
}

/* The redirects of the config file CONFIG that lead within reach, as one
   gap naming them.  Returns 0, or 1 when it said one, or -ENOMEM.  */
static int
note_config_redirects (const struct sbx_host_facts *host,
                       struct sbx_plan *plan, const char *config, int depth)
{
  cleanup_free char *text = NULL;
  int r = host->read_text ? host->read_text (config, &text, host->path_ctx)
                          : -ENOENT;
  if (r == -ENOENT)
    return 0;
  if (r < 0)
    return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                     "the git config %s cannot be read here (%s): where it "
                     "sends git for hooks or settings is not known",
                     config, read_failure (r))
                   < 0
               ? -ENOMEM
               : 1;
  cleanup_strv struct strv found = { 0 };
  if (policy_git_redirects (text, &found) < 0)
    return -ENOMEM;
  cleanup_strv struct strv named = { 0 };
  for (size_t i = 0; i < found.n; i++)
    {
      r = redirect_in_reach (host, plan, config, found.v[i], depth);
      if (r < 0 || (r > 0 && strv_push (&named, found.v[i]) < 0))
        return -ENOMEM;
    }
  if (named.n == 0)
    return 0;
  cleanup_free char *names = strv_join_list (&named, SIZE_MAX);
  if (names == NULL
      || plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                   "the git config %s names %s: git takes hooks, settings "
                   "or programs from there, which the sandbox may write and "
                   "sbx-oci does not hold",
                   config, names)
             < 0)
    return -ENOMEM;
  return 1;
}

int
policy_note_git_configs (const struct sbx_host_facts *host,
                         struct sbx_plan *plan, const char *dir)
{
  cleanup_free char *config = sbx_path_join (dir, "config");
  cleanup_free char *wt = sbx_path_join (dir, "config.worktree");
  if (config == NULL || wt == NULL)
    return -ENOMEM;
  int r = note_config_redirects (host, plan, config, 0);
  if (r >= 0)
    r = note_config_redirects (host, plan, wt, 0);
  return r < 0 ? r : 0;
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

int
policy_note_git_global (const struct sbx_host_facts *host,
                        struct sbx_plan *plan)
{
  const char *homes[] = { host->home, host->account_home };
  static const char *const names[] = { ".gitconfig", ".config/git/config" };
  for (size_t i = 0; i < 2; i++)
    for (size_t k = 0; homes[i] && k < 2; k++)
      {
        cleanup_free char *config = sbx_path_join (homes[i], names[k]);
        int r
            = config ? note_config_redirects (host, plan, config, 0) : -ENOMEM;
        if (r < 0)
          return r;
      }
  return 0;
}
