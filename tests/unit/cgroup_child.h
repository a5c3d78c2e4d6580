/* For the cgroup tests: children that are members of a cgroup from their
   first instruction on, and what they do there.  */
#ifndef SBX_TEST_CGROUP_CHILD_H
#define SBX_TEST_CGROUP_CHILD_H

#include <stdio.h>
#include <unistd.h>

#include "cgroups/cgroup.h"

/* Fork a child that waits on a gate until it has been put into CG, then
   exits with FN's status.  Returns its pid, or -1.  */
static inline pid_t
spawn_inside (struct sbx_cgroup *cg, int (*fn) (void))
{
  int gate[2];
  if (pipe (gate) < 0)
    return -1;
  pid_t pid = fork ();
  if (pid == 0)
    {
      char c;
      close (gate[1]);
      alarm (9); /* never outlive a broken test */
      if (read (gate[0], &c, 1) != 1)
        _exit (99);
      _exit (fn ());
    }
  struct sbx_error err = { 0 };
  close (gate[0]);
  if (pid > 0 && sbx_cgroup_enter (cg, pid, &err) < 0)
    printf ("# enter: %s\n", err.msg);
  if (write (gate[1], "x", 1) != 1)
    printf ("# gate write failed\n");
  close (gate[1]);
  return pid;
}

static inline int
sleep_forever (void)
{
  pause ();
  return 0;
}

static inline int
setsid_sleep (void)
{
  setsid ();
  pause ();
  return 0;
}

#endif
