/* The runner: the child sbx-oci starts to exec bwrap (spawn.c, and
   prestart.c before the plan exists).  It borrows sbx-oci's memory on a
   stack of its own, as posix_spawn's child does, takes the steps its
   request asks for before the exec (its process group, the namespaces the
   plan joins, groups, cgroup, rlimits, a user namespace), puts exactly
   the layout's descriptors in place and execs.  A step that fails is
   reported on the layout's report pipe (child_step.h).  */
#ifndef SBX_RUNNER_CHILD_H
#define SBX_RUNNER_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

#include "common/error.h"
#include "runtime/linux/bwrap/runner_cover.h"
#include "runtime/linux/bwrap/spawn.h"

/* The request's optional descriptors: stdio is never one of them, so a
   field left at 0 by an initializer reads as "none", not as stdin.  */
static inline bool
sbx_has_fd (int fd)
{
  return fd > 2;
}

/* The descriptors the runner is given, in the order they are numbered
   from 3 (after any preserved ones); -1 where unused.  */
enum
{
  RUNNER_FD_STATUS,
  RUNNER_FD_BLOCK,
  RUNNER_FD_SECCOMP,
  RUNNER_FD_SECCOMP_NET,
  RUNNER_FD_INFO,
  RUNNER_FD_USERNS,
  RUNNER_FD_ARGS,
  RUNNER_FD_INIT,        /* the sealed sbx-oci-init */
  RUNNER_FD_INIT_REPORT, /* its lookup failures, to create */
  RUNNER_FD_STARTED,     /* the exec FIFO it keeps open until its exec */
  RUNNER_FD_LANDLOCK,
  RUNNER_FD_PIDNS,       /* the joined pid namespace, for bwrap's --pidns */
  RUNNER_FD_HELPER_ARGS, /* the Landlock helper's arguments (prestart.h) */
  RUNNER_FD_COUNT
};

struct sbx_runner_layout
{
  int at[RUNNER_FD_COUNT];  /* the number the runner sees */
  int src[RUNNER_FD_COUNT]; /* the descriptor sbx holds */
  /* Held bind sources (bind_sources.h), one per plan mount, -1 where a
     source is a path: the number the runner sees, and a copy sbx made
     above the whole layout, so placing one never clobbers another.  */
  int *mount_at, *mount_src;
  size_t n_mounts;
  int report; /* the child's failure pipe, above all of them */
};

struct sbx_runner_child
{
  const struct sbx_spawn_request *req;
  char **argv, **envp;
  const struct sbx_runner_layout *l;
  int report_w;
  pid_t parent;  /* sbx itself, which the child must not outlive */
  int userns_fd; /* the user namespace to enter last (userns_made.h), or
                    -1 */
  struct sbx_runner_cover cover; /* for a range's user namespace */
};

/* Start A's runner; returns once it has exec'd or failed (then its
   report is on A->l's report pipe), or -1 with errno.  */
pid_t sbx_runner_start (struct sbx_runner_child *a);

/* Number L's present sources 3 upwards, after PRESERVED descriptors, and
   its MOUNT_FDS (L->n_mounts of them, -1 where a source is a path) after
   them; the report pipe last.  */
void sbx_runner_layout_number (int preserved, const int *mount_fds,
                               struct sbx_runner_layout *l);

/* 0 when the runner at RUNNER exec'd (REPORT_R closed unwritten), else
   its failed step as ERR.  */
int sbx_runner_failure (int report_r, const char *runner,
                        struct sbx_error *err);

/* A close-on-exec pipe: *OURS is the end sbx-oci keeps (the read end if
   WE_READ), *THEIRS the runner's.  */
int sbx_runner_pipe (int *ours, int *theirs, bool we_read);

#endif
