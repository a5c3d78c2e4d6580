/* Inside the cgroups/ directory only: the handle, the per-version
   back ends and the small cgroupfs file helpers they share.  */
#ifndef SBX_CGROUP_BACKEND_H
#define SBX_CGROUP_BACKEND_H

#include "cgroups/cgroup.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct sbx_cgroup
{
  enum sbx_cgroup_version version;
  char *unified;      /* v2: the cgroup directory */
  char *v1[SBX_CG_N]; /* v1: the cgroup directory per controller */
  struct strv made;   /* directories above it that sbx made */
  int64_t memory_peak_seen, pids_peak_seen; /* sampled, for old kernels */
};

/* Write VALUE to DIR/FILE, or fail saying which, naming FIELD (the
   linux.resources field it comes from, "blockIO.weight") when not NULL. */
int cg_put (const char *field, const char *dir, const char *file,
            const char *value, struct sbx_error *err);

/* Each hugepageLimits entry of L to DIR's hugetlb.SIZE.LIMIT_FILE, and to
   its reservation twin where the kernel has one.  */
int cg_put_hugetlb (const char *dir, const struct sbx_cgroup_limits *l,
                    const char *limit_file, struct sbx_error *err);

/* Each blockIO throttle of B with a rate, as "MAJOR:MINOR RATE" to
   FILES[t] (v1), or "MAJOR:MINOR KEYS[t]=RATE" when KEYS (v2's io.max).  */
int cg_put_throttles (const char *dir, const struct sbx_block_io *b,
                      const char *const files[SBX_BLKIO_THROTTLE_N],
                      const char *const keys[SBX_BLKIO_THROTTLE_N],
                      struct sbx_error *err);

/* Each controller's v1 hierarchy name, also its key in state.json.  */
extern const char *const cg1_names[SBX_CG_N];

/* ---- cgroupfs.c: files of one cgroup directory ------------------------- */

char *cgfs_join (const char *dir, const char *rel);
/* Whole small file, trailing newline removed.  0 or -errno.  */
int cgfs_read (const char *dir, const char *file, char **out);
int cgfs_write (const char *dir, const char *file, const char *value);
bool cgfs_has_file (const char *dir, const char *file);
/* A single number; "max" reads as -1.  */
int cgfs_read_int (const char *dir, const char *file, int64_t *out);
/* The number after KEY in a "key value" per line file (memory.events).  */
int cgfs_read_key (const char *dir, const char *file, const char *key,
                   int64_t *out);
/* Whether the space-separated word list in FILE contains WORD.  */
bool cgfs_file_has_word (const char *dir, const char *file, const char *word);
/* The pids in DIR's cgroup.procs and, when RECURSIVE, in every cgroup
   below it.  */
int cgfs_list_pids (const char *dir, bool recursive, pid_t **pids, size_t *n);
/* Make MOUNT/REL one component at a time; the last one must be new.
   Directories made above the last are appended to MADE.  0 or -errno.  */
int cgfs_mkdir_path (const char *mount, const char *rel, struct strv *made);
/* Remove DIR and every cgroup below it, deepest first.  ENOENT is fine. */
int cgfs_rmdir_tree (const char *dir);
/* Remove the directories in MADE, deepest first, when empty.  */
void cgfs_rmdir_made (const struct strv *made);
/* Poll until no process is left in DIR's subtree or TIMEOUT_MS passed. */
bool cgfs_wait_empty (const char *dir, int timeout_ms);

/* ---- cgroup_signal.c -----------------------------------------------------
 */

/* Signal every process listed in DIR's subtree through a pidfd, only if
   it is still listed after its pidfd was opened.  *SENT counts them.  */
int cgfs_signal_members (const char *dir, int sig, size_t *sent);
/* The same where no freezer holds the members still: SIGKILL is repeated
   until the subtree is empty (within about 1 s), other signals go once. */
int cgfs_signal_unfrozen (const char *dir, int sig);

/* ---- cgroup_v2.c / cgroup_v1.c: the same verbs per version ------------- */

int cg2_create (const struct sbx_cgroup_layout *layout, const char *path,
                const struct sbx_cgroup_limits *limits, struct sbx_cgroup *cg,
                struct sbx_error *err);
int cg2_usage (struct sbx_cgroup *cg, struct sbx_cgroup_usage *out);
int cg2_kill (struct sbx_cgroup *cg, int sig, struct sbx_error *err);

int cg1_create (const struct sbx_cgroup_layout *layout,
                char *const paths[SBX_CG_N],
                const struct sbx_cgroup_limits *limits, struct sbx_cgroup *cg,
                struct sbx_error *err);
int cg1_usage (struct sbx_cgroup *cg, struct sbx_cgroup_usage *out);
/* cgroup_v1_res.c */
int cg1_write_resources (struct sbx_cgroup *cg,
                         const struct sbx_cgroup_limits *limits,
                         struct sbx_error *err);
int cg1_cpuset_inherit (const char *mount, const char *rel);
/* cgroup_devices.c: the device rules a cgroup gets, LIMITS' own, then
   the default nodes it does not name.  *OUT is malloc'd.  */
int cgfs_device_rules (const struct sbx_cgroup_limits *limits,
                       struct sbx_cgroup_device **out, size_t *n);
/* cgroup_v2_devices.c: those rules as a BPF device program attached to
   the cgroup DIR.  */
int cg2_write_devices (const char *dir, const struct sbx_cgroup_limits *limits,
                       struct sbx_error *err);
/* cgroup_v2_res.c: what v2 cannot hold at all, refused before the
   cgroup is made; then every setting but pids.max and memory.max.  */
int cg2_refuse_unheld (const struct sbx_cgroup_limits *limits,
                       struct sbx_error *err);
int cg2_write_resources (const char *dir,
                         const struct sbx_cgroup_limits *limits,
                         struct sbx_error *err);
int cg1_kill (struct sbx_cgroup *cg, int sig, struct sbx_error *err);

#endif
