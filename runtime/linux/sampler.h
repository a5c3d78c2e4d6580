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

struct sbx_sampler
{
  pid_t *stack; /* pids still to visit */
  size_t cap;
  long page_size;
};

struct sbx_sample
{
  uint64_t rss_bytes; /* summed over the tree (shared pages count twice) */
  uint64_t processes;
};

void sbx_sampler_init (struct sbx_sampler *s);
void sbx_sampler_free (struct sbx_sampler *s);

/* Walk the tree under ROOT (included).  Processes that vanish during the
   walk are skipped.  Returns 0, -ESRCH when ROOT itself is gone, -ENOMEM.  */
int sbx_sampler_take (struct sbx_sampler *s, pid_t root,
                      struct sbx_sample *out);

#endif
