/* `sbx-oci state ID`: the OCI state, status computed from the live pid. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/json_gen.h"
#include "runtime/cli.h"
#include "runtime/linux/state/state_store.h"

int
sbx_cmd_state (struct sbx_context *g, int argc, char **argv,
               struct sbx_error *err)
{
  if (argc != 2)
    return sbx_fail (err, -EINVAL, "state: expected exactly one container id");
  struct sbx_container c;
  int r = sbx_state_open (sbx_state_root (g), argv[1], false, &c, err);
  char *text = NULL;
  size_t len;
  yajl_gen gen = r == 0 ? sbx_json_new (true) : NULL;
  if (r == 0
      && (gen == NULL || sbx_state_emit (gen, &c) < 0
          || sbx_json_finish (gen, &text, &len) < 0))
    r = sbx_fail (err, -ENOMEM, "cannot format the state");
  if (r == 0)
    fwrite (text, 1, len, stdout);
  free (text);
  if (gen)
    yajl_gen_free (gen);
  sbx_state_close (&c);
  return r < 0 ? r : 0;
}
