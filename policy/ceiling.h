/* The operator's ceiling: what a config the operator does not trust (one an
   agent composed, say) may ask for at most.
 *
 * Trust is decided by the operator's inputs only, never by config.json:
 * without a ceiling the config is the operator's own, as with runc; under
 * one (--ceiling FILE) every field of the config is checked against an
 * allow-list (policy/ceiling_gate.c) and may only narrow what the ceiling
 * grants.  Widenings the ceiling does not grant by itself need one of its
 * approval tokens ("hooks", "capabilities", "env:NAME", a path, ...).  */
#ifndef SBX_CEILING_H
#define SBX_CEILING_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/strv.h"
#include "spec/spec.h"

struct sbx_ceiling
{
  /* Directories an untrusted config may name as its workspace, writable
     roots, temp roots and bind sources: absolute and free of symbolic
     links (the loader resolves them; runtime/ceiling_load.c).  */
  struct strv workspaces;
  enum sbx_mode max_mode;   /* the most permissive "sbx.mode" allowed */
  enum sbx_net max_network; /* the most permissive network reach allowed */
  struct strv approvals;    /* tokens: "approve" plus any --approve file */
};

/* Parse the ceiling's JSON text (LEN bytes):
     {"workspaces": ["/abs/dir"], "maxMode": "workspace-write",
      "maxNetwork": "deny", "approve": ["env:CARGO_HOME"]}
   Unknown keys are refused.  "maxMode" defaults to "workspace-write" (or
   "read-only" without a workspace), "maxNetwork" to "deny".  Paths are
   checked to be absolute and normalized; resolving them on the host is
   the loader's job.  */
int sbx_ceiling_parse (const char *json, size_t len, struct sbx_ceiling *out,
                       struct sbx_error *err);

/* Add the tokens of an approval list (one per line, '#' comments) from
   TEXT, which is modified.  */
int sbx_ceiling_add_approvals (struct sbx_ceiling *c, char *text,
                               struct sbx_error *err);

bool sbx_ceiling_approves (const struct sbx_ceiling *c, const char *token);

void sbx_ceiling_free (struct sbx_ceiling *c);

#endif
