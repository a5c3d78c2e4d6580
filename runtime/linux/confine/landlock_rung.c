/* Landlock rules for the rung without namespaces.  Without a mount
   namespace nothing is hidden or sealed by a mount, and Landlock's rules
   only ever add rights: a path to hide (or, inside a writable root, to
   keep read-only) is carved out of the allow-lists by replacing each rule
   above it with rules for the entries beside the path, one directory at a
   time down to it.  What exists at launch is all that is listed: an entry
   created later in one of those directories matches no rule, and the
   sandbox can neither read nor write it (it fails closed), nor list the
   directories along the way.  The plan's mounts are walked in order, as
   bubblewrap would mount them: a later grant below a hidden directory is
   granted again.  */
#include "runtime/linux/confine/landlock_rung.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "common/path.h"

/* The device nodes a shell needs; /dev/shm is the host's here: not
   granted.  */
static const char *const rung_devices[]
    = { "/dev/null",    "/dev/zero", "/dev/full", "/dev/random",
        "/dev/urandom", "/dev/tty",  "/dev/ptmx", "/dev/pts" };

static int carve (struct strv *set, const char *hidden);

/* Whether the entry P is one of HIDDEN's own directories under another
   name (a bind mount of /, or of a directory on the way, beside that way:
   podman's rootfs below a bound WORK).  A rule on it would be a rule on
   that directory, and Landlock grants a rule's rights to everything
   below it: HIDDEN too.  Such an entry gets no rule (fails closed).  */
static bool
aliases_a_way (const char *p, const char *hidden)
{
  struct stat sp, sa;
  if (lstat (p, &sp) < 0 || !S_ISDIR (sp.st_mode))
    return false;
  cleanup_free char *way = strdup (hidden);
  if (way == NULL)
    return true; /* no rule rather than one unchecked */
  /* HIDDEN itself, then each directory above it, / last.  */
  for (char *slash;;)
    {
      if (stat (way, &sa) == 0 && sa.st_dev == sp.st_dev
          && sa.st_ino == sp.st_ino)
        return true;
      if (strcmp (way, "/") == 0 || (slash = strrchr (way, '/')) == NULL)
        return false;
      slash[slash == way] = '\0'; /* "/a" becomes "/" */
    }
}

/* Add to SET every entry of DIR but the one HIDDEN is, or lies below,
   which is expanded in turn, and those that alias a directory on
   HIDDEN's way.  An unreadable DIR adds nothing.  */
static int
expand (struct strv *set, const char *dir, const char *hidden)
{
  DIR *d = opendir (dir);
  if (d == NULL)
    return 0;
  int r = 0;
  struct dirent *e;
  while (r == 0 && (e = readdir (d)) != NULL)
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      char *p = sbx_path_join (dir, e->d_name);
      struct stat st;
      if (p == NULL)
        r = -ENOMEM;
      else if (!sbx_path_is_under (hidden, p) && aliases_a_way (p, hidden))
        free (p);
      else if (!sbx_path_is_under (hidden, p))
        r = strv_push_owned (set, p);
      else
        {
          if (strcmp (p, hidden) != 0 && lstat (p, &st) == 0
              && S_ISDIR (st.st_mode))
            r = expand (set, p, hidden);
          free (p);
        }
    }
  closedir (d);
  return r;
}

/* Take HIDDEN (and what lies below it) out of SET.  */
static int
carve (struct strv *set, const char *hidden)
{
  struct stat st;
  if (lstat (hidden, &st) < 0)
    return 0; /* nothing there to reach */
  char *above = NULL;
  size_t kept = 0;
  for (size_t i = 0; i < set->n; i++)
    {
      char *p = set->v[i];
      if (sbx_path_is_under (p, hidden))
        free (p);
      else if (above == NULL && sbx_path_is_under (hidden, p))
        above = p;
      else
        set->v[kept++] = p;
    }
  set->n = kept;
  if (set->v)
    set->v[kept] = NULL;
  int r = above ? expand (set, above, hidden) : 0;
  bool again = above != NULL;
  free (above);
  /* Overlapping grants (/ws and /ws/sub): each one above is expanded.  */
  return r == 0 && again ? carve (set, hidden) : r;
}

static int
walk_mounts (const struct sbx_plan *plan, struct strv *readable,
             struct strv *writable)
{
  int r = strv_push (readable, "/");
  for (size_t i = 0; r == 0 && i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (m->why == SBX_WHY_ROOT)
        continue;
      switch (m->op)
        {
        case SBX_PLAN_BIND_RW:
        case SBX_PLAN_BIND_DEV:
          r = strv_push (writable, m->dest);
          break;
        case SBX_PLAN_HIDE_DIR:
        case SBX_PLAN_HIDE_FILE:
          r = carve (readable, m->dest);
          if (r == 0)
            r = carve (writable, m->dest);
          break;
        case SBX_PLAN_BIND_RO:
          r = carve (writable, m->dest);
          break;
        default:
          /* tmpfs, /proc, /dev, mqueue: the host's, not granted; the
             seal of a hidden directory was carved with it (and a grant
             below it stays: the seal is not recursive).  */
          break;
        }
    }
  return r;
}

static int
push_rules (struct strv *argv, const char *opt, const struct strv *paths)
{
  for (size_t i = 0; i < paths->n; i++)
    if (strv_push (argv, opt) < 0 || strv_push (argv, paths->v[i]) < 0)
      return -ENOMEM;
  return 0;
}

int
sbx_landlock_rung_args (const struct sbx_plan *plan, int helper_fd,
                        const char *tmpdir, struct strv *argv)
{
  struct strv readable = { 0 }, writable = { 0 };
  int r = walk_mounts (plan, &readable, &writable);
  if (r == 0
      && (strv_pushf (argv, "/proc/self/fd/%d", helper_fd) < 0
          || strv_push (argv, "-f") < 0
          || strv_pushf (argv, "%d", helper_fd) < 0
          || strv_push (argv, "-A") < 0
          || strv_pushf (argv, "%d", plan->enforcement.landlock_abi) < 0))
    r = -ENOMEM;
  if (r == 0)
    r = push_rules (argv, "-r", &readable);
  if (r == 0)
    r = push_rules (argv, "-w", &writable);
  for (size_t i = 0; r == 0 && i < sizeof rung_devices / sizeof *rung_devices;
       i++)
    if (strv_push (argv, "-d") < 0 || strv_push (argv, rung_devices[i]) < 0)
      r = -ENOMEM;
  if (r == 0 && tmpdir
      && (strv_push (argv, "-w") < 0 || strv_push (argv, tmpdir) < 0))
    r = -ENOMEM;
  if (r == 0 && strv_push (argv, "--") < 0)
    r = -ENOMEM;
  for (size_t i = 0; r == 0 && i < plan->argv.n; i++)
    if (strv_push (argv, plan->argv.v[i]) < 0)
      r = -ENOMEM;
  strv_free (&readable);
  strv_free (&writable);
  return r;
}
