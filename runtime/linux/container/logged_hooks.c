#include "runtime/linux/container/logged_hooks.h"

#include "common/cleanup.h"
#include "common/json_gen.h"
#include "hooks/hooks.h"
#include "spec/spec.h"

void
sbx_run_logged_hooks (const struct sbx_context *g,
                      const struct sbx_container *c, enum sbx_hook_phase phase,
                      bool warn_unreadable)
{
  const char *name = sbx_hook_phase_name (phase);
  struct sbx_spec *spec = NULL;
  struct sbx_error err = { 0 };
  if (c->bundle == NULL || sbx_state_load_spec (c, &spec, &err) < 0)
    {
      if (warn_unreadable)
        sbx_log_warning (g, "%s hooks not run: %s", name,
                         c->bundle ? err.msg : "no bundle recorded");
      return;
    }
  const struct sbx_hook_list *list = &spec->hooks.phase[phase];
  yajl_gen gen = sbx_json_new (false);
  cleanup_free char *state = NULL;
  size_t len;
  if (list->n > 0 && gen && sbx_state_emit (gen, c) == 0
      && sbx_json_finish (gen, &state, &len) == 0)
    {
      struct strv msgs = { 0 };
      sbx_hooks_run_all_logged (list, name, state, &msgs);
      for (size_t i = 0; i < msgs.n; i++)
        sbx_log_warning (g, "%s", msgs.v[i]);
      strv_free (&msgs);
    }
  if (gen)
    yajl_gen_free (gen);
  sbx_spec_free (spec);
}
