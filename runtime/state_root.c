#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime/cli.h"

/* Found without flags: podman calls `state` with no --root.  */
const char *
sbx_state_root (const struct sbx_globals *g)
{
  static char buf[4096];
  if (g->root)
    return g->root;
  if (geteuid () == 0)
    return "/run/sbx-oci";
  const char *xdg = getenv ("XDG_RUNTIME_DIR");
  if (xdg && xdg[0] == '/')
    snprintf (buf, sizeof buf, "%s/sbx-oci", xdg);
  else
    snprintf (buf, sizeof buf, "/tmp/sbx-oci-%u", (unsigned) geteuid ());
  return buf;
}
