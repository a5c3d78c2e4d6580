/* One tool call under a policy: where `run` takes its config from, and
   the call's own command, environment and working directory, which go
   into the config's "process" before anything else looks at it.  So they
   are judged like any other field: the policy's environment rules, the
   operator's ceiling, requireEnforcement.  */
#ifndef SBX_SPEC_CALL_H
#define SBX_SPEC_CALL_H

#include "common/error.h"
#include "common/strv.h"
#include "spec/spec.h"

struct sbx_config_source
{
  const char *bundle;     /* BUNDLE/config.json, when POLICY is NULL */
  const char *policy;     /* a config.json as the policy: a path, or "-"
                             for stdin; relative root.path and mount
                             sources resolve against its directory (the
                             working directory for stdin) */
  char *const *argv;      /* the call's command, NULL-terminated; NULL or
                             empty: the config's own */
  const struct strv *env; /* NAME=VALUE, each set over the config's */
  const char *cwd;        /* absolute; NULL: the config's own */
};

/* Load the config SRC names and apply the call's fields.  Errors name the
   file (or "--policy -") and the field, or the option.  */
int sbx_spec_load_source (const struct sbx_config_source *src,
                          struct sbx_spec **out, struct sbx_error *err);

/* The call's fields alone, over SPEC's process (which must exist).  */
int sbx_spec_apply_call (struct sbx_spec *spec,
                         const struct sbx_config_source *src,
                         struct sbx_error *err);

#endif
