#include "common/host_root.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"

#define CAP_SYS_ADMIN_BIT 21 /* linux/capability.h's CAP_SYS_ADMIN */

/* PATH's first SIZE-1 bytes as a string, or -1 (no such file).  */
static ssize_t
read_text (const char *path, char *buf, size_t size)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read (fd, buf, size - 1);
  if (n >= 0)
    buf[n] = '\0';
  return n;
}

/* Whether this process sees the initial user namespace's whole uid range
   ("0 0 4294967295").  */
static bool
initial_user_namespace (void)
{
  char map[128];
  if (read_text ("/proc/self/uid_map", map, sizeof map) < 0)
    return true; /* no user namespaces here */
  return strstr (map, "4294967295") != NULL;
}

/* How many uids this user namespace maps: the sum of its map's counts.  */
static unsigned long long
mapped_uids (void)
{
  char map[2048]; /* up to 340 lines of up to 3 ten-digit numbers */
  if (read_text ("/proc/self/uid_map", map, sizeof map) < 0)
    return 0;
  unsigned long long sum = 0;
  unsigned long inside, outside, count;
  for (const char *line = map; *line != '\0';)
    {
      if (sscanf (line, "%lu %lu %lu", &inside, &outside, &count) == 3)
        sum += count;
      const char *end = strchr (line, '\n');
      if (end == NULL)
        break;
      line = end + 1;
    }
  return sum;
}

static bool
holds_sys_admin (void)
{
  char status[4096];
  if (read_text ("/proc/self/status", status, sizeof status) < 0)
    return false;
  const char *eff = strstr (status, "\nCapEff:");
  return eff != NULL
         && (strtoull (eff + strlen ("\nCapEff:"), NULL, 16)
             >> CAP_SYS_ADMIN_BIT)
                & 1;
}

static bool
may_set_groups (void)
{
  char text[16];
  return read_text ("/proc/self/setgroups", text, sizeof text) > 0
         && strncmp (text, "allow", 5) == 0;
}

bool
sbx_host_root (void)
{
  return geteuid () == 0 && initial_user_namespace ();
}

bool
sbx_namespace_root (void)
{
  return geteuid () == 0 && !initial_user_namespace () && holds_sys_admin ()
         && may_set_groups () && mapped_uids () > 1;
}

bool
sbx_runs_as_root (void)
{
  return sbx_host_root () || sbx_namespace_root ();
}
