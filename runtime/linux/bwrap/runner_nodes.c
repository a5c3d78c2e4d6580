#include "runtime/linux/bwrap/runner_nodes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static mode_t
node_format (char type)
{
  return type == 'b' ? S_IFBLK : type == 'p' ? S_IFIFO : S_IFCHR;
}

int
sbx_runner_make_nodes (const struct sbx_plan *plan, char *msg, size_t size)
{
  /* Not nodev, or the nodes would not open; noexec and nosuid, as
     nothing here is a program.  */
  if (mount ("tmpfs", plan->nodes_dir, "tmpfs", MS_NOSUID | MS_NOEXEC,
             "mode=0700,uid=0,gid=0")
      < 0)
    {
      int e = errno;
      snprintf (msg, size,
                "linux.devices: cannot mount a tmpfs for the nodes on %s: "
                "%s",
                plan->nodes_dir, strerror (e));
      return -e;
    }
  for (size_t i = 0; i < plan->n_nodes; i++)
    {
      const struct sbx_plan_node *n = &plan->nodes[i];
      /* mknod's mode is cut by the umask; the config's is set after.  */
      if (mknod (n->source, node_format (n->type) | 0600,
                 makedev (n->major, n->minor))
              < 0
          || fchownat (AT_FDCWD, n->source, n->uid, n->gid,
                       AT_SYMLINK_NOFOLLOW)
                 < 0
          || fchmodat (AT_FDCWD, n->source, n->mode, 0) < 0)
        {
          int e = errno;
          snprintf (msg, size, "linux.devices[%zu]: cannot make the node: %s",
                    i, strerror (e));
          return -e;
        }
    }
  return 0;
}
