/* sbx_path_kinds_ask: lstat's answer for every shape of path, in either
   order of asking; asked once per path; a path below a dead end known
   absent without asking.  The last two are shown by changing the tree
   between questions: the memo keeps the host the plan first saw.  */
#include "runtime/host_paths.h"
#include "runtime/path_kinds.h"
#include "tests/unit/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char root[] = "/tmp/sbx-path-kinds-XXXXXX";

static char *
at (const char *rel)
{
  static char buf[8][512];
  static int next;
  char *p = buf[next++ % 8];
  snprintf (p, sizeof buf[0], "%s/%s", root, rel);
  return p;
}

static int
make_socket (const char *path)
{
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  snprintf (a.sun_path, sizeof a.sun_path, "%s", path);
  int fd = socket (AF_UNIX, SOCK_STREAM, 0);
  return fd >= 0 && bind (fd, (struct sockaddr *) &a, sizeof a) == 0 ? fd : -1;
}

static const char *const shapes[] = {
  "dir",          "dir/file", "file",          "file/below", "link",
  "link/file",    "absent",   "absent/below",  "absent/a/b", "sock",
  "sock/below",   "dir/",     "dir//file",     "dangling",   "dangling/x",
  "dir/sub/deep", "dir/sub",  "link/sub/deep",
};

/* Every shape, asked in ORDER (1: as listed, -1: reversed), against
   lstat's own answer.  */
static void
same_as_lstat (int order)
{
  struct sbx_path_kinds k = { 0 };
  size_t n = sizeof shapes / sizeof shapes[0];
  bool all = true;
  for (size_t j = 0; j < n; j++)
    {
      const char *p = at (shapes[order > 0 ? j : n - 1 - j]);
      enum sbx_path_kind want = sbx_host_path_kind (p, NULL);
      enum sbx_path_kind got = sbx_path_kinds_ask (p, &k);
      if (got != want)
        {
          printf ("# %s: %d, lstat says %d\n", p, got, want);
          all = false;
        }
    }
  tap_ok (all, "every shape as lstat says, asked %s",
          order > 0 ? "parents first" : "children first");
  sbx_path_kinds_free (&k);
}

int
main (void)
{
  if (mkdtemp (root) == NULL)
    return tap_ok (false, "a temporary tree"), tap_done ();
  int sock = -1;
  bool made = mkdir (at ("dir"), 0755) == 0
              && mkdir (at ("dir/sub"), 0755) == 0
              && fclose (fopen (at ("dir/file"), "w")) == 0
              && fclose (fopen (at ("file"), "w")) == 0
              && symlink ("dir", at ("link")) == 0
              && symlink ("nowhere", at ("dangling")) == 0
              && (sock = make_socket (at ("sock"))) >= 0;
  if (!tap_ok (made, "a tree of every kind"))
    return tap_done ();

  same_as_lstat (1);
  same_as_lstat (-1);

  struct sbx_path_kinds k = { 0 };
  tap_ok (sbx_path_kinds_ask (at ("dir/sub"), &k) == SBX_PATH_DIR,
          "a directory");
  rmdir (at ("dir/sub"));
  tap_ok (sbx_path_kinds_ask (at ("dir/sub"), &k) == SBX_PATH_DIR,
          "asked again, the first answer: the host is not asked twice");

  tap_ok (sbx_path_kinds_ask (at ("later"), &k) == SBX_PATH_ABSENT,
          "an absent directory");
  mkdir (at ("later"), 0755);
  mkdir (at ("later/made"), 0755);
  tap_ok (sbx_host_path_kind (at ("later/made"), NULL) == SBX_PATH_DIR
              && sbx_path_kinds_ask (at ("later/made"), &k) == SBX_PATH_ABSENT,
          "below it, absent without asking (made since, the host says)");

  /* Not there for a reason other than absence (a loop of links: ELOOP,
     as EIO of a network file system would be): asked again.  */
  symlink ("loop-b", at ("loop-a"));
  symlink ("loop-a", at ("loop-b"));
  bool looped = sbx_path_kinds_ask (at ("loop-a/x"), &k) == SBX_PATH_ABSENT;
  unlink (at ("loop-a"));
  mkdir (at ("loop-a"), 0755);
  fclose (fopen (at ("loop-a/x"), "w"));
  tap_ok (looped && sbx_path_kinds_ask (at ("loop-a/x"), &k) == SBX_PATH_FILE,
          "an error other than ENOENT or ENOTDIR is not kept as absent");

  tap_ok (sbx_path_kinds_ask (at ("file"), &k) == SBX_PATH_FILE
              && sbx_path_kinds_ask (at ("file/x/y"), &k) == SBX_PATH_ABSENT,
          "below a file: absent (ENOTDIR)");
  tap_ok (sbx_path_kinds_ask (at ("link/file"), &k) == SBX_PATH_FILE,
          "below a symlink: asked through it");

  /* More paths than the first table holds: the table grows and keeps
     every answer.  */
  bool kept = true;
  for (int i = 0; i < 1000; i++)
    {
      char rel[64];
      snprintf (rel, sizeof rel, "dir/n%d", i);
      kept &= sbx_path_kinds_ask (at (rel), &k) == SBX_PATH_ABSENT;
    }
  kept &= sbx_path_kinds_ask (at ("dir/sub"), &k) == SBX_PATH_DIR;
  tap_ok (kept && k.n > 1000, "1,000 more paths, the early answers kept");
  sbx_path_kinds_free (&k);
  tap_ok (k.n == 0 && k.cap == 0 && k.slot == NULL, "freed, empty");

  close (sock);
  char cmd[600];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system (cmd) != 0)
    printf ("# could not remove %s\n", root);
  return tap_done ();
}
