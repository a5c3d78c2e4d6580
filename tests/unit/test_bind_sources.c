/* Bind sources settled and held (runtime/linux/bwrap/bind_sources.h): a
   config's source outside the plan's writable roots is replaced by where
   it leads when the plan is made, refused under a ceiling when that is
   elsewhere (the config had to name the real path: it was changed
   since), refused when it leads to what no path names (a namespace
   file), and held at the mount with no link allowed, so a link swapped
   in after settling fails the run rather than mounting its target.  */
#include "policy/build.h"
#include "runtime/linux/bwrap/bind_sources.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[] = "/tmp/sbx-bindsrc-XXXXXX";

/* A plan with one config bind of SOURCE, writable, at /mnt.  */
static struct sbx_plan *
plan_of (const char *source, bool under_ceiling)
{
  struct sbx_plan *plan = calloc (1, sizeof *plan);
  if (plan == NULL
      || !plan_add (plan, SBX_PLAN_BIND_RW, SBX_WHY_OCI_MOUNT, source, "/mnt"))
    abort ();
  plan->under_ceiling = under_ceiling;
  return plan;
}

int
main (void)
{
  if (!tap_ok (mkdtemp (top) != NULL, "a scratch tree"))
    return tap_done ();
  char real[PATH_MAX], link[PATH_MAX], moved[PATH_MAX];
  snprintf (real, sizeof real, "%s/real", top);
  snprintf (link, sizeof link, "%s/link", top);
  snprintf (moved, sizeof moved, "%s/moved", top);
  mkdir (real, 0755);
  symlink ("real", link);

  struct sbx_error err = { 0 };
  struct sbx_plan *p = plan_of (link, false);
  tap_ok (sbx_bind_sources_settle (p, &err) == 0, "the operator's config: a "
                                                  "linked source is settled");
  tap_streq (p->mounts[0].source, real, "  to where it leads");
  int *fds = NULL;
  tap_ok (sbx_bind_sources_open (p, &fds, &err) == 0 && fds && fds[0] >= 0,
          "  and held as a descriptor");
  sbx_bind_sources_close (fds, p->n_mounts);
  /* The settled name swapped for a link after the plan: refused.  */
  tap_ok (rename (real, moved) == 0 && symlink ("moved", real) == 0,
          "  the settled name made a link afterwards");
  sbx_error_clear (&err);
  fds = NULL;
  tap_ok (sbx_bind_sources_open (p, &fds, &err) == -ELOOP,
          "  then the mount's hold fails (%s)", err.msg);
  unlink (real);
  rename (moved, real);
  sbx_plan_free (p);

  sbx_error_clear (&err);
  p = plan_of (link, true);
  tap_ok (sbx_bind_sources_settle (p, &err) < 0
              && err.kind == SBX_ERROR_REFUSED
              && strstr (err.msg, "it was changed since it was checked"),
          "under a ceiling a source that leads elsewhere is refused (%s)",
          err.msg);
  sbx_plan_free (p);

  sbx_error_clear (&err);
  p = plan_of (real, true);
  tap_ok (sbx_bind_sources_settle (p, &err) == 0
              && strcmp (p->mounts[0].source, real) == 0,
          "under a ceiling the real path itself is kept");
  sbx_plan_free (p);

  sbx_error_clear (&err);
  p = plan_of ("/proc/self/ns/net", false);
  tap_ok (sbx_bind_sources_settle (p, &err) < 0
              && strstr (err.msg, "leads to nothing a path from here names"),
          "a namespace file is refused (%s)", err.msg);
  sbx_plan_free (p);

  char cmd[600];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", top);
  tap_ok (system (cmd) == 0, "scratch tree removed");
  return tap_done ();
}
