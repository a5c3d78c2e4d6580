/* A list of pids as the kernel hands them out: a plain array.  */
#ifndef SBX_PID_LIST_H
#define SBX_PID_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

static inline bool
sbx_pid_listed (const pid_t *pids, size_t n, pid_t pid)
{
  for (size_t i = 0; i < n; i++)
    if (pids[i] == pid)
      return true;
  return false;
}

#endif
