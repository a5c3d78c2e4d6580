/* Which cgroups the caller can use: read the mount table and the caller's
   cgroup membership, then look at the directories themselves.  */
#include "cgroups/cgroup.h"
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"
#include "common/host_root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Undo the octal escapes (\040 for a space) of mountinfo, in place.  */
static void
unescape_octal (char *s)
{
  char *w = s;
  for (char *r = s; *r; r++)
    {
      if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0'
          && r[2] <= '7' && r[3] >= '0' && r[3] <= '7')
        {
          *w++ = (char) ((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
          r += 3;
        }
      else
        *w++ = *r;
    }
  *w = '\0';
}

static bool
option_listed (const char *opts, const char *name)
{
  size_t len = strlen (name);
  for (const char *p = opts; p; p = strchr (p, ','))
    {
      if (*p == ',')
        p++;
      if (strncmp (p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
        return true;
    }
  return false;
}

/* The caller's path in the hierarchy whose /proc/PID/cgroup line lists
   CONTROLLER (NULL: the v2 "0::" line), relative to MOUNT_ROOT, or NULL
   when it is outside what that mount shows.  */
static char *
own_path (const char *proc_cgroup, const char *controller,
          const char *mount_root)
{
  cleanup_fclose FILE *f = fopen (proc_cgroup, "re");
  cleanup_free char *line = NULL;
  size_t cap = 0;
  while (f && getline (&line, &cap, f) > 0)
    {
      line[strcspn (line, "\n")] = '\0';
      char *ctl = strchr (line, ':');
      char *path = ctl ? strchr (ctl + 1, ':') : NULL;
      if (path == NULL)
        continue;
      *ctl++ = '\0';
      *path++ = '\0';
      bool match = controller ? option_listed (ctl, controller)
                              : (strcmp (line, "0") == 0 && *ctl == '\0');
      if (!match)
        continue;
      size_t rlen = strcmp (mount_root, "/") == 0 ? 0 : strlen (mount_root);
      if (strncmp (path, mount_root, rlen) != 0
          || (path[rlen] != '/' && path[rlen] != '\0'))
        return NULL;
      return strdup (path + rlen + strspn (path + rlen, "/"));
    }
  return NULL;
}

/* Fill H from the first mountinfo line of type FSTYPE that lists
   CONTROLLER in its super options (any, when NULL).  */
static int
find_mount (const char *mountinfo, const char *proc_cgroup, const char *fstype,
            const char *controller, struct sbx_cgroup_hierarchy *h)
{
  cleanup_fclose FILE *f = fopen (mountinfo, "re");
  cleanup_free char *line = NULL;
  size_t cap = 0;
  if (f == NULL)
    return -errno;
  while (getline (&line, &cap, f) > 0)
    {
      char root[4096], point[4096], type[64], super[1024];
      const char *dash = strstr (line, " - ");
      if (dash == NULL
          || sscanf (line, "%*s %*s %*s %4095s %4095s", root, point) != 2
          || sscanf (dash, " - %63s %*s %1023s", type, super) != 2
          || strcmp (type, fstype) != 0
          || (controller && !option_listed (super, controller)))
        continue;
      unescape_octal (root);
      unescape_octal (point);
      h->own = own_path (proc_cgroup, controller, root);
      if (h->own == NULL)
        continue; /* this mount does not show the caller's cgroup */
      h->mount = strdup (point);
      return h->mount ? 0 : -ENOMEM;
    }
  return -ENOENT;
}

static void
hierarchy_free (struct sbx_cgroup_hierarchy *h)
{
  free (h->mount);
  free (h->own);
  free (h->base);
  *h = (struct sbx_cgroup_hierarchy){ 0 };
}

static bool
writable (const char *dir, const char *file)
{
  cleanup_free char *path = cgfs_join (dir, file);
  return path && faccessat (AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

static bool
offers_memory_and_pids (const char *dir, const char *file)
{
  return cgfs_file_has_word (dir, file, "memory")
         && cgfs_file_has_word (dir, file, "pids");
}

/* Can an unprivileged caller make cgroups with memory and pids in DIR?  On
   "no", REASON says why.  */
static bool
delegated_ok (const char *dir, uid_t euid, char *reason, size_t size)
{
  struct stat st;
  pid_t *pids = NULL;
  size_t n = 0;
  if (stat (dir, &st) < 0 || st.st_uid != euid)
    snprintf (reason, size, "%s is not owned by uid %u", dir, (unsigned) euid);
  else if (!writable (dir, "cgroup.procs")
           || !writable (dir, "cgroup.subtree_control"))
    snprintf (reason, size,
              "%s/cgroup.procs or cgroup.subtree_control "
              "is not writable",
              dir);
  else if (!offers_memory_and_pids (dir, "cgroup.controllers"))
    snprintf (reason, size,
              "%s does not offer the memory and pids "
              "controllers",
              dir);
  else if (offers_memory_and_pids (dir, "cgroup.subtree_control"))
    return true;
  else if (cgfs_list_pids (dir, false, &pids, &n) == 0 && n == 0)
    return true;
  else
    snprintf (reason, size,
              "%s has processes and memory and pids are not "
              "enabled in its cgroup.subtree_control",
              dir);
  free (pids);
  return false;
}

/* Not the host's root: walk up from the caller's cgroup while it owns it,
   to the first directory it can make sandboxes in.  */
static int
find_delegated_base (struct sbx_cgroup_layout *l, uid_t euid)
{
  char why[sizeof l->reason] = "";
  cleanup_free char *rel = strdup (l->unified.own);
  if (rel == NULL)
    return -ENOMEM;
  for (;;)
    {
      cleanup_free char *dir = cgfs_join (l->unified.mount, rel);
      if (dir == NULL)
        return -ENOMEM;
      char here[sizeof l->reason];
      if (delegated_ok (dir, euid, here, sizeof here))
        {
          l->unified.base = steal_pointer (&rel);
          return 0;
        }
      if (why[0] == '\0') /* the caller's own cgroup says the most */
        memcpy (why, here, sizeof why);
      struct stat st;
      char *slash = strrchr (rel, '/');
      if (rel[0] == '\0' || stat (dir, &st) < 0 || st.st_uid != euid)
        break;
      if (slash)
        *slash = '\0';
      else
        rel[0] = '\0';
    }
  snprintf (l->reason, sizeof l->reason,
            "unprivileged and no delegated cgroup v2 subtree: %s", why);
  return 0;
}

static int
detect_v2 (const char *mountinfo, const char *proc_cgroup, uid_t euid,
           bool privileged, struct sbx_cgroup_layout *l)
{
  int r = find_mount (mountinfo, proc_cgroup, "cgroup2", NULL, &l->unified);
  if (r == -ENOENT)
    {
      snprintf (l->reason, sizeof l->reason, "%s",
                privileged ? "no cgroup2 file system is mounted"
                           : "unprivileged and no delegated cgroup v2 "
                             "subtree: no cgroup2 file system is mounted");
      return 0;
    }
  if (r < 0)
    return r;
  if (!privileged)
    return find_delegated_base (l, euid);
  const char *m = l->unified.mount;
  if (!offers_memory_and_pids (m, "cgroup.controllers"))
    snprintf (l->reason, sizeof l->reason,
              "cgroup v2 at %s does not offer the memory and pids "
              "controllers",
              m);
  else if (!writable (m, "cgroup.subtree_control"))
    snprintf (l->reason, sizeof l->reason, "cgroup v2 at %s is read-only", m);
  else
    l->unified.base = strdup ("");
  return 0;
}

/* Root only: v1 needs writable memory and pids hierarchies.  */
static int
detect_v1 (const char *mountinfo, const char *proc_cgroup,
           struct sbx_cgroup_layout *l)
{
  for (int c = 0; c < SBX_CG_N; c++)
    {
      struct sbx_cgroup_hierarchy *h = &l->v1[c];
      int r = find_mount (mountinfo, proc_cgroup, "cgroup", cg1_names[c], h);
      if (r == -ENOENT || (r == 0 && !writable (h->mount, "cgroup.procs")))
        {
          hierarchy_free (h);
          continue;
        }
      if (r < 0 || (h->base = strdup ("")) == NULL)
        return r < 0 ? r : -ENOMEM;
      l->controllers |= SBX_CG_BIT (c);
    }
  return 0;
}

static void
explain_v1 (struct sbx_cgroup_layout *l)
{
  char v2_reason[sizeof l->reason];
  memcpy (v2_reason, l->reason, sizeof v2_reason);
  unsigned need = SBX_CG_BIT (SBX_CG_MEMORY) | SBX_CG_BIT (SBX_CG_PIDS);
  if ((l->controllers & need) == need)
    {
      l->version = SBX_CGROUP_V1;
      snprintf (l->reason, sizeof l->reason, "%s",
                l->controllers & SBX_CG_BIT (SBX_CG_FREEZER)
                    ? ""
                    : "no cgroup v1 freezer: kill signals members one by "
                      "one");
      return;
    }
  snprintf (l->reason, sizeof l->reason,
            "%s, and cgroup v1 memory and pids are not both mounted "
            "writable",
            v2_reason);
  l->controllers = 0;
}

int
sbx_cgroup_detect_at (const char *mountinfo, const char *proc_cgroup,
                      uid_t euid, bool privileged,
                      struct sbx_cgroup_layout *out, struct sbx_error *err)
{
  *out = (struct sbx_cgroup_layout){ .privileged = privileged };
  int r = detect_v2 (mountinfo, proc_cgroup, euid, privileged, out);
  if (r == 0 && out->unified.base)
    {
      out->version = SBX_CGROUP_V2;
      out->controllers = SBX_CG_BIT (SBX_CG_MEMORY) | SBX_CG_BIT (SBX_CG_PIDS);
      out->reason[0] = '\0';
      return 0;
    }
  hierarchy_free (&out->unified);
  if (r == 0 && privileged)
    r = detect_v1 (mountinfo, proc_cgroup, out);
  if (r == 0 && privileged)
    explain_v1 (out);
  if (r < 0)
    {
      sbx_cgroup_layout_free (out);
      return sbx_fail_errno (err, r, "cgroup detection: reading %s",
                             mountinfo);
    }
  return 0;
}

static int
nest_in_own (struct sbx_cgroup_hierarchy *h)
{
  char *own = strdup (h->own ? h->own : "");
  if (own == NULL)
    return -ENOMEM;
  free (h->base);
  h->base = own;
  return 0;
}

int
sbx_cgroup_layout_nest (struct sbx_cgroup_layout *l)
{
  if (l->version == SBX_CGROUP_V2 && l->unified.own
      && l->unified.own[0] != '\0')
    {
      snprintf (l->reason, sizeof l->reason,
                "a config under a ceiling keeps its sandbox in the caller's "
                "cgroup (%s/%s), and cgroup v2 hands no controller down "
                "from a cgroup that holds processes",
                l->unified.mount, l->unified.own);
      l->version = SBX_CGROUP_NONE;
      l->controllers = 0;
      return 0;
    }
  if (l->version == SBX_CGROUP_V2)
    return nest_in_own (&l->unified);
  int r = 0;
  for (int c = 0; r == 0 && c < SBX_CG_N; c++)
    if (l->version == SBX_CGROUP_V1 && (l->controllers & SBX_CG_BIT (c)))
      r = nest_in_own (&l->v1[c]);
  return r;
}

int
sbx_cgroup_detect (struct sbx_cgroup_layout *out, struct sbx_error *err)
{
  return sbx_cgroup_detect_at ("/proc/self/mountinfo", "/proc/self/cgroup",
                               geteuid (), sbx_host_root (), out, err);
}

void
sbx_cgroup_layout_free (struct sbx_cgroup_layout *layout)
{
  hierarchy_free (&layout->unified);
  for (int c = 0; c < SBX_CG_N; c++)
    hierarchy_free (&layout->v1[c]);
  layout->version = SBX_CGROUP_NONE;
  layout->controllers = 0;
}

const char *
sbx_cgroup_version_name (enum sbx_cgroup_version version)
{
  switch (version)
    {
    case SBX_CGROUP_V1:
      return "v1";
    case SBX_CGROUP_V2:
      return "v2";
    default:
      return "none";
    }
}
