/* The backend of a build for a system with no sandbox sbx-oci can drive
   (runtime/backend.h): every sandboxing command refuses, and nothing is
   ever run.  */
#include <stdio.h>

#include "config.h"
#include "runtime/backend.h"
#include "runtime/platform_unavailable.h"

int
sbx_backend_run (const struct sbx_context *g,
                 const struct sbx_run_request *req, struct sbx_run_result *res,
                 struct sbx_error *err)
{
  (void) g, (void) req, (void) res;
  return sbx_platform_unavailable (SBX_HOST_SYSTEM, err);
}

int
sbx_backend_resolve (const struct sbx_context *g, const char *bundle,
                     struct sbx_spec **spec, struct sbx_plan **plan,
                     struct sbx_error *err)
{
  (void) g, (void) bundle, (void) spec, (void) plan;
  return sbx_platform_unavailable (SBX_HOST_SYSTEM, err);
}

void
sbx_backend_print_runner (const struct sbx_context *g)
{
  (void) g;
  struct sbx_error err = { 0 };
  sbx_platform_unavailable (SBX_HOST_SYSTEM, &err);
  printf ("runner: none (%s)\n", err.msg);
}

int
sbx_backend_refuse (const char *command, struct sbx_error *err)
{
  (void) command;
  return sbx_platform_unavailable (SBX_HOST_SYSTEM, err);
}
