/* Starting the runner: fork, put exactly the intended descriptors in
   place, apply what must be inherited (rlimits, network namespace), exec
   bwrap with the plan's environment.  */
#ifndef SBX_SPAWN_H
#define SBX_SPAWN_H

#include <sys/types.h>

#include "cgroups/cgroup.h"
#include "runtime/linux/bwrap/bwrap_args.h"
#include "runtime/linux/bwrap/rung_exec.h"

struct sbx_prestart; /* prestart.h */

struct sbx_spawn_request
{
  const struct sbx_plan *plan;
  const struct sbx_host_facts *host;
  struct sbx_bwrap_opts opts;
  const struct sbx_spec *spec; /* rlimits */
  int seccomp_fd;              /* > 2: a BPF program; else none */
  int seccomp_net_fd;          /* > 2: a second program; else none */
  int hold_fd;                 /* > 2: start held on --block-fd, this fd
                                  (a FIFO that outlives sbx, written by
                                  `start`); else not held */
  int preserve_fds;            /* fds 3 .. 3+N-1 pass through unchanged */
  bool own_process_group;      /* terminal signals reach sbx, not bwrap */
  int guard_fd; /* > 2: a run's guard (supervise/run_guard.h), told the
                   runner's process group before its exec; else none */
  struct sbx_cgroup *cgroup; /* the runner enters it before exec; NULL */
  const char *state_root;    /* covered by the runner for a range's user
                                namespace (runner_cover.h); NULL: never */
  /* plan->init only (sbx-oci-init, runtime/linux/container/init_main.c): */
  int started_fd;   /* > 2: the exec FIFO it keeps open until its exec */
  bool init_report; /* a pipe for its lookup failure (init_report_fd) */
  bool report_sandbox_pid;       /* sandbox_pid wanted, whatever the plan */
  struct sbx_rung *rung;         /* no namespaces: no bwrap, the helper is
                                    exec'd directly (rung_exec.h); NULL */
  struct sbx_prestart *prestart; /* a bwrap started already (prestart.h):
                                    it becomes the runner if the request
                                    fits it, else it is abandoned; NULL */
};

struct sbx_spawned
{
  pid_t runner_pid;
  int status_fd;      /* read end of --json-status-fd */
  int block_fd;       /* the --block-fd number the runner sees, or -1 */
  int init_report_fd; /* read end of sbx-oci-init's report pipe, or -1 */
  pid_t sandbox_pid;  /* bwrap's --info-fd report, when the plan has id
                         maps to write or host ports to listen on, or
                         report_sandbox_pid was asked for; else 0 */
  int guard_fd;       /* the request's guard_fd: told the sandbox's pid */
  pid_t guard_pid;    /* the guard itself (set by the caller, 0: none):
                         the final sweep ends it without a walk */
};

int sbx_bwrap_spawn (const struct sbx_spawn_request *req,
                     struct sbx_spawned *out, struct sbx_error *err);

#endif
