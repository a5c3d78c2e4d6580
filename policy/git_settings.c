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
  VALUE_COMMAND, /* a command git runs: its words that are paths */
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

/* The flag key KEY of SECTION as git's documentation spells it, or
   NULL when it is none.  */
static const char *
flag_shown (const char *section, const char *key)
{
  for (size_t k = 0; k < N_REDIRECT_KEYS; k++)
    if (redirect_keys[k].kind == VALUE_FLAG
        && strcmp (section, redirect_keys[k].section) == 0
        && strcmp (key, redirect_keys[k].key) == 0)
      return redirect_keys[k].shown;
  return NULL;
}

static bool
is_flag_key (const char *section, const char *key)
{
  return flag_shown (section, key) != NULL;
}

int
policy_git_redirects (const char *text, struct strv *out)
{
  char section[32] = "";
  const char *p = text;
  /* No value is longer than the text: none is cut short.  */
  size_t cap = strlen (text) + 1;
  cleanup_free char *value = malloc (cap);
  if (value == NULL)
    return -ENOMEM;
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
      if (n > 0 && *p != '=' && is_flag_key (section, key)
          && strv_pushf (out, "%s true", flag_shown (section, key)) < 0)
        return -ENOMEM; /* a key alone is git's true */
      if (n > 0 && *p == '=')
        {
          /* Every value is read whole: one continued over several lines
             holds what would otherwise look like a header or a key.  */
          p = config_value (p + 1, value, cap);
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

/* Whether PATH (absolute, normalised) reaches something the sandbox may
   write, as written or where its links lead on the host (a value through
   a link to the workspace, /tmp on macOS).  */
static bool
path_in_reach (const struct sbx_host_facts *host, const struct sbx_plan *plan,
               const char *path)
{
  if (reaches_writable (plan, path))
    return true;
  cleanup_free char *real
      = host->resolve ? host->resolve (path, host->path_ctx) : NULL;
  return real && reaches_writable (plan, real);
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
  cleanup_free char *dir = sbx_path_join (config, "..");
  return dir ? sbx_path_join (dir, value) : NULL;
}

/* Whether VALUE is one of git's words for a boolean: one of the first
   four (true), or of the last four (false) when FALSE_TOO.  */
static bool
is_bool (const char *value, bool false_too)
{
  static const char *const words[]
      = { "true", "yes", "on", "1", "false", "no", "off", "0" };
  for (size_t i = 0; i < (false_too ? 8u : 4u); i++)
    if (strcasecmp (value, words[i]) == 0)
      return true;
  return false;
}

/* Whether the command VALUE of the key SHOWN names a file within reach:
   any of its words that is a path (an option's "--file=PATH" too), not
   only the program (core.sshCommand's "-F CONFIG" runs what CONFIG says).
   A bare name is found on the host's PATH and is not looked at; an
   alias without "!" is a git command; core.fsmonitor's booleans are
   git's own daemon.  */
static bool
command_in_reach (const struct sbx_host_facts *host,
                  const struct sbx_plan *plan, const char *shown,
                  const char *value)
{
  if (strcmp (shown, "alias.*") == 0 && value[0] != '!')
    return false;
  if (strcmp (shown, "core.fsmonitor") == 0 && is_bool (value, true))
    return false;
  static const char separators[] = " \t!;|&()<>\"'`";
  for (const char *w = value; *(w += strspn (w, separators));)
    {
      size_t n = strcspn (w, separators);
      cleanup_free char *word = strndup (w, n);
      w += n;
      if (word == NULL)
        return true; /* out of memory: not known to be out of reach */
      const char *path = strrchr (word, '=');
      path = path ? path + 1 : word;
      if (strchr (path, '/') == NULL)
        continue;
      cleanup_free char *p = value_path (host, NULL, path, VALUE_COMMAND);
      if (p == NULL || path_in_reach (host, plan, p))
        return true;
    }
  return false;
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

/* How many config files one config may bring in through includes, all
   levels together: git's ten levels of a config that includes itself
   several times over would otherwise be read thousands of times.  */
#define MAX_CONFIG_READS 64

static int note_config_redirects (const struct sbx_host_facts *host,
                                  struct sbx_plan *plan, const char *config,
                                  bool writable, int depth, int *reads);

/* Whether the redirect ENTRY ("KEY VALUE") of CONFIG, in a git
   directory the sandbox may write or not (WRITABLE), leads where the
   sandbox may write: 1, else 0, or -ENOMEM.  An include outside reach is
   read in its turn, and what it names is reported under its own name.  */
static int
redirect_in_reach (const struct sbx_host_facts *host, struct sbx_plan *plan,
                   const char *config, bool writable, const char *entry,
                   int depth, int *reads)
{
  const char *value = strchr (entry, ' ') + 1;
  size_t klen = (size_t) (value - 1 - entry);
  char shown[64];
  snprintf (shown, sizeof shown, "%.*s", (int) klen, entry);
  enum value_kind kind = VALUE_PATH;
  for (size_t k = 0; k < N_REDIRECT_KEYS; k++)
    if (strcmp (redirect_keys[k].shown, shown) == 0)
      kind = redirect_keys[k].kind;
  /* config.worktree matters where the sandbox could make one.  */
  if (kind == VALUE_FLAG)
    return writable && is_bool (value, false);
  if (kind == VALUE_COMMAND)
    return command_in_reach (host, plan, shown, value);
  cleanup_free char *path = value_path (host, config, value, kind);
  if (path == NULL || path_in_reach (host, plan, path))
    return 1;
  if (kind != VALUE_INCLUDE)
    return 0;
  /* git stops at ten levels of includes; sbx-oci at that, or at
     MAX_CONFIG_READS files: past either, say so.  */
  int r
      = depth < 10 && *reads < MAX_CONFIG_READS
            ? note_config_redirects (host, plan, path, false, depth + 1, reads)
            : plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                        "the git config %s is included more than ten "
                        "levels deep, or past %d included files: what it "
                        "names is not looked at",
                        path, MAX_CONFIG_READS);
  return r < 0 ? r : 0;
}

/* The redirects of the config file CONFIG that lead within reach, as one
   gap naming them.  Returns 0, or 1 when it said one, or -ENOMEM.  */
static int
note_config_redirects (const struct sbx_host_facts *host,
                       struct sbx_plan *plan, const char *config,
                       bool writable, int depth, int *reads)
{
  ++*reads;
  cleanup_free char *text = NULL;
  int r = host->read_text ? host->read_text (config, &text, host->path_ctx)
                          : -ENOENT;
  if (r == -ENOENT || r == -ENOMEM)
    return r == -ENOENT ? 0 : r;
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
      r = redirect_in_reach (host, plan, config, writable, found.v[i], depth,
                             reads);
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

/* The first line of the file PATH, into *OUT (to be freed): 0,
   -ENOENT when there is none to be read, or -ENOMEM.  */
static int
first_line (const struct sbx_host_facts *host, const char *path, char **out)
{
  cleanup_free char *text = NULL;
  int r = host->read_text ? host->read_text (path, &text, host->path_ctx)
                          : -ENOENT;
  if (r == -ENOMEM)
    return r;
  if (r < 0)
    return -ENOENT;
  text[strcspn (text, "\r\n")] = '\0';
  *out = text;
  text = NULL;
  return 0;
}

/* Whether DIR is a git directory whose config and hooks the plan holds
   (or will: the walk's git directories are protected with it): a root's
   own .git, one the walk found.  */
static bool
held_git_dir (const struct sbx_host_facts *host, const struct sbx_plan *plan,
              const char *dir)
{
  for (size_t i = 0; host->git_meta && i < host->git_meta->n; i++)
    if (strcmp (host->git_meta->v[i], dir) == 0)
      return true;
  cleanup_free char *config = sbx_path_join (dir, "config");
  for (size_t i = plan->n_mounts; config && i-- > 0;)
    if (strcmp (plan->mounts[i].dest, config) == 0)
      return plan->mounts[i].op == SBX_PLAN_BIND_RO
             || plan->mounts[i].op == SBX_PLAN_HIDE_FILE;
  return false;
}

/* The configs of the git directory DIR (config, config.worktree).  */
static int
note_dir_configs (const struct sbx_host_facts *host, struct sbx_plan *plan,
                  const char *dir, bool writable)
{
  cleanup_free char *config = sbx_path_join (dir, "config");
  cleanup_free char *wt = sbx_path_join (dir, "config.worktree");
  if (config == NULL || wt == NULL)
    return -ENOMEM;
  int reads = 0;
  int r = note_config_redirects (host, plan, config, writable, 0, &reads);
  if (r >= 0)
    r = note_config_redirects (host, plan, wt, writable, 0, &reads);
  return r < 0 ? r : 0;
}

int
policy_note_git_configs (const struct sbx_host_facts *host,
                         struct sbx_plan *plan, const char *dir, bool writable)
{
  int r = note_dir_configs (host, plan, dir, writable);
  /* A linked worktree's git directory: its settings are mostly the
     common directory's.  git reads one commondir, the git directory's
     own, never the common directory's: neither does this (two that
     name each other are no loop).  */
  cleanup_free char *common_file = sbx_path_join (dir, "commondir");
  cleanup_free char *common = NULL;
  if (r == 0 && common_file == NULL)
    return -ENOMEM;
  int c = r < 0 ? 0 : first_line (host, common_file, &common);
  if (c == -ENOMEM)
    return c;
  if (r == 0 && c == 0 && common[0])
    {
      /* Absolute, or relative to DIR, as sbx_path_join takes it.  */
      cleanup_free char *to = sbx_path_join (dir, common);
      if (to == NULL)
        return -ENOMEM;
      if (strcmp (to, dir) == 0)
        return 0;
      bool reach = path_in_reach (host, plan, to);
      r = note_dir_configs (host, plan, to, reach);
      if (r == 0 && reach && !held_git_dir (host, plan, to))
        r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                      "the git directory %s names %s as its commondir, "
                      "which the sandbox may write: git takes its config "
                      "and hooks from there",
                      dir, to);
    }
  return r;
}

int
policy_note_git_file (const struct sbx_host_facts *host, struct sbx_plan *plan,
                      const char *file)
{
  cleanup_free char *line = NULL;
  int r = first_line (host, file, &line);
  if (r < 0)
    return r == -ENOMEM ? r : 0;
  if (strncmp (line, "gitdir:", 7) != 0)
    return 0;
  /* Absolute, or relative to the file's directory.  */
  const char *to = line + 7 + strspn (line + 7, " \t");
  cleanup_free char *dir = sbx_path_join (file, "..");
  cleanup_free char *gitdir = dir ? sbx_path_join (dir, to) : NULL;
  return gitdir ? policy_note_git_configs (host, plan, gitdir,
                                           path_in_reach (host, plan, gitdir))
                : -ENOMEM;
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
  /* git recurses into a submodule its index records (a gitlink, no
     .gitmodules needed) and runs that repository's own settings there:
     a review ran a core.fsmonitor program of a repository the sandbox
     made, through the host's `git status` in the work tree.  */
  if (plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                "the sandbox can write %s/index: a repository it makes in "
                "the work tree and records there as a submodule has "
                "settings and hooks of its own (core.fsmonitor), which the "
                "host's next git status there runs; bind %s read-only in "
                "the config's mounts to hold the whole directory",
                dir, dir)
      < 0)
    return -ENOMEM;
  return policy_note_git_configs (host, plan, dir, true);
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
        int reads = 0;
        int r = config ? note_config_redirects (host, plan, config, false, 0,
                                                &reads)
                       : -ENOMEM;
        if (r < 0)
          return r;
      }
  return 0;
}
