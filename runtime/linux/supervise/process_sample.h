/* Sampling a sandbox's process tree without cgroups: from its pid 1 down
   through /proc/PID/task/TID/children, summing resident memory and
   counting processes.  A process that double-forks inside the sandbox's
   PID namespace is re-parented to that pid 1, so it is still found.  The
   sampler reuses its buffers: a tick allocates only when a tree grows
   past anything seen before.  */
#ifndef SBX_SAMPLER_H
#define SBX_SAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Open /proc files of the processes seen at the last ticks: re-reading an
   open procfs file costs a fraction of opening it again, and an fd keeps
   naming the process it was opened for, so a recycled pid is never read. */
struct sbx_proc_fds
{
  pid_t pid; /* 0: free slot */
  int stat_fd;
  int children_fd;    /* the leader thread's children */
  int statm_fd;       /* the cheap file: resident pages only */
  long threads;       /* from the last full stat read */
  unsigned stat_tick; /* when that was */
  unsigned tick;      /* the last tick that saw this process */
};

#define SBX_SAMPLER_CACHE 512 /* slots; a power of two */

struct sbx_sampler
{
  pid_t *stack; /* pids still to visit */
  size_t cap;
  long page_size;
  unsigned tick;
  struct sbx_proc_fds *cache; /* SBX_SAMPLER_CACHE slots, or NULL */
  size_t cached;
  pid_t ns_root;  /* the root NS_PROC_FD was looked up for */
  int ns_proc_fd; /* the sandbox's own /proc, or -1: walk the tree */
  int loadavg_fd; /* /proc/loadavg: its last field moves with every fork */
  long listed_at; /* that field at the last listing of NS_PROC_FD, or -1 */
};

struct sbx_sample
{
  uint64_t rss_bytes; /* summed over the tree (shared pages count twice) */
  uint64_t processes;
};

void sbx_sampler_init (struct sbx_sampler *s);
void sbx_sampler_free (struct sbx_sampler *s);

/* When ROOT is the init of a PID namespace whose own procfs is mounted
   inside the sandbox, list that procfs (one directory read for the whole
   namespace: nothing escapes it); otherwise walk the tree under ROOT
   (included).  Processes that vanish during the
   walk are skipped.  Returns 0, -ESRCH when ROOT itself is gone, -ENOMEM.  */
int sbx_sampler_take (struct sbx_sampler *s, pid_t root,
                      struct sbx_sample *out);

#endif
