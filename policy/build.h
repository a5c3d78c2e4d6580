/* Internal to policy resolution: appending to a plan under construction.  */
#ifndef SBX_POLICY_BUILD_H
#define SBX_POLICY_BUILD_H

#include "policy/policy.h"

/* Append a mount.  SOURCE may be NULL.  Returns the new entry or NULL on
   ENOMEM.  */
struct sbx_plan_mount *plan_add (struct sbx_plan *plan, enum sbx_plan_op op,
                                 enum sbx_plan_why why, const char *source,
                                 const char *dest);

/* A fresh procfs at DEST, with what in it reaches past the sandbox's
   namespaces sealed read-only: sys, sysrq-trigger, irq and bus.  bwrap
   seals them only where its own access(2) finds them writable, which
   /proc/sys, a 0555 directory, never is; so a uid 0 inside could write
   host-wide sysctls such as kernel.core_pattern (runc mounts these
   read-only too).  The host's own entries are bound over them: what
   /proc/sys shows follows the namespaces of whoever reads it, not those
   of the procfs it is read through.  Returns 0 or -ENOMEM.  */
int plan_add_proc (struct sbx_plan *plan, enum sbx_plan_why why,
                   const char *dest);

/* Record a gap in enforcement: lowers the filesystem or network level to at
   most LEVEL and keeps REASON (printf-style) for `state` and `check`.  */
int plan_gap (struct sbx_plan *plan, bool network, enum sbx_level level,
              const char *fmt, ...) __attribute__ ((format (printf, 4, 5)));

/* The dest of the last HIDE_DIR/TMPFS/DIR mount that DEST lies under, so a
   grant below it can be created inside the sandbox's own tmpfs.  */
bool plan_dest_inside_tmpfs (const struct sbx_plan *plan, const char *dest);

/* The length of the first prefix of PATH (absolute) that is a symbolic
   link on the host, looking at the components from byte FROM on; 0 when
   none is.  PATH is changed while looking, and restored.  */
size_t policy_linked_prefix (const struct sbx_host_facts *host, char *path,
                             size_t from);

enum sbx_path_kind host_path_kind (const struct sbx_host_facts *host,
                                   const char *path);

/* The values in git config TEXT that send git to other files for hooks
   or settings (core.hooksPath, include.path, includeIf.*.path), each
   pushed to OUT as "KEY VALUE", KEY spelt as git's documentation does.
   Returns 0 or -ENOMEM.  */
int policy_git_redirects (const char *text, struct strv *out);

/* The gaps of the writable git directory DIR that no mount can close (its
   config and hooks are held by protect.c): a commondir it lacks, and
   redirects in its config (policy/git_settings.c).  Returns 0 or
   -ENOMEM.  */
int policy_note_git_dir (const struct sbx_host_facts *host,
                         struct sbx_plan *plan, const char *dir);

/* The redirects part of that alone, for the git directory DIR, which
   the sandbox may write or not (WRITABLE: a flag that turns on a file
   there counts only then), and the common directory its commondir names:
   one the config binds read-only, one above a root that lies inside its
   work tree.  Returns 0 or -ENOMEM.  */
int policy_note_git_configs (const struct sbx_host_facts *host,
                             struct sbx_plan *plan, const char *dir,
                             bool writable);

/* The same for the git directory a .git file FILE names ("gitdir:"): a
   linked worktree's or a submodule's.  Returns 0 or -ENOMEM.  */
int policy_note_git_file (const struct sbx_host_facts *host,
                          struct sbx_plan *plan, const char *file);

/* The same for the global git configs of the homes (HOME's, the
   account's): ~/.gitconfig and ~/.config/git/config.  Returns 0 or
   -ENOMEM.  */
int policy_note_git_global (const struct sbx_host_facts *host,
                            struct sbx_plan *plan);

/* The homes whose start-up files and credential stores the plan keeps:
   HOME's, the account's, and each directory that is one of them under
   another name (host->home_aliases), each once, into OUT.  Returns 0 or
   -ENOMEM.  */
int policy_homes (const struct sbx_host_facts *host, struct strv *out);

/* The protected paths of SPEC (relative to each writable root), NULL-ended:
   its own list, or the defaults.  */
const char *const *policy_protected_list (const struct sbx_spec *spec);

struct sbx_ceiling;

/* SPEC's sandbox mode: its own, or for an agent that names none, what its
   root says.  */
enum sbx_mode policy_mode (const struct sbx_spec *spec, bool agent);

/* A new plan with what both create's resolution and exec's gates decide
   the same way: agent, trust, mode and the seccomp programs.  NULL when
   out of memory.  */
struct sbx_plan *policy_plan_new (const struct sbx_spec *spec,
                                  const struct sbx_host_facts *host,
                                  bool under_ceiling);

/* Copy the operator's approvals (HOST->approved) into PLAN, for exec.  */
int policy_keep_approvals (const struct sbx_host_facts *host,
                           struct sbx_plan *plan);

/* The ceiling's checks of the process object alone (its keys, identity
   and limits): what `exec --process` must meet (policy/exec.c).  */
int policy_ceiling_process (const struct sbx_spec *spec,
                            const struct sbx_host_facts *host,
                            const struct sbx_ceiling *ceiling,
                            struct sbx_error *err);

/* The operator's ceiling, checked before resolution (what the config sets)
   and after it (what the plan would expose): policy/ceiling_gate.c.  */
int policy_ceiling_fields (const struct sbx_spec *spec,
                           const struct sbx_host_facts *host,
                           const struct sbx_ceiling *ceiling,
                           struct sbx_error *err);
int policy_ceiling_plan (const struct sbx_spec *spec,
                         const struct sbx_plan *plan,
                         const struct sbx_ceiling *ceiling,
                         struct sbx_error *err);

/* Pin every directory between ROOT and PATH as a mount point of its own
   (writable, onto itself, the config's layers inside it laid again): a
   mount point cannot be renamed or removed by a sandbox that has it, so
   `mv .git .git.old && mkdir .git` cannot walk away from the read-only
   .git/config bound inside it, nor a rename take a hidden store out from
   under its name.  One a config made read-only or hid is left as it is.  */
int policy_pin_parents (const struct sbx_host_facts *host, const char *root,
                        const char *path, struct sbx_plan *plan);

/* Refused: a writable or temp root the config names that is, or lies in,
   a git directory or a protected path of the workspace or of another
   root, or holds one the mode leaves unprotected (a temp root over the
   workspace's .config in a read-only mode).  */
int policy_refuse_roots_in_metadata (const struct sbx_spec *spec,
                                     const struct sbx_host_facts *host,
                                     const struct sbx_plan *plan,
                                     struct sbx_error *err);

/* Keep the protected metadata of an agent plan's writable roots read-only
   (policy/protect.c).  Returns 0 or -ENOMEM.  */
int policy_protect_metadata (const struct sbx_spec *spec,
                             const struct sbx_host_facts *host,
                             struct sbx_plan *plan);

int policy_agent_mounts (const struct sbx_spec *spec,
                         const struct sbx_host_facts *host,
                         struct sbx_plan *plan, struct sbx_error *err);
int policy_container_mounts (const struct sbx_spec *spec,
                             const struct sbx_host_facts *host,
                             struct sbx_plan *plan, struct sbx_error *err);
/* linux.devices' nodes, bound after the config's mounts (policy/devices.c);
   refused for an agent.  */
/* The config's tmpfs M (mounts[INDEX]) made by root's runner at
   NODES_DIR/tmpfs-INDEX with M's source name and every option, and bound
   at its destination (policy/devices.c); owners named through LX's maps
   when the plan has ranges.  0, -ENOMEM, or a refusal (ERR set): options
   longer than the runner takes, an owner no map covers.  */
int policy_runner_tmpfs (const struct sbx_linux *lx, const struct sbx_mount *m,
                         size_t index, const char *nodes_dir,
                         struct sbx_plan *plan, struct sbx_error *err);
int policy_devices (const struct sbx_spec *spec,
                    const struct sbx_host_facts *host, struct sbx_plan *plan,
                    struct sbx_error *err);
int policy_oci_mount (const struct sbx_spec *spec,
                      const struct sbx_host_facts *host, size_t index,
                      struct sbx_plan *plan, struct sbx_error *err);
/* Whether a container's command starts through sbx-oci-init: a process
   of a container (not an agent) that mounts /proc, from which the step
   is run (/proc/self/fd) and where it sets the labels (policy/ids.c).  */
bool policy_init_step (const struct sbx_spec *spec,
                       const struct sbx_plan *plan);
int policy_identity (const struct sbx_spec *spec,
                     const struct sbx_host_facts *host, struct sbx_plan *plan,
                     struct sbx_error *err);
/* linux.rootfsPropagation into PLAN->root_propagation, after
   policy_identity (policy/propagation.c).  */
int policy_root_propagation (const struct sbx_spec *spec,
                             const struct sbx_host_facts *host,
                             struct sbx_plan *plan, struct sbx_error *err);
/* The SELinux and AppArmor labels into PLAN, after policy_identity
   (policy/labels.c).  */
int policy_labels (const struct sbx_spec *spec,
                   const struct sbx_host_facts *host, struct sbx_plan *plan,
                   struct sbx_error *err);
/* PLAN's groups: exactly U's additionalGids (policy/ids.c).  0 or
   -ENOMEM.  */
int policy_copy_groups (const struct sbx_user *u, struct sbx_plan *plan);
/* Whether linux.uidMappings / gidMappings map more than the caller's own
   id onto one id (what bubblewrap maps itself): then *FIELD
   ("linux.uidMappings") and *INDEX name the first entry that does
   (policy/id_maps.c).  */
bool policy_id_range (const struct sbx_spec *spec,
                      const struct sbx_host_facts *host, const char **field,
                      size_t *index);
/* The id that ID (a container's) maps to through the N entries of V
   (linux.uidMappings or gidMappings), or -1 when none does.  */
int64_t policy_mapped_id (const struct sbx_id_mapping *v, size_t n,
                          uint32_t id);
/* Those ranges, for a container run by root, as the maps of the user
   namespace sbx makes (plan->uid_map, gid_map, enter_userns) and the ids
   sbx-oci-init takes in it; refused, naming FIELD[INDEX], for anyone
   else.  */
int policy_id_maps (const struct sbx_spec *spec,
                    const struct sbx_host_facts *host, const char *field,
                    size_t index, struct sbx_plan *plan,
                    struct sbx_error *err);
int policy_env (const struct sbx_spec *spec, const struct sbx_host_facts *host,
                struct sbx_plan *plan, struct sbx_error *err);
int policy_widenings (const struct sbx_spec *spec, struct sbx_plan *plan);
/* The rung without namespaces (policy/no_namespaces.c): refusals,
   and the gaps it has, when the host can make no namespace.  */
int policy_no_namespaces (const struct sbx_host_facts *host,
                          struct sbx_plan *plan, struct sbx_error *err);
/* Whether the plan gets a Landlock domain, of which ABI, and the reason
   for each right that ABI lacks (policy/landlock.c).  */
int policy_landlock (const struct sbx_spec *spec,
                     const struct sbx_host_facts *host, struct sbx_plan *plan,
                     struct sbx_error *err);
/* "sbx.network.hostPorts": checked (mode, approval) into plan->host_ports
   (policy/ports.c).  */
int policy_host_ports (const struct sbx_spec *spec,
                       const struct sbx_host_facts *host,
                       struct sbx_plan *plan, struct sbx_error *err);
int policy_enforcement (const struct sbx_spec *spec,
                        const struct sbx_host_facts *host,
                        struct sbx_plan *plan, struct sbx_error *err);

/* Whether NAME (LEN bytes) is one of LIST (NULL-ended), case-insensitive:
   the environment rules' name lists (policy/env_secrets.c).  */
bool policy_env_name_in (const char *name, size_t len,
                         const char *const *list);

/* Refuse to run below "sbx.requireEnforcement": the last check of all,
   after the ceiling's, so a refusal names the policy first.  */
int policy_require_level (const struct sbx_spec *spec,
                          const struct sbx_plan *plan, struct sbx_error *err);

/* Refuse a linux.sysctl entry that is malformed or that no namespace of
   the container holds (it would change the host).  */
int policy_sysctl (const struct sbx_spec *spec, const struct sbx_plan *plan,
                   struct sbx_error *err);

/* Append the read-only seals of every hidden directory: last, so that
   grants nested inside a hidden directory could still be mounted.  */
int policy_seal_hidden (struct sbx_plan *plan);

#endif
