#include "runtime/linux/bwrap/runner_cover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "runtime/linux/real_path.h"

/* The outermost directory on the way down to ROOT, ROOT included, that
   others cannot search (bwrap's uid is one of them); ROOT when each
   can.  */
static int
cover_top (const char *root, char **top, struct sbx_error *err)
{
  char *p = strdup (root);
  if (p == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (size_t i = 1;; i++)
    if (p[i] == '/' || p[i] == '\0')
      {
        char c = p[i];
        struct stat st;
        p[i] = '\0';
        if (stat (p, &st) < 0)
          {
            int r = sbx_fail_errno (err, -errno, "%s", p);
            free (p);
            return r;
          }
        if (!(st.st_mode & S_IXOTH) || c == '\0')
          break;
        p[i] = c;
      }
  *top = p;
  return 0;
}

/* Where the plan source S leads, or NULL: bwrap says what is wrong with
   a source it cannot reach, as it would without the cover.  */
static char *
real_source (const char *s)
{
  char buf[PATH_MAX];
  if (s == NULL || s[0] != '/' || sbx_real_path (s, buf, sizeof buf) < 0)
    return NULL;
  return strdup (buf);
}

/* M's source, where it leads below the cover, when the cover hides it
   and the runner does not mount it itself (a node or tmpfs of its nodes
   directory; the shared mqueue is bound from the options, never a plan
   source): *OUT, else NULL.  Nothing of the state root ROOT may be bound
   but what `create` put there for this container (its terminal's
   devpts).  */
static int
hidden_source (const struct sbx_runner_cover *cover, const char *root,
               const struct sbx_plan_mount *m, char **out,
               struct sbx_error *err)
{
  *out = NULL;
  const char *s = m->source;
  if (s == NULL || (cover->made[1] && sbx_path_is_under (s, cover->made[1])))
    return 0;
  cleanup_free char *real = real_source (s);
  if (real == NULL || !sbx_path_is_under (real, cover->top))
    return 0;
  if (sbx_path_is_under (root, real))
    return sbx_refuse_path (err, -EINVAL,
                            "mounts: %s holds the state root %s, which a "
                            "container with linux.uidMappings ranges must "
                            "not see",
                            s, root);
  if (sbx_path_is_under (real, root) && m->why != SBX_WHY_SYSTEM)
    return sbx_refuse_path (err, -EINVAL,
                            "mounts: %s lies in the state root %s, which a "
                            "container with linux.uidMappings ranges must "
                            "not see",
                            s, root);
  *out = steal_pointer (&real);
  return 0;
}

static int
keep_sources (const struct sbx_plan *plan, const char *root,
              struct sbx_runner_cover *cover, struct sbx_error *err)
{
  cover->kept = calloc (plan->n_mounts + 1, sizeof *cover->kept);
  cover->kept_fd = calloc (plan->n_mounts + 1, sizeof *cover->kept_fd);
  if (cover->kept == NULL || cover->kept_fd == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      char *s = NULL;
      int r = hidden_source (cover, root, &plan->mounts[i], &s, err);
      if (r < 0)
        return r;
      bool inside = s == NULL;
      for (size_t j = 0; !inside && j < cover->n_kept; j++)
        inside = sbx_path_is_under (s, cover->kept[j]);
      if (inside)
        {
          free (s); /* seen with one kept already */
          continue;
        }
      /* An earlier one below it is inside it once it is bound.  */
      size_t k = 0;
      for (size_t j = 0; j < cover->n_kept; j++)
        if (sbx_path_is_under (cover->kept[j], s))
          free (cover->kept[j]);
        else
          cover->kept[k++] = cover->kept[j];
      cover->n_kept = k;
      cover->kept[cover->n_kept++] = s;
    }
  return 0;
}

int
sbx_runner_cover_plan (const struct sbx_plan *plan, const char *root,
                       const char *mqueue_dir, struct sbx_runner_cover *cover,
                       struct sbx_error *err)
{
  *cover = (struct sbx_runner_cover){ 0 };
  if (!plan->enter_userns || root == NULL)
    return 0;
  if (strcmp (root, "/") == 0)
    return sbx_fail (err, -EINVAL,
                     "linux.uidMappings: the state root is /, which the "
                     "runner would cover; give --root a directory");
  cover->made[0] = mqueue_dir;
  cover->made[1] = plan->n_nodes > 0 ? plan->nodes_dir : NULL;
  int r = cover_top (root, &cover->top, err);
  /* ROOT is a real path (sandbox.c), and they are made from it.  */
  for (int i = 0; r == 0 && i < 2; i++)
    if (cover->made[i] && !sbx_path_is_under (cover->made[i], root))
      r = sbx_fail (err, -EINVAL, "%s is not in the state root %s",
                    cover->made[i], root);
  if (r == 0)
    r = keep_sources (plan, root, cover, err);
  if (r == 0 && !cover->made[0] && !cover->made[1] && cover->n_kept == 0)
    sbx_runner_cover_free (cover); /* nothing below: nothing to cover */
  return r;
}

void
sbx_runner_cover_free (struct sbx_runner_cover *cover)
{
  free (cover->top);
  for (size_t i = 0; i < cover->n_kept; i++)
    free (cover->kept[i]);
  free (cover->kept);
  free (cover->kept_fd);
  *cover = (struct sbx_runner_cover){ 0 };
}

/* Below ROOT, covered: the directories down to PATH, searchable by all,
   and PATH itself, a directory when DIR or else a file, for a mount.  */
static int
mount_point (const char *root, const char *path, bool dir)
{
  char p[PATH_MAX];
  /* Below the cover only: the plan made PATH a real path.  */
  if (!sbx_path_is_under (path, root) || strcmp (path, root) == 0)
    return -EINVAL;
  if (snprintf (p, sizeof p, "%s", path) >= (int) sizeof p)
    return -ENAMETOOLONG;
  for (char *s = strchr (p + strlen (root) + 1, '/'); s;
       s = strchr (s + 1, '/'))
    {
      *s = '\0';
      /* chmod after: the umask, the sandbox's to inherit, cuts mkdir's. */
      if ((mkdir (p, 0711) < 0 && errno != EEXIST) || chmod (p, 0711) < 0)
        return -errno;
      *s = '/';
    }
  if (dir)
    return mkdir (p, 0700) < 0 && errno != EEXIST ? -errno : 0;
  int fd = open (p, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return -errno;
  close (fd);
  return 0;
}

/* Bind what FD holds (opened before the cover, in this namespace: a bind
   takes its source from the caller's own mount table) back at PATH.  */
static int
bind_back (const char *root, const char *path, int fd)
{
  struct stat st;
  char from[32];
  snprintf (from, sizeof from, "/proc/self/fd/%d", fd);
  if (fstat (fd, &st) < 0)
    return -errno;
  int r = mount_point (root, path, S_ISDIR (st.st_mode));
  if (r == 0 && mount (from, path, NULL, MS_BIND | MS_REC, NULL) < 0)
    r = -errno;
  return r;
}

int
sbx_runner_cover (const struct sbx_runner_cover *cover, char *msg, size_t size)
{
  const char *what = cover->top;
  size_t opened = 0;
  int r = 0;
  for (; r == 0 && opened < cover->n_kept; opened++)
    if ((cover->kept_fd[opened]
         = open (cover->kept[opened], O_PATH | O_CLOEXEC))
        < 0)
      {
        r = -errno;
        what = cover->kept[opened];
      }
  if (r == 0
      && mount ("tmpfs", cover->top, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                "mode=0711,uid=0,gid=0,size=64k")
             < 0)
    r = -errno;
  for (int i = 0; r == 0 && i < 2; i++)
    if (cover->made[i]
        && (r = mount_point (cover->top, cover->made[i], true)) < 0)
      what = cover->made[i];
  for (size_t i = 0; r == 0 && i < cover->n_kept; i++)
    if ((r = bind_back (cover->top, cover->kept[i], cover->kept_fd[i])) < 0)
      what = cover->kept[i];
  for (size_t i = 0; i < opened; i++)
    if (cover->kept_fd[i] >= 0)
      close (cover->kept_fd[i]);
  if (r < 0)
    snprintf (msg, size,
              "linux.uidMappings: cannot cover %s for the mapped user "
              "namespace (at %s): %s",
              cover->top, what, strerror (-r));
  return r;
}
