/* Where git takes settings from beyond config and hooks
   (policy/git_settings.c): the config scanner's reading of git's syntax,
   and the gaps a writable git directory gets, with the fake host's
   newest bubblewrap so that no other gap hides them.  */
#include "policy/build.h"
#include "tests/unit/fake_host.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Scan TEXT and compare the redirects found, joined by "|", with WANT.  */
static void
expect_redirects (const char *text, const char *want, const char *what)
{
  struct strv found = { 0 };
  char got[1024] = "";
  tap_ok (policy_git_redirects (text, &found) == 0, "%s: scanned", what);
  for (size_t i = 0; i < found.n; i++)
    {
      if (i)
        strcat (got, "|");
      strncat (got, found.v[i], sizeof got - strlen (got) - 2);
    }
  tap_streq (got, want, what);
  strv_free (&found);
}

static void
test_scanner (void)
{
  expect_redirects ("[core]\n\thooksPath = .husky/_\n",
                    "core.hooksPath .husky/_", "core.hooksPath");
  expect_redirects ("[CORE]\nHOOKSPATH=hk\n", "core.hooksPath hk",
                    "section and key names in any case");
  expect_redirects ("[core] hooksPath = \"a b\" # comment\n",
                    "core.hooksPath a b",
                    "a key on the header's line, a quoted value, a comment");
  expect_redirects (
      "[include]\n  path = ../x ; c\n[includeIf \"gitdir:~/w/\"]\n"
      "  path = ~/w.inc\n",
      "include.path ../x|includeIf.path ~/w.inc",
      "include.path and includeIf's path");
  expect_redirects ("[core]\n  hooksPath = a\\\nb\n", "core.hooksPath ab",
                    "a value continued on the next line");
  expect_redirects ("[remote \"origin\"]\n  path = x\n[core]\n  bare = false\n"
                    "  hooksPathX = y\n# [core] hooksPath = z\n",
                    "", "other sections, other keys, comments: nothing");
  expect_redirects ("[core \"sub ]\"]\nhooksPath = s\n", "core.hooksPath s",
                    "a subsection holding a bracket");
  /* Found by review: what git reads and the scanner did not.  */
  expect_redirects ("[core]\n\teditor = vim \\\n[x]\n\thooksPath = /ws/e\n",
                    "core.editor vim [x]|core.hooksPath /ws/e",
                    "another key's value continued over a [line]");
  expect_redirects ("\xef\xbb\xbf[core]\n\thooksPath = /ws/e\n",
                    "core.hooksPath /ws/e", "a byte-order mark first");
  expect_redirects ("[extensions]\n\tworktreeConfig = true\n",
                    "extensions.worktreeConfig true",
                    "extensions.worktreeConfig: config.worktree is read");
}

/* The fake host's files with text: a per-test table of paths and texts,
   UNREADABLE for a file the host cannot read (too large, say).  */
#define UNREADABLE "(unreadable)"
static const char *const *texts;

static int
fake_read_text (const char *path, char **out, void *ctx)
{
  (void) ctx;
  for (size_t i = 0; texts && texts[i]; i += 2)
    if (strcmp (texts[i], path) == 0)
      return strcmp (texts[i + 1], UNREADABLE) == 0   ? -EFBIG
             : (*out = strdup (texts[i + 1])) == NULL ? -ENOMEM
                                                      : 0;
  return -ENOENT;
}

/* A linked worktree's git directory: commondir there, so no gap of its
   own, and what a config names is all there is to report.  */
static const struct fake_path linked[] = {
  { "/home/u/ws/.git", SBX_PATH_DIR },
  { "/home/u/ws/.git/config", SBX_PATH_FILE },
  { "/home/u/ws/.git/commondir", SBX_PATH_FILE },
  { NULL, SBX_PATH_ABSENT },
};

/* The fake host's one link: /tmp/wslink leads to the workspace.  */
static char *
fake_resolve (const char *path, void *ctx)
{
  (void) ctx;
  char *out = NULL;
  if (strncmp (path, "/tmp/wslink/", 12) == 0)
    return asprintf (&out, "/home/u/ws/%s", path + 12) < 0 ? NULL : out;
  return strdup (path);
}

static bool
has_reason (const struct sbx_plan *plan, const char *part)
{
  for (size_t i = 0; plan && i < plan->enforcement.reasons.n; i++)
    if (strstr (plan->enforcement.reasons.v[i], part))
      return true;
  return false;
}

/* A host where nothing else is a gap: a bubblewrap without the fix's
   gap and with --bind-fd, Landlock, and the fake files and link.  */
static struct sbx_host_facts
quiet_host (const struct fake_path *paths)
{
  struct sbx_host_facts host = fake_host (paths);
  host.runner_version[0] = 1;
  host.runner_bind_fd = true;
  host.landlock_abi = 7;
  host.read_text = fake_read_text;
  host.resolve = fake_resolve;
  return host;
}

/* An agent config with workspace WS and the entries MOUNTS, resolved on
   HOST.  */
static struct sbx_plan *
resolve_on (const struct sbx_host_facts *host, const char *ws,
            const char *mounts)
{
  char json[2048];
  snprintf (json, sizeof json,
            AGENT_JSON ("%s", "\"mode\": \"workspace-write\", "
                              "\"workspace\": \"%s\", \"network\": \"deny\""),
            mounts ? mounts : "", ws);
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  if (fake_resolve_json (json, host, &plan, &err) < 0)
    printf ("# %s\n", err.msg);
  return plan;
}

static struct sbx_plan *
resolve (const struct fake_path *paths, const char *mounts)
{
  struct sbx_host_facts host = quiet_host (paths);
  return resolve_on (&host, "/home/u/ws", mounts);
}

/* Every reason, for the log of a failing case.  */
static void
show_reasons (const struct sbx_plan *plan)
{
  for (size_t i = 0; plan && i < plan->enforcement.reasons.n; i++)
    printf ("# reason: %s\n", plan->enforcement.reasons.v[i]);
}

static bool
bound_ro (const struct sbx_plan *plan, const char *path)
{
  for (size_t i = 0; plan && i < plan->n_mounts; i++)
    if (plan->mounts[i].op == SBX_PLAN_BIND_RO
        && strcmp (plan->mounts[i].dest, path) == 0)
      return true;
  return false;
}

static void
test_git_dirs (void)
{
  static const struct fake_path repo[] = {
    { "/home/u/ws/.git", SBX_PATH_DIR },
    { "/home/u/ws/.git/config", SBX_PATH_FILE },
    { "/home/u/ws/.git/hooks", SBX_PATH_DIR },
    { NULL, SBX_PATH_ABSENT },
  };
  struct sbx_plan *plan = resolve (repo, NULL);
  tap_ok (plan && has_reason (plan, "/home/u/ws/.git lacks commondir:")
              && plan->enforcement.filesystem == SBX_LEVEL_PARTIAL,
          "a git directory without commondir: the gap, filesystem partial");
  tap_ok (
      plan
          && has_reason (plan, "the sandbox can write /home/u/ws/.git/index:"),
      "a writable git directory: its index, which can record a "
      "submodule of the sandbox's, is a gap");
  sbx_plan_free (plan);

  static const struct fake_path bare[] = {
    { "/home/u/ws/.git", SBX_PATH_DIR },
    { NULL, SBX_PATH_ABSENT },
  };
  plan = resolve (bare, NULL);
  tap_ok (has_reason (plan, "/home/u/ws/.git lacks commondir and config:"),
          "no config either: both named");
  sbx_plan_free (plan);

  static const struct fake_path worktree[] = {
    { "/home/u/ws/.git", SBX_PATH_DIR },
    { "/home/u/ws/.git/config", SBX_PATH_FILE },
    { "/home/u/ws/.git/commondir", SBX_PATH_FILE },
    { "/home/u/ws/.git/config.worktree", SBX_PATH_FILE },
    { NULL, SBX_PATH_ABSENT },
  };
  plan = resolve (worktree, NULL);
  if (!tap_ok (plan && !has_reason (plan, "lacks commondir")
                   && bound_ro (plan, "/home/u/ws/.git/commondir")
                   && bound_ro (plan, "/home/u/ws/.git/config.worktree"),
               "commondir and config.worktree there: held read-only, no "
               "commondir gap"))
    show_reasons (plan);
  sbx_plan_free (plan);

  plan = resolve (repo, "{\"destination\": \"/home/u/ws/.git\", \"type\": "
                        "\"bind\", \"source\": \"/home/u/ws/.git\", "
                        "\"options\": [\"rbind\", \"ro\"]}");
  tap_ok (plan && !has_reason (plan, "lacks commondir")
              && plan->enforcement.filesystem == SBX_LEVEL_FULL,
          "a git directory the config binds read-only: no gap, full");
  sbx_plan_free (plan);
}

/* One resolution: the workspace WS (NULL: /home/u/ws) on the fake host's
   PATHS (NULL: the linked repository) with FILES' texts, and what its
   reasons must hold (WANT) or must not (NOT).  */
struct config_case
{
  const char *what;
  const struct fake_path *paths;
  const char *ws;
  const char *mounts;
  const char *const *files;
  const char *want, *not ;
};

static const struct fake_path inner[] = {
  { "/repo/.git", SBX_PATH_DIR },
  { "/repo/.git/config", SBX_PATH_FILE },
  { "/repo/front", SBX_PATH_DIR },
  { NULL, SBX_PATH_ABSENT },
};

/* A linked worktree of /r/main checked out at /r/wt.  */
static const struct fake_path worktrees[] = {
  { "/r", SBX_PATH_DIR },
  { "/r/main/.git", SBX_PATH_DIR },
  { "/r/main/.git/config", SBX_PATH_FILE },
  { "/r/main/.git/worktrees/wt", SBX_PATH_DIR },
  { "/r/main/.git/worktrees/wt/commondir", SBX_PATH_FILE },
  { "/r/wt", SBX_PATH_DIR },
  { "/r/wt/.git", SBX_PATH_FILE },
  { "/r/wt/pkg", SBX_PATH_DIR },
  { NULL, SBX_PATH_ABSENT },
};
static const char *const worktree_files[] = {
  "/r/wt/.git",
  "gitdir: /r/main/.git/worktrees/wt\n",
  "/r/main/.git/worktrees/wt/commondir",
  "../..\n",
  "/r/main/.git/config",
  "[core]\n\thooksPath = pkg/.husky\n",
  NULL,
};

/* Commondir files: two that name each other, and one planted to name a
   directory of the workspace no one holds.  */
static const struct fake_path commondirs[] = {
  { "/home/u/ws/.git", SBX_PATH_DIR },
  { "/home/u/ws/.git/config", SBX_PATH_FILE },
  { "/home/u/ws/.git/commondir", SBX_PATH_FILE },
  { "/home/u/ws/b", SBX_PATH_DIR },
  { NULL, SBX_PATH_ABSENT },
};

#define GIT_RO                                                                \
  "{\"destination\": \"/home/u/ws/.git\", \"type\": \"bind\", \"source\": "   \
  "\"/home/u/ws/.git\", \"options\": [\"rbind\", \"ro\"]}"
#define WS_CONFIG "/home/u/ws/.git/config"

static char long_command[6000];

static const struct config_case config_cases[] = {
  { "redirects into the workspace are named; one outside is not", NULL, NULL,
    NULL,
    (const char *const[]){ WS_CONFIG,
                           "[core]\n\thooksPath = .husky\n[include]\n\tpath = "
                           "/etc/gitconfig.d/x\n[includeIf \"onbranch:x\"]\n"
                           "\tpath = /home/u/ws/inc\n",
                           NULL },
    "the git config " WS_CONFIG " names core.hooksPath .husky, "
    "includeIf.path /home/u/ws/inc:",
    NULL },
  { "a hooksPath outside every writable root: no gap", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG, "[core]\n\thooksPath = /usr/share/h\n",
                           NULL },
    NULL, "the git config" },
  { "a value spelt otherwise is compared as the path it is", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG,
                           "[core]\n\thooksPath = //home/u/./ws/h\n", NULL },
    "names core.hooksPath //home/u/./ws/h", NULL },
  { "a value through a link into the workspace is followed", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG, "[core]\n\thooksPath = /tmp/wslink/hk\n",
                           NULL },
    "names core.hooksPath /tmp/wslink/hk:", NULL },
  { "a git directory bound read-only still has its config read", NULL, NULL,
    GIT_RO,
    (const char *const[]){ WS_CONFIG, "[core]\n\thooksPath = .husky\n", NULL },
    "names core.hooksPath .husky", NULL },
  { "a workspace inside a repository: the repository's config is read", inner,
    "/repo/front", NULL,
    (const char *const[]){ "/repo/.git/config",
                           "[core]\n\thooksPath = front/.husky\n", NULL },
    "the git config /repo/.git/config names core.hooksPath front/.husky",
    NULL },
  { "a root inside a linked worktree: the main repository's config", worktrees,
    "/r/wt/pkg", NULL, worktree_files,
    "the git config /r/main/.git/config names core.hooksPath pkg/.husky",
    NULL },
  { "a root that is a linked worktree: the same", worktrees, "/r/wt", NULL,
    worktree_files,
    "the git config /r/main/.git/config names core.hooksPath pkg/.husky",
    NULL },
  { "two commondirs that name each other: one step, as git takes", commondirs,
    NULL, NULL,
    (const char *const[]){ "/home/u/ws/.git/commondir", "../b\n",
                           "/home/u/ws/b/commondir", "../.git\n",
                           "/home/u/ws/b/config",
                           "[core]\n\thooksPath = /home/u/ws/h\n", NULL },
    "the git config /home/u/ws/b/config names core.hooksPath /home/u/ws/h",
    NULL },
  { "a commondir into the workspace's reach that no one holds: a gap",
    commondirs, NULL, NULL,
    (const char *const[]){ "/home/u/ws/.git/commondir", "../b\n", NULL },
    "the git directory /home/u/ws/.git names /home/u/ws/b as its commondir",
    NULL },
  { "programs in the workspace are named, programs on PATH are not", NULL,
    NULL, NULL,
    (const char *const[]){
        WS_CONFIG,
        "[core]\n\tfsmonitor = tools/fsmon\n\tsshCommand = ssh -v\n"
        "[alias]\n\tst = !./st.sh --x\n\tco = checkout\n"
        "[filter \"lfs\"]\n\tclean = git-lfs clean\n"
        "[diff \"pdf\"]\n\ttextconv = /home/u/ws/bin/pdf2txt\n",
        NULL },
    "names core.fsmonitor tools/fsmon, alias.* !./st.sh --x, "
    "diff.*.textconv /home/u/ws/bin/pdf2txt:",
    NULL },
  { "a command's arguments are looked at, not only its first word", NULL, NULL,
    NULL,
    (const char *const[]){
        WS_CONFIG,
        "[core]\n\tsshCommand = ssh -F /home/u/ws/ssh_config\n\tpager = less\n"
        "[credential]\n\thelper = store --file=/home/u/ws/.creds\n"
        "[alias]\n\tx = !sh ./x.sh\n",
        NULL },
    "names core.sshCommand ssh -F /home/u/ws/ssh_config, credential.helper "
    "store --file=/home/u/ws/.creds, alias.* !sh ./x.sh:",
    NULL },
  { "core.fsmonitor = true is git's own daemon: not named", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG, "[core]\n\tfsmonitor = true\n", NULL },
    NULL, "the git config" },
  { "a path after 4 KiB of value is still looked at", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG, long_command, NULL },
    "-F /home/u/ws/cfg", NULL },
  { "an include outside is followed, and what it names is reported", NULL,
    NULL, NULL,
    (const char *const[]){
        WS_CONFIG, "[include]\n\tpath = /etc/team.inc\n\tpath = local.inc\n",
        "/etc/team.inc", "[core]\n\thooksPath = /home/u/ws/hooks\n",
        "/home/u/ws/.git/local.inc", "[include]\n\tpath = /etc/team.inc\n",
        NULL },
    "the git config /etc/team.inc names core.hooksPath /home/u/ws/hooks:",
    NULL },
  { "the including config names the include in reach, not the one outside",
    NULL, NULL, NULL,
    (const char *const[]){
        WS_CONFIG, "[include]\n\tpath = /etc/t.inc\n\tpath = l.inc\n",
        "/etc/t.inc", "[core]\n\thooksPath = /home/u/ws/h\n", NULL },
    WS_CONFIG " names include.path l.inc:", "include.path /etc/t.inc" },
  { "a relative include outside reach is read beside its config", inner,
    "/repo/front", NULL,
    (const char *const[]){ "/repo/.git/config", "[include]\n\tpath = t.inc\n",
                           "/repo/.git/t.inc",
                           "[core]\n\thooksPath = /repo/front/h\n", NULL },
    "the git config /repo/.git/t.inc names core.hooksPath /repo/front/h:",
    "names include.path t.inc" },
  { "includes that fan out stop at a bound, and say so", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG, "[include]\n\tpath = /etc/fan\n",
                           "/etc/fan",
                           "[include]\n\tpath = /etc/fan\n\tpath = /etc/fan\n"
                           "\tpath = /etc/fan\n\tpath = /etc/fan\n"
                           "\tpath = /etc/fan\n\tpath = /etc/fan\n",
                           NULL },
    "past 64 included files", NULL },
  { "the home's global config is read as well", NULL, NULL, NULL,
    (const char *const[]){ "/home/u/.gitconfig",
                           "[core]\n\thooksPath = /home/u/ws/h\n", NULL },
    "the git config /home/u/.gitconfig names core.hooksPath /home/u/ws/h:",
    NULL },
  { "a config sbx-oci cannot read is a gap", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG, UNREADABLE, NULL },
    "the git config " WS_CONFIG " cannot be read here", NULL },
  { "worktreeConfig = false is not reported", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG,
                           "[extensions]\n\tworktreeConfig = false\n", NULL },
    NULL, "the git config" },
  { "a bare worktreeConfig is git's true: reported", NULL, NULL, NULL,
    (const char *const[]){ WS_CONFIG, "[extensions]\n\tworktreeConfig\n",
                           NULL },
    "names extensions.worktreeConfig true", NULL },
};

static void
test_config_cases (void)
{
  memset (long_command, 'A', sizeof long_command - 1);
  static const char head[] = "[core]\n\tsshCommand = ssh -o X=";
  memcpy (long_command, head, sizeof head - 1);
  snprintf (long_command + 5000, 1000, " -F /home/u/ws/cfg\n");
  for (size_t i = 0; i < sizeof config_cases / sizeof *config_cases; i++)
    {
      const struct config_case *c = &config_cases[i];
      texts = c->files;
      struct sbx_host_facts host = quiet_host (c->paths ? c->paths : linked);
      struct sbx_plan *plan
          = resolve_on (&host, c->ws ? c->ws : "/home/u/ws", c->mounts);
      bool ok = plan && (!c->want || has_reason (plan, c->want))
                && (!c->not || !has_reason (plan, c->not ));
      if (!tap_ok (ok, "%s", c->what))
        show_reasons (plan);
      sbx_plan_free (plan);
    }
  texts = NULL;
}

/* Redirects make the file system partial; none leaves only the index's
   gap.  */
static void
test_levels (void)
{
  static const char *const in_reach[]
      = { WS_CONFIG, "[core]\n\thooksPath = .husky\n", NULL };
  texts = in_reach;
  struct sbx_plan *plan = resolve (linked, NULL);
  tap_ok (plan && plan->enforcement.filesystem == SBX_LEVEL_PARTIAL,
          "a redirect into reach: filesystem partial");
  sbx_plan_free (plan);
  texts = NULL;
  plan = resolve (linked, NULL);
  tap_ok (plan && plan->enforcement.reasons.n == 1
              && has_reason (plan, "/index: a repository it makes"),
          "no redirect: only the index the sandbox may write (a submodule "
          "of its own) is reported");
  sbx_plan_free (plan);

  /* A worktree's commondir naming the workspace's own git directory,
     which the plan holds: no gap.  */
  static const struct fake_path wt_in_ws[] = {
    { "/home/u/ws/.git", SBX_PATH_DIR },
    { "/home/u/ws/.git/config", SBX_PATH_FILE },
    { "/home/u/ws/.git/hooks", SBX_PATH_DIR },
    { "/home/u/ws/.git/worktrees/w", SBX_PATH_DIR },
    { "/home/u/ws/.git/worktrees/w/commondir", SBX_PATH_FILE },
    { NULL, SBX_PATH_ABSENT },
  };
  static const char *const to_main[]
      = { "/home/u/ws/.git/worktrees/w/commondir", "../..\n", NULL };
  static const char *const meta_v[] = { "/home/u/ws/.git/worktrees/w", NULL };
  struct strv meta = { (char **) meta_v, 1, 1 };
  texts = to_main;
  struct sbx_host_facts host = quiet_host (wt_in_ws);
  host.git_meta = &meta;
  plan = resolve_on (&host, "/home/u/ws", NULL);
  tap_ok (plan && !has_reason (plan, "as its commondir"),
          "a worktree's commondir naming the held main git directory: no "
          "gap");
  sbx_plan_free (plan);
  texts = NULL;
}

int
main (void)
{
  test_scanner ();
  test_git_dirs ();
  test_config_cases ();
  test_levels ();
  return tap_done ();
}
