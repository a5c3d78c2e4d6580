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

static struct sbx_plan *
resolve (const struct fake_path *paths, const char *mounts)
{
  char json[2048];
  snprintf (json, sizeof json,
            AGENT_JSON ("%s", "\"mode\": \"workspace-write\", "
                              "\"workspace\": \"/home/u/ws\", "
                              "\"network\": \"deny\""),
            mounts ? mounts : "");
  struct sbx_host_facts host = fake_host (paths);
  /* A host where nothing else is a gap: a bubblewrap without the fix's
     gap and with --bind-fd, and Landlock.  */
  host.runner_version[0] = 1;
  host.runner_bind_fd = true;
  host.landlock_abi = 7;
  host.read_text = fake_read_text;
  host.resolve = fake_resolve;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  if (fake_resolve_json (json, &host, &plan, &err) < 0)
    printf ("# %s\n", err.msg);
  return plan;
}

/* Every reason, for the log of a failing case.  */
static void
show_reasons (const struct sbx_plan *plan)
{
  for (size_t i = 0; plan && i < plan->enforcement.reasons.n; i++)
    printf ("# reason: %s\n", plan->enforcement.reasons.v[i]);
}

/* resolve () with the workspace WS (no mounts).  */
static struct sbx_plan *
resolve_at (const struct fake_path *paths, const char *ws)
{
  char json[2048];
  snprintf (json, sizeof json,
            AGENT_JSON ("", "\"mode\": \"workspace-write\", "
                            "\"workspace\": \"%s\", \"network\": \"deny\""),
            ws);
  struct sbx_host_facts host = fake_host (paths);
  host.runner_version[0] = 1;
  host.runner_bind_fd = true;
  host.landlock_abi = 7;
  host.read_text = fake_read_text;
  host.resolve = fake_resolve;
  struct sbx_plan *plan = NULL;
  struct sbx_error err = { 0 };
  if (fake_resolve_json (json, &host, &plan, &err) < 0)
    printf ("# %s\n", err.msg);
  return plan;
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
                   && bound_ro (plan, "/home/u/ws/.git/config.worktree")
                   && plan->enforcement.filesystem == SBX_LEVEL_FULL,
               "commondir and config.worktree there: held read-only, no gap"))
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

static void
test_redirects (void)
{
  static const char *const reach[] = {
    "/home/u/ws/.git/config",
    "[core]\n\thooksPath = .husky\n[include]\n\tpath = /etc/gitconfig.d/x\n"
    "[includeIf \"onbranch:x\"]\n\tpath = /home/u/ws/inc\n",
    NULL,
  };
  texts = reach;
  struct sbx_plan *plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "the git config /home/u/ws/.git/config names "
                            "core.hooksPath .husky, includeIf.path "
                            "/home/u/ws/inc:"),
          "redirects into the workspace are named; one outside is not");
  tap_ok (plan && plan->enforcement.filesystem == SBX_LEVEL_PARTIAL,
          "  and the filesystem is partial");
  sbx_plan_free (plan);
  static const char *const outside[] = {
    "/home/u/ws/.git/config",
    "[core]\n\thooksPath = /usr/share/hooks\n",
    NULL,
  };
  static const char *const normalised[] = {
    "/home/u/ws/.git/config",
    "[core]\n\thooksPath = //home/u/./ws/hk\n",
    NULL,
  };
  texts = normalised;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "names core.hooksPath //home/u/./ws/hk"),
          "a value spelt otherwise is compared as the path it is");
  sbx_plan_free (plan);
  static const char *const narrowed[] = {
    "/home/u/ws/.git/config",
    "[core]\n\thooksPath = .husky\n",
    NULL,
  };
  texts = narrowed;
  plan = resolve (linked, "{\"destination\": \"/home/u/ws/.git\", \"type\": "
                          "\"bind\", \"source\": \"/home/u/ws/.git\", "
                          "\"options\": [\"rbind\", \"ro\"]}");
  tap_ok (has_reason (plan, "names core.hooksPath .husky"),
          "a git directory bound read-only still has its config read");
  sbx_plan_free (plan);
  static const struct fake_path inner[] = {
    { "/repo/.git", SBX_PATH_DIR },
    { "/repo/.git/config", SBX_PATH_FILE },
    { "/repo/front", SBX_PATH_DIR },
    { NULL, SBX_PATH_ABSENT },
  };
  static const char *const enclosing[] = {
    "/repo/.git/config",
    "[core]\n\thooksPath = front/.husky\n",
    NULL,
  };
  texts = enclosing;
  char json[1024];
  snprintf (json, sizeof json, "%s",
            AGENT_JSON ("", "\"mode\": \"workspace-write\", "
                            "\"workspace\": \"/repo/front\", "
                            "\"network\": \"deny\""));
  struct sbx_host_facts host = fake_host (inner);
  host.read_text = fake_read_text;
  struct sbx_error err = { 0 };
  plan = NULL;
  fake_resolve_json (json, &host, &plan, &err);
  tap_ok (has_reason (plan, "the git config /repo/.git/config names "
                            "core.hooksPath front/.husky"),
          "a workspace inside a repository: the repository's config is read");
  sbx_plan_free (plan);
  texts = outside;
  plan = resolve (linked, NULL);
  tap_ok (plan && !has_reason (plan, "the git config")
              && plan->enforcement.filesystem == SBX_LEVEL_FULL,
          "a hooksPath outside every writable root: no gap");
  sbx_plan_free (plan);
  texts = NULL;
}

/* Settings that name a program, includes followed, a config that
   cannot be read.  */
static void
test_commands_and_includes (void)
{
  static const char *const commands[] = {
    "/home/u/ws/.git/config",
    "[core]\n\tfsmonitor = tools/fsmon\n\tsshCommand = ssh -v\n"
    "[alias]\n\tst = !./st.sh --x\n\tco = checkout\n"
    "[filter \"lfs\"]\n\tclean = git-lfs clean\n"
    "[diff \"pdf\"]\n\ttextconv = /home/u/ws/bin/pdf2txt\n",
    NULL,
  };
  texts = commands;
  struct sbx_plan *plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "names core.fsmonitor tools/fsmon, alias.* "
                            "!./st.sh --x, diff.*.textconv "
                            "/home/u/ws/bin/pdf2txt:"),
          "programs in the workspace are named, programs on PATH are not");
  sbx_plan_free (plan);
  static const char *const boolean[] = {
    "/home/u/ws/.git/config",
    "[core]\n\tfsmonitor = true\n",
    NULL,
  };
  texts = boolean;
  plan = resolve (linked, NULL);
  tap_ok (plan && !has_reason (plan, "the git config"),
          "core.fsmonitor = true is git's own daemon: not named");
  sbx_plan_free (plan);
  static const char *const included[] = {
    "/home/u/ws/.git/config",
    "[include]\n\tpath = /etc/team.inc\n\tpath = local.inc\n",
    "/etc/team.inc",
    "[core]\n\thooksPath = /home/u/ws/hooks\n",
    "/home/u/ws/.git/local.inc",
    "[include]\n\tpath = /etc/team.inc\n",
    NULL,
  };
  texts = included;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "the git config /etc/team.inc names "
                            "core.hooksPath /home/u/ws/hooks:"),
          "an include outside is followed, and what it names is reported");
  tap_ok (has_reason (plan, "/home/u/ws/.git/config names include.path "
                            "local.inc:"),
          "  the including config names the include in reach, not the one "
          "outside");
  sbx_plan_free (plan);
  static const char *const global[] = {
    "/home/u/.gitconfig",
    "[core]\n\thooksPath = /home/u/ws/h\n",
    NULL,
  };
  texts = global;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "the git config /home/u/.gitconfig names "
                            "core.hooksPath /home/u/ws/h:"),
          "the home's global config is read as well");
  sbx_plan_free (plan);
  static const char *const unreadable[] = {
    "/home/u/ws/.git/config",
    UNREADABLE,
    NULL,
  };
  texts = unreadable;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "the git config /home/u/ws/.git/config cannot "
                            "be read here"),
          "a config sbx-oci cannot read is a gap");
  sbx_plan_free (plan);
  texts = NULL;
}

/* Found by review: a root in a linked worktree (its .git a file naming
   the git directory, whose commondir names the main one), command
   arguments, a relative include outside reach, worktreeConfig's value.  */
static void
test_review_cases (void)
{
  static const struct fake_path repo[] = {
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
  static const char *const files[] = {
    "/r/wt/.git",
    "gitdir: /r/main/.git/worktrees/wt\n",
    "/r/main/.git/worktrees/wt/commondir",
    "../..\n",
    "/r/main/.git/config",
    "[core]\n\thooksPath = pkg/.husky\n",
    NULL,
  };
  texts = files;
  struct sbx_plan *plan = resolve_at (repo, "/r/wt/pkg");
  tap_ok (has_reason (plan, "the git config /r/main/.git/config names "
                            "core.hooksPath pkg/.husky"),
          "a root inside a linked worktree: the main repository's config");
  sbx_plan_free (plan);
  plan = resolve_at (repo, "/r/wt");
  tap_ok (has_reason (plan, "the git config /r/main/.git/config names "
                            "core.hooksPath pkg/.husky"),
          "a root that is a linked worktree: the same");
  sbx_plan_free (plan);

  static const struct fake_path loop[] = {
    { "/home/u/ws/.git", SBX_PATH_DIR },
    { "/home/u/ws/.git/config", SBX_PATH_FILE },
    { "/home/u/ws/.git/commondir", SBX_PATH_FILE },
    { "/home/u/ws/b", SBX_PATH_DIR },
    { NULL, SBX_PATH_ABSENT },
  };
  static const char *const loops[] = {
    "/home/u/ws/.git/commondir",
    "../b\n",
    "/home/u/ws/b/commondir",
    "../.git\n",
    "/home/u/ws/b/config",
    "[core]\n\thooksPath = /home/u/ws/h\n",
    NULL,
  };
  texts = loops;
  plan = resolve_at (loop, "/home/u/ws");
  tap_ok (has_reason (plan, "the git config /home/u/ws/b/config names "
                            "core.hooksPath /home/u/ws/h"),
          "two commondirs that name each other: one step, as git takes");
  sbx_plan_free (plan);

  /* A commondir planted by an earlier run, naming a directory of the
     workspace that no one holds; and one naming the workspace's own
     (held) git directory, as a linked worktree's does.  */
  static const struct fake_path planted[] = {
    { "/home/u/ws/.git", SBX_PATH_DIR },
    { "/home/u/ws/.git/config", SBX_PATH_FILE },
    { "/home/u/ws/.git/commondir", SBX_PATH_FILE },
    { "/home/u/ws/evil", SBX_PATH_DIR },
    { NULL, SBX_PATH_ABSENT },
  };
  static const char *const to_evil[] = {
    "/home/u/ws/.git/commondir",
    "../evil\n",
    NULL,
  };
  texts = to_evil;
  plan = resolve_at (planted, "/home/u/ws");
  tap_ok (has_reason (plan, "the git directory /home/u/ws/.git names "
                            "/home/u/ws/evil as its commondir"),
          "a commondir into the workspace's reach that no one holds: a gap");
  sbx_plan_free (plan);
  static const struct fake_path wt_in_ws[] = {
    { "/home/u/ws/.git", SBX_PATH_DIR },
    { "/home/u/ws/.git/config", SBX_PATH_FILE },
    { "/home/u/ws/.git/hooks", SBX_PATH_DIR },
    { "/home/u/ws/.git/worktrees/w", SBX_PATH_DIR },
    { "/home/u/ws/.git/worktrees/w/commondir", SBX_PATH_FILE },
    { NULL, SBX_PATH_ABSENT },
  };
  static const char *const to_main[] = {
    "/home/u/ws/.git/worktrees/w/commondir",
    "../..\n",
    NULL,
  };
  static const char *const meta_v[] = { "/home/u/ws/.git/worktrees/w", NULL };
  struct strv meta = { (char **) meta_v, 1, 1 };
  texts = to_main;
  {
    char json[2048];
    snprintf (json, sizeof json, "%s",
              AGENT_JSON ("", "\"mode\": \"workspace-write\", "
                              "\"workspace\": \"/home/u/ws\", "
                              "\"network\": \"deny\""));
    struct sbx_host_facts host = fake_host (wt_in_ws);
    host.read_text = fake_read_text;
    host.git_meta = &meta;
    struct sbx_error err = { 0 };
    plan = NULL;
    fake_resolve_json (json, &host, &plan, &err);
  }
  tap_ok (plan && !has_reason (plan, "as its commondir"),
          "a worktree's commondir naming the held main git directory: no "
          "gap");
  sbx_plan_free (plan);

  /* A value past 4 KiB, and a config that includes itself many times.  */
  static char long_cmd[6000];
  memset (long_cmd, 'A', sizeof long_cmd);
  static const char head[] = "[core]\n\tsshCommand = ssh -o X=";
  memcpy (long_cmd, head, sizeof head - 1);
  snprintf (long_cmd + 5000, 1000, " -F /home/u/ws/cfg\n");
  static const char *long_v[] = { "/home/u/ws/.git/config", long_cmd, NULL };
  texts = long_v;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "-F /home/u/ws/cfg"),
          "a path after 4 KiB of value is still looked at");
  sbx_plan_free (plan);
  static const char *const fan[] = {
    "/home/u/ws/.git/config",
    "[include]\n\tpath = /etc/fan\n",
    "/etc/fan",
    "[include]\n\tpath = /etc/fan\n\tpath = /etc/fan\n\tpath = "
    "/etc/fan\n\tpath = /etc/fan\n\tpath = /etc/fan\n\tpath = /etc/fan\n",
    NULL,
  };
  texts = fan;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "past 64 included files"),
          "includes that fan out stop at a bound, and say so");
  sbx_plan_free (plan);

  static const char *const args[] = {
    "/home/u/ws/.git/config",
    "[core]\n\tsshCommand = ssh -F /home/u/ws/ssh_config\n\tpager = less\n"
    "[credential]\n\thelper = store --file=/home/u/ws/.creds\n"
    "[alias]\n\tx = !sh ./x.sh\n",
    NULL,
  };
  texts = args;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "names core.sshCommand ssh -F "
                            "/home/u/ws/ssh_config, credential.helper store "
                            "--file=/home/u/ws/.creds, alias.* !sh ./x.sh:"),
          "a command's arguments are looked at, not only its first word");
  sbx_plan_free (plan);

  static const struct fake_path inner[] = {
    { "/repo/.git", SBX_PATH_DIR },
    { "/repo/.git/config", SBX_PATH_FILE },
    { "/repo/front", SBX_PATH_DIR },
    { NULL, SBX_PATH_ABSENT },
  };
  static const char *const relative[] = {
    "/repo/.git/config",
    "[include]\n\tpath = team.inc\n",
    "/repo/.git/team.inc",
    "[core]\n\thooksPath = /repo/front/h\n",
    NULL,
  };
  texts = relative;
  plan = resolve_at (inner, "/repo/front");
  tap_ok (has_reason (plan, "the git config /repo/.git/team.inc names "
                            "core.hooksPath /repo/front/h:")
              && !has_reason (plan, "names include.path team.inc"),
          "a relative include outside reach is read beside its config, and "
          "only what it names is reported");
  sbx_plan_free (plan);

  static const char *const linked_value[] = {
    "/home/u/ws/.git/config",
    "[core]\n\thooksPath = /tmp/wslink/hk\n",
    NULL,
  };
  texts = linked_value;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "names core.hooksPath /tmp/wslink/hk:"),
          "a value through a link into the workspace is followed");
  sbx_plan_free (plan);

  static const char *const flags[] = {
    "/home/u/ws/.git/config",
    "[extensions]\n\tworktreeConfig = false\n",
    NULL,
  };
  texts = flags;
  plan = resolve (linked, NULL);
  tap_ok (plan && !has_reason (plan, "the git config"),
          "worktreeConfig = false is not reported");
  sbx_plan_free (plan);
  static const char *const bare[] = {
    "/home/u/ws/.git/config",
    "[extensions]\n\tworktreeConfig\n",
    NULL,
  };
  texts = bare;
  plan = resolve (linked, NULL);
  tap_ok (has_reason (plan, "names extensions.worktreeConfig true"),
          "a bare worktreeConfig is git's true: reported");
  sbx_plan_free (plan);
  texts = NULL;
}

int
main (void)
{
  test_scanner ();
  test_git_dirs ();
  test_redirects ();
  test_commands_and_includes ();
  test_review_cases ();
  return tap_done ();
}
