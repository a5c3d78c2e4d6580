/* mount_churn DIR [PAUSE_US]: mount a tmpfs on DIR/m0..m3 and unmount it
   again, one after another, until killed: a host whose mount table never
   rests (a Kubernetes node's pod networks under /run/netns), with
   PAUSE_US microseconds between two (default 0: as fast as it can go).
   Needs CAP_SYS_ADMIN.  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  char path[4][4096];
  if (argc < 2 || argc > 3)
    {
      fprintf (stderr, "usage: mount_churn DIR [PAUSE_US]\n");
      return 2;
    }
  useconds_t pause = argc == 3 ? (useconds_t) atol (argv[2]) : 0;
  for (int i = 0; i < 4; i++)
    {
      snprintf (path[i], sizeof path[i], "%s/m%d", argv[1], i);
      mkdir (path[i], 0755);
    }
  for (unsigned long i = 0;; i++)
    {
      if (mount ("sbx-churn", path[i % 4], "tmpfs", 0, NULL) < 0)
        {
          perror ("mount_churn: mount");
          return 1;
        }
      umount (path[i % 4]);
      if (pause)
        usleep (pause);
    }
}
