/* The limits of a created container, read back by `state`, `kill` and
   `delete` from the record `create` wrote
   (runtime/linux/supervise/limits.h). */
#ifndef SBX_LIMITS_REPORT_H
#define SBX_LIMITS_REPORT_H

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "cgroups/cgroup.h"
#include "runtime/linux/state/state_store.h"

/* The state's "limits" object from RECORD: mechanism and limits, and
   "heldBy" per limit ("quota" or "sampled");
   "monitorAlive" (monitor: whether the recorded watcher still runs, so a
   dead watcher never reads as limits holding); "breach" ("memory",
   "pids" or null); "peakMemoryBytes" and "peakProcesses" (quota: read
   from the cgroup now, with "pidsLimitHits", the forks it refused;
   monitor: what the watcher last wrote).  */
int sbx_limits_report (yajl_gen g, const struct sbx_container *c,
                       yajl_val record);

/* Reopen the cgroup recorded for C; *CG is NULL when there is none.  */
int sbx_container_cgroup (const struct sbx_container *c,
                          struct sbx_cgroup **cg, struct sbx_error *err);

/* C's recorded watcher and its start time; *PID is 0 when none.  */
void sbx_container_watcher_of (const struct sbx_container *c, pid_t *pid,
                               unsigned long long *start);

#endif
