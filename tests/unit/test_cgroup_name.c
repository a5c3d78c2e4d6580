/* Naming: OCI cgroupsPath -> anchor + relative path.  No I/O.  */
#include "cgroups/cgroup.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdlib.h>

static void
check (const char *cgroups_path, const char *id, enum sbx_cgroup_anchor want,
       const char *want_rel)
{
  struct sbx_error err = { 0 };
  enum sbx_cgroup_anchor anchor = -1;
  char *rel = NULL;
  int r = sbx_cgroup_name (cgroups_path, id, &anchor, &rel, &err);
  char name[256];
  snprintf (name, sizeof name, "\"%s\" -> %s",
            cgroups_path ? cgroups_path : "(null)", want_rel);
  if (!tap_ok (r == 0 && anchor == want, "%s: anchor", name))
    printf ("# r=%d anchor=%d err=%s\n", r, (int) anchor, err.msg);
  tap_streq (rel, want_rel, name);
  free (rel);
}

static void
check_refused (const char *cgroups_path, const char *id, const char *needle)
{
  struct sbx_error err = { 0 };
  enum sbx_cgroup_anchor anchor;
  char *rel = NULL;
  int r = sbx_cgroup_name (cgroups_path, id, &anchor, &rel, &err);
  if (!tap_ok (r == -EINVAL && rel == NULL && strstr (err.msg, needle),
               "\"%s\" id \"%s\" refused", cgroups_path, id))
    printf ("# r=%d msg=%s\n", r, err.msg);
  free (rel);
}

int
main (void)
{
  check (NULL, "c1", SBX_CGROUP_AT_BASE, "sbx-oci/c1");
  check ("", "c1", SBX_CGROUP_AT_BASE, "sbx-oci/c1");
  check ("/machine/c1", "c1", SBX_CGROUP_AT_ROOT, "machine/c1");
  check ("//a///b/./c/", "x", SBX_CGROUP_AT_ROOT, "a/b/c");
  check ("pods/c1", "c1", SBX_CGROUP_AT_OWN, "pods/c1");
  check ("/a:b", "x", SBX_CGROUP_AT_ROOT, "a:b");
  check ("machine.slice:libpod:abc", "x", SBX_CGROUP_AT_BASE,
         "machine.slice/libpod-abc.scope");
  check ("user-1000.slice:sbx:abc", "x", SBX_CGROUP_AT_BASE,
         "user.slice/user-1000.slice/sbx-abc.scope");
  check ("a-b-c.slice::n", "x", SBX_CGROUP_AT_BASE,
         "a.slice/a-b.slice/a-b-c.slice/n.scope");
  check (":crio:abc", "x", SBX_CGROUP_AT_BASE, "system.slice/crio-abc.scope");
  check ("-.slice:p:n", "x", SBX_CGROUP_AT_BASE, "p-n.scope");

  check_refused ("/a/../b", "x", "\"..\" is not allowed");
  check_refused ("a/..", "x", "\"..\" is not allowed");
  check_refused ("/", "x", "names no cgroup");
  check_refused (NULL, "a/b", "cannot name a cgroup");
  check_refused (NULL, "..", "cannot name a cgroup");
  check_refused ("", "", "cannot name a cgroup");
  check_refused ("machine.slice:p", "x", "expected \"slice:prefix:name\"");
  check_refused ("a:b:c:d", "x", "expected \"slice:prefix:name\"");
  check_refused ("machine.slice:p:", "x", "expected \"slice:prefix:name\"");
  check_refused ("machine:p:n", "x", "not a systemd slice name");
  check_refused ("a--b.slice:p:n", "x", "not a systemd slice name");
  return tap_done ();
}
