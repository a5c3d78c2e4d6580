/* `exec` into a container meets the gates `create` met (policy/policy.h,
   sbx_policy_exec).  Nothing is re-derived here: the same checks of the
   ceiling and the same environment rules run on the process object exec
   was given, so a field create would refuse is refused, and a name create
   would drop is dropped, whichever of the two carried it; its labels are
   checked as create's.  */
#include <errno.h>
#include <stdlib.h>

#include "policy/build.h"
#include "policy/ceiling.h"

int
sbx_policy_exec (const struct sbx_spec *spec,
                 const struct sbx_host_facts *host,
                 const struct sbx_ceiling *ceiling, struct sbx_plan **out,
                 struct sbx_error *err)
{
  *out = NULL;
  int r = ceiling ? policy_ceiling_process (spec, host, ceiling, err) : 0;
  if (r < 0)
    return r;
  struct sbx_plan *plan = policy_plan_new (spec, host, ceiling != NULL);
  if (plan == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* The process object's environment alone, as OCI's exec has it.  */
  struct sbx_host_facts facts = *host;
  facts.environ = NULL;
  r = policy_env (spec, &facts, plan, err);
  if (r == 0)
    r = policy_keep_approvals (host, plan);
  /* exec's child takes the labels where sbx-oci-init would.  */
  plan->init = policy_init_step (spec, plan);
  if (r == 0)
    r = policy_labels (spec, host, plan, err);
  if (r < 0)
    {
      sbx_plan_free (plan);
      return err->msg[0] ? r : sbx_fail (err, r, "out of memory");
    }
  *out = plan;
  return 0;
}
