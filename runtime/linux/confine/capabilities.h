/* OCI process.capabilities: the five sets where sbx-oci-init gives them
 * (a root caller's container: plan->init_ids), for the container's command
 * and for every process `exec` starts in it; else the one set bwrap can
 * give.
 *
 * bwrap (0.8) sets the command's effective, permitted and inheritable sets
 * to the same list (--cap-drop ALL --cap-add CAP_X ...), raises that list as
 * ambient capabilities so it survives exec under a non-zero uid, trims the
 * bounding set to it when it makes a user namespace, and always sets
 * no_new_privs, so nothing outside the list can be gained by exec later.
 * There OCI's five sets collapse into one (sbx_caps_plan).  */
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

/* What a process of a sandbox is given, decided here for `run`, `create`
   (sandbox.c) and `exec` (exec_join.c) alike: the five sets as asked
   where sbx-oci-init gives them (BY_INIT: plan->init_ids), for any uid;
   else the one set bwrap gives (sbx_caps_plan's KEEP), which an
   unprivileged caller's sandbox holds none of.  NOTES as above.  */
struct sbx_caps_decision
{
  bool by_sets;
  struct sbx_cap_sets sets; /* by_sets */
  struct strv keep;         /* !by_sets */
};

int sbx_caps_decide (const struct sbx_capabilities *caps, bool by_init,
                     bool privileged, struct sbx_caps_decision *out,
                     struct strv *notes, struct sbx_error *err);

void sbx_caps_decision_free (struct sbx_caps_decision *d);

/* Append every capability name this build knows, in number order, for
   `sbx-oci features`: "CAP_CHOWN" ... up to CAP_LAST_CAP, each one
   libcap-ng names and the running kernel has.  The same names, and no
   others, are accepted in a config.  Returns 0 or -ENOMEM.  */
int sbx_caps_known (struct strv *out);

/* Trim the calling process's bounding set to the capabilities in KEEP
   (bit N: capability N), by prctl, not libcap-ng, which would read this
   process's status from /proc: in `exec`, the sandbox's /proc.  It
   needs CAP_SETPCAP, which a later change of uid takes out of the
   effective set: call it first.  Returns 0 or -errno, with errno set.  */
int sbx_caps_trim_bounding (uint64_t keep);

/* Give the calling process the effective, permitted, inheritable and
   ambient sets of S (its bounding set trimmed already), as sbx-oci-init
   gives a container's command (init_main.c), for `exec` into such a
   container: after a change to a non-zero uid made with PR_SET_KEEPCAPS,
   so that the permitted set is still there to choose from.  Ambient
   capabilities not both permitted and inheritable are skipped, as the
   kernel would refuse them.  It allocates nothing and reads no file.
   Returns 0 or -errno, with errno set.  */
int sbx_caps_set_sets (const struct sbx_cap_sets *s);

/* Make the calling process hold exactly NAMES (OCI spellings; unknown
   ones are skipped, sbx_caps_plan having refused them already): its
   bounding set trimmed to them, then its effective, permitted and
   inheritable sets set to them: the one set bwrap gives an agent, for
   `exec` as uid 0 into one.  It allocates nothing and reads no file, so
   it may run in a forked child.
   Returns 0 or -errno, with errno set.  */
int sbx_caps_set_exact (const struct strv *names);

#endif
