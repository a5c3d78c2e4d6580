/* The fence's library on a real directory tree: a plan resolved from an
   agent config (nested deny and re-grant layers, protected metadata, a
   hidden credential store, a hard-link alias), then every operation, each
   refusal checked for its rule and for nothing touched outside.  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_host.h"
#include "fence/fence.h"
#include "runtime/host_paths.h"
#include "tap.h"

static char top[64];

static char *
at (const char *rel)
{
  static char buf[8][512];
  static int i;
  i = (i + 1) % 8;
  snprintf (buf[i], sizeof buf[i], "%s/%s", top, rel);
  return buf[i];
}

static void
put (const char *rel, const char *text)
{
  FILE *f = fopen (at (rel), "w");
  fputs (text, f);
  fclose (f);
}

static void
make_tree (void)
{
  /* Not below /tmp: the sandbox's /tmp is a private tmpfs.  */
  strcpy (top, "/var/tmp/test_fence.XXXXXX");
  if (mkdtemp (top) == NULL)
    abort ();
  const char *dirs[]
      = { "home",      "home/.ssh",     "ws",     "ws/.git", "ws/.git/hooks",
          "ws/secret", "ws/secret/pub", "ws/sub", "outside" };
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    mkdir (at (dirs[i]), 0755);
  put ("home/.ssh/id_ed25519", "key");
  put ("ws/.git/config", "[core]");
  put ("ws/secret/x", "secret");
  put ("ws/file", "old");
  put ("outside/target", "outside");
  chmod (at ("ws/file"), 0640);
  if (link (at ("outside/target"), at ("ws/alias")) < 0
      || symlink (at ("outside"), at ("ws/up")) < 0
      || symlink ("../outside/target", at ("ws/rel")) < 0)
    abort ();
}

/* The plan a sandbox of the config would get on this tree.  */
static struct sbx_fence *
fence_for_tree (const char *cwd)
{
  char json[4096];
  snprintf (
      json, sizeof json,
      "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/\", "
      "\"readonly\": true}, \"process\": {\"args\": [\"true\"], "
      "\"cwd\": \"%s\"}, \"mounts\": ["
      "{\"destination\": \"%s\", \"type\": \"tmpfs\", "
      "\"options\": [\"ro\"]},"
      "{\"destination\": \"%s\", \"type\": \"bind\", \"source\": \"%s\", "
      "\"options\": [\"rbind\", \"rw\"]}],"
      "\"sbx\": {\"mode\": \"workspace-write\", \"workspace\": \"%s\"}}",
      cwd, at ("ws/secret"), at ("ws/secret/pub"), at ("ws/secret/pub"),
      at ("ws"));
  struct sbx_host_facts host = fake_host (NULL);
  host.home = at ("home");
  host.path_kind = sbx_host_path_kind;
  struct strv aliases = { 0 }, git = { 0 };
  strv_push (&aliases, at ("ws/alias"));
  host.alias_files = &aliases;
  host.git_meta = &git;
  struct sbx_error err = { 0 };
  struct sbx_plan *plan = NULL;
  struct sbx_fence *f = NULL;
  int r = fake_resolve_json (json, &host, &plan, &err);
  if (r == 0)
    r = sbx_fence_from_plan (plan, &f, &err);
  tap_ok (r == 0, "a fence from the resolved plan (%s)", err.msg);
  sbx_plan_free (plan);
  strv_free (&aliases);
  return f;
}

static char *
slurp (const char *rel)
{
  static char buf[256];
  buf[0] = '\0';
  FILE *f = fopen (at (rel), "r");
  if (f)
    {
      buf[fread (buf, 1, sizeof buf - 1, f)] = '\0';
      fclose (f);
    }
  return buf;
}

/* A write of PATH refused with RULE, ERR naming the path and the rule. */
static void
refused (int r, const struct sbx_fence_verdict *v, const struct sbx_error *e,
         const char *rule, const char *what)
{
  tap_ok (r == -EACCES && v->path && strstr (e->msg, v->path)
              && strstr (e->msg, "allowed by: ")
              && strcmp (sbx_fence_rule_name (v->rule), rule) == 0,
          "%s: refused by %s (%s)", what, rule, e->msg);
}

static void
test_check (struct sbx_fence *f)
{
  struct
  {
    const char *rel;
    enum sbx_fence_access access;
    const char *rule;
  } table[] = {
    { "ws/new", SBX_FENCE_WRITE, "granted" },
    { "ws/sub/../new", SBX_FENCE_WRITE, "granted" },
    { "ws/../outside/x", SBX_FENCE_WRITE, "read-only" },
    /* The sandbox takes "up/.." as the parent of up's target (outside),
       not as ws: the fence, which follows no link, refuses it.  */
    { "ws/up/../new", SBX_FENCE_WRITE, "symlink" },
    { "ws/sub/../up/../new", SBX_FENCE_WRITE, "symlink" },
    { "outside/target", SBX_FENCE_READ, "granted" },
    { "ws/.git/config", SBX_FENCE_WRITE, "protected-metadata" },
    { "ws/.git/config", SBX_FENCE_READ, "granted" },
    { "ws/.git", SBX_FENCE_ERASE, "mount-point" },
    { "home/.ssh/id_ed25519", SBX_FENCE_READ, "credential-store" },
    { "ws/secret/x", SBX_FENCE_READ, "config-layer" },
    { "ws/secret/pub/y", SBX_FENCE_WRITE, "granted" },
    { "ws/alias", SBX_FENCE_WRITE, "hard-link-alias" },
  };
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    {
      struct sbx_fence_verdict v;
      struct sbx_error err = { 0 };
      int r
          = sbx_fence_check (f, at (table[i].rel), table[i].access, &v, &err);
      tap_ok (r == 0
                  && strcmp (sbx_fence_rule_name (v.rule), table[i].rule) == 0,
              "check %s %s: %s (got %s)",
              sbx_fence_access_name (table[i].access), table[i].rel,
              table[i].rule, r == 0 ? sbx_fence_rule_name (v.rule) : err.msg);
      sbx_fence_verdict_free (&v);
    }
  /* A ".." over a directory that is not there fails in the sandbox
     (ENOENT), and so in the fence.  */
  struct sbx_fence_verdict v;
  struct sbx_error err = { 0 };
  int r = sbx_fence_check (f, at ("ws/nothere/../new"), SBX_FENCE_WRITE, &v,
                           &err);
  tap_ok (r == -ENOENT && strstr (err.msg, "nothere"),
          "check of missing/../new fails as in the sandbox (%s)", err.msg);
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  /* A relative path is the sandbox's: relative to process.cwd.  */
  sbx_fence_check (f, ".git/hooks/pre-commit", SBX_FENCE_WRITE, &v, &err);
  tap_ok (v.path && strcmp (v.path, at ("ws/.git/hooks/pre-commit")) == 0,
          "a relative path is taken from process.cwd");
  char *json = sbx_fence_verdict_json (&v);
  tap_ok (json && strstr (json, "\"allowed\":false")
              && strstr (json, "\"rule\":\"protected-metadata\""),
          "the verdict as JSON");
  free (json);
  sbx_fence_verdict_free (&v);
}

static void
test_write (struct sbx_fence *f)
{
  struct sbx_fence_verdict v = { 0 };
  struct sbx_error err = { 0 };
  struct stat before, after;
  stat (at ("ws/file"), &before);
  sbx_error_clear (&err);
  int r = sbx_fence_write (f, at ("ws/file"), "new", 3, &v, &err);
  stat (at ("ws/file"), &after);
  tap_ok (r == 0 && strcmp (slurp ("ws/file"), "new") == 0,
          "write replaces a file in the workspace (%s)", err.msg);
  tap_ok (before.st_ino != after.st_ino && (after.st_mode & 0777) == 0640,
          "the replacement is a new file (atomic rename) with the old mode");
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/sub/made"), "x", 1, &v, &err);
  tap_ok (r == 0 && strcmp (slurp ("ws/sub/made"), "x") == 0,
          "write makes a new file");
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/.git/config"), "evil", 4, &v, &err);
  refused (r, &v, &err, "protected-metadata", "write .git/config");
  tap_ok (strcmp (slurp ("ws/.git/config"), "[core]") == 0,
          ".git/config unchanged");
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/up/target"), "evil", 4, &v, &err);
  refused (r, &v, &err, "symlink",
           "write through a link in a middle component");
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  /* A name ending in "/" or "/." is a directory's, as to the kernel.  */
  r = sbx_fence_write (f, at ("ws/file/"), "x", 1, &v, &err);
  tap_ok (r == -EISDIR && strcmp (slurp ("ws/file"), "new") == 0,
          "write to file/ fails, the file unchanged (%s)", err.msg);
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/newdir/."), "x", 1, &v, &err);
  tap_ok (r == -EISDIR && access (at ("ws/newdir"), F_OK) < 0,
          "write to newdir/. fails, nothing made (%s)", err.msg);
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/up/../dotdot"), "evil", 4, &v, &err);
  refused (r, &v, &err, "symlink", "write to a \"..\" after a link");
  tap_ok (access (at ("ws/dotdot"), F_OK) < 0
              && access (at ("dotdot"), F_OK) < 0,
          "nothing written for link/..");
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/rel"), "evil", 4, &v, &err);
  refused (r, &v, &err, "symlink",
           "write to a relative link (last component)");
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  r = sbx_fence_append (f, at ("ws/rel"), "evil", 4, &v, &err);
  refused (r, &v, &err, "symlink", "append to a link");
  sbx_fence_verdict_free (&v);
  tap_ok (strcmp (slurp ("outside/target"), "outside") == 0,
          "nothing written outside through a link");
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/alias"), "evil", 4, &v, &err);
  refused (r, &v, &err, "hard-link-alias", "write a hard-link alias");
  sbx_fence_verdict_free (&v);
  /* A link made after the plan: found when the write acts.  */
  link (at ("ws/file"), at ("outside/late"));
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/file"), "evil", 4, &v, &err);
  refused (r, &v, &err, "hard-link", "write a file linked after the plan");
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  r = sbx_fence_append (f, at ("ws/file"), "evil", 4, &v, &err);
  refused (r, &v, &err, "hard-link", "append to it");
  sbx_fence_verdict_free (&v);
  tap_ok (strcmp (slurp ("outside/late"), "new") == 0,
          "its other name is unchanged");
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/secret/pub/y"), "ok", 2, &v, &err);
  tap_ok (r == 0 && strcmp (slurp ("ws/secret/pub/y"), "ok") == 0,
          "write in a re-grant inside a deny layer");
  sbx_error_clear (&err);
  r = sbx_fence_write (f, at ("ws/secret/z"), "evil", 4, &v, &err);
  refused (r, &v, &err, "config-layer", "write in the deny layer");
  sbx_fence_verdict_free (&v);
}

static void
test_other_ops (struct sbx_fence *f)
{
  struct sbx_fence_verdict v = { 0 };
  struct sbx_error err = { 0 };
  char *data = NULL;
  size_t len = 0;
  sbx_error_clear (&err);
  int r = sbx_fence_read (f, at ("ws/file"), 100, &data, &len, &v, &err);
  tap_ok (r == 0 && len == 3 && strcmp (data, "new") == 0, "read");
  free (data);
  sbx_error_clear (&err);
  r = sbx_fence_read (f, at ("ws/file"), 2, &data, &len, &v, &err);
  tap_ok (r == -EFBIG, "read past MAX is -EFBIG");
  sbx_error_clear (&err);
  r = sbx_fence_read (f, at ("home/.ssh/id_ed25519"), 100, &data, &len, &v,
                      &err);
  refused (r, &v, &err, "credential-store", "read a hidden credential store");
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  r = sbx_fence_append (f, at ("ws/log"), "a", 1, &v, &err);
  sbx_error_clear (&err);
  r |= sbx_fence_append (f, at ("ws/log"), "b", 1, &v, &err);
  tap_ok (r == 0 && strcmp (slurp ("ws/log"), "ab") == 0, "append");
  sbx_error_clear (&err);
  r = sbx_fence_mkdir (f, at ("ws/d"), 0755, &v, &err);
  sbx_error_clear (&err);
  r |= sbx_fence_rename (f, at ("ws/log"), at ("ws/d/log"), &v, &err);
  tap_ok (r == 0 && strcmp (slurp ("ws/d/log"), "ab") == 0, "mkdir, rename");
  sbx_error_clear (&err);
  r = sbx_fence_rename (f, at ("ws/d/log"), at ("ws/secret/pub/log"), &v,
                        &err);
  refused (r, &v, &err, "cross-layer", "rename between two layers");
  sbx_fence_verdict_free (&v);
  sbx_error_clear (&err);
  r = sbx_fence_rename (f, at ("ws/.git"), at ("ws/git.old"), &v, &err);
  refused (r, &v, &err, "mount-point", "rename the pinned .git away");
  sbx_fence_verdict_free (&v);
  struct stat st;
  sbx_error_clear (&err);
  r = sbx_fence_stat (f, at ("ws/up"), &st, &v, &err);
  tap_ok (r == 0 && S_ISLNK (st.st_mode), "stat describes a last link");
  struct strv names = { 0 };
  sbx_error_clear (&err);
  r = sbx_fence_list (f, at ("ws/d"), &names, &v, &err);
  tap_ok (r == 0 && names.n == 1 && strcmp (names.v[0], "log") == 0, "list");
  strv_free (&names);
  sbx_error_clear (&err);
  r = sbx_fence_remove (f, at ("ws/d/log"), &v, &err);
  sbx_error_clear (&err);
  r |= sbx_fence_remove (f, at ("ws/d"), &v, &err);
  tap_ok (r == 0 && access (at ("ws/d"), F_OK) < 0, "remove a file, a dir");
  sbx_error_clear (&err);
  r = sbx_fence_remove (f, at ("ws/up"), &v, &err);
  tap_ok (r == 0 && access (at ("outside/target"), F_OK) == 0,
          "remove a link, not its target");
  sbx_error_clear (&err);
  r = sbx_fence_read (f, at ("ws/nothere"), 10, &data, &len, &v, &err);
  tap_ok (r == -ENOENT && v.path == NULL,
          "a missing file is the system's error, not a refusal");
}

/* A ".." in process.cwd is the kernel's too: with cwd ws/up/.. the
   sandbox's "x" is outside/../x, not ws/x.  */
static void
test_cwd_dotdot (void)
{
  char cwd[256];
  snprintf (cwd, sizeof cwd, "%s", at ("ws/up/.."));
  struct sbx_fence *f = fence_for_tree (cwd);
  struct sbx_fence_verdict v = { 0 };
  struct sbx_error err = { 0 };
  int r = f ? sbx_fence_write (f, "cwdx", "x", 1, &v, &err) : -1;
  refused (r, &v, &err, "symlink", "write relative to a cwd with link/..");
  tap_ok (access (at ("ws/cwdx"), F_OK) < 0, "nothing written for it");
  sbx_fence_verdict_free (&v);
  sbx_fence_free (f);
}

int
main (void)
{
  make_tree ();
  char ws[256];
  snprintf (ws, sizeof ws, "%s", at ("ws"));
  struct sbx_fence *f = fence_for_tree (ws);
  if (f)
    {
      test_check (f);
      test_write (f);
      test_cwd_dotdot ();
      test_other_ops (f);
    }
  sbx_fence_free (f);
  char cmd[128];
  snprintf (cmd, sizeof cmd, "rm -rf %s", top);
  if (system (cmd) != 0)
    tap_ok (false, "clean up %s", top);
  return tap_done ();
}
