#include "runtime/linux/container/ns_procs.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/linux/pid_identity.h"

struct pids
{
  pid_t *v;
  size_t n, cap;
};

static int
push (struct pids *p, pid_t pid)
{
  if (p->n == p->cap)
    {
      size_t cap = p->cap ? p->cap * 2 : 16;
      pid_t *grown = realloc (p->v, cap * sizeof *p->v);
      if (grown == NULL)
        return -ENOMEM;
      p->v = grown;
      p->cap = cap;
    }
  p->v[p->n++] = pid;
  return 0;
}

static bool
has (const struct pids *p, pid_t pid)
{
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i] == pid)
      return true;
  return false;
}

/* The namespace of kind KIND ("pid", "mnt") of PID.  */
static int
ns_of (pid_t pid, const char *kind, struct stat *st)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/ns/%s", (int) pid, kind);
  return stat (path, st) < 0 ? -errno : 0;
}

static bool
same_ns (const struct stat *a, const struct stat *b)
{
  return a->st_ino == b->st_ino && a->st_dev == b->st_dev;
}

static int
cmp_pid (const void *a, const void *b)
{
  pid_t x = *(const pid_t *) a, y = *(const pid_t *) b;
  return (x > y) - (x < y);
}

bool
sbx_pid_is_ns_init (pid_t pid)
{
  char path[64], line[256];
  snprintf (path, sizeof path, "/proc/%d/status", (int) pid);
  FILE *f = fopen (path, "re");
  bool init = false;
  while (f && fgets (line, sizeof line, f))
    if (strncmp (line, "NSpid:", 6) == 0)
      {
        char *last = strrchr (line, '\t');
        init = last && atoi (last + 1) == 1;
        break;
      }
  if (f)
    fclose (f);
  return init;
}

/* Every host pid.  */
static int
list_all (struct pids *all)
{
  DIR *d = opendir ("/proc");
  if (d == NULL)
    return -errno;
  struct dirent *e;
  int r = 0;
  while (r == 0 && (e = readdir (d)) != NULL)
    {
      char *end;
      long pid = strtol (e->d_name, &end, 10);
      if (*end == '\0' && pid > 0)
        r = push (all, (pid_t) pid);
    }
  closedir (d);
  return r;
}

/* ROOT and its descendants: each pass over the listing adds the children
   of what it holds, until one adds nothing.  */
static int
tree_pids (pid_t root, struct pids *out)
{
  struct pids all = { 0 }, parents = { 0 };
  int r = list_all (&all);
  /* Each one's parent, where still readable (-1 otherwise).  */
  for (size_t i = 0; r == 0 && i < all.n; i++)
    r = push (&parents, sbx_pid_parent (all.v[i]));
  r = r ?: push (out, root);
  for (bool grew = true; r == 0 && grew;)
    {
      grew = false;
      for (size_t i = 0; r == 0 && i < all.n; i++)
        if (!has (out, all.v[i]) && has (out, parents.v[i]))
          {
            r = push (out, all.v[i]);
            grew = true;
          }
    }
  free (all.v);
  free (parents.v);
  return r;
}

/* Every host pid in the namespace NS of kind KIND that OUT does not
   hold yet.  */
static int
namespace_pids (const struct stat *ns, const char *kind, struct pids *out)
{
  struct stat st;
  struct pids all = { 0 };
  int r = list_all (&all);
  for (size_t i = 0; r == 0 && i < all.n; i++)
    if (ns_of (all.v[i], kind, &st) == 0 && same_ns (&st, ns)
        && !has (out, all.v[i]))
      r = push (out, all.v[i]);
  free (all.v);
  return r;
}

/* Whether PID's mount namespace, when it can be read, is NS.  */
static bool
in_ns (pid_t pid, const struct stat *ns)
{
  struct stat st;
  return pid > 0 && ns_of (pid, "mnt", &st) == 0 && same_ns (&st, ns);
}

/* Not ours, nor our pid namespace's init's, nor that of PID1's parent
   (bwrap, or whoever took PID1 in): a sandbox of no namespaces, or one
   seen from another mount namespace than its caller's, shares theirs,
   and all of those processes would be taken for the sandbox's.  */
bool
sbx_sandbox_mount_ns (pid_t pid1, struct stat *ns)
{
  return ns_of (pid1, "mnt", ns) == 0 && !in_ns (getpid (), ns)
         && !in_ns (1, ns) && !in_ns (sbx_pid_parent (pid1), ns);
}

int
sbx_mount_ns_pids (const struct stat *ns, pid_t **pids, size_t *n)
{
  struct pids out = { 0 };
  int r = namespace_pids (ns, "mnt", &out);
  if (r < 0)
    free (out.v);
  *pids = r < 0 ? NULL : out.v;
  *n = r < 0 ? 0 : out.n;
  return r;
}

/* PID1's processes when it is no pid namespace's init: its tree, and
   what else is in its mount namespace where that is the sandbox's own
   (a process that left the tree, setsid and its parent gone).  */
static int
tree_and_mount_ns (pid_t pid1, struct pids *out)
{
  struct stat mnt;
  int r = tree_pids (pid1, out);
  if (r == 0 && sbx_sandbox_mount_ns (pid1, &mnt))
    r = namespace_pids (&mnt, "mnt", out);
  return r;
}

int
sbx_sandbox_pids (pid_t pid1, pid_t **pids, size_t *n)
{
  struct pids out = { 0 };
  *pids = NULL;
  *n = 0;
  if (kill (pid1, 0) < 0 && errno == ESRCH)
    return -ESRCH;
  struct stat pidns;
  int r = !sbx_pid_is_ns_init (pid1) ? tree_and_mount_ns (pid1, &out)
          : ns_of (pid1, "pid", &pidns) < 0
              ? -ESRCH
              : namespace_pids (&pidns, "pid", &out);
  if (r < 0)
    {
      free (out.v);
      return r;
    }
  qsort (out.v, out.n, sizeof *out.v, cmp_pid);
  *pids = out.v;
  *n = out.n;
  return 0;
}
