/* OCI process.capabilities -> the one capability set bwrap can give.
 *
 * bwrap (0.8) sets the command's effective, permitted and inheritable sets
 * to the same list (--cap-drop ALL --cap-add CAP_X ...), raises that list as
 * ambient capabilities so it survives exec under a non-zero uid, trims the
 * bounding set to it when it makes a user namespace, and always sets
 * no_new_privs, so nothing outside the list can be gained by exec later.
 * OCI's five sets therefore collapse into one.  */
#ifndef SBX_LINUX_CAPABILITIES_H
#define SBX_LINUX_CAPABILITIES_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/strv.h"
#include "spec/spec.h"

/* Plan the capabilities of the sandbox.
 *
 * Every name of every set is validated first ("CAP_NET_BIND_SERVICE", as OCI
 * writes it): an unknown one fails with, e.g.,
 * `process.capabilities.bounding[2]: unknown capability "CAP_FOO"`.
 *
 * KEEP receives, in capability-number order, permitted ∩ bounding: what the
 * process may hold, limited by what it could ever regain.  NOTES receives
 * one line for every way that differs from the five sets asked for
 * (capabilities added to or dropped from effective, inheritable and ambient;
 * permitted outside bounding; bounding beyond permitted).
 *
 * PRIVILEGED says whether the sandbox can hold capabilities at all: true
 * for a root caller.  When false, KEEP stays empty and one note lists what
 * was requested.  (bwrap can also grant capabilities that are valid only
 * inside a user namespace it makes for an unprivileged caller; passing
 * true for such a run asks for exactly that.)
 *
 * An absent capabilities object (CAPS->present false) plans no capability
 * and no note.  */
int sbx_caps_plan (const struct sbx_capabilities *caps, bool privileged,
                   struct strv *keep, struct strv *notes,
                   struct sbx_error *err);

/* The five OCI sets as masks (bit N: capability N), for sbx-oci-init,
   which gives them as runc does (runtime/linux/container/init_main.c).  */
struct sbx_cap_sets
{
  uint64_t bounding, effective, permitted, inheritable, ambient;
};

/* Parse CAPS into OUT (all empty when CAPS->present is false); an unknown
   name fails as in sbx_caps_plan.  NOTES receives one line for ambient
   capabilities the kernel will not raise (not both permitted and
   inheritable), which sbx-oci-init skips as runc and crun do.  */
int sbx_caps_sets (const struct sbx_capabilities *caps,
                   struct sbx_cap_sets *out, struct strv *notes,
                   struct sbx_error *err);

/* Append every capability name this build knows, in number order, for
   `sbx-oci features`: "CAP_CHOWN" ... up to CAP_LAST_CAP, each one
   libcap-ng names and the running kernel has.  The same names, and no
   others, are accepted in a config.  Returns 0 or -ENOMEM.  */
int sbx_caps_known (struct strv *out);

/* Make the calling process hold exactly NAMES (OCI spellings; unknown
   ones are skipped, sbx_caps_plan having refused them already): its
   bounding set trimmed to them, then its effective, permitted and
   inheritable sets set to them, as runc does for `exec` as uid 0.  It
   allocates nothing and reads no file, so it may run in a forked child.
   Returns 0 or -errno, with errno set.  */
int sbx_caps_set_exact (const struct strv *names);

#endif
