/* The fence: the sandbox's policy for the file tools an orchestrator runs
 * in its own process ("read file", "write file", "list directory"), which
 * no process sandbox can see.
 *
 * A fence is built from the very plan a sandbox of the same config would
 * get (sbx_sandbox_resolve: the operator's ceiling, the host probe, the
 * hard-link walk, sbx_policy_resolve), so a path is writable through the
 * fence exactly when a confined process could write it, and a hidden
 * credential store or a config's deny layer is refused for reading the
 * same way.  The sandbox's view is a stack of mount layers; the fence keeps
 * an O_PATH descriptor of each layer's host source, opened once when it is
 * built (as the runner binds each one once at launch), and every operation
 * resolves its path beneath the descriptor of the layer that decides it
 * with openat2 (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS) and acts on what that resolved: there is no check
 * followed by a second lookup that a swapped symlink or a renamed directory
 * could redirect.  On macOS the same walk would open each component with
 * O_NOFOLLOW_ANY beneath the layer's descriptor; only the Linux build
 * exists (openat2 needs Linux 5.6).
 *
 * Paths are the sandbox's: absolute, or relative to the config's
 * process.cwd.  Where the fence is narrower than the sandbox it says so
 * (docs/fence.md): it follows no symbolic link at all (the sandbox's
 * kernel follows one that stays inside the grants), and it does not
 * remove or rename a directory that holds a layer of the plan.
 *
 * Every function returns 0 (or a count) on success and a negative errno
 * with ERR filled on failure, as the rest of sbx-oci.  A refusal by the
 * policy is -EACCES, and its message names the path, the rule and the
 * grant that would allow it: "fence: write /w/.git/config denied by
 * protected-metadata (...); allowed by: ...".  */
#ifndef SBX_FENCE_H
#define SBX_FENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/strv.h"

struct sbx_fence;
struct sbx_plan;

/* What builds a fence: the same inputs as `sbx-oci run` (global options
   included), with the config file named directly.  NULL fields take
   sbx-oci's defaults.  */
struct sbx_fence_options
{
  const char *config;  /* the config.json the sandbox runs (required) */
  const char *ceiling; /* --ceiling: the config is untrusted */
  const char *approve; /* --approve */
  const char *runner;  /* --runner */
  const char *root;    /* --root: where the host probe is cached */
};

int sbx_fence_open (const struct sbx_fence_options *opts,
                    struct sbx_fence **out, struct sbx_error *err);

/* A fence over PLAN (resolved already; it is copied, not kept).  Each
   layer's host source is opened now.  */
int sbx_fence_from_plan (const struct sbx_plan *plan, struct sbx_fence **out,
                         struct sbx_error *err);

void sbx_fence_free (struct sbx_fence *fence);

enum sbx_fence_access
{
  SBX_FENCE_READ,  /* read, stat, list */
  SBX_FENCE_WRITE, /* write, append, mkdir */
  SBX_FENCE_ERASE, /* remove, and either side of a rename */
};

/* Why a path is allowed or not: the names (sbx_fence_rule_name) are what
   `fence check` prints and the clients match on.  */
enum sbx_fence_rule
{
  SBX_FENCE_GRANTED,    /* a layer that allows it */
  SBX_FENCE_READ_ONLY,  /* outside every writable root */
  SBX_FENCE_MODE,       /* sbx.mode read-only */
  SBX_FENCE_CONFIG,     /* the config's own layer (mounts, masked paths,
                           readonly paths) */
  SBX_FENCE_CREDENTIAL, /* a credential store hidden by hardened defaults */
  SBX_FENCE_SOCKET,     /* a daemon socket hidden by hardened defaults */
  SBX_FENCE_PROTECTED,  /* protected metadata (.git/hooks, .bashrc, ...) */
  SBX_FENCE_ALIAS,      /* a hard-linked file, kept read-only */
  SBX_FENCE_PRIVATE,    /* the sandbox's own /tmp, /proc, /dev */
  SBX_FENCE_MOUNT,      /* removing or renaming what holds a layer */
  SBX_FENCE_SYMLINK,    /* a component is a symbolic link */
  SBX_FENCE_ESCAPE,     /* ".." above the layer's root */
  SBX_FENCE_HARD_LINK,  /* the file has another name now */
  SBX_FENCE_CROSS,      /* a rename between two layers */
};

struct sbx_fence_verdict
{
  bool allowed;
  enum sbx_fence_rule rule;
  enum sbx_fence_access access;
  char *path;         /* absolute, normalized */
  char *layer;        /* the sandbox path of the deciding layer, or NULL */
  char *host;         /* the host path the operation would touch, or NULL */
  const char *reason; /* one line: why */
  const char *grant;  /* what would allow it; NULL when allowed */
};

const char *sbx_fence_rule_name (enum sbx_fence_rule rule);
const char *sbx_fence_access_name (enum sbx_fence_access access);

/* The policy's answer for PATH, from the plan alone (no file is opened):
   what `fence check` prints.  Returns 0 and fills V (free it with
   sbx_fence_verdict_free) whether allowed or not; < 0 only for errors.  */
int sbx_fence_check (const struct sbx_fence *fence, const char *path,
                     enum sbx_fence_access access, struct sbx_fence_verdict *v,
                     struct sbx_error *err);

void sbx_fence_verdict_free (struct sbx_fence_verdict *v);

/* A refusal V as ERR: "fence: ACCESS PATH denied by RULE (REASON, layer
   LAYER); allowed by: GRANT".  Returns -EACCES.  */
int sbx_fence_refusal (const struct sbx_fence_verdict *v,
                       struct sbx_error *err);

/* V as one JSON object (no newline), malloc'd, or NULL on ENOMEM.  */
char *sbx_fence_verdict_json (const struct sbx_fence_verdict *v);

/* The operations.  Each decides PATH from the plan, resolves it beneath
   the deciding layer's descriptor and acts on what it resolved.  A
   refusal (by the plan, or by what the resolution met: a symbolic link, a
   new hard link) is -EACCES; when DENIED is not NULL it also gets the
   verdict (DENIED->path set; free it with sbx_fence_verdict_free), which
   tells a refusal from the system's own EACCES (DENIED->path NULL).  */

/* At most MAX bytes (a longer file is -EFBIG) into *DATA (malloc'd,
   NUL-terminated past *LEN).  */
int sbx_fence_read (const struct sbx_fence *fence, const char *path,
                    size_t max, char **data, size_t *len,
                    struct sbx_fence_verdict *denied, struct sbx_error *err);

/* Replace PATH atomically: a new file in the same directory, renamed over
   the old one, whose mode it keeps (0666 & ~umask when new).  A file
   with another hard link is refused.  */
int sbx_fence_write (const struct sbx_fence *fence, const char *path,
                     const void *data, size_t len,
                     struct sbx_fence_verdict *denied, struct sbx_error *err);

/* Append to PATH, made when absent; a file with another hard link is
   refused.  */
int sbx_fence_append (const struct sbx_fence *fence, const char *path,
                      const void *data, size_t len,
                      struct sbx_fence_verdict *denied, struct sbx_error *err);

int sbx_fence_mkdir (const struct sbx_fence *fence, const char *path,
                     mode_t mode, struct sbx_fence_verdict *denied,
                     struct sbx_error *err);

/* A file, a link or an empty directory.  */
int sbx_fence_remove (const struct sbx_fence *fence, const char *path,
                      struct sbx_fence_verdict *denied, struct sbx_error *err);

/* Within one layer, both sides writable (the sandbox's rename(2) fails
   with EXDEV between two mounts).  */
int sbx_fence_rename (const struct sbx_fence *fence, const char *from,
                      const char *to, struct sbx_fence_verdict *denied,
                      struct sbx_error *err);

/* lstat of PATH (a last symbolic link is described, not followed).  */
int sbx_fence_stat (const struct sbx_fence *fence, const char *path,
                    struct stat *st, struct sbx_fence_verdict *denied,
                    struct sbx_error *err);

/* The names in directory PATH, sorted, without "." and "..".  */
int sbx_fence_list (const struct sbx_fence *fence, const char *path,
                    struct strv *names, struct sbx_fence_verdict *denied,
                    struct sbx_error *err);

static inline void
sbx_fence_freep (struct sbx_fence **f)
{
  sbx_fence_free (*f);
}
#define cleanup_fence __attribute__ ((cleanup (sbx_fence_freep)))

#endif
