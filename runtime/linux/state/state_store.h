/* The state store: one directory per container under the state root,
   holding state.json (written atomically at create, by this store only), the
   release FIFO of a held sandbox, a "started" marker and a lock file every
   mutating command holds with flock.  The status is computed from the recorded
   pid and its start time, never read back: a dead or recycled pid reads as
   stopped.  */
#ifndef SBX_STATE_STORE_H
#define SBX_STATE_STORE_H

#include <stdbool.h>
#include <sys/types.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "common/error.h"
#include "runtime/linux/pid_identity.h"
#include "runtime/state_root.h"

enum sbx_status
{
  SBX_STATUS_CREATED,
  SBX_STATUS_RUNNING,
  SBX_STATUS_STOPPED,
};

struct sbx_container
{
  char *id;
  char *dir;    /* ROOT/ID, for messages and what needs a path */
  int root_fd;  /* the checked state root (runtime/state_root.h), or -1 */
  int dir_fd;   /* ROOT/ID, checked, opened without following, or -1 */
  int lock_fd;  /* -1 when not locked */
  yajl_val doc; /* state.json, NULL when unreadable */
  const char *bundle;
  pid_t pid;
  unsigned long long start_time; /* field 22 of /proc/PID/stat */
};

#define SBX_STATE_FILE "state.json"
/* The config.json `create` checked, kept: start, exec and delete read it,
   never the bundle again (a sandbox may be able to write its bundle).  */
#define SBX_KEPT_CONFIG "config.json"
#define SBX_RELEASE_FIFO "release"
#define SBX_STARTED_MARK "started"
/* Held open by sbx-oci-init until the command's exec: `start` reads it
   to its end (runtime/linux/container/init_main.c).  */
#define SBX_EXEC_FIFO "exec.fifo"

struct sbx_spec;

/* The spec `create` kept for C (SBX_KEPT_CONFIG), read as if in its
   bundle.  */
int sbx_state_load_spec (const struct sbx_container *c, struct sbx_spec **out,
                         struct sbx_error *err);

/* Take ID: its directory appears already locked by us, or not at all (a
   second create fails with `container "ID" already exists`); see
   runtime/linux/state/state_dir.h.  ROOT is made if missing, and refused
   (-EPERM) unless it is the caller's own (runtime/state_root.h).  */
int sbx_state_claim (const char *root, const char *id, struct sbx_container *c,
                     struct sbx_error *err);

/* Open an existing container; LOCK takes its lock first (one whose
   directory was removed while we waited does not count).  -ENOENT with
   `container "ID" does not exist`, also when ROOT is missing; a ROOT or
   a directory of ID that is not the caller's own is refused (-EPERM).  A
   corrupt state.json fails with -EINVAL naming the file, C stays usable
   (dir, lock) so delete --force can clean.  */
int sbx_state_open (const char *root, const char *id, bool lock,
                    struct sbx_container *c, struct sbx_error *err);

void sbx_state_close (struct sbx_container *c);

/* DIR/NAME, malloc'd (NULL when out of memory): for messages, and what
   must have a path (a mount point, another process's argument).  */
char *sbx_state_file (const struct sbx_container *c, const char *name);

/* openat of NAME in the container's directory, never through a symlink
   (O_NOFOLLOW, O_CLOEXEC added): the release FIFO, the started mark.  */
int sbx_state_openat (const struct sbx_container *c, const char *name,
                      int flags, mode_t mode);

/* Whether the recorded pid is still the sandbox's first process.  */
bool sbx_state_pid_alive (const struct sbx_container *c);

enum sbx_status sbx_state_status (const struct sbx_container *c);
const char *sbx_status_name (enum sbx_status s);

struct sbx_plan;
struct sbx_limits;

/* Write C's state.json, once, at create (this file is its one writer;
   sbx_state_open its one reader): the OCI state (ociVersion, id, status
   "created", pid, bundle, annotations from SPEC, created) and sbx's facts
   under "org.sbx-oci": the pid's start time, PLAN's enforcement and LIM's
   record.  *TEXT is the document written, malloc'd, for the hooks.  */
int sbx_state_write (struct sbx_container *c, const struct sbx_spec *spec,
                     const struct sbx_plan *plan, const struct sbx_limits *lim,
                     char **text, struct sbx_error *err);

/* The OCI state object (ociVersion, id, status, pid, bundle, annotations)
   and sbx's facts under "org.sbx-oci", the limits as they are now
   (state_emit.c).  */
int sbx_state_emit (yajl_gen g, const struct sbx_container *c);

/* Remove the container's directory and everything in it, in one step as
   far as readers can see.  The caller holds its lock.  */
int sbx_state_remove (struct sbx_container *c, struct sbx_error *err);

/* Open a pidfd for the recorded pid, verified against its start time
   after opening so a recycled pid is never signalled.  -ESRCH when gone. */
int sbx_state_pidfd (const struct sbx_container *c);

#endif
