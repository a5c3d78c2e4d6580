/* What the engine is given by whoever drives it, the command line today:
   where the state lives, where messages go, which runner to use and the
   operator's ceiling.  Engine code (runtime/linux/, runtime/darwin/) takes
   this, never the command line's own structures, as crun's library takes
   its libcrun_context_t.  */
#ifndef SBX_CONTEXT_H
#define SBX_CONTEXT_H

#include <stdbool.h>

enum sbx_log_format
{
  SBX_LOG_TEXT,
  SBX_LOG_JSON,
};

struct sbx_context
{
  const char *root; /* --root: the state store; NULL = default */
  const char *log_path;
  enum sbx_log_format log_format;
  bool debug;
  bool systemd_cgroup;
  const char *runner;  /* --runner: a bwrap named by the operator */
  const char *ceiling; /* --ceiling: the operator's ceiling over an
                          untrusted config (policy/ceiling.h) */
  const char *approve; /* --approve: more approval tokens for it */
};

/* The state root: --root, else /run/sbx-oci for root, else
   $XDG_RUNTIME_DIR/sbx-oci (or /tmp/sbx-oci-UID without one).  */
const char *sbx_state_root (const struct sbx_context *g);

/* Warnings go where errors go (stderr or --log), in the chosen format.  */
void sbx_log_warning (const struct sbx_context *g, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));
void sbx_log_error (const struct sbx_context *g, const char *msg);

#endif
