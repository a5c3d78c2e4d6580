/* Canonicalisation of paths for Seatbelt rules: lexical clean-up, the
   resolver on the longest existing prefix, macOS's /private aliases; and
   the realpath(3) resolver on this host's real symlinks.  */
#include "runtime/darwin/macos_paths.h"
#include "tests/unit/sbpl_fake_paths.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int calls;
static const struct sbx_macos_paths fake = { fake_resolve, &calls };

static void
expect_canonical (const struct sbx_macos_paths *paths, const char *in,
                  const char *want)
{
  struct sbx_error err = { 0 };
  char *out = NULL;
  int r = sbx_macos_path_canonical (paths, in, &out, &err);
  if (r < 0)
    printf ("# %s\n", err.msg);
  char name[512];
  snprintf (name, sizeof name, "canonical %s -> %s", in, want);
  tap_streq (out, want, name);
  free (out);
}

static void
expect_refused (const char *in, const char *needle)
{
  struct sbx_error err = { 0 };
  char *out = NULL;
  int r = sbx_macos_path_canonical (NULL, in, &out, &err);
  if (!tap_ok (r == -EINVAL && out == NULL && strstr (err.msg, needle),
               "'%s' refused: %s", in ? in : "(null)", needle))
    printf ("# %d %s\n", r, err.msg);
  free (out);
}

static void
test_lexical_and_aliases (void)
{
  expect_canonical (NULL, "/", "/");
  expect_canonical (NULL, "//", "/");
  expect_canonical (NULL, "/a//b/./c/", "/a/b/c");
  expect_canonical (NULL, "/./a/.", "/a");
  expect_canonical (NULL, "/a/.b/..c/...", "/a/.b/..c/...");
  expect_canonical (NULL, "/tmp", "/private/tmp");
  expect_canonical (NULL, "/tmp/", "/private/tmp");
  expect_canonical (NULL, "/tmp/x/y", "/private/tmp/x/y");
  expect_canonical (NULL, "/var/folders/zz/xy_1/T",
                    "/private/var/folders/zz/xy_1/T");
  expect_canonical (NULL, "//etc/hosts", "/private/etc/hosts");
  expect_canonical (NULL, "/tmpfoo", "/tmpfoo");
  expect_canonical (NULL, "/variable/x", "/variable/x");
  expect_canonical (NULL, "/private/tmp/x", "/private/tmp/x");
  expect_canonical (NULL, "/usr/tmp", "/usr/tmp");
  /* /home is an automount below the data volume; the data volume's
     spellings of firmlinked directories are the root's.  */
  expect_canonical (NULL, "/home", "/System/Volumes/Data/home");
  expect_canonical (NULL, "/home/me/ws", "/System/Volumes/Data/home/me/ws");
  expect_canonical (NULL, "/homely", "/homely");
  expect_canonical (NULL, "/System/Volumes/Data/Users/me/ws", "/Users/me/ws");
  expect_canonical (NULL, "/System/Volumes/Data/private/tmp/x",
                    "/private/tmp/x");
  expect_canonical (NULL, "/System/Volumes/Data/usr/local/bin",
                    "/usr/local/bin");
  expect_canonical (NULL, "/System/Volumes/Data/opt/homebrew",
                    "/opt/homebrew");
  expect_canonical (NULL, "/System/Volumes/Data/Volumes/ext", "/Volumes/ext");
  expect_canonical (NULL, "/System/Volumes/Data/home/me",
                    "/System/Volumes/Data/home/me");
  expect_canonical (NULL, "/System/Volumes/Data/Usersx",
                    "/System/Volumes/Data/Usersx");
  expect_refused ("relative", "not absolute");
  expect_refused ("", "not absolute");
  expect_refused (NULL, "not absolute");
  expect_refused ("/a/../b", "contains '..'");
  expect_refused ("/a/..", "contains '..'");
}

static void
test_fake_resolver (void)
{
  calls = 0;
  expect_canonical (&fake, FAKE_LINK, FAKE_LINK_TARGET);
  tap_ok (calls == 1, "an existing path takes one resolver call");
  calls = 0;
  expect_canonical (&fake, FAKE_LINK "/.git/hooks",
                    FAKE_LINK_TARGET "/.git/hooks");
  tap_ok (calls == 3, "a missing path walks up to its existing ancestor");
  expect_canonical (&fake, "/Users/me/ws/.git/hooks",
                    "/Users/me/ws/.git/hooks");
  expect_canonical (&fake, "/tmp/sbx-new", "/private/tmp/sbx-new");
  expect_canonical (&fake, "/Users/me//link/./a/", FAKE_LINK_TARGET "/a");

  struct sbx_error err = { 0 };
  char *out = NULL;
  int r = sbx_macos_path_canonical (&fake, FAKE_FORBIDDEN "/key", &out, &err);
  tap_ok (r == -EACCES && out == NULL, "a resolver error is not a miss");
  tap_streq (err.msg, "resolve '/Users/me/forbidden/key': Permission denied",
             "the error names the path the resolver refused");
}

static int
relative_resolver (void *ctx, const char *path, char **out)
{
  (void) ctx;
  (void) path;
  *out = strdup ("private/tmp");
  return 0;
}

static void
test_bad_resolver (void)
{
  struct sbx_macos_paths paths = { relative_resolver, NULL };
  struct sbx_error err = { 0 };
  char *out = NULL;
  int r = sbx_macos_path_canonical (&paths, "/tmp", &out, &err);
  tap_ok (r == -EINVAL && out == NULL && strstr (err.msg, "relative path"),
          "a resolver answering a relative path is refused");
}

/* realpath(3) on this host: a symlinked directory and a missing child.  */
static void
test_realpath (void)
{
  char dir[] = "/tmp/sbx-paths-XXXXXX";
  if (!tap_ok (mkdtemp (dir) != NULL, "temporary directory"))
    return;
  char *real_dir = realpath (dir, NULL);
  char target[512], link[512], want[512];
  snprintf (target, sizeof target, "%s/target", dir);
  snprintf (link, sizeof link, "%s/link", dir);
  tap_ok (mkdir (target, 0700) == 0 && symlink ("target", link) == 0,
          "symlink set up");
  struct sbx_macos_paths host = { sbx_macos_realpath, NULL };
  char in[600];
  snprintf (in, sizeof in, "%s/not/yet", link);
  snprintf (want, sizeof want, "%s/target/not/yet", real_dir);
  struct sbx_error err = { 0 };
  char *out = NULL;
  int r = sbx_macos_path_canonical (&host, in, &out, &err);
  /* On Linux /tmp is no alias; the table applies only to what the
     resolver left under /tmp, so compare against the unaliased answer.  */
  char *want_aliased = NULL;
  sbx_macos_path_unalias (want, &want_aliased, &err);
  tap_ok (r == 0, "realpath canonicalises a missing path below a symlink");
  tap_streq (out, want_aliased, "symlink followed, missing tail kept");
  free (out);
  free (want_aliased);
  rmdir (target);
  unlink (link);
  rmdir (dir);
  free (real_dir);
}

int
main (void)
{
  test_lexical_and_aliases ();
  test_fake_resolver ();
  test_bad_resolver ();
  test_realpath ();
  return tap_done ();
}
