/* linux.sysctl: a container may set only the kernel parameters that its
   own namespaces hold, as runc and crun allow: net.* in a network
   namespace that is not the host's, the System V IPC and POSIX message
   queue limits in an IPC namespace that is not the host's.  Anything else
   would change the whole host.  The hostname is "hostname"'s to set.  */
#include "policy/build.h"

#include "spec/parse_json.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const ipc_keys[]
    = { "kernel.msgmax", "kernel.msgmnb",         "kernel.msgmni",
        "kernel.sem",    "kernel.shmall",         "kernel.shmmax",
        "kernel.shmmni", "kernel.shm_rmid_forced" };

/* Dot-separated names of [A-Za-z0-9_-], as /proc/sys spells its files:
   no '/' and no empty part, so the path it becomes stays in /proc/sys. */
static bool
well_formed (const char *key)
{
  if (key[0] == '\0' || key[0] == '.')
    return false;
  for (const char *p = key; *p; p++)
    if (!(strchr ("_-", *p) || (*p >= 'a' && *p <= 'z')
          || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
          || (*p == '.' && p[1] != '.' && p[1] != '\0')))
      return false;
  return true;
}

static bool
is_ipc_key (const char *key)
{
  if (strncmp (key, "fs.mqueue.", 10) == 0)
    return true;
  for (size_t i = 0; i < sizeof ipc_keys / sizeof *ipc_keys; i++)
    if (strcmp (key, ipc_keys[i]) == 0)
      return true;
  return false;
}

static int
check_one (const struct sbx_kv *kv, const struct sbx_plan *plan,
           struct sbx_error *err)
{
  const char *k = kv->key;
  char quoted[JQUOTE_MAX];
  if (!well_formed (k))
    return sbx_refuse (err, -EINVAL, "linux.sysctl",
                       "%s is not a sysctl name "
                       "(dot-separated, as in net.ipv4.ip_forward)",
                       jquote (k, quoted, sizeof quoted));
  char field[SBX_ERROR_FIELD_MAX];
  snprintf (field, sizeof field, "linux.sysctl.%s", k);
  if (strchr (kv->value, '\n'))
    return sbx_refuse (err, -EINVAL, field, "the value holds a newline");
  bool net = strncmp (k, "net.", 4) == 0;
  if (net && !plan->unshare[SBX_NS_NETWORK] && !plan->join[SBX_NS_NETWORK])
    return sbx_refuse (err, -EPERM, field,
                       "the container shares the host's network namespace, "
                       "so this would change the host's; give it a "
                       "\"network\" namespace");
  if (!net && !is_ipc_key (k))
    return sbx_refuse (err, -EPERM, field,
                       "not held by a namespace the container has, so this "
                       "would change the whole host (only net.*, "
                       "fs.mqueue.* and the System V IPC limits can be "
                       "set)");
  if (!net && !plan->unshare[SBX_NS_IPC] && !plan->join[SBX_NS_IPC])
    return sbx_refuse (err, -EPERM, field,
                       "the container shares the host's IPC namespace, so "
                       "this would change the host's; give it an \"ipc\" "
                       "namespace");
  return 0;
}

int
policy_sysctl (const struct sbx_spec *spec, const struct sbx_plan *plan,
               struct sbx_error *err)
{
  const struct sbx_linux *lx = &spec->linux_;
  for (size_t i = 0; spec->has_linux && i < lx->n_sysctl; i++)
    {
      int r = check_one (&lx->sysctl[i], plan, err);
      if (r < 0)
        return r;
    }
  return 0;
}
