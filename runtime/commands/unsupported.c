/* pause, resume and update: bwrap sandboxes have no freezer or live
   resource update of their own; refuse clearly rather than pretend.  */
#include <errno.h>

#include "runtime/cli.h"

static int
refuse (const char *what, struct sbx_error *err)
{
  return sbx_fail (err, -ENOTSUP, "%s is not supported by sbx-oci", what);
}

int
sbx_cmd_pause (struct sbx_context *g, int argc, char **argv,
               struct sbx_error *err)
{
  (void) g, (void) argc, (void) argv;
  return refuse ("pause", err);
}

int
sbx_cmd_resume (struct sbx_context *g, int argc, char **argv,
                struct sbx_error *err)
{
  (void) g, (void) argc, (void) argv;
  return refuse ("resume", err);
}

int
sbx_cmd_update (struct sbx_context *g, int argc, char **argv,
                struct sbx_error *err)
{
  (void) g, (void) argc, (void) argv;
  return refuse ("update", err);
}
