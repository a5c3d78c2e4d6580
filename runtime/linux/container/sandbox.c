#include "runtime/linux/container/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "runtime/ceiling_load.h"
#include "runtime/linux/container/exec_lookup.h"
#include "runtime/linux/confine/capabilities.h"
#include "runtime/linux/confine/kernel_calls.h"
#include "runtime/linux/confine/seccomp.h"
#include "runtime/linux/confine/seccomp_builtin.h"
#include "runtime/linux/confine/unix_sockets.h"
#include "runtime/linux/state/state_dir.h"
#include "runtime/linux/bwrap/bind_sources.h"
#include "runtime/linux/real_path.h"
#include "runtime/linux/bwrap/test_breaks.h"
#include "runtime/state_root.h"

int
sbx_state_root_ensure (const char *root, struct sbx_error *err)
{
  cleanup_close int fd = -1;
  return sbx_state_root_open (root, true, &fd, err);
}

int
sbx_usable_state_root (const struct sbx_context *g, int *fd,
                       struct sbx_error *err)
{
  *fd = -1;
  int r = sbx_state_root_open (sbx_state_root (g), true, fd, err);
  if (r == -EPERM || r == -ENOTDIR)
    return r;
  sbx_error_clear (err);
  return 0;
}

/* The roots an agent may write: what the alias walk must cover.  Derived
   from the spec, before the plan, because the walk's findings are an input
   of policy resolution (a host fact), not an afterthought.  */
static int
writable_roots (const struct sbx_spec *spec, struct strv *roots)
{
  const struct sbx_ext *x = &spec->ext;
  int r = 0;
  if (x->mode == SBX_MODE_WORKSPACE_WRITE && x->workspace)
    r = strv_push (roots, x->workspace);
  for (size_t i = 0; r == 0 && x->mode == SBX_MODE_WORKSPACE_WRITE
                     && i < x->writable_roots.n;
       i++)
    r = strv_push (roots, x->writable_roots.v[i]);
  for (size_t i = 0; r == 0 && i < x->temp_roots.n; i++)
    r = strv_push (roots, x->temp_roots.v[i]);
  for (size_t i = 0; r == 0 && i < spec->n_mounts; i++)
    {
      const struct sbx_mount *m = &spec->mounts[i];
      if (sbx_mount_is_writable_bind (m) && m->source && m->source[0] == '/')
        r = strv_push (roots, m->source);
    }
  return r;
}

/* What the walk A did not look at, as one reason into *GAP (NULL when
   it looked at everything).  Returns 0 or -ENOMEM.  */
static int
alias_gap (const struct sbx_alias_result *a, char **gap)
{
  if (!a->truncated && !a->skipped && a->other_fs.n == 0)
    return 0;
  char skipped[64] = "";
  if (a->skipped)
    snprintf (skipped, sizeof skipped, "%" PRIu64 " entries could not be read",
              a->skipped);
  cleanup_free char *mounts = strv_join_list (&a->other_fs, 4);
  if (mounts == NULL)
    return -ENOMEM;
  return asprintf (gap,
                   "hard-link aliases: %s%s%s%s%s%s; those parts of the "
                   "writable roots are not checked (hard-link aliases, "
                   "nested repositories, homes under other names)",
                   a->truncated ? a->reason : "",
                   a->truncated && (a->skipped || a->other_fs.n) ? "; " : "",
                   skipped, a->skipped && a->other_fs.n ? "; " : "",
                   a->other_fs.n ? "mounts of other file systems, not "
                                   "entered: "
                                 : "",
                   mounts)
                 < 0
             ? -ENOMEM
             : 0;
}

static int
walk_aliases (struct sbx_sandbox *sb, struct sbx_error *err)
{
  const struct sbx_spec *spec = sb->spec;
  if (!sbx_spec_is_agent (spec) || !spec->ext.alias_masking
      || spec->ext.mode == SBX_MODE_DANGER_FULL_ACCESS)
    return 0;
  cleanup_strv struct strv roots = { 0 };
  if (writable_roots (spec, &roots) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (roots.n == 0)
    return 0;
  /* The homes by identity: one bind-mounted into a root is met there
     under another name.  */
  const char *homes[] = { sb->probe.facts.home, sb->probe.facts.account_home };
  struct sbx_dir_id ids[2];
  struct sbx_alias_walk_opts opts
      = { .max_entries = spec->ext.alias_max_entries,
          .max_depth = spec->ext.alias_max_depth,
          .homes = ids };
  for (size_t i = 0; i < 2; i++)
    {
      struct stat st;
      if (homes[i] && stat (homes[i], &st) == 0)
        ids[opts.n_homes++] = (struct sbx_dir_id){ st.st_dev, st.st_ino };
    }
  int r = sbx_alias_walk ((const char *const *) roots.v, roots.n, &opts,
                          &sb->aliases, err);
  if (r == -ENOENT)
    {
      /* A missing root is the policy's to report, with its JSON path.  */
      sbx_error_clear (err);
      return 0;
    }
  if (r < 0)
    return r;
  struct sbx_alias_result *a = &sb->aliases;
  if (alias_gap (a, &sb->alias_gap) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  sb->probe.facts.alias_files = &a->paths;
  sb->probe.facts.git_meta = &a->git_meta;
  sb->probe.facts.home_aliases = &a->home_aliases;
  sb->probe.facts.alias_gap = sb->alias_gap;
  return 0;
}

/* The agent's built-in filter for the plan's choice, in a fresh pipe; a
   config's own is compiled (compile_seccomp).  */
static int
builtin_filter (struct sbx_sandbox *sb, struct sbx_error *err)
{
  enum sbx_filter_choice main = sb->plan->filters.main;
  if (main == SBX_FILTERS_NONE)
    return 0;
  return sb->seccomp_fd = sbx_builtin_filter_fd (sbx_agent_filter (main), err);
}

/* A config's own filter is compiled now, so that its errors come before
   anything runs; the built-in ones were compiled with sbx-oci
   (seccomp_builtin.h).  */
static int
compile_seccomp (struct sbx_sandbox *sb, struct sbx_error *err)
{
  const struct sbx_spec *spec = sb->spec;
  if (sb->plan->filters.main != SBX_FILTERS_CONFIG)
    return builtin_filter (sb, err);
  int r = sbx_seccomp_notes (spec->linux_.seccomp,
                             &sb->plan->enforcement.reasons);
  if (r < 0)
    return sbx_fail (err, r, "out of memory");
  return sb->seccomp_fd = sbx_seccomp_compile (spec->linux_.seccomp, err);
}

/* Network "deny" also refuses IP sockets outright; "deny" and
   "loopback" close host unix sockets unless one is approved.  */
static int
network_filter (struct sbx_sandbox *sb, struct sbx_error *err)
{
  enum sbx_builtin_filter which = sbx_network_filter (sb->plan->filters);
  if (which == SBX_FILTER_COUNT)
    return 0;
  return sb->seccomp_net_fd = sbx_builtin_filter_fd (which, err);
}

int
sbx_sandbox_rewind_filters (struct sbx_sandbox *sb, struct sbx_error *err)
{
  int r = 0;
  if (sb->plan->filters.main == SBX_FILTERS_CONFIG)
    {
      if (lseek (sb->seccomp_fd, 0, SEEK_SET) < 0)
        return sbx_fail_errno (err, -errno, "linux.seccomp: lseek");
    }
  else if (sb->seccomp_fd >= 0)
    {
      close (sb->seccomp_fd);
      sb->seccomp_fd = -1;
      r = builtin_filter (sb, err);
    }
  if (r >= 0 && sb->seccomp_net_fd >= 0)
    {
      close (sb->seccomp_net_fd);
      sb->seccomp_net_fd = -1;
      r = network_filter (sb, err);
    }
  return r < 0 ? r : 0;
}

/* A file is known by its inode and its change time: ext4 hands a freed
   inode number to the next file made, so a socket made anew at once (a
   daemon's restart) may have the old one's number, but not its time,
   unless made within the same clock tick.  */
static void
note_file (struct sbx_socket_file *f, const struct stat *st)
{
  f->dev = st->st_dev;
  f->ino = st->st_ino;
  f->ctime = st->st_ctim;
}

static bool
same_file (const struct sbx_socket_file *f, const struct stat *st)
{
  return st->st_dev == f->dev && st->st_ino == f->ino
         && st->st_ctim.tv_sec == f->ctime.tv_sec
         && st->st_ctim.tv_nsec == f->ctime.tv_nsec;
}

int
sbx_sandbox_note_sockets (struct sbx_sandbox *sb, struct sbx_error *err)
{
  const struct sbx_plan *plan = sb->plan;
  size_t n = 0;
  for (size_t i = 0; i < plan->n_mounts; i++)
    n += plan->mounts[i].op == SBX_PLAN_HIDE_FILE
         && plan->mounts[i].why == SBX_WHY_SOCKET;
  if (n == 0)
    return 0;
  sb->socket_files = calloc (n, sizeof *sb->socket_files);
  if (sb->socket_files == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      struct stat st;
      if (m->op != SBX_PLAN_HIDE_FILE || m->why != SBX_WHY_SOCKET)
        continue;
      /* A cover of what is no socket (SSH_AUTH_SOCK naming a plain
         file) is no daemon's to restart: never left out.  One gone
         already was a socket when planned.  */
      bool there = lstat (m->dest, &st) == 0;
      if (there && !S_ISSOCK (st.st_mode))
        continue;
      struct sbx_socket_file *f = &sb->socket_files[sb->n_socket_files++];
      f->dest = m->dest;
      if (there)
        note_file (f, &st);
    }
  return 0;
}

static struct sbx_socket_file *
socket_file (struct sbx_sandbox *sb, const char *dest)
{
  for (size_t i = 0; i < sb->n_socket_files; i++)
    if (sb->socket_files[i].dest == dest)
      return &sb->socket_files[i];
  return NULL;
}

int
sbx_sandbox_sockets_changed (struct sbx_sandbox *sb)
{
  struct sbx_plan *plan = sb->plan;
  size_t kept = 0;
  int changed = 0;
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      struct sbx_plan_mount *m = &plan->mounts[i];
      struct sbx_socket_file *f = socket_file (sb, m->dest);
      struct stat st;
      bool there = f && lstat (m->dest, &st) == 0;
      /* Gone, not merely out of sight (EACCES, ELOOP: kept, not
         counted).  */
      bool gone = f && !there && (errno == ENOENT || errno == ENOTDIR);
      if ((there && !same_file (f, &st)) || gone)
        changed++;
      if (there)
        note_file (f, &st);
      if (gone)
        {
          f->dest = NULL;
          free (m->source);
          free (m->dest);
          continue;
        }
      plan->mounts[kept++] = *m;
    }
  plan->n_mounts = kept;
  return changed;
}

/* Where the runner mounts the mqueue of an IPC namespace the sandbox
   does not make, for bwrap to bind: a joined one, or the host's (bwrap
   cannot mount either from inside the user namespace it makes, which owns
   neither).  Only root can mount the host's; an unprivileged sandbox
   binds the host's /dev/mqueue instead (policy_mounts.c).  A directory of
   the state root whose name is no container id: only the runner's private
   mount namespace ever has a mount there.  */
static int
mqueue_dir (struct sbx_sandbox *sb, const char *root, int root_fd,
            struct sbx_error *err)
{
  const struct sbx_plan *plan = sb->plan;
  bool wanted = false;
  for (size_t i = 0; i < plan->n_mounts; i++)
    wanted |= plan->mounts[i].op == SBX_PLAN_MQUEUE;
  if (!wanted || plan->unshare[SBX_NS_IPC])
    return 0; /* bwrap mounts its own namespace's */
  if (root_fd < 0)
    return sbx_fail (err, -ENOENT,
                     "the state root is unusable, and the mqueue of the "
                     "IPC namespace the sandbox shares is mounted there");
  sb->mqueue_dir = sbx_path_join (root, SBX_MQUEUE_DIR_NAME);
  if (sb->mqueue_dir == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (mkdirat (root_fd, SBX_MQUEUE_DIR_NAME, 0700) < 0 && errno != EEXIST)
    return sbx_fail_errno (err, -errno, "%s", sb->mqueue_dir);
  cleanup_close int fd = -1;
  return sbx_state_subdir_open (root_fd, SBX_MQUEUE_DIR_NAME, sb->mqueue_dir,
                                &fd, err);
}

/* Where root's runner makes linux.devices' nodes: a directory of the
   state root, 0700, whose name is no container id.  The runner mounts a
   tmpfs of its own on it in a mount namespace of its own (spawn.c), so
   the host's directory stays empty whatever happens to the run, and
   several sandboxes share it without meeting.  */
static int
nodes_dir (struct sbx_sandbox *sb, int root_fd, struct sbx_error *err)
{
  if (sb->plan->n_nodes == 0)
    return 0;
  if (root_fd < 0)
    return sbx_fail (err, -ENOENT,
                     "linux.devices: the state root is unusable, and the "
                     "nodes are made there");
  if (mkdirat (root_fd, SBX_NODES_DIR_NAME, 0700) < 0 && errno != EEXIST)
    return sbx_fail_errno (err, -errno, "%s", sb->nodes_dir);
  cleanup_close int fd = -1;
  return sbx_state_subdir_open (root_fd, SBX_NODES_DIR_NAME, sb->nodes_dir,
                                &fd, err);
}

/* The host's listening path sockets, for hardened defaults to hide.  */
static int
host_sockets (struct sbx_sandbox *sb, struct sbx_error *err)
{
  if (sbx_unix_sockets_listening (&sb->host_sockets) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  sb->probe.facts.host_sockets = &sb->host_sockets;
  return 0;
}

/* NAMES as "A, B, C" into BUF (cut short, with "...", when it is full).  */
static void
join_names (const struct strv *names, char *buf, size_t size)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < names->n && used < size; i++)
    {
      int n = snprintf (buf + used, size - used, "%s%s", i ? ", " : "",
                        names->v[i]);
      used += n > 0 ? (size_t) n : 0;
    }
  if (used >= size && size > 4)
    strcpy (buf + size - 4, "...");
}

/* One line on stderr naming what the agent's environment lost, so that a
   name dropped on purpose is never a silent surprise.  */
void
sbx_report_env_dropped (const struct sbx_context *g,
                        const struct sbx_plan *plan)
{
  if (plan->env_dropped.n == 0 && plan->env_redacted.n == 0)
    return;
  char dropped[512], redacted[512];
  join_names (&plan->env_dropped, dropped, sizeof dropped);
  join_names (&plan->env_redacted, redacted, sizeof redacted);
  sbx_log_warning (g,
                   "environment: %s%s%s%s%s (pass a name on purpose with a "
                   "line \"env:NAME\" in --approve FILE)",
                   dropped[0] ? "credential-shaped names not passed: " : "",
                   dropped, dropped[0] && redacted[0] ? "; " : "",
                   redacted[0] ? "URL passwords removed from: " : "",
                   redacted);
}

/* One line on stderr naming the config's fields sbx-oci does not know
   (OCI has a runtime ignore them; `run`'s outcome lists them too): a
   setting such as linux.resources.rdma that is not applied is
   said, at `create` as at `run`, never left to be found.  */
static void
report_ignored (const struct sbx_context *g, const struct sbx_spec *spec)
{
  if (spec->ignored.n == 0)
    return;
  char names[1024];
  join_names (&spec->ignored, names, sizeof names);
  /* Key names are the config's own text: no control character of theirs
     reaches the terminal (a newline would forge a line).  */
  for (char *p = names; *p; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      *p = '?';
  sbx_log_warning (g, "not applied, fields sbx-oci does not know: %s", names);
}

/* An agent's command is found on the host's tree before it starts; a
   container's, by sbx-oci-init among the container's own mounts
   (init_main.c), unless it has no /proc to run that from.  */
static int
check_command (struct sbx_sandbox *sb, struct sbx_error *err)
{
  const struct sbx_plan *plan = sb->plan;
  if (plan->init)
    return 0;
  int r
      = sbx_exec_lookup (plan->root, plan->argv.v[0],
                         strv_env_value (plan->env.v, "PATH"), plan->cwd, err);
  if (r == -ENOENT || r == -EACCES)
    {
      sb->exec_status = sbx_exec_lookup_status (r);
      err->kind
          = r == -ENOENT ? SBX_ERROR_NOT_FOUND : SBX_ERROR_NOT_EXECUTABLE;
    }
  return r;
}

int
sbx_sandbox_resolve (const struct sbx_context *g, int root_fd,
                     struct sbx_sandbox *sb, struct sbx_error *err)
{
  struct sbx_ceiling ceiling;
  int r = sbx_ceiling_load (g, &ceiling, err);
  bool under = r > 0;
  /* A kernel without what the runtime needs is refused here, said why,
     rather than run with signals or path checks that quietly miss.  */
  if (r >= 0)
    r = sbx_kernel_require (err);
  if (r == 0)
    r = sbx_probe_host (g->runner, root_fd, &sb->probe, err);
  sb->probe.facts.path_kind = sbx_path_kinds_ask;
  sb->probe.facts.path_ctx = &sb->path_kinds;
  if (r == 0)
    r = walk_aliases (sb, err);
  /* The state root where it really is, every link and ".." resolved:
     what bwrap binds from below it must be reachable by that path alone
     when bwrap is a mapped uid (runner_cover.h).  */
  char real[PATH_MAX];
  if (r == 0
      && (sb->state_root = strdup (
              root_fd >= 0 && sbx_fd_path (root_fd, real, sizeof real) == 0
                  ? real
                  : sbx_state_root (g)))
             == NULL)
    r = sbx_fail (err, -ENOMEM, "out of memory");
  /* Only root in the initial user namespace may make a device node.  */
  if (r == 0 && sb->probe.facts.host_root
      && (sb->nodes_dir = sbx_path_join (sb->state_root, SBX_NODES_DIR_NAME))
             == NULL)
    r = sbx_fail (err, -ENOMEM, "out of memory");
  sb->probe.facts.nodes_dir = sb->nodes_dir;
  /* The operator's approvals (the ceiling's and --approve's): one can let
     a credential-shaped name or a host socket through.  */
  sb->probe.facts.approved = &ceiling.approvals;
  if (r == 0 && sb->spec->ext.hardened_defaults)
    r = host_sockets (sb, err);
  if (r == 0)
    r = sbx_policy_resolve (sb->spec, &sb->probe.facts,
                            under ? &ceiling : NULL, &sb->plan, err);
  sb->probe.facts.approved = NULL; /* the ceiling's, freed next */
  sbx_ceiling_free (&ceiling);
  if (r == 0 && sb->plan->enforcement.landlock_abi > 0
      && sbx_test_landlock_off ())
    {
      sb->plan->enforcement.landlock_abi = 0;
      r = strv_push (&sb->plan->enforcement.reasons,
                     "landlock: left out by the test-only build "
                     "(SBX_TEST_NO_LANDLOCK)");
    }
  return r < 0 ? r : 0;
}

/* The state root holds what later commands trust: a container's kept
   config and policy, the probe cache.  A sandbox that may write it (the
   operator's --root inside a workspace) could rewrite them.  */
static int
check_state_root (const struct sbx_plan *plan, int root_fd,
                  struct sbx_error *err)
{
  /* Full access is the operator's choice, and the report says so.  */
  if (plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    return 0;
  char root[PATH_MAX], real[PATH_MAX];
  if (sbx_fd_path (root_fd, root, sizeof root) < 0)
    return 0; /* no procfs: the ownership checks still stand */
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (m->op != SBX_PLAN_BIND_RW && m->op != SBX_PLAN_BIND_DEV)
        continue;
      int rr
          = m->source ? sbx_real_path (m->source, real, sizeof real) : -ENOENT;
      if (rr == -ENOENT)
        continue;
      /* Fail closed: a source whose way cannot be told may be the root. */
      if (rr < 0)
        return sbx_refuse (err, rr, NULL,
                           "cannot tell where %s, which the sandbox may "
                           "write, leads (%s): it could be the state root %s",
                           m->source, strerror (-rr), root);
      if (sbx_path_is_under (root, real))
        return sbx_refuse (err, -EPERM, NULL,
                           "the state root %s lies in %s, which the sandbox "
                           "may write: it could rewrite sbx-oci's own "
                           "records; give --root a directory outside it",
                           root, m->source);
      if (sbx_path_is_under (real, root))
        return sbx_refuse (err, -EPERM, NULL,
                           "%s, which the sandbox may write, lies in the "
                           "state root %s: it could rewrite sbx-oci's own "
                           "records; give --root a directory outside it",
                           m->source, root);
    }
  return 0;
}

int
sbx_sandbox_prepare (const struct sbx_context *g, const char *bundle,
                     struct sbx_sandbox *sb, struct sbx_error *err)
{
  struct sbx_config_source src = { .bundle = bundle };
  return sbx_sandbox_prepare_source (g, &src, sb, err);
}

int
sbx_sandbox_prepare_source (const struct sbx_context *g,
                            const struct sbx_config_source *src,
                            struct sbx_sandbox *sb, struct sbx_error *err)
{
  memset (sb, 0, sizeof *sb);
  sb->seccomp_fd = sb->seccomp_net_fd = -1;
  cleanup_close int root_fd = -1;
  int r = sbx_spec_load_source (src, &sb->spec, err);
  if (r == 0)
    r = sbx_usable_state_root (g, &root_fd, err);
  if (r == 0)
    r = sbx_sandbox_resolve (g, root_fd, sb, err);
  if (r == 0)
    r = sbx_bind_sources_settle (sb->plan, err);
  if (r == 0)
    r = sbx_sandbox_note_sockets (sb, err);
  if (r == 0)
    r = check_state_root (sb->plan, root_fd, err);
  if (r == 0)
    {
      sbx_report_env_dropped (g, sb->plan);
      report_ignored (g, sb->spec);
    }
  if (r == 0)
    r = sbx_caps_decide (&sb->spec->process.capabilities, sb->plan->init_ids,
                         sb->probe.facts.is_root, &sb->caps,
                         &sb->plan->enforcement.reasons, err);
  if (r == 0)
    r = compile_seccomp (sb, err);
  if (r >= 0)
    r = network_filter (sb, err);
  if (r >= 0)
    r = check_command (sb, err);
  if (r >= 0)
    r = mqueue_dir (sb, sb->state_root, root_fd, err);
  if (r >= 0)
    r = nodes_dir (sb, root_fd, err);
  return r < 0 ? r : 0;
}

void
sbx_sandbox_release (struct sbx_sandbox *sb)
{
  if (sb->seccomp_fd >= 0)
    close (sb->seccomp_fd);
  if (sb->seccomp_net_fd >= 0)
    close (sb->seccomp_net_fd);
  sbx_caps_decision_free (&sb->caps);
  sbx_path_kinds_free (&sb->path_kinds);
  sbx_probe_release (&sb->probe);
  strv_free (&sb->host_sockets);
  free (sb->socket_files);
  sbx_alias_result_free (&sb->aliases);
  free (sb->alias_gap);
  free (sb->mqueue_dir);
  free (sb->nodes_dir);
  free (sb->state_root);
  sbx_plan_free (sb->plan);
  sbx_spec_free (sb->spec);
  memset (sb, 0, sizeof *sb);
  sb->seccomp_fd = sb->seccomp_net_fd = -1;
}
