/* process.selinuxLabel, process.apparmorProfile and linux.mountLabel: the
   labels a Linux security module puts on the container's processes and
   mounts.  bubblewrap's own --exec-label would label the step it execs
   (sbx-oci-init, from a memfd), which a policy's entrypoint rules do not
   expect, so sbx-oci-init takes the process labels itself right before
   the command's exec, as runc and crun do; the mount label goes to the
   mounts bwrap and the runner make.  A label on a host whose module is
   off is refused, as runc and crun refuse it: no label is no boundary.  */
#include "policy/build.h"

#include <errno.h>
#include <string.h>

/* FIELD's VALUE (NULL: not asked) may be applied here, or the one line
   that says why not.  */
static int
check (const struct sbx_plan *plan, bool landlock, const char *field,
       const char *value, bool module_on, const char *module,
       struct sbx_error *err)
{
  if (value == NULL)
    return 0;
  if (strlen (value) > SBX_LABEL_MAX)
    return sbx_refuse (err, -E2BIG, field, "longer than %d bytes",
                       SBX_LABEL_MAX);
  /* A quote would end the runner's context="..." and let the rest be
     taken as tmpfs options; no module's label has one, or a control
     character.  */
  for (const char *c = value; *c; c++)
    if (*c == '"' || (unsigned char) *c < 0x20 || *c == 0x7f)
      return sbx_refuse (err, -EINVAL, field,
                         "a quote or a control character is in no label");
  if (!module_on)
    return sbx_refuse (err, -ENOTSUP, field,
                       "%s is not enabled on this host, so \"%s\" cannot "
                       "be applied; remove it",
                       module, value);
  if (landlock)
    return sbx_refuse (err, -ENOTSUP, field,
                       "not with \"sbx\": {\"landlock\": true}: the "
                       "Landlock helper would take \"%s\" in place of the "
                       "command",
                       value);
  if (!plan->init)
    return sbx_refuse (err, -ENOTSUP, field,
                       "\"%s\" is applied by sbx-oci-init, which runs in "
                       "containers that mount /proc; %s",
                       value,
                       plan->agent ? "an agent sandbox takes no label"
                                   : "mount /proc or remove it");
  return 0;
}

static int
keep (char **to, const char *value)
{
  if (value == NULL)
    return 0;
  *to = strdup (value);
  return *to ? 0 : -ENOMEM;
}

int
policy_labels (const struct sbx_spec *spec, const struct sbx_host_facts *host,
               struct sbx_plan *plan, struct sbx_error *err)
{
  const struct sbx_process *p = &spec->process;
  const char *mount_label = spec->has_linux ? spec->linux_.mount_label : NULL;
  bool ll = spec->ext.landlock;
  int r = check (plan, ll, "process.selinuxLabel", p->selinux_label,
                 host->selinux, "SELinux", err);
  if (r == 0)
    r = check (plan, ll, "process.apparmorProfile", p->apparmor_profile,
               host->apparmor, "AppArmor", err);
  if (r == 0)
    r = check (plan, ll, "linux.mountLabel", mount_label, host->selinux,
               "SELinux", err);
  if (r == 0)
    r = keep (&plan->selinux_label, p->selinux_label);
  if (r == 0)
    r = keep (&plan->apparmor_profile, p->apparmor_profile);
  if (r == 0)
    r = keep (&plan->mount_label, mount_label);
  return r;
}
