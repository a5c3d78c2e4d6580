#include "common/path.h"
#include "tests/unit/tap.h"

#include <stdlib.h>

static void
check_normalize (const char *in, const char *want)
{
  char *got = sbx_path_normalize (in);
  char name[256];
  snprintf (name, sizeof name, "normalize \"%s\"", in);
  tap_streq (got, want, name);
  free (got);
}

static void
check_join (const char *base, const char *rel, const char *want)
{
  char *got = sbx_path_join (base, rel);
  char name[256];
  snprintf (name, sizeof name, "join \"%s\" \"%s\"", base, rel);
  tap_streq (got, want, name);
  free (got);
}

static void
check_under (const char *path, const char *root, bool want)
{
  tap_ok (sbx_path_is_under (path, root) == want, "\"%s\" %s under \"%s\"",
          path, want ? "is" : "is not", root);
}

int
main (void)
{
  check_normalize ("/", "/");
  check_normalize ("//", "/");
  check_normalize ("/a//b///c", "/a/b/c");
  check_normalize ("/a/./b/.", "/a/b");
  check_normalize ("/a/b/", "/a/b");
  check_normalize ("/a/../b", "/b");
  check_normalize ("/a/..", "/");
  check_normalize ("/a/../..", "/");
  check_normalize ("/../../x", "/x");
  check_normalize ("/a/b/../../c/./d/..", "/c");
  check_normalize ("/..a/b..", "/..a/b..");
  check_normalize ("/.hidden/...", "/.hidden/...");
  check_normalize ("a/b", "a/b");
  check_normalize ("./a/", "a");
  check_normalize ("a/..", ".");
  check_normalize ("", ".");
  check_normalize (".", ".");
  check_normalize ("..", "..");
  check_normalize ("../..", "../..");
  check_normalize ("a/../../b", "../b");
  check_normalize ("../a/..", "..");

  check_join ("/bundle", "rootfs", "/bundle/rootfs");
  check_join ("/bundle", "./rootfs/", "/bundle/rootfs");
  check_join ("/bundle", "../other", "/other");
  check_join ("/bundle", "../../../x", "/x");
  check_join ("/bundle", "/abs//path/", "/abs/path");
  check_join ("/bundle", "", "/bundle");
  check_join ("/", "a", "/a");
  check_join ("/b/", "a", "/b/a");

  check_under ("/a/b", "/a/b", true);
  check_under ("/a/b/c", "/a/b", true);
  check_under ("/a/bc", "/a/b", false);
  check_under ("/a", "/a/b", false);
  check_under ("/anything", "/", true);
  check_under ("/", "/", true);
  check_under ("/", "/a", false);
  return tap_done ();
}
