#include "common/host_root.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"

/* Whether this process sees the initial user namespace's whole uid range
   ("0 0 4294967295").  */
static bool
initial_user_namespace (void)
{
  char line[128];
  cleanup_close int fd = open ("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read (fd, line, sizeof line - 1);
  if (n < 0)
    return fd < 0; /* no user namespaces here */
  line[n] = '\0';
  return strstr (line, "4294967295") != NULL;
}

bool
sbx_host_root (void)
{
  return geteuid () == 0 && initial_user_namespace ();
}
