/* `delete --force`: end everything of a container, found through every
   record of it, not only through state.json (which a killed `create`
   may not have written, and which may be truncated or corrupt):
   - the sandbox's first process: state.json's pid and the second
     record's (runtime/linux/state/sandbox_record.h), each only with its start
   time;
   - when neither names one (a create killed between spawning bwrap and
     learning the sandbox's pid): every process holding the container's
     release FIFO, which bwrap and the held sandbox inherit from create;
   - the cgroup: state.json's, else the record's (written before the
     cgroup was made);
   - the limits watcher: state.json's and the record's;
   - the host ports' forwarder: the record's.
   Then it checks that nothing of it is left, so that delete reports
   success only when that is true.  */
#ifndef SBX_CONTAINER_END_H
#define SBX_CONTAINER_END_H

#include "cgroups/cgroup.h"
#include "common/error.h"
#include "runtime/linux/state/sandbox_record.h"
#include "runtime/linux/state/state_store.h"

/* The processes the two records name: [0] from state.json, [1] from
   the second record; a pid is 0 where a record names none.  */
struct sbx_container_procs
{
  pid_t pid[2];
  unsigned long long start[2];
  pid_t watcher[2];
  unsigned long long watcher_start[2];
  pid_t forwarder; /* the record's only */
  unsigned long long forwarder_start;
};

/* Gather from state.json (C->doc, when readable) and REC.  */
void sbx_container_procs_of (const struct sbx_container *c,
                             const struct sbx_record *rec,
                             struct sbx_container_procs *p);

/* SIGKILL every process P names (and, when it names no first process,
   every holder of C's release FIFO) and CG's members, and wait up to
   WAIT_MS for them to be gone.  */
int sbx_container_end (const struct sbx_container *c,
                       const struct sbx_container_procs *p,
                       struct sbx_cgroup *cg, int wait_ms,
                       struct sbx_error *err);

/* What of C still runs, as one line into WHAT ("" when nothing), e.g.
   "the sandbox's first process, pid 123, the limits watcher, pid 456".  */
void sbx_container_left (const struct sbx_container *c,
                         const struct sbx_container_procs *p, char *what,
                         size_t size);

#endif
