/* Layout detection against fake trees (pure v2 as root, pure v2 with a
   systemd-style user delegation, hybrid like Debian with v1 memory), and
   a sanity check of this host's real answer.  Runs as any user.  */
#include "cgroups/cgroup.h"
#include "common/cleanup.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[] = "/tmp/sbx-cgroup-detect-XXXXXX";
static uid_t user; /* the "unprivileged" uid the fake tree belongs to */

static void
put (const char *rel, const char *text)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", tmp, rel);
  for (char *p = path + strlen (tmp) + 1; (p = strchr (p, '/')); p++)
    {
      *p = '\0';
      mkdir (path, 0755);
      *p = '/';
    }
  FILE *f = fopen (path, "w");
  if (f)
    {
      fputs (text, f);
      fclose (f);
    }
}

static void
own_by_user (const char *rel)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", tmp, rel);
  if (geteuid () == 0 && chown (path, user, user) < 0)
    printf ("# chown %s failed\n", path);
}

/* As EUID, the host's root when PRIVILEGED.  */
static int
detect_as (uid_t euid, bool privileged, struct sbx_cgroup_layout *l)
{
  char mi[4200], pc[4200];
  snprintf (mi, sizeof mi, "%s/mountinfo", tmp);
  snprintf (pc, sizeof pc, "%s/proc_cgroup", tmp);
  struct sbx_error err = { 0 };
  int r = sbx_cgroup_detect_at (mi, pc, euid, privileged, l, &err);
  if (r < 0)
    printf ("# detect: %s\n", err.msg);
  return r;
}

/* As EUID, which is the host's root when it is 0.  */
static int
detect (uid_t euid, struct sbx_cgroup_layout *l)
{
  return detect_as (euid, euid == 0, l);
}

/* LINES with every '@' replaced by the fake tree's directory.  */
static void
write_mountinfo (const char *lines)
{
  char buf[8192] = "";
  for (const char *p = lines; *p; p++)
    if (*p == '@')
      strcat (buf, tmp);
    else
      strncat (buf, p, 1);
  put ("mountinfo", buf);
}

static void
pure_v2_root (void)
{
  write_mountinfo ("30 23 0:26 / @/v2 rw,nosuid - cgroup2 cgroup2 rw\n");
  put ("proc_cgroup", "0::/user.slice/session-1.scope\n");
  put ("v2/cgroup.controllers", "cpuset cpu io memory hugetlb pids\n");
  put ("v2/cgroup.subtree_control", "cpu memory pids\n");
  put ("v2/cgroup.procs", "");
  struct sbx_cgroup_layout l;
  tap_ok (detect (0, &l) == 0 && l.version == SBX_CGROUP_V2,
          "pure v2 as root: v2 (%s)", l.reason);
  tap_streq (l.unified.own, "user.slice/session-1.scope", "pure v2: own");
  tap_streq (l.unified.base, "", "pure v2 as root: base is the root");
  tap_ok (l.privileged && l.controllers == 3, "pure v2: memory and pids");
  sbx_cgroup_layout_free (&l);
  /* uid 0 of a rootless user namespace: not the host's root, whatever
     its euid, so it looks for a delegated subtree (none here: the
     session's scope is not in the tree), never at the root.  */
  tap_ok (detect_as (0, false, &l) == 0 && l.version == SBX_CGROUP_NONE
              && !l.privileged
              && strstr (l.reason, "no delegated cgroup v2 subtree"),
          "pure v2, a namespace's uid 0: no root cgroup (%s)", l.reason);
  sbx_cgroup_layout_free (&l);
}

static void
delegated_v2 (void)
{
  const char *svc = "v2/user.slice/user-1000.slice/user@1000.service";
  char app[512], term[512], f[600];
  snprintf (app, sizeof app, "%s/app.slice", svc);
  snprintf (term, sizeof term, "%s/term.scope", app);
  put ("proc_cgroup", "0::/user.slice/user-1000.slice/user@1000.service/"
                      "app.slice/term.scope\n");
  const char *dirs[] = { term, app, svc };
  const char *sub[] = { "", "memory pids\n", "memory pids\n" };
  const char *procs[] = { "1234\n", "", "" };
  for (int i = 0; i < 3; i++)
    {
      snprintf (f, sizeof f, "%s/cgroup.controllers", dirs[i]);
      put (f, "memory pids\n");
      snprintf (f, sizeof f, "%s/cgroup.subtree_control", dirs[i]);
      put (f, sub[i]);
      own_by_user (f);
      snprintf (f, sizeof f, "%s/cgroup.procs", dirs[i]);
      put (f, procs[i]);
      own_by_user (f);
      own_by_user (dirs[i]);
    }
  struct sbx_cgroup_layout l;
  tap_ok (detect (user, &l) == 0 && l.version == SBX_CGROUP_V2,
          "delegated v2: v2 (%s)", l.reason);
  tap_streq (l.unified.base, app + 3,
             "delegated v2: base is the nearest usable owned ancestor");
  tap_ok (!l.privileged, "delegated v2: not privileged");
  sbx_cgroup_layout_free (&l);

  tap_ok (detect (user + 1, &l) == 0 && l.version == SBX_CGROUP_NONE,
          "another user: none");
  const char *lead = "unprivileged and no delegated cgroup v2 subtree: ";
  tap_ok (strncmp (l.reason, lead, strlen (lead)) == 0
              && strstr (l.reason, "term.scope")
              && strstr (l.reason, "is not owned by uid"),
          "another user: reason names the cgroup and the owner");
  printf ("# %s\n", l.reason);
  sbx_cgroup_layout_free (&l);
}

static void
hybrid_v1 (void)
{
  write_mountinfo ("35 31 0:32 / @/v1/memory rw - cgroup cgroup rw,memory\n"
                   "37 31 0:34 / @/v1/freezer rw - cgroup cgroup rw,freezer\n"
                   "39 31 0:36 / @/v1/pids\\040x rw - cgroup cgroup rw,pids\n"
                   "41 31 0:38 / @/unified rw - cgroup2 cgroup2 rw\n");
  put ("proc_cgroup", "8:pids:/\n6:freezer:/\n4:memory:/process_api/abc\n"
                      "0::/\n");
  put ("v1/memory/cgroup.procs", "");
  put ("v1/freezer/cgroup.procs", "");
  put ("v1/pids x/cgroup.procs", "");
  put ("unified/cgroup.controllers", "hugetlb\n");
  put ("unified/cgroup.subtree_control", "");
  struct sbx_cgroup_layout l;
  tap_ok (detect (0, &l) == 0 && l.version == SBX_CGROUP_V1,
          "hybrid, v2 without memory: v1 (%s)", l.reason);
  tap_ok (l.controllers == 7, "hybrid: memory, pids and freezer");
  tap_streq (l.v1[SBX_CG_MEMORY].own, "process_api/abc", "hybrid: own memory");
  char want[4200];
  snprintf (want, sizeof want, "%s/v1/pids x", tmp);
  tap_streq (l.v1[SBX_CG_PIDS].mount, want, "mountinfo octal escape undone");
  tap_ok (l.unified.mount == NULL, "unusable v2 is not kept");
  sbx_cgroup_layout_free (&l);

  tap_ok (detect (user, &l) == 0 && l.version == SBX_CGROUP_NONE
              && strstr (l.reason, "unprivileged and no delegated cgroup v2"),
          "hybrid, unprivileged: none (%s)", l.reason);
  sbx_cgroup_layout_free (&l);
  tap_ok (detect_as (0, false, &l) == 0 && l.version == SBX_CGROUP_NONE,
          "hybrid, a namespace's uid 0: no v1 (%s)", l.reason);
  sbx_cgroup_layout_free (&l);

  write_mountinfo ("41 31 0:38 / @/unified rw - cgroup2 cgroup2 rw\n");
  tap_ok (detect (0, &l) == 0 && l.version == SBX_CGROUP_NONE
              && strstr (l.reason, "does not offer the memory and pids")
              && strstr (l.reason, "cgroup v1 memory and pids are not"),
          "v2 without memory and no v1: none (%s)", l.reason);
  sbx_cgroup_layout_free (&l);
}

static void
namespaced_mount_root (void)
{
  /* Inside a cgroup namespace bound at /kubepods/x, paths are cut.  */
  write_mountinfo ("30 23 0:26 /kubepods/x @/v2 rw - cgroup2 cgroup2 rw\n");
  put ("proc_cgroup", "0::/kubepods/x/app\n");
  struct sbx_cgroup_layout l;
  tap_ok (detect (0, &l) == 0 && l.unified.own
              && strcmp (l.unified.own, "app") == 0,
          "mount root is cut from the own path");
  sbx_cgroup_layout_free (&l);
}

static void
this_host (void)
{
  struct sbx_cgroup_layout l;
  struct sbx_error err = { 0 };
  int r = sbx_cgroup_detect (&l, &err);
  printf ("# this host: %s controllers=%#x reason=\"%s\"\n",
          sbx_cgroup_version_name (l.version), l.controllers, l.reason);
  tap_ok (r == 0, "this host: detection succeeds");
  tap_ok (l.version == SBX_CGROUP_NONE
              ? l.reason[0] != '\0' && l.controllers == 0
              : (l.controllers & 3) == 3,
          "this host: none has a reason, else memory and pids");
  if (geteuid () != 0)
    tap_ok (l.version != SBX_CGROUP_V1, "unprivileged never gets v1");
  sbx_cgroup_layout_free (&l);
}

static int
remove_entry (const char *path, const struct stat *st, int flag,
              struct FTW *ftw)
{
  (void) st, (void) flag, (void) ftw;
  return remove (path);
}

int
main (void)
{
  if (mkdtemp (tmp) == NULL)
    return 1;
  user = geteuid () == 0 ? 65534 : geteuid ();
  pure_v2_root ();
  delegated_v2 ();
  hybrid_v1 ();
  namespaced_mount_root ();
  this_host ();
  nftw (tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  return tap_done ();
}
