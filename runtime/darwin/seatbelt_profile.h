/* A plan's Seatbelt profile as sandbox-exec is given it on this host, and
   the dry run that prints it.  */
#ifndef SBX_SEATBELT_PROFILE_H
#define SBX_SEATBELT_PROFILE_H

#include "common/error.h"
#include "policy/policy.h"
#include "spec/spec.h"

/* Where macOS keeps sandbox-exec; `--runner PATH` names another.  */
#define SBX_SANDBOX_EXEC "/usr/bin/sandbox-exec"

/* The profile for PLAN (resolved from SPEC), in a malloc'd *OUT: paths
   resolved with realpath(3), the caller's home and uid, and Apple's
   per-user temporary and cache directories as confstr(3) reports them
   (none off macOS).  */
int sbx_seatbelt_profile (const struct sbx_spec *spec,
                          const struct sbx_plan *plan, char **out,
                          struct sbx_error *err);

/* Print the profile and the sandbox-exec command line that would run it
   (SANDBOX_EXEC: the runner's path).  */
int sbx_seatbelt_dry_run (const struct sbx_spec *spec,
                          const struct sbx_plan *plan,
                          const char *sandbox_exec, struct sbx_error *err);

#endif
