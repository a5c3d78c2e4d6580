/* `sbx-oci delete [--force] ID`: remove a stopped (or never started)
   container; --force first ends a running one through sbx_terminate (its
   pid namespace and its cgroup).  The watcher is stopped and the cgroup
   sbx created is removed; cgroups sbx did not create are never touched
   (the cgroups module removes only the directories it made).  With
   state.json missing or corrupt, --force finds the container through its
   second record and its release FIFO
   (runtime/linux/container/container_end.h).  A recorded cgroup that
   does not hold the living first process is not used.  It succeeds only
   when nothing of the container runs or is left.  */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/cli.h"
#include "runtime/linux/container/container_end.h"
#include "runtime/linux/container/logged_hooks.h"
#include "runtime/linux/pid_identity.h"
#include "runtime/linux/supervise/limits_report.h"
#include "runtime/linux/state/state_store.h"

#define KILL_WAIT_MS 10000

/* CG, unless the sandbox's first process lives and CG does not hold it:
   a record is data, and a cgroup named there alone could be anyone's
   (exec makes the same check).  With the first process gone there is
   nothing to check it by, and the record is the way to what it left.
   A cgroup not used is kept in *REJECTED: nothing is killed through it,
   but once the container has ended it is removed if it is empty (a
   create killed while its first process was leaving the cgroup, on its
   way out, left it so: kill_loop.sh).  */
static struct sbx_cgroup *
holding_first (const struct sbx_context *g, struct sbx_cgroup *cg,
               const struct sbx_container_procs *p, const char *record,
               struct sbx_cgroup **rejected)
{
  for (int i = 0; cg && i < 2; i++)
    if (sbx_pid_alive_since (p->pid[i], p->start[i])
        && !sbx_cgroup_holds (cg, p->pid[i]))
      {
        sbx_log_warning (g,
                         "the cgroup %s names does not hold the container's "
                         "first process (%d); not using it",
                         record, (int) p->pid[i]);
        if (*rejected == NULL)
          *rejected = cg;
        else
          sbx_cgroup_free (cg);
        cg = NULL;
      }
  return cg;
}

/* The cgroup: state.json's when it records one that passes
   holding_first, else the second record's.  A record that does not name
   a cgroup of this host is logged and skipped: the first process still
   ends the sandbox.  */
static struct sbx_cgroup *
open_cgroup (const struct sbx_context *g, const struct sbx_container *c,
             const struct sbx_record *rec, const struct sbx_container_procs *p,
             struct sbx_cgroup **rejected)
{
  struct sbx_cgroup *cg = NULL;
  struct sbx_error err = { 0 };
  if (c->doc && sbx_container_cgroup (c, &cg, &err) < 0)
    sbx_log_warning (g, "%s", err.msg);
  cg = holding_first (g, cg, p, "state.json", rejected);
  if (cg == NULL && rec->cgroup.n > 0)
    {
      sbx_error_clear (&err);
      if (sbx_cgroup_open (rec->cgroup.v, &cg, &err) < 0)
        sbx_log_warning (g, "%s", err.msg);
      cg = holding_first (g, cg, p, SBX_SANDBOX_RECORD, rejected);
    }
  return cg;
}

/* A cgroup not trusted to kill through, once the container has ended:
   removed if empty (sbx_cgroup_destroy kills nothing), else left.  */
static void
remove_if_empty (const struct sbx_context *g, struct sbx_cgroup *cg)
{
  struct sbx_error err = { 0 };
  if (cg && sbx_cgroup_destroy (cg, &err) < 0)
    sbx_log_warning (g, "%s: left as it is", err.msg);
  sbx_cgroup_free (cg);
}

/* Whatever is left in the cgroup (a process that joined it but not the
   namespace) is ended, then the cgroup is removed.  */
static int
remove_cgroup (struct sbx_cgroup *cg, struct sbx_error *err)
{
  struct sbx_error ignored = { 0 };
  sbx_cgroup_kill (cg, SIGKILL, &ignored);
  return sbx_cgroup_destroy (cg, err);
}

/* Success only when nothing of the container runs and nothing of it is
   left: otherwise the error names what is, and the state directory stays
   so that another delete --force can find it again.  */
static int
end_and_remove (const struct sbx_context *g, struct sbx_container *c,
                struct sbx_error *err)
{
  struct sbx_record rec;
  if (sbx_record_read (c->dir, &rec) < 0)
    sbx_log_warning (g, "%s/%s: unreadable", c->dir, SBX_SANDBOX_RECORD);
  struct sbx_container_procs procs;
  sbx_container_procs_of (c, &rec, &procs);
  struct sbx_cgroup *rejected = NULL;
  struct sbx_cgroup *cg = open_cgroup (g, c, &rec, &procs, &rejected);
  int r = sbx_container_end (c, &procs, cg, KILL_WAIT_MS, err);
  if (r == 0)
    remove_if_empty (g, rejected);
  else
    sbx_cgroup_free (rejected);
  if (r == 0 && c->doc)
    sbx_run_logged_hooks (g, c, SBX_HOOK_POSTSTOP, false);
  r = r ?: (cg ? remove_cgroup (cg, err) : 0);
  char left[512];
  sbx_container_left (c, &procs, left, sizeof left);
  if (r == 0 && left[0])
    r = sbx_fail (err, -EBUSY, "still running: %s", left);
  if (r < 0)
    sbx_error_prefix (err, "container \"%s\"", c->id);
  if (cg)
    sbx_cgroup_free (cg);
  sbx_record_free (&rec);
  return r ?: sbx_state_remove (c, err);
}

static int
delete_container (const struct sbx_context *g, struct sbx_container *c,
                  bool force, struct sbx_error *err)
{
  enum sbx_status s = sbx_state_status (c);
  if (s == SBX_STATUS_RUNNING && !force)
    return sbx_fail (err, -EBUSY,
                     "cannot delete container \"%s\" that is not stopped: "
                     "kill it first or use --force",
                     c->id);
  /* A stopped one may still have a watcher, or a process that joined
     its cgroup.  */
  return end_and_remove (g, c, err);
}

int
sbx_cmd_delete (struct sbx_context *g, int argc, char **argv,
                struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "force", no_argument, NULL, 'f' },
    { NULL, 0, NULL, 0 },
  };
  bool force = false;
  int opt;
  while ((opt = getopt_long (argc, argv, "+f", longopts, NULL)) != -1)
    if (opt == 'f')
      force = true;
    else
      return sbx_fail_usage (err, "delete: unknown option (see --help)");
  if (optind != argc - 1)
    return sbx_fail_usage (err, "delete: expected exactly one container id");
  struct sbx_container c;
  int r = sbx_state_open (sbx_state_root (g), argv[optind], true, &c, err);
  if (r == -ENOENT && force)
    r = 0; /* as runc: nothing to delete is not an error */
  else if (r == -EINVAL && force && c.dir)
    {
      /* Unreadable state: the second record and the FIFO remain.  */
      sbx_error_clear (err);
      r = end_and_remove (g, &c, err);
    }
  else if (r == 0)
    r = delete_container (g, &c, force, err);
  sbx_state_close (&c);
  return r < 0 ? r : 0;
}
