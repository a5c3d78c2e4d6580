/* The hard-link alias walk over real temporary trees: links with their
   other name inside and outside the root, symlinks (never followed), nested
   and duplicate roots, both bounds, unreadable directories (as an
   unprivileged user) and another filesystem below a root (as root).  */
#include "runtime/linux/confine/alias_walk.h"
#include "tests/unit/in_child.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

static char base[64];

/* Create BASE/REL (a file, or a directory when REL ends in '/').  */
static void
make (const char *rel)
{
  char p[512];
  snprintf (p, sizeof p, "%s/%s", base, rel);
  size_t n = strlen (p);
  if (p[n - 1] == '/')
    {
      p[n - 1] = '\0';
      if (mkdir (p, 0755) < 0)
        perror (p);
      return;
    }
  int fd = open (p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    perror (p);
  else
    close (fd);
}

static void
hardlink (const char *from, const char *to)
{
  char a[512], b[512];
  snprintf (a, sizeof a, "%s/%s", base, from);
  snprintf (b, sizeof b, "%s/%s", base, to);
  if (link (a, b) < 0)
    perror (b);
}

static void
symlink_to (const char *target, const char *rel)
{
  char a[512], b[512];
  snprintf (a, sizeof a, "%s/%s", base, target);
  snprintf (b, sizeof b, "%s/%s", base, rel);
  if (symlink (a, b) < 0)
    perror (b);
}

/* Walk BASE/REL... and render the result as one line with paths relative
   to BASE: "v=VISITED s=SKIPPED t=TRUNCATED PATH..." or "error: MSG".  */
static void
walk (const char *const *rel, size_t n, uint32_t max_entries,
      uint32_t max_depth, char *line, size_t len, char **reason)
{
  char paths[8][512];
  const char *roots[8];
  for (size_t i = 0; i < n; i++)
    {
      snprintf (paths[i], sizeof paths[i], "%s/%s", base, rel[i]);
      roots[i] = paths[i];
    }
  struct sbx_alias_result res = { 0 };
  struct sbx_error err = { 0 };
  struct sbx_alias_walk_opts opts = { max_entries, max_depth, NULL, 0 };
  if (sbx_alias_walk (roots, n, &opts, &res, &err) < 0)
    snprintf (line, len, "error: %s", err.msg);
  else
    {
      size_t off = snprintf (line, len, "v=%llu s=%llu t=%d",
                             (unsigned long long) res.visited,
                             (unsigned long long) res.skipped, res.truncated);
      for (size_t i = 0; i < res.paths.n && off < len; i++)
        off += snprintf (line + off, len - off, " %s",
                         res.paths.v[i] + strlen (base) + 1);
    }
  if (reason)
    *reason = res.reason ? strdup (res.reason) : NULL;
  sbx_alias_result_free (&res);
}

static void
check (const char *const *rel, size_t n, uint32_t max_entries,
       uint32_t max_depth, const char *want, const char *name)
{
  char line[2048];
  walk (rel, n, max_entries, max_depth, line, sizeof line, NULL);
  tap_streq (line, want, name);
}

static bool
contains (const char *s, const char *part)
{
  bool ok = s && strstr (s, part);
  if (!ok)
    printf ("# %s does not contain %s\n", s ? s : "(null)", part);
  return ok;
}

static void
build_tree (void)
{
  make ("outside/");
  make ("outside/o1");
  make ("outside/o2");
  hardlink ("outside/o2", "outside/o3"); /* both names outside */
  make ("root/");
  make ("root/a/");
  hardlink ("outside/o1", "root/a/linked"); /* other name outside */
  make ("root/in1");
  hardlink ("root/in1", "root/in2"); /* both names inside */
  make ("root/plain");
  symlink_to ("outside/o2", "root/sym"); /* to a linked file */
  symlink_to ("outside", "root/symdir");
  symlink_to ("root", "rootlink");
}

static void
test_links_and_symlinks (void)
{
  const char *want = "v=7 s=0 t=0 root/a/linked root/in1 root/in2";
  check ((const char *[]){ "root" }, 1, 100, 24, want,
         "links inside and outside found, symlinks not followed");
  check ((const char *[]){ "root", "root/a" }, 2, 100, 24, want,
         "nested root walked once");
  check ((const char *[]){ "root/a", "root//" }, 2, 100, 24, want,
         "nested root listed first, trailing slashes");
  check ((const char *[]){ "root", "rootlink" }, 2, 100, 24, want,
         "the same root through a symlink walked once");
  check ((const char *[]){ "rootlink" }, 1, 100, 24,
         "v=7 s=0 t=0 rootlink/a/linked rootlink/in1 rootlink/in2",
         "a root named through a symlink: paths under that name");
  check ((const char *[]){ "root/plain", "outside/o1" }, 2, 100, 24,
         "v=0 s=0 t=0", "a root that is a file is not walked");
}

static void
test_errors (void)
{
  struct sbx_alias_result res = { 0 };
  struct sbx_error err = { 0 };
  const char *rel[] = { "relative/path" };
  struct sbx_alias_walk_opts ten = { 10, 10, NULL, 0 };
  tap_ok (sbx_alias_walk (rel, 1, &ten, &res, &err) == -EINVAL
              && contains (err.msg, "relative/path: must be an absolute"),
          "relative root refused");
  sbx_alias_result_free (&res);
  char line[1024];
  walk ((const char *[]){ "missing" }, 1, 10, 10, line, sizeof line, NULL);
  tap_ok (contains (line, "error: writable root ")
              && contains (line, "/missing: does not exist"),
          "missing root: does not exist");
}

static void
test_depth_bound (void)
{
  make ("deep/");
  make ("deep/d1/");
  make ("deep/d1/d2/");
  make ("deep/d1/d2/d3/");
  make ("deep/d1/d2/d3/f");
  hardlink ("deep/d1/d2/d3/f", "outside/deepf");
  make ("deep/d1/e2/"); /* empty at the bound: nothing left unseen */
  const char *deep[] = { "deep" };
  check (deep, 1, 100, 4, "v=5 s=0 t=0 deep/d1/d2/d3/f",
         "depth 4 reaches the file at depth 4");
  check (deep, 1, 100, 3, "v=4 s=0 t=1", "depth 3 stops above the file");
  char line[1024], *reason = NULL;
  walk (deep, 1, 100, 2, line, sizeof line, &reason);
  tap_streq (line, "v=3 s=0 t=1", "depth 2: d1, d2, e2 seen");
  tap_ok (contains (reason, "did not enter 1 directory deeper than its "
                            "depth bound 2, first ")
              && contains (reason, "/deep/d1/d2")
              && strstr (reason, "entries") == NULL,
          "depth reason names the bound and the directory");
  free (reason);
}

static void
test_entry_bound (void)
{
  make ("many/");
  for (int i = 0; i < 10; i++)
    {
      char rel[32];
      snprintf (rel, sizeof rel, "many/f%d", i);
      make (rel);
    }
  hardlink ("many/f3", "outside/many3");
  const char *many[] = { "many" };
  check (many, 1, 10, 24, "v=10 s=0 t=0 many/f3",
         "exactly max_entries entries: not truncated");
  char line[1024], *reason = NULL;
  walk (many, 1, 9, 24, line, sizeof line, &reason);
  tap_ok (strncmp (line, "v=9 s=0 t=1", 11) == 0, "9 of 10 entries: %s", line);
  tap_ok (contains (reason, "alias walk stopped at its bound of 9 entries "
                            "at ")
              && contains (reason, "/many/f"),
          "entry reason names the bound and the path");
  free (reason);
  /* deep/ starts with d1 alone: the 11th entry, then the bound.  */
  check ((const char *[]){ "many", "deep" }, 2, 11, 24, "v=11 s=0 t=1 many/f3",
         "the entry bound spans all roots");
}

/* As NOBODY: a directory without permission and one with read but not
   search permission are skipped and counted, the rest is walked.  */
static int
walk_unreadable (char *line, size_t len)
{
  if (geteuid () == 0
      && (setgroups (0, NULL) < 0 || setgid (NOBODY) < 0
          || setuid (NOBODY) < 0))
    return 1;
  walk ((const char *[]){ "unread" }, 1, 100, 24, line, len, NULL);
  return 0;
}

static void
test_unreadable (void)
{
  make ("unread/");
  make ("unread/ok/");
  make ("unread/ok/y");
  make ("unread/locked/");
  make ("unread/locked/x");
  hardlink ("unread/locked/x", "unread/ok/y2");
  make ("unread/nox/");
  make ("unread/nox/z");
  hardlink ("unread/nox/z", "outside/z");
  char p[512];
  snprintf (p, sizeof p, "%s/unread/locked", base);
  chmod (p, 0);
  snprintf (p, sizeof p, "%s/unread/nox", base);
  chmod (p, 0555 & ~0111);
  if (geteuid () == 0)
    {
      /* The tree must be reachable for NOBODY down to unread/.  */
      chmod (base, 0755);
      snprintf (p, sizeof p, "%s/outside/z", base);
      chmod (p, 0644);
    }
  char line[2048];
  int status = in_child (walk_unreadable, line, sizeof line);
  tap_ok (status == 0, "walk as an unprivileged user ran (status %d)", status);
  /* ok, ok/y, ok/y2, locked, nox, nox/z: 6 entries; locked and nox/z
     skipped.  */
  tap_streq (line, "v=6 s=2 t=0 unread/ok/y2",
             "unreadable directory and unstatable entry skipped");
}

/* As root, in a private mount namespace: a tmpfs below a root is another
   filesystem and is not walked from it, only as a root of its own.  */
static int
walk_other_fs (char *line, size_t len)
{
  char mnt[512];
  snprintf (mnt, sizeof mnt, "%s/xdev/mnt", base);
  if (unshare (CLONE_NEWNS) < 0
      || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0
      || mount ("tmpfs", mnt, "tmpfs", 0, "size=1m") < 0)
    {
      snprintf (line, len, "cannot mount: %s", strerror (errno));
      return 1;
    }
  make ("xdev/mnt/m1");
  hardlink ("xdev/mnt/m1", "xdev/mnt/m2");
  size_t off = 0;
  walk ((const char *[]){ "xdev" }, 1, 100, 24, line, len, NULL);
  off = strlen (line);
  line[off++] = '|';
  walk ((const char *[]){ "xdev", "xdev/mnt" }, 2, 100, 24, line + off,
        len - off, NULL);
  return 0;
}

static void
test_other_fs (void)
{
  make ("xdev/");
  make ("xdev/mnt/");
  make ("xdev/f");
  hardlink ("xdev/f", "outside/xf");
  if (geteuid () != 0)
    {
      tap_ok (true, "# skip other filesystem below a root needs root");
      return;
    }
  char line[2048];
  int status = in_child (walk_other_fs, line, sizeof line);
  tap_ok (status == 0, "private tmpfs below a root (status %d)", status);
  tap_streq (line,
             "v=2 s=0 t=0 xdev/f|v=4 s=0 t=0 xdev/f xdev/mnt/m1 xdev/mnt/m2",
             "other filesystem walked only as its own root");
}

/* A home met by the walk is noted by identity, under the name it was met
   by (a host's bind mount gives it another; the policy keeps the home's
   files there as the home's), and a root that is a home too.  */
static void
test_home_aliases (void)
{
  make ("hw/");
  make ("hw/deep/");
  make ("hw/deep/h/");
  char root[600], home[600];
  snprintf (root, sizeof root, "%s/hw", base);
  snprintf (home, sizeof home, "%s/hw/deep/h", base);
  struct stat st, rst;
  if (stat (home, &st) < 0 || stat (root, &rst) < 0)
    {
      tap_ok (false, "stat the home");
      return;
    }
  struct sbx_dir_id ids[]
      = { { st.st_dev, st.st_ino }, { rst.st_dev, rst.st_ino } };
  struct sbx_alias_walk_opts opts = { 100, 24, ids, 2 };
  struct sbx_alias_result res = { 0 };
  struct sbx_error err = { 0 };
  const char *roots[] = { root };
  int r = sbx_alias_walk (roots, 1, &opts, &res, &err);
  tap_ok (r == 0 && res.home_aliases.n == 2
              && strcmp (res.home_aliases.v[0], root) == 0
              && strcmp (res.home_aliases.v[1], home) == 0,
          "homes met by identity: the root and the directory (%zu)",
          res.home_aliases.n);
  sbx_alias_result_free (&res);
}

int
main (void)
{
  snprintf (base, sizeof base, "/tmp/sbx-alias-walk-XXXXXX");
  if (mkdtemp (base) == NULL)
    {
      perror ("mkdtemp");
      return 1;
    }
  build_tree ();
  test_links_and_symlinks ();
  test_errors ();
  test_depth_bound ();
  test_entry_bound ();
  test_other_fs ();
  test_unreadable ();
  test_home_aliases ();
  char cmd[128];
  snprintf (cmd, sizeof cmd, "chmod -R u+rwx %s && rm -rf %s", base, base);
  if (system (cmd) != 0)
    printf ("# could not remove %s\n", base);
  return tap_done ();
}
