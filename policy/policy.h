/* Policy resolution: one flat, ordered plan from (spec, host facts).
 *
 * The plan is what every backend consumes: the bwrap argument builder on
 * Linux (runtime/linux/bwrap/bwrap_args.c) and the Seatbelt profile generator
 * on macOS (runtime/darwin/sbpl.c).  Resolution is pure: no I/O beyond the
 * host-facts callbacks, no globals.  */
#ifndef SBX_POLICY_H
#define SBX_POLICY_H

#include "policy/host_facts.h"
#include "spec/spec.h"

enum sbx_plan_op
{
  SBX_PLAN_BIND_RO,    /* host SOURCE visible read-only at DEST */
  SBX_PLAN_BIND_RW,    /* host SOURCE writable at DEST: a write grant */
  SBX_PLAN_BIND_DEV,   /* like BIND_RW, device nodes usable */
  SBX_PLAN_HIDE_DIR,   /* deny: an empty directory in place of DEST */
  SBX_PLAN_HIDE_FILE,  /* deny: an empty, read-only file in place of DEST */
  SBX_PLAN_TMPFS,      /* a private, writable tmpfs at DEST */
  SBX_PLAN_PROC,       /* a fresh procfs at DEST */
  SBX_PLAN_DEV,        /* a minimal /dev at DEST */
  SBX_PLAN_MQUEUE,     /* a fresh mqueue at DEST */
  SBX_PLAN_DIR,        /* create directory DEST */
  SBX_PLAN_REMOUNT_RO, /* seal DEST read-only; always after every grant */
};

/* A node of linux.devices that the runner makes, as root, at SOURCE in
   the plan's nodes_dir before bwrap starts, or a tmpfs of the config's
   mounts it mounts there (type 't'); a BIND_DEV of the same SOURCE puts
   it in the sandbox.  */
/* The most a type 't' node's options may hold (runner_nodes.c's
   buffers).  */
#define SBX_RUNNER_TMPFS_OPTIONS_MAX 1000
/* The longest SELinux context or AppArmor profile taken (policy/labels.c):
   with a tmpfs's options it fits the page mount(2) reads its data from.  */
#define SBX_LABEL_MAX 3000

struct sbx_plan_node
{
  char *source;
  char type;        /* 'c', 'b', 'p', or 't': a tmpfs */
  size_t index;     /* its entry: linux.devices[INDEX], or mounts[INDEX] */
  char *fs_name;    /* 't': the tmpfs's source, as mountinfo shows it */
  char *fs_options; /* 't': the config's options, comma-joined */
  uint32_t major, minor;
  uint32_t mode; /* permission bits */
  uid_t uid;     /* the owner, as the host's ids */
  gid_t gid;
};

void sbx_plan_node_free (struct sbx_plan_node *n);

/* Why a mount is in the plan: the Seatbelt backend and `check` read it.  */
enum sbx_plan_why
{
  SBX_WHY_ROOT,       /* the sandbox's "/" */
  SBX_WHY_SYSTEM,     /* /proc, /dev, ... that every sandbox has */
  SBX_WHY_OCI_MOUNT,  /* an entry of config.json "mounts" */
  SBX_WHY_WORKSPACE,  /* the mode's writable roots */
  SBX_WHY_TEMP,       /* a temp root or the private /tmp */
  SBX_WHY_PROTECTED,  /* protected metadata inside a writable root */
  SBX_WHY_CREDENTIAL, /* a hidden credential store (hardened defaults) */
  SBX_WHY_SOCKET,     /* a hidden daemon socket (hardened defaults) */
  SBX_WHY_ALIAS,      /* a hard-linked file re-bound read-only */
  SBX_WHY_MASKED,     /* linux.maskedPaths */
  SBX_WHY_READONLY,   /* linux.readonlyPaths */
};

struct sbx_plan_mount
{
  enum sbx_plan_op op;
  enum sbx_plan_why why;
  char *source;  /* host path for binds; NULL otherwise */
  char *dest;    /* path inside the sandbox */
  bool optional; /* a missing SOURCE is skipped, not an error */
  int64_t size;  /* tmpfs size in bytes; 0 = runner default */
  int perms;     /* tmpfs/dir mode; -1 = runner default */
};

struct sbx_enforcement
{
  enum sbx_level filesystem;
  enum sbx_level network;
  enum sbx_level level; /* the weaker of the two: what the run can claim */
  struct strv reasons;  /* one line per gap, "why not full" */
  bool no_new_privs;    /* setuid and file capabilities grant nothing */
  /* The layers that hold, besides the seccomp programs (plan.filters):
     bubblewrap's namespaces and mount table, and a Landlock domain of
     this ABI (0: none) applied by the helper bubblewrap execs
     (runtime/linux/confine/landlock_helper.c).  */
  bool namespaces;
  int landlock_abi;
  bool seatbelt; /* macOS: the Seatbelt profile is the one layer */
  /* With namespaces, the helper checks before the command that the
     mounts below a changeable root are in place (runtime/linux/confine/
     landlock_rules.h): bubblewrap older than 0.12.0 follows a link in a
     destination.  */
  bool mount_checks;
};

/* The highest Landlock ABI whose rights sbx-oci knows (the helper's
   runtime/linux/confine/landlock_abi.h says the same): a higher one the
   kernel offers is used as this one.  */
#define SBX_LANDLOCK_ABI_MAX 7

/* The seccomp programs a sandbox's processes run under.  */
enum sbx_filter_choice
{
  SBX_FILTERS_NONE,
  SBX_FILTERS_CONFIG,       /* linux.seccomp */
  SBX_FILTERS_AGENT,        /* the agent default: user namespaces refused */
  SBX_FILTERS_AGENT_USERNS, /* the agent default, sbx.allowUserNamespaces */
};

struct sbx_filters
{
  enum sbx_filter_choice main;
  bool net_deny;    /* network "deny"'s program on top */
  bool unix_closed; /* no socket names a host path (deny and loopback,
                       when no host socket is approved): on top */
};

/* The most additionalGids sbx-oci-init takes (its MAX_GROUPS).  */
#define SBX_INIT_MAX_GROUPS 256

/* A mount's propagation as sbx-oci sets it; SBX_PROPAGATION_KEEP:
   as bwrap leaves it (a recursive slave of the host's mounts, or private
   where those are).  */
enum sbx_propagation_kind
{
  SBX_PROPAGATION_KEEP,
  SBX_PROPAGATION_SHARED,
  SBX_PROPAGATION_PRIVATE,
  SBX_PROPAGATION_UNBINDABLE,
};

struct sbx_propagation
{
  enum sbx_propagation_kind kind;
  bool recursive;
};

struct sbx_plan
{
  bool agent;
  bool under_ceiling; /* resolved under the operator's ceiling: the config
                         was untrusted (the outcome's "trust") */
  enum sbx_mode mode;
  enum sbx_net network;
  char *root; /* host directory that becomes "/" */
  bool root_readonly;
  struct sbx_plan_mount *mounts; /* in order; seals come last */
  size_t n_mounts;
  bool unshare[SBX_NS_COUNT];
  char *join[SBX_NS_COUNT]; /* join this namespace (network, ipc, uts,
                               pid) at this path instead of making one;
                               NULL: no */
  char *hostname;           /* NULL: keep */
  struct strv argv;         /* the command, never a shell string */
  struct strv env;          /* exactly the child's environment */
  struct strv env_dropped;  /* credential-shaped names left out of it */
  struct strv env_redacted; /* names whose URL password was removed */
  char *cwd;
  bool set_ids;      /* switch to uid/gid inside a user namespace */
  char *uid_map;     /* /proc/PID/uid_map text sbx writes itself, or */
  char *gid_map;     /* NULL: bwrap maps the caller's own id */
  bool enter_userns; /* the maps are a range's (policy/id_maps.c): sbx makes
                        the user namespace, the runner enters it as its
                        uid 0 before bwrap starts, bwrap makes none */
  uid_t uid;
  gid_t gid;
  bool set_groups; /* the runner takes exactly GROUPS as its supplementary
                      groups, which an identity map keeps (else: the
                      caller's, or none an unmapped namespace can show) */
  gid_t *groups;
  size_t n_groups;
  bool init;     /* a container's command starts through sbx-oci-init
                    (runtime/linux/container/init_main.c): looked up among its
                    mounts, held, its exec reported */
  bool init_ids; /* ... which also takes uid, gid and GROUPS and the five
                    capability sets itself, in the caller's user
                    namespace (a root caller's container without one) */
  /* The labels sbx-oci-init gives the command before its exec
     (process.selinuxLabel, process.apparmorProfile) and the mounts'
     SELinux context (linux.mountLabel); NULL: none (policy/labels.c).  */
  char *selinux_label;
  char *apparmor_profile;
  char *mount_label;
  struct sbx_propagation root_propagation; /* linux.rootfsPropagation,
                                              set on "/" by sbx-oci from
                                              outside (root's containers) */
  bool new_session;
  bool die_with_parent;
  int64_t memory_limit; /* bytes; -1 = none */
  int64_t pids_limit;   /* -1 = none */
  /* RLIMIT_NPROC can hold pids_limit where no cgroup does: not where
     the sandbox may run as host uid 0, which the kernel exempts
     (policy/resolve.c).  */
  bool nproc_rlimit_holds;
  uint64_t wall_clock_ms; /* 0 = none */
  uint32_t sample_interval_ms;
  struct sbx_filters filters;
  struct sbx_enforcement enforcement;
  /* The operator's approval tokens the plan was resolved with: create
     keeps them, so that `exec` meets the same gates (sbx_policy_exec).  */
  struct strv approvals;
  /* Host services by port (policy/ports.c): TCP ports of the host's
     loopback that the sandbox reaches at its own 127.0.0.1:PORT, each
     approved by the operator ("port:N").  sbx's forwarder
     (runtime/linux/supervise/port_forward.h) listens on them inside the
     sandbox's network namespace and connects to the host's 127.0.0.1:PORT.
     This list is also exactly what a Landlock layer allows with its TCP
     connect right (LANDLOCK_ACCESS_NET_CONNECT_TCP), as a belt under the
     network namespace.  Distinct, in the config's order; empty: none.  */
  uint16_t *host_ports;
  size_t n_host_ports;
  /* linux.devices' nodes and the config's tmpfs mounts the runner makes
     as root (policy/devices.c): it mounts a tmpfs on NODES_DIR in a mount
     namespace of its own and makes NODES in it.  NULL and none when there
     is nothing to make.  */
  char *nodes_dir;
  struct sbx_plan_node *nodes;
  size_t n_nodes;
};

struct sbx_ceiling;

/* CEILING: the operator's ceiling when the config is not trusted (every
   field is checked against it first: policy/ceiling_gate.c), or NULL when
   config.json is the operator's own.  Refusals of the ceiling come before
   "requireEnforcement" is looked at.  */
int sbx_policy_resolve (const struct sbx_spec *spec,
                        const struct sbx_host_facts *host,
                        const struct sbx_ceiling *ceiling,
                        struct sbx_plan **out, struct sbx_error *err);

void sbx_plan_free (struct sbx_plan *plan);

/* Whether M binds a directory whose insides someone else may change while
   a sandbox is set up: a writable root, or a workspace bound read-only
   (read-only there, but another sandbox, or a process of the agent's, may
   write it at the same time).  Not the host's "/".  What lies below one
   is held by descriptor (bind_sources.h) and checked in place by the
   helper (landlock_rules.h).  */
bool sbx_plan_changeable_root (const struct sbx_plan_mount *m);

/* The owner a container's terminal gets, for a process running as USER
   (policy/terminal.c): OWNER[0] its uid, OWNER[1] its gid, as the ids of
   the namespace sbx-oci runs in, -1 to leave one as it is.  INIT_IDS:
   the plan's init_ids (the process takes USER's ids itself); without it
   the terminal is already its process's own.  */
void sbx_policy_terminal_owner (const struct sbx_spec *spec,
                                const struct sbx_user *user, bool init_ids,
                                int64_t owner[2]);

/* `exec` into a container: SPEC is the config create kept with exec's
   process object in place of its own (and SPEC->fields the keys that
   object set), HOST the exec caller's facts with the approvals create
   kept, CEILING non-NULL when create was under a ceiling.  The process
   meets the gates create's config met for the same fields (the ceiling's
   allow-list and tokens, the identity, the limits: policy/ceiling_gate.c)
   and gets its environment made as create made the first process's
   (policy/env.c; HOST->environ is not consulted: exec's environment
   is its process object's, as OCI says).  *OUT holds agent, mode,
   under_ceiling, filters, env, env_dropped and env_redacted.  */
int sbx_policy_exec (const struct sbx_spec *spec,
                     const struct sbx_host_facts *host,
                     const struct sbx_ceiling *ceiling, struct sbx_plan **out,
                     struct sbx_error *err);

/* Which programs SPEC's processes run under: decided here only, for the
   sandbox (plan.filters) and for `exec` into it (from the config and the
   approvals `create` kept), so the two can never differ.  APPROVED: the
   operator's tokens (a "socket:PATH" keeps unix sockets open), or NULL.  */
struct sbx_filters sbx_policy_filters (const struct sbx_spec *spec,
                                       const struct strv *approved);

/* Whether bubblewrap VERSION predates 0.12.0, which fixes
   GHSA-pxhw-h44j-8pfx (CVE-2026-87766).  An unknown version (zeros) does. */
bool sbx_runner_predates_fix (const int version[3]);

/* Whether an environment variable name (LEN bytes) looks like it carries a
   credential: such names never reach an agent sandbox unless the operator
   approves them ("env:NAME").  */
bool sbx_env_name_is_secret (const char *name, size_t len);

/* VALUE with the password of every "scheme://user:password@" in it
   removed ("scheme://user@"): returns 1 and a new string in *OUT, 0 (and
   NULL) when there is none, -ENOMEM.  */
int sbx_env_redact_url (const char *value, char **out);

static inline void
sbx_plan_freep (struct sbx_plan **p)
{
  sbx_plan_free (*p);
}
#define cleanup_plan __attribute__ ((cleanup (sbx_plan_freep)))

#endif
