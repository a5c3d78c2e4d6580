/* Protected metadata: what would run code outside the sandbox later
   (.git/hooks, .git/config, shell and session start-up files), kept
   read-only inside every writable root, with the directories above it
   pinned so that it cannot be renamed away; nested repositories and the
   git directories the alias walk found likewise.  A config's own
   narrowing over any of it stays as written.  */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/build.h"

/* Protected metadata inside every writable root, read-only by default:
   what would let a sandboxed tool run code outside the sandbox later.  */
static const char *const default_protected[] = {
  ".git/hooks",
  ".git/config",
  /* Where git finds a config and hooks besides: a linked worktree's
     common directory, and the per-worktree config.  */
  ".git/commondir",
  ".git/config.worktree",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  /* What runs code when the workspace is a home: git's global config
     (core.fsmonitor, aliases), the user's systemd units and autostart
     entries, fish's start-up, the user's own bin on PATH.  */
  ".gitconfig",
  ".config/git",
  ".config/systemd/user",
  ".config/autostart",
  ".config/fish",
  ".local/bin",
  NULL,
};

/* The layer that decides what PATH is so far: the last mount at or above
   it.  A config's own read-only or hidden layer there is a narrowing that
   no pin of ours may undo by binding the host's path back on top.  */
static bool
narrowed_by_config (const struct sbx_plan *plan, const char *path)
{
  for (size_t i = plan->n_mounts; i-- > 0;)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (!sbx_path_is_under (path, m->dest))
        continue;
      return m->why == SBX_WHY_OCI_MOUNT && m->op != SBX_PLAN_BIND_RW
             && m->op != SBX_PLAN_BIND_DEV;
    }
  return false;
}

/* A pin binds the host's DIR afresh, over whatever the config mounted
   inside it: the config's layers below DIR (a read-only .git/hooks, say)
   are laid again on top, in their order, so the pin never undoes them.  */
static int
replay_config_layers (struct sbx_plan *plan, size_t before, const char *dir)
{
  for (size_t i = 0; i < before; i++)
    {
      struct sbx_plan_mount m = plan->mounts[i];
      if (m.why != SBX_WHY_OCI_MOUNT || strcmp (m.dest, dir) == 0
          || !sbx_path_is_under (m.dest, dir))
        continue;
      struct sbx_plan_mount *copy
          = plan_add (plan, m.op, m.why, m.source, m.dest);
      if (copy == NULL)
        return -ENOMEM;
      copy->size = m.size;
      copy->perms = m.perms;
      copy->optional = m.optional;
    }
  return 0;
}

int
policy_pin_parents (const struct sbx_host_facts *host, const char *root,
                    const char *path, struct sbx_plan *plan)
{
  /* Only what lies below ROOT: a pin binds the host's directory
     writable, which outside every writable root would be a grant.  */
  if (!sbx_path_is_under (path, root) || strcmp (path, root) == 0)
    return 0;
  cleanup_free char *dir = strdup (path);
  if (dir == NULL)
    return -ENOMEM;
  size_t base = strlen (root);
  for (char *p = dir + base + 1; (p = strchr (p, '/')) != NULL; p++)
    {
      *p = '\0';
      bool pinned = false;
      for (size_t i = 0; i < plan->n_mounts && !pinned; i++)
        pinned = plan->mounts[i].why == SBX_WHY_PROTECTED
                 && strcmp (plan->mounts[i].dest, dir) == 0;
      /* A directory the config made read-only or hid is a mount point
         already, and a writable pin would undo the narrowing.  */
      if (!pinned && host_path_kind (host, dir) == SBX_PATH_DIR
          && !narrowed_by_config (plan, dir))
        {
          size_t before = plan->n_mounts;
          if (!plan_add (plan, SBX_PLAN_BIND_RW, SBX_WHY_PROTECTED, dir, dir)
              || replay_config_layers (plan, before, dir) < 0)
            return -ENOMEM;
        }
      *p = '/';
    }
  return 0;
}

/* A .git that is a file (a worktree's or a submodule's "gitdir: ...")
   would let a write point git at a directory of the sandbox's making
   (core.fsmonitor, hooks): the file itself is kept read-only.  */
static int
protect_git_file (const struct sbx_host_facts *host, const char *root,
                  struct sbx_plan *plan)
{
  cleanup_free char *git = sbx_path_join (root, ".git");
  if (git == NULL)
    return -ENOMEM;
  if (host_path_kind (host, git) != SBX_PATH_FILE
      || narrowed_by_config (plan, git))
    return 0;
  if (!plan_add (plan, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, git, git))
    return -ENOMEM;
  return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                   "%s is a file (a worktree or submodule): it is kept "
                   "read-only; the git directory it names is protected "
                   "only where the walk of the writable roots finds it "
                   "(.git/modules, .git/worktrees, a nested .git)",
                   git);
}

static int
protect_one (const struct sbx_host_facts *host, const char *root,
             const char *rel, struct sbx_plan *plan)
{
  cleanup_free char *path = sbx_path_join (root, rel);
  if (path == NULL)
    return -ENOMEM;
  /* A REL that climbs out ("..", a leading "/") names nothing of ROOT's.  */
  if (!sbx_path_is_under (path, root) || strcmp (path, root) == 0)
    return 0;
  /* Metadata behind a link cannot be held: the link itself can be
     replaced (a mount cannot sit on it), pointing git at a file no bind
     covers.  */
  size_t link = policy_linked_prefix (host, path, strlen (root) + 1);
  if (link)
    {
      path[link] = '\0';
      return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                       "protected metadata behind %s is not protected: it "
                       "is a symbolic link, which a mount cannot hold",
                       path);
    }
  /* Only what exists: creating a placeholder would litter the workspace,
     and bwrap would create it on the host through the writable bind.  */
  enum sbx_path_kind kind = host_path_kind (host, path);
  if (kind != SBX_PATH_DIR && kind != SBX_PATH_FILE)
    return 0;
  /* Narrowed by the config, the path still needs its parents pinned: an
     unpinned .git could be renamed away and replaced by one of the
     sandbox's making.  */
  if (policy_pin_parents (host, root, path, plan) < 0)
    return -ENOMEM;
  if (narrowed_by_config (plan, path))
    return 0;
  return plan_add (plan, SBX_PLAN_BIND_RO, SBX_WHY_PROTECTED, path, path)
             ? 0
             : -ENOMEM;
}

const char *const *
policy_protected_list (const struct sbx_spec *spec)
{
  const struct sbx_ext *x = &spec->ext;
  return x->protected_paths_set ? (const char *const *) x->protected_paths.v
                                : default_protected;
}

/* A git directory (GIT, relative to ROOT) without hooks: a sandbox could
   make the directory and a hook in it, which the host's next git command
   runs.  An empty read-only directory takes its place (bwrap makes the
   mount point on the host: an empty hooks directory, as git itself
   would).  Not a missing config: the only empty file a hide has is
   /dev/null, which git cannot read on the sandbox's nodev mounts, and a
   repository without one is rare (docs/config.md says it is open).  Other
   protected paths that do not exist are left (a placeholder would litter
   the workspace: an empty .bash_profile would change what bash reads).  */
static int
protect_missing_hooks (const struct sbx_host_facts *host, const char *root,
                       const char *git, struct sbx_plan *plan)
{
  cleanup_free char *dir = sbx_path_join (root, git);
  cleanup_free char *hooks = dir ? sbx_path_join (dir, "hooks") : NULL;
  if (hooks == NULL)
    return -ENOMEM;
  if (host_path_kind (host, dir) != SBX_PATH_DIR
      || policy_linked_prefix (host, dir, strlen (root) + 1)
      || host_path_kind (host, hooks) != SBX_PATH_ABSENT
      || narrowed_by_config (plan, hooks))
    return 0;
  if (policy_pin_parents (host, root, hooks, plan) < 0
      || !plan_add (plan, SBX_PLAN_HIDE_DIR, SBX_WHY_PROTECTED, NULL, hooks))
    return -ENOMEM;
  return 0;
}

/* The protected entries a writable home H lacks: the sandbox can create
   them (a .bash_profile that bash then runs instead of .profile, an
   autostart entry, a git config with core.fsmonitor), and what is not
   there cannot be bound read-only without sbx-oci creating it on the
   host, where an empty .bash_profile would change what bash reads.  Said
   as a gap, with the fix.  */
static int
note_missing_in_home (const struct sbx_spec *spec,
                      const struct sbx_host_facts *host, const char *h,
                      struct sbx_plan *plan)
{
  const char *const *list = policy_protected_list (spec);
  cleanup_strv struct strv lacking = { 0 };
  for (size_t k = 0; list && list[k]; k++)
    {
      /* A repository's own are not a home's start-up files.  */
      if (strncmp (list[k], ".git/", 5) == 0)
        continue;
      cleanup_free char *p = sbx_path_join (h, list[k]);
      if (p == NULL
          || (host_path_kind (host, p) == SBX_PATH_ABSENT
              && strv_push (&lacking, list[k]) < 0))
        return -ENOMEM;
    }
  if (lacking.n == 0)
    return 0;
  cleanup_free char *names = strv_join_list (&lacking, SIZE_MAX);
  return names == NULL
             ? -ENOMEM
             : plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                         "the home %s is writable and lacks %s: the sandbox "
                         "can create them, and they would run code on the "
                         "host; create them (empty) to have them held "
                         "read-only",
                         h, names);
}

/* Whether LIST protects a root's .git/config: then what else git takes
   its settings from is looked at as well.  */
static bool
holds_git_config (const char *const *list)
{
  for (size_t i = 0; list && list[i]; i++)
    if (strcmp (list[i], ".git/config") == 0)
      return true;
  return false;
}

/* The gaps of DIR, a git directory in a writable root: all of them
   where the sandbox may write it, only its configs' where the config
   narrowed it (a read-only bind: no commondir can be made there).  */
static int
note_git_dir (const struct sbx_host_facts *host, const char *dir,
              struct sbx_plan *plan)
{
  if (narrowed_by_config (plan, dir))
    return policy_note_git_configs (host, plan, dir, false);
  return policy_note_git_dir (host, plan, dir);
}

/* A root inside a repository's work tree (a workspace that is one
   package of a monorepo): git run there takes the repository's config,
   whose hooksPath may lead into the root (husky's monorepo set-up).
   The first git directory above ROOT, as git's discovery finds it.  */
static int
note_enclosing_repo (const struct sbx_host_facts *host, const char *root,
                     struct sbx_plan *plan)
{
  cleanup_free char *up = strdup (root);
  if (up == NULL)
    return -ENOMEM;
  for (char *slash;
       strcmp (up, "/") != 0 && (slash = strrchr (up, '/')) != NULL;)
    {
      slash[slash == up] = '\0';
      cleanup_free char *git = sbx_path_join (up, ".git");
      if (git == NULL)
        return -ENOMEM;
      enum sbx_path_kind kind = host_path_kind (host, git);
      if (kind == SBX_PATH_DIR)
        return policy_note_git_configs (host, plan, git, false);
      if (kind != SBX_PATH_ABSENT)
        return policy_note_git_file (host, plan, git); /* a worktree's */
    }
  return 0;
}

/* Whether PATH is one of the homes (HOME's, the account's).  */
static bool
is_home (const struct sbx_host_facts *host, const char *path)
{
  return (host->home && strcmp (host->home, path) == 0)
         || (host->account_home && strcmp (host->account_home, path) == 0);
}

static int
protect_in_root (const struct sbx_spec *spec,
                 const struct sbx_host_facts *host, const char *root,
                 struct sbx_plan *plan)
{
  const char *const *list = policy_protected_list (spec);
  int r = protect_git_file (host, root, plan);
  if (r == 0)
    r = protect_missing_hooks (host, root, ".git", plan);
  for (size_t i = 0; r == 0 && list && list[i]; i++)
    r = protect_one (host, root, list[i], plan);
  if (r == 0 && holds_git_config (list))
    {
      cleanup_free char *git = sbx_path_join (root, ".git");
      if (git == NULL)
        return -ENOMEM;
      enum sbx_path_kind kind = host_path_kind (host, git);
      r = kind == SBX_PATH_ABSENT ? note_enclosing_repo (host, root, plan)
          : kind == SBX_PATH_DIR  ? note_git_dir (host, git, plan)
                                  : policy_note_git_file (host, plan, git);
    }
  if (r == 0 && is_home (host, root))
    r = note_missing_in_home (spec, host, root, plan);
  return r;
}

/* The writable root (an identity bind) that PATH lies strictly below: the
   innermost, where pins start.  */
static const char *
granted_root_of (const struct sbx_plan *plan, const char *path)
{
  const char *best = NULL;
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (m->op == SBX_PLAN_BIND_RW && m->why != SBX_WHY_PROTECTED && m->source
          && strcmp (m->source, m->dest) == 0 && strcmp (m->source, path) != 0
          && sbx_path_is_under (path, m->source)
          && (best == NULL || sbx_path_is_under (m->source, best)))
        best = m->source;
    }
  return best;
}

/* Each of NAMES (N of them, or up to a NULL) below REL, a directory of
   ROOT's, protected as ROOT's own.  */
static int
protect_below (const struct sbx_host_facts *host, const char *root,
               const char *rel, const char *const *names, size_t n,
               struct sbx_plan *plan)
{
  int r = 0;
  for (size_t k = 0; r == 0 && k < n && names && names[k]; k++)
    {
      cleanup_free char *sub = NULL;
      r = asprintf (&sub, "%s/%s", rel, names[k]) < 0
              ? -ENOMEM
              : protect_one (host, root, sub, plan);
    }
  return r;
}

/* Nested repositories and submodules' git directories, as the alias walk
   found them: a .git file is kept read-only, a git directory's config,
   hooks, commondir and config.worktree too, as for each root's own.  */
static int
protect_git_meta (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  static const char *const inside[]
      = { "config", "hooks", "commondir", "config.worktree" };
  int r = 0;
  for (size_t i = 0; r == 0 && host->git_meta && i < host->git_meta->n; i++)
    {
      const char *p = host->git_meta->v[i];
      const char *root = granted_root_of (plan, p);
      if (root == NULL)
        continue; /* not writable: nothing to protect */
      const char *rel = p + strlen (root) + (strcmp (root, "/") != 0);
      if (host_path_kind (host, p) != SBX_PATH_DIR)
        {
          r = protect_one (host, root, rel, plan);
          continue;
        }
      r = protect_below (host, root, rel, inside, 4, plan);
      if (r == 0)
        r = protect_missing_hooks (host, root, rel, plan);
      if (r == 0)
        r = note_git_dir (host, p, plan);
    }
  return r;
}

int
policy_homes (const struct sbx_host_facts *host, struct strv *out)
{
  const char *named[] = { host->home, host->account_home };
  size_t n = host->home_aliases ? host->home_aliases->n : 0;
  for (size_t i = 0; i < 2 + n; i++)
    {
      const char *h = i < 2 ? named[i] : host->home_aliases->v[i - 2];
      if (h && !strv_contains (out, h) && strv_push (out, h) < 0)
        return -ENOMEM;
    }
  return 0;
}

/* A home inside a writable root (a workspace that is a parent of HOME,
   or of the account's home, or holds one under another name): its
   start-up files run code for the account wherever the home lies, so
   they are protected as a root's own, with the directories from that
   root down to them pinned (the home itself too: renamed away, a new one
   of the sandbox's making would take its place).  A home that is itself
   a root was protected as one.  */
static int
protect_homes (const struct sbx_spec *spec, const struct sbx_host_facts *host,
               struct sbx_plan *plan)
{
  cleanup_strv struct strv homes = { 0 };
  const char *const *list = policy_protected_list (spec);
  int r = policy_homes (host, &homes);
  for (size_t i = 0; r == 0 && i < homes.n; i++)
    {
      const char *h = homes.v[i];
      const char *root = h ? granted_root_of (plan, h) : NULL;
      if (root == NULL)
        continue;
      const char *rel = h + strlen (root) + (strcmp (root, "/") != 0);
      r = protect_below (host, root, rel, list, SIZE_MAX, plan);
      if (r == 0)
        r = note_missing_in_home (spec, host, h, plan);
    }
  return r;
}

/* Whether DIR is a git directory: named .git, or holding git's own
   HEAD, objects and refs (a bare repository, a submodule's git directory
   under .git/modules).  */
static bool
is_git_dir (const struct sbx_host_facts *host, const char *dir)
{
  const char *base = strrchr (dir, '/');
  if (base && strcmp (base + 1, ".git") == 0)
    return true;
  static const char *const marks[] = { "HEAD", "objects", "refs" };
  for (size_t i = 0; i < 3; i++)
    {
      cleanup_free char *p = sbx_path_join (dir, marks[i]);
      if (p == NULL || host_path_kind (host, p) == SBX_PATH_ABSENT)
        return false;
    }
  return true;
}

/* Whether ROOT, or a directory above it below W, is a git directory.  */
static bool
in_git_dir (const struct sbx_host_facts *host, const char *w, const char *root)
{
  cleanup_free char *dir = strdup (root);
  if (dir == NULL)
    return true; /* refused rather than unchecked */
  for (char *slash; strcmp (dir, w) != 0 && sbx_path_is_under (dir, w);
       *slash = '\0')
    {
      if (is_git_dir (host, dir))
        return true;
      if ((slash = strrchr (dir, '/')) == NULL || slash == dir)
        break;
    }
  return false;
}

/* Whether ROOT, a root the config grants writable, would reach the
   protected metadata of the root W it lies in: it is, or lies in, a git
   directory (in_git_dir; or one the walk found), or a protected path of
   W; or, where W's own metadata is not protected (a read-only mode),
   holds one.  */
static bool
root_reaches_metadata (const struct sbx_spec *spec,
                       const struct sbx_host_facts *host, const char *w,
                       const char *root, bool w_protected)
{
  const char *const *list = policy_protected_list (spec);
  if (!sbx_path_is_under (root, w) || strcmp (root, w) == 0)
    return false;
  if (in_git_dir (host, w, root))
    return true;
  for (size_t i = 0; host->git_meta && i < host->git_meta->n; i++)
    if (sbx_path_is_under (root, host->git_meta->v[i]))
      return true;
  for (size_t i = 0; list && list[i]; i++)
    {
      cleanup_free char *p = sbx_path_join (w, list[i]);
      if (p == NULL || host_path_kind (host, p) == SBX_PATH_ABSENT)
        continue;
      if (sbx_path_is_under (root, p)
          || (!w_protected && sbx_path_is_under (p, root)))
        return true;
    }
  return false;
}

int
policy_refuse_roots_in_metadata (const struct sbx_spec *spec,
                                 const struct sbx_host_facts *host,
                                 const struct sbx_plan *plan,
                                 struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  bool ws_write = plan->mode == SBX_MODE_WORKSPACE_WRITE;
  const struct strv *lists[2] = { &x->writable_roots, &x->temp_roots };
  const char *names[2] = { "sbx.writableRoots", "sbx.tempRoots" };
  if (plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    return 0;
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < lists[k]->n; i++)
      {
        const char *root = lists[k]->v[i];
        if (k == 0 && !ws_write)
          continue; /* not granted outside workspace-write */
        bool hit = x->workspace
                   && root_reaches_metadata (spec, host, x->workspace, root,
                                             ws_write);
        for (int m = 0; !hit && m < 2; m++)
          for (size_t j = 0; !hit && j < lists[m]->n; j++)
            hit = root_reaches_metadata (spec, host, lists[m]->v[j], root,
                                         ws_write || m == 1);
        if (hit)
          {
            char field[64];
            snprintf (field, sizeof field, "%s[%zu]", names[k], i);
            return sbx_refuse (err, -EPERM, field,
                               "%s would make protected metadata (a git "
                               "directory, .git/hooks, a start-up file) "
                               "writable; name a directory that holds none",
                               root);
          }
      }
  return 0;
}

int
policy_protect_metadata (const struct sbx_spec *spec,
                         const struct sbx_host_facts *host,
                         struct sbx_plan *plan)
{
  int r = 0;
  if (plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    return 0;
  /* Every root the mode grants writable: the temp roots in any mode
     (a read-only sandbox's temp root holding a repository, say).  */
  if (plan->mode == SBX_MODE_WORKSPACE_WRITE)
    {
      r = protect_in_root (spec, host, spec->ext.workspace, plan);
      for (size_t i = 0; r == 0 && i < spec->ext.writable_roots.n; i++)
        r = protect_in_root (spec, host, spec->ext.writable_roots.v[i], plan);
    }
  for (size_t i = 0; r == 0 && i < spec->ext.temp_roots.n; i++)
    r = protect_in_root (spec, host, spec->ext.temp_roots.v[i], plan);
  if (r == 0)
    r = protect_git_meta (host, plan);
  if (r == 0)
    r = protect_homes (spec, host, plan);
  if (r == 0)
    r = policy_note_git_global (host, plan);
  return r;
}
