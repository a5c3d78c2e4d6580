/* The descendants of a process, from a sample of the host's process table
   (`ps -A -o pid= -o ppid=`, POSIX).  Without a PID namespace or a
   cgroup, this and the process group are all that find a sandbox's
   processes on macOS; a process that left the group and was re-parented
   away from the tree before the sample is not found.  */
#ifndef SBX_PROCESS_TREE_H
#define SBX_PROCESS_TREE_H

#include <stddef.h>
#include <sys/types.h>

struct sbx_pid_pair
{
  pid_t pid, ppid;
};

/* The descendants of ROOT in TABLE (N rows), ROOT excluded, into OUT (at
   most MAX).  Returns how many were found.  */
size_t sbx_descendants (const struct sbx_pid_pair *table, size_t n, pid_t root,
                        pid_t *out, size_t max);

/* Parse `ps -A -o pid= -o ppid=` output: one "PID PPID" per line.  Returns
   the rows read (at most MAX); malformed lines are skipped.  */
size_t sbx_parse_ps (const char *text, struct sbx_pid_pair *table, size_t max);

/* Sample the host's process table with PS (an absolute path) and return
   ROOT's descendants as sbx_descendants does, or a negative errno.  */
long sbx_sample_descendants (const char *ps, pid_t root, pid_t *out,
                             size_t max);

#endif
