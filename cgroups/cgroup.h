/* Kernel resource quotas for one sandbox: a cgroup on v2 or v1.
 *
 * Life cycle: detect the layout once -> create (mkdir + limits) -> enter
 * the sandbox's first process -> usage / pids / kill while it runs ->
 * destroy.  The handle is a few "key=path" strings (sbx_cgroup_to_strv)
 * that the state store keeps, so a later process (`sbx-oci delete`) can
 * reopen it (sbx_cgroup_open).
 *
 * What sbx touches on the host, and nothing else:
 * - it makes the sandbox's cgroup directory, and the missing directories
 *   above it (default "sbx-oci/<id>"); it records which ones it made and
 *   destroy removes only those, and only when empty;
 * - v2: in directories it made it enables "+memory +pids" (and +cpu,
 *   +cpuset, +io when the limits ask for them) in cgroup.subtree_control;
 *   in an existing ancestor (the hierarchy root, the caller's delegated
 *   cgroup, or a directory of an OCI cgroupsPath) it only adds those when
 *   they are offered by that directory's cgroup.controllers and not yet
 *   enabled.  It never disables
 *   a controller and never writes any other file outside its own cgroups;
 * - it writes limits only into the sandbox's own cgroup.
 *
 * Placement (sbx_cgroup_create's CGROUPS_PATH):
 * - NULL or "": "sbx-oci/<id>" under the layout's base: the hierarchy
 *   root (root), the caller's delegated v2 cgroup (unprivileged; see
 *   detect), or the caller's own cgroup (sbx_cgroup_layout_nest);
 * - "/a/b": relative to the hierarchy root (as seen in the caller's cgroup
 *   namespace);
 * - "a/b": relative to the caller's own cgroup (from /proc/self/cgroup);
 * - "slice:prefix:name" (systemd form): no systemd is asked; it is mapped
 *   to the cgroupfs path systemd would use, SLICE-PATH/PREFIX-NAME.scope,
 *   where "a-b.slice" expands to "a.slice/a-b.slice", under the hierarchy
 *   root (root) or the delegated cgroup (unprivileged).  An empty slice
 *   means "system.slice".
 * ".." components are refused.  */
#ifndef SBX_CGROUP_H
#define SBX_CGROUP_H

#include "common/cgroup_settings.h"
#include "common/error.h"
#include "common/strv.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum sbx_cgroup_version
{
  SBX_CGROUP_NONE = 0,
  SBX_CGROUP_V1,
  SBX_CGROUP_V2,
};

/* Controllers sbx uses, as bits of sbx_cgroup_layout.controllers.  */
enum sbx_cgroup_controller
{
  SBX_CG_MEMORY,
  SBX_CG_PIDS,
  SBX_CG_FREEZER, /* v1 only; v2 has cgroup.freeze in every cgroup */
  SBX_CG_CPU,     /* optional: used when linux.resources.cpu asks */
  SBX_CG_CPUSET,
  SBX_CG_DEVICES, /* v1 only; v2 attaches a BPF device program */
  /* From here on a cgroup is made in the controller only when asked.  */
  SBX_CG_BLKIO,   /* v1 blkio, v2 io: used when linux.resources.blockIO asks */
  SBX_CG_HUGETLB, /* used when linux.resources.hugepageLimits asks */
  SBX_CG_NET_CLS, /* v1 only, as net_prio: linux.resources.network */
  SBX_CG_NET_PRIO,
  SBX_CG_N
};
#define SBX_CG_BIT(c) (1u << (c))

/* One hierarchy as the caller sees it.  */
struct sbx_cgroup_hierarchy
{
  char *mount; /* mount point, e.g. "/sys/fs/cgroup"; NULL = not usable */
  char *own;   /* the caller's cgroup, relative to MOUNT ("" = its root) */
  char *base;  /* where default names go, relative to MOUNT */
};

struct sbx_cgroup_layout
{
  enum sbx_cgroup_version version;
  bool privileged;      /* euid 0: default names go under the root */
  unsigned controllers; /* SBX_CG_BIT()s usable for the caller */
  struct sbx_cgroup_hierarchy unified;      /* version 2 */
  struct sbx_cgroup_hierarchy v1[SBX_CG_N]; /* version 1, per controller */
  char reason[256]; /* version NONE: why; else "" or what is missing */
};

/* Find what cgroups the caller (by effective uid) can use.  v2 is chosen
   when it offers memory and pids; else v1 when memory and pids hierarchies
   are mounted and writable (the host's root only); else NONE with REASON
   set, e.g.
   "unprivileged and no delegated cgroup v2 subtree".  Any caller but the
   host's root (common/host_root.h; uid 0 of a rootless podman's user
   namespace is not it) uses v2 through the nearest ancestor-or-self of its own
   cgroup that it owns (systemd user delegation: user@UID.service and below)
   where cgroup.procs and cgroup.subtree_control are writable and memory
   and pids are enabled in cgroup.subtree_control (or can be: offered and
   no process inside).  Returns 0 (also for NONE), or a negative errno
   when the mount table cannot be read.  */
int sbx_cgroup_detect (struct sbx_cgroup_layout *out, struct sbx_error *err);
/* The same from given files: a mountinfo, a /proc/PID/cgroup, an euid,
   and whether the caller is the host's root (PRIVILEGED).  Mount points in
   MOUNTINFO are used as they are (tests point them at a directory tree of
   their own).  */
int sbx_cgroup_detect_at (const char *mountinfo, const char *proc_cgroup,
                          uid_t euid, bool privileged,
                          struct sbx_cgroup_layout *out,
                          struct sbx_error *err);
void sbx_cgroup_layout_free (struct sbx_cgroup_layout *layout);
/* Put LAYOUT's default names under the caller's own cgroup in every
   hierarchy, so that a cgroup made for the sandbox stays under whatever
   limits the caller is under (a config under a ceiling may only narrow).
   cgroup v2 hands no controller down from a cgroup that holds processes,
   as the caller's own does unless it is the root: there LAYOUT becomes
   NONE, with the reason.  0 or -ENOMEM.  */
int sbx_cgroup_layout_nest (struct sbx_cgroup_layout *layout);
/* "none", "v1", "v2".  */
const char *sbx_cgroup_version_name (enum sbx_cgroup_version version);

/* Where a sandbox's cgroup goes, relative to an anchor, from the OCI
   cgroupsPath (see the top of this file).  *REL is malloc'd, never starts
   or ends with '/' and never contains "..".  Pure: no I/O.  */
enum sbx_cgroup_anchor
{
  SBX_CGROUP_AT_ROOT, /* the hierarchy root */
  SBX_CGROUP_AT_OWN,  /* the caller's own cgroup */
  SBX_CGROUP_AT_BASE, /* the layout's base (root, or delegated cgroup) */
};
int sbx_cgroup_name (const char *cgroups_path, const char *id,
                     enum sbx_cgroup_anchor *anchor, char **rel,
                     struct sbx_error *err);

/* The cgroupsPath to use under --systemd-cgroup: CGROUPS_PATH in the
   systemd form "slice:prefix:name", or ":sbx-oci:ID" when there is none; a
   path-style CGROUPS_PATH is refused (it would silently mean cgroupfs).
   *OUT is malloc'd.  */
int sbx_cgroup_systemd_path (const char *cgroups_path, const char *id,
                             char **out, struct sbx_error *err);

/* One device cgroup rule, as linux.resources.devices gives it.  */
struct sbx_cgroup_device
{
  bool allow;
  char type;            /* 'a', 'b' or 'c' */
  int64_t major, minor; /* -1 = any */
  char access[4];       /* some of "rwm" */
};

/* What sbx_cgroup_create writes.  Zero-initialised means "nothing asked"
   for every field but the two limits' own conventions.  */
struct sbx_cgroup_limits
{
  int64_t memory_limit;       /* bytes; <= 0 = none */
  int64_t pids_limit;         /* <= 0 = none (OCI: 0 and -1 mean unlimited) */
  int64_t memory_swap;        /* memory + swap, bytes; 0 = not asked (no swap
                                 beyond the limit), -1 = unlimited */
  int64_t memory_reservation; /* bytes; <= 0 = not asked */
  int64_t memory_kernel_tcp;  /* v1 only: bytes; 0 = not asked, -1 = none */
  bool has_swappiness;        /* v1 only: v2 has no such knob */
  unsigned swappiness;
  bool disable_oom_killer; /* v1 only */
  uint64_t cpu_shares;     /* 0 = not asked; v2 maps it to cpu.weight */
  uint64_t cpu_period;     /* microseconds; 0 = not asked */
  int64_t cpu_quota;       /* microseconds; 0 = not asked, -1 = none */
  const char *cpus, *mems; /* cpuset lists; NULL = not asked */
  const struct sbx_cgroup_device *devices; /* v1 files, v2 a BPF program */
  size_t n_devices;
  const struct sbx_block_io *block_io; /* NULL = not asked */
  const struct sbx_hugepage_limit *hugepage_limits;
  size_t n_hugepage_limits;
  const struct sbx_net_settings *network; /* NULL = not asked */
};
/* Whether LIMITS asks for controller C (SBX_CG_CPU and the optional ones
   after it).  */
bool sbx_cgroup_wants (const struct sbx_cgroup_limits *limits, int c);

/* The parent of the default names, "sbx-oci/<id>".  */
#define SBX_CGROUP_PARENT "sbx-oci"

struct sbx_cgroup; /* opaque handle */

/* Make the cgroup in every hierarchy the layout uses and write LIMITS:
   v2 memory.max (+ memory.swap.max: swap - limit, or 0 when no swap was
   asked, so memory cannot move to swap), memory.low, pids.max, cpu.weight,
   cpu.max, cpuset.cpus/mems, io.bfq.weight or io.weight, io.max; v1
   memory.limit_in_bytes (+ memory.memsw.limit_in_bytes: the swap value as
   given, else equal to the limit), memory.soft_limit_in_bytes,
   memory.kmem.tcp.limit_in_bytes, memory.swappiness, memory.oom_control,
   pids.max, cpu.shares, cpu.cfs_period_us/quota_us, cpuset.cpus/mems,
   devices.allow/deny, blkio.weight or blkio.bfq.weight (and _device),
   blkio.leaf_weight (and _device), blkio.throttle.*_device,
   hugetlb.SIZE.limit_in_bytes (v2: .max; and the .rsvd. twin),
   net_cls.classid and net_prio.ifpriomap.  v1's cpu, cpuset and devices
   hierarchies are optional: a cgroup is made in each one mounted; blkio,
   hugetlb, net_cls and net_prio get one only when LIMITS asks for them;
   a setting whose hierarchy is missing is refused.  v2 has
   no device files: for a privileged caller the rules become a BPF device
   program attached to the cgroup (cgroup_v2_devices.c).  A limit that cannot
   be written is an error, not a silent downgrade.  On failure nothing is left
   behind.  */
int sbx_cgroup_create (const struct sbx_cgroup_layout *layout,
                       const char *cgroups_path, const char *id,
                       const struct sbx_cgroup_limits *limits,
                       struct sbx_cgroup **out, struct sbx_error *err);

/* The handle sbx_cgroup_create would make for LIMITS (NULL: a directory
   in every hierarchy, for a sweep), as sbx_cgroup_to_strv's strings
   (without "made" entries), and nothing made: a record written before
   the cgroup is, so that a process killed while making it leaves a name
   to find it by.  */
int sbx_cgroup_paths (const struct sbx_cgroup_layout *layout,
                      const char *cgroups_path, const char *id,
                      const struct sbx_cgroup_limits *limits, struct strv *out,
                      struct sbx_error *err);

/* Move PID (a whole process) into the cgroup in every hierarchy.  */
int sbx_cgroup_enter (struct sbx_cgroup *cg, pid_t pid, struct sbx_error *err);

/* Every value is -1 when the kernel does not say.  Peaks come from the
   kernel (v2 memory.peak, v1 memory.max_usage_in_bytes, pids.peak) or,
   without that, are the maximum this handle has sampled.  */
struct sbx_cgroup_usage
{
  int64_t memory_current, memory_peak; /* bytes */
  int64_t pids_current, pids_peak;
  int64_t oom_kills;       /* v2 memory.events oom_kill; v1 oom_control */
  int64_t memory_max_hits; /* v2 memory.events max; v1 the larger of
                              memory.failcnt and memory.memsw.failcnt
                              (may stay 0 on v1: trust oom_kills) */
  int64_t pids_max_hits;   /* pids.events max: forks refused */
};
int sbx_cgroup_usage (struct sbx_cgroup *cg, struct sbx_cgroup_usage *out,
                      struct sbx_error *err);

/* The processes in the cgroup and its descendants (for `ps`).  *PIDS is
   malloc'd.  */
int sbx_cgroup_pids (struct sbx_cgroup *cg, pid_t **pids, size_t *n,
                     struct sbx_error *err);

/* Whether PID is in the cgroup (or a descendant of it) in every
   hierarchy of the handle: a recorded handle is checked against the
   process it was made for before anything is moved into it.  */
bool sbx_cgroup_holds (struct sbx_cgroup *cg, pid_t pid);

/* Signal every process in the cgroup and its descendants.  v2 SIGKILL
   writes cgroup.kill when present; otherwise the cgroup is frozen
   (v2 cgroup.freeze, v1 freezer.state), each member is signalled through
   a pidfd (a recycled pid is never hit), and it is thawed.  v1 without a
   freezer signals member by member until no new member appears.  */
int sbx_cgroup_kill (struct sbx_cgroup *cg, int sig, struct sbx_error *err);

/* Wait briefly (about 1 s) for the cgroup to empty, then remove it
   leaf-first with any cgroups the workload made inside it, and the
   directories above it that this handle made, when empty.  -EBUSY when
   processes remain.  Removing an already removed cgroup succeeds.  */
int sbx_cgroup_destroy (struct sbx_cgroup *cg, struct sbx_error *err);

void sbx_cgroup_free (struct sbx_cgroup *cg);

/* Remove the cgroups directly under the default parent ("sbx-oci" under
   the layout's base, where a NULL CGROUPS_PATH puts them) whose name
   STALE accepts: their processes are killed (sbx_cgroup_kill) and they
   are removed (sbx_cgroup_destroy) in every hierarchy the layout uses.
   Failures are skipped: this is housekeeping for cgroups whose owner
   died, and the next sweep tries again.  */
void sbx_cgroup_sweep (const struct sbx_cgroup_layout *layout,
                       bool (*stale) (const char *name, void *arg), void *arg);

/* The handle as strings, one "key=absolute path" each:
     "v2=DIR"                        the cgroup (v2)
     "memory=DIR" "pids=DIR" "freezer=DIR"   the cgroup per v1 controller
     "made=DIR"                      a directory above it that sbx made
   Stable across versions of sbx; the state store keeps them as they are.  */
int sbx_cgroup_to_strv (const struct sbx_cgroup *cg, struct strv *out);
/* Reopen a handle from those strings (NULL-terminated).  Every path must
   lie on a cgroup file system; "made" paths must be ancestors of the
   cgroup.  */
int sbx_cgroup_open (char *const *strings, struct sbx_cgroup **out,
                     struct sbx_error *err);
enum sbx_cgroup_version
sbx_cgroup_handle_version (const struct sbx_cgroup *cg);

#endif
