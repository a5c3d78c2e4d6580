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

/* mount(8)'s flag words; every other option is the file system's own.  */
static const struct
{
  const char *name;
  unsigned long set, clear;
} flag_words[] = {
  { "ro", MS_RDONLY, 0 },
  { "rw", 0, MS_RDONLY },
  { "nosuid", MS_NOSUID, 0 },
  { "suid", 0, MS_NOSUID },
  { "nodev", MS_NODEV, 0 },
  { "dev", 0, MS_NODEV },
  { "noexec", MS_NOEXEC, 0 },
  { "exec", 0, MS_NOEXEC },
  { "sync", MS_SYNCHRONOUS, 0 },
  { "async", 0, MS_SYNCHRONOUS },
  { "dirsync", MS_DIRSYNC, 0 },
  { "noatime", MS_NOATIME, 0 },
  { "atime", 0, MS_NOATIME },
  { "nodiratime", MS_NODIRATIME, 0 },
  { "diratime", 0, MS_NODIRATIME },
  { "relatime", MS_RELATIME, 0 },
  { "norelatime", 0, MS_RELATIME },
  { "strictatime", MS_STRICTATIME, 0 },
  { "defaults", 0, 0 },
  /* Propagation is the sandbox's, a slave tree (rootfsPropagation).  */
  { "private", 0, 0 },
  { "rprivate", 0, 0 },
  { "shared", 0, 0 },
  { "rshared", 0, 0 },
  { "slave", 0, 0 },
  { "rslave", 0, 0 },
  { "unbindable", 0, 0 },
  { "runbindable", 0, 0 },
};

/* The config's tmpfs N at its source, as mount(8) would mount it, but
   always nosuid and nodev, as bwrap's own tmpfs: a device node made in a
   container's tmpfs would open the host's device (a device rule stands
   behind it only when the config has one).  LABEL: linux.mountLabel, or
   NULL.  */
static int
mount_tmpfs (const struct sbx_plan_node *n, const char *label, char *msg,
             size_t size)
{
  unsigned long flags = 0;
  const unsigned long forced = MS_NOSUID | MS_NODEV;
  char data[SBX_RUNNER_TMPFS_OPTIONS_MAX + SBX_LABEL_MAX + 16]
      = "",
      options[SBX_RUNNER_TMPFS_OPTIONS_MAX + 1];
  snprintf (options, sizeof options, "%s", n->fs_options);
  char *save = NULL;
  for (char *o = strtok_r (options, ",", &save); o;
       o = strtok_r (NULL, ",", &save))
    {
      size_t i = 0;
      while (i < sizeof flag_words / sizeof *flag_words
             && strcmp (flag_words[i].name, o) != 0)
        i++;
      if (i < sizeof flag_words / sizeof *flag_words)
        flags = (flags | flag_words[i].set) & ~flag_words[i].clear;
      else
        snprintf (data + strlen (data), sizeof data - strlen (data), "%s%s",
                  data[0] ? "," : "", o);
    }
  /* linux.mountLabel, quoted: an MCS context has commas in it.  */
  if (label)
    snprintf (data + strlen (data), sizeof data - strlen (data),
              "%scontext=\"%s\"", data[0] ? "," : "", label);
  if (mkdir (n->source, 0700) < 0
      || mount (n->fs_name, n->source, "tmpfs", flags | forced, data) < 0)
    {
      int e = errno;
      snprintf (msg, size, "mounts[%zu]: cannot mount its tmpfs (%s): %s",
                n->index, n->fs_options, strerror (e));
      return -e;
    }
  return 0;
}

int
sbx_runner_make_nodes (const struct sbx_plan *plan, char *msg, size_t size)
{
  /* Not nodev, or the nodes would not open; noexec and nosuid, as
     nothing here is a program.  Searchable by all: bwrap in a user
     namespace of sbx's making (uid ranges), where host root is nobody,
     binds from here too; and only the runner's mount namespace has it.  */
  if (mount ("tmpfs", plan->nodes_dir, "tmpfs", MS_NOSUID | MS_NOEXEC,
             "mode=0711,uid=0,gid=0")
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
      if (n->type == 't')
        {
          int r = mount_tmpfs (n, plan->mount_label, msg, size);
          if (r < 0)
            return r;
          continue;
        }
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
                    n->index, strerror (e));
          return -e;
        }
    }
  return 0;
}
