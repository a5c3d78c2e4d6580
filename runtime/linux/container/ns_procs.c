#include "runtime/linux/container/ns_procs.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static int
pidns_of (pid_t pid, struct stat *st)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/ns/pid", (int) pid);
  return stat (path, st) < 0 ? -errno : 0;
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

/* Every host pid in the pid namespace of PID1.  */
static int
namespace_pids (pid_t pid1, struct pids *out)
{
  struct stat want, st;
  if (pidns_of (pid1, &want) < 0)
    return -ESRCH;
  struct pids all = { 0 };
  int r = list_all (&all);
  for (size_t i = 0; r == 0 && i < all.n; i++)
    if (pidns_of (all.v[i], &st) == 0 && st.st_ino == want.st_ino
        && st.st_dev == want.st_dev)
      r = push (out, all.v[i]);
  free (all.v);
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
  int r = sbx_pid_is_ns_init (pid1) ? namespace_pids (pid1, &out)
                                    : tree_pids (pid1, &out);
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
