#include "common/host_root.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/capability.h>
#include <sys/syscall.h>
#endif

#include "common/cleanup.h"

/* PATH's text, whole up to SIZE-1 bytes, or -1 (no such file).  */
static ssize_t
read_text (const char *path, char *buf, size_t size)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t len = 0;
  ssize_t n;
  while (len < size - 1 && (n = read (fd, buf + len, size - 1 - len)) > 0)
    len += (size_t) n;
  buf[len] = '\0';
  return (ssize_t) len;
}

/* A map's text: up to 340 lines of three numbers of up to ten digits.  */
#define MAP_TEXT_MAX (340 * 33 + 1)

/* Calls EACH for every line of /proc/self/NAME ("uid_map", "gid_map").
   False when there is no such file (no user namespaces here).  */
static bool
each_map_line (const char *name,
               void (*each) (unsigned long inside, unsigned long outside,
                             unsigned long count, void *arg),
               void *arg)
{
  char path[32];
  cleanup_free char *map = malloc (MAP_TEXT_MAX);
  snprintf (path, sizeof path, "/proc/self/%s", name);
  if (map == NULL || read_text (path, map, MAP_TEXT_MAX) < 0)
    return false;
  unsigned long inside, outside, count;
  for (const char *line = map; *line != '\0';)
    {
      if (sscanf (line, "%lu %lu %lu", &inside, &outside, &count) == 3)
        each (inside, outside, count, arg);
      const char *end = strchr (line, '\n');
      if (end == NULL)
        break;
      line = end + 1;
    }
  return true;
}

static void
add_count (unsigned long inside, unsigned long outside, unsigned long count,
           void *arg)
{
  (void) inside;
  (void) outside;
  *(unsigned long long *) arg += count;
}

/* How many ids this user namespace maps (NAME: "uid_map", "gid_map").  */
static unsigned long long
mapped_ids (const char *name)
{
  unsigned long long sum = 0;
  return each_map_line (name, add_count, &sum) ? sum : 0;
}

static void
find_root (unsigned long inside, unsigned long outside, unsigned long count,
           void *arg)
{
  if (outside == 0 && count > 0)
    *(int64_t *) arg = (int64_t) inside;
}

int64_t
sbx_parent_root_id (const char *map_name)
{
  int64_t id = -1;
  if (sbx_initial_user_namespace ())
    return 0;
  return each_map_line (map_name, find_root, &id) ? id : 0;
}

/* Asked several times a command (the probe, the state root, exec's
   gates), all before any namespace is joined, and only by children
   after: read once.  */
bool
sbx_initial_user_namespace (void)
{
  static int initial = -1;
  char map[64];
  if (initial < 0)
    initial = read_text ("/proc/self/uid_map", map, sizeof map) < 0
              || strstr (map, "4294967295") != NULL; /* none: no userns */
  return initial;
}

/* CAP_SYS_ADMIN effective in this process's user namespace.  */
static bool
holds_sys_admin (void)
{
#ifdef __linux__
  struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  if (syscall (SYS_capget, &head, data) < 0)
    return false;
  return (data[CAP_TO_INDEX (CAP_SYS_ADMIN)].effective
          & CAP_TO_MASK (CAP_SYS_ADMIN))
         != 0;
#else
  return false;
#endif
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
  return geteuid () == 0 && sbx_initial_user_namespace ();
}

bool
sbx_namespace_root (void)
{
  return geteuid () == 0 && !sbx_initial_user_namespace ()
         && holds_sys_admin () && may_set_groups ()
         && mapped_ids ("uid_map") > 1 && mapped_ids ("gid_map") > 1;
}

bool
sbx_runs_as_root (void)
{
  return sbx_host_root () || sbx_namespace_root ();
}
