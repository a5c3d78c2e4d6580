/* The typed model of an OCI config.json plus the sbx extension.
 *
 * Parsing (spec_parse.c) fills it from JSON and rejects wrong types, missing
 * required fields and impossible values with one line naming the JSON path.
 * Unknown properties are ignored, as the OCI runtime spec requires.  Every
 * pointer is owned by the struct; sbx_spec_free releases all of it.  */
#ifndef SBX_SPEC_H
#define SBX_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/cgroup_settings.h"
#include "common/error.h"
#include "common/strv.h"

/* ---- the sbx extension: the top-level "sbx" object ---------------------- */

enum sbx_mode
{
  SBX_MODE_UNSET = 0,
  SBX_MODE_READ_ONLY,
  SBX_MODE_WORKSPACE_WRITE,
  SBX_MODE_DANGER_FULL_ACCESS,
};

enum sbx_net
{
  SBX_NET_UNSET = 0, /* decided by linux.namespaces */
  SBX_NET_DENY,
  SBX_NET_LOOPBACK,
  SBX_NET_ALLOW,
};

enum sbx_env_mode
{
  SBX_ENV_UNSET = 0, /* containers: exactly process.env; agents: allow-list */
  SBX_ENV_ALLOW_LIST,
  SBX_ENV_INHERIT,
};

/* Ordered: a higher value is a stronger boundary.  */
enum sbx_level
{
  SBX_LEVEL_NONE = 0,
  SBX_LEVEL_PARTIAL,
  SBX_LEVEL_FULL,
};

#define SBX_ALIAS_MAX_ENTRIES_DEFAULT 50000u
#define SBX_ALIAS_MAX_DEPTH_DEFAULT 24u
#define SBX_SAMPLE_INTERVAL_MS_DEFAULT 50u
/* The most host ports one sandbox may be given: each is a listening
   socket the forwarder holds (runtime/linux/supervise/port_forward.h).  */
#define SBX_HOST_PORTS_MAX 32u

struct sbx_ext
{
  bool present;               /* the "sbx" object was in the file */
  enum sbx_mode mode;         /* "mode" */
  char *workspace;            /* "workspace": absolute after parsing */
  struct strv writable_roots; /* "writableRoots": absolute paths */
  struct strv temp_roots;     /* "tempRoots": absolute; TMPDIR = first */
  enum sbx_net network;       /* "network": deny | loopback | allow, or
                                 {"mode": ..., "hostPorts": [...]} */
  uint16_t *host_ports;       /* "network": {"hostPorts"}: TCP ports of the
                                 host's loopback, distinct, each 1..65535 */
  size_t n_host_ports;
  enum sbx_env_mode env_mode;  /* "env": {"mode": ...} */
  struct strv env_allow;       /* "env": {"allow": [names]} */
  bool protected_paths_set;    /* "protectedPaths" given (may be empty) */
  struct strv protected_paths; /* relative to each writable root */
  bool hardened_defaults;      /* "hardenedDefaults", default true */
  bool alias_masking;          /* "aliasMasking": {"enabled"}, default true */
  uint32_t alias_max_entries;  /* "aliasMasking": {"maxEntries"} */
  uint32_t alias_max_depth;    /* "aliasMasking": {"maxDepth"} */
  enum sbx_level require_enforcement; /* "requireEnforcement", default none */
  uint64_t wall_clock_ms;      /* "limits": {"wallClockSeconds"}; 0 = none */
  uint32_t sample_interval_ms; /* "limits": {"sampleIntervalMs"} */
  bool allow_user_namespaces;  /* "allowUserNamespaces", default false */
  bool landlock;               /* "landlock": a container opts in; agents
                                  always have it (policy/landlock.c) */
  bool landlock_set;           /* "landlock" was given */
  bool allow_launch_services;  /* "allowLaunchServices" (macOS), default
                                  false */
};

/* ---- OCI -----------------------------------------------------------------
 */

struct sbx_kv
{
  char *key;
  char *value;
};

struct sbx_mount
{
  char *destination; /* required, absolute */
  char *type;        /* may be NULL: then "bind" if options say so */
  char *source;      /* may be NULL; relative sources resolve against bundle */
  struct strv options;
};

struct sbx_rlimit
{
  char *type; /* "RLIMIT_NOFILE" ... */
  int resource;
  uint64_t soft, hard;
};

struct sbx_user
{
  uid_t uid;
  gid_t gid;
  bool has_umask;
  mode_t umask;
  gid_t *additional_gids;
  size_t n_additional_gids;
};

struct sbx_capabilities
{
  bool present;
  struct strv bounding, effective, inheritable, permitted, ambient;
};

struct sbx_process
{
  bool terminal;
  struct sbx_user user;
  struct strv args; /* required, non-empty */
  struct strv env;  /* "NAME=value" */
  char *cwd;        /* required, absolute */
  struct sbx_capabilities capabilities;
  struct sbx_rlimit *rlimits;
  size_t n_rlimits;
  bool no_new_privileges;
  bool has_oom_score_adj;
  int oom_score_adj;
  char *apparmor_profile; /* NULL: none ("" reads as none, as podman and
                             CRI write "no label") */
  char *selinux_label;    /* NULL: none, as above */
};

enum sbx_ns_type
{
  SBX_NS_PID,
  SBX_NS_NETWORK,
  SBX_NS_MOUNT,
  SBX_NS_IPC,
  SBX_NS_UTS,
  SBX_NS_USER,
  SBX_NS_CGROUP,
  SBX_NS_TIME,
  SBX_NS_COUNT
};

struct sbx_namespace
{
  enum sbx_ns_type type;
  char *path; /* join an existing namespace; NULL = new */
};

struct sbx_id_mapping
{
  uint32_t container_id, host_id, size;
};

struct sbx_seccomp_arg
{
  uint32_t index;
  uint64_t value, value_two;
  char *op; /* "SCMP_CMP_EQ" ..., validated by the compiler */
};

struct sbx_seccomp_rule
{
  struct strv names;
  char *action; /* "SCMP_ACT_ERRNO" ..., validated by the compiler */
  bool has_errno_ret;
  uint32_t errno_ret;
  struct sbx_seccomp_arg *args;
  size_t n_args;
};

struct sbx_seccomp
{
  char *default_action;
  bool has_default_errno_ret;
  uint32_t default_errno_ret;
  struct strv architectures;
  struct strv flags;
  struct sbx_seccomp_rule *syscalls;
  size_t n_syscalls;
};

/* One linux.resources.devices rule (a cgroup device allow/deny entry).  */
struct sbx_device_rule
{
  bool allow;
  char type;            /* 'a', 'b' or 'c' */
  int64_t major, minor; /* -1 = any */
  char access[4];       /* some of "rwm" */
};

/* linux.resources beyond memory.limit and pids.limit; each has_* says
   whether the config gave it (a value of 0 is a value).  */
struct sbx_resources_tuning
{
  bool has_swap, has_reservation, has_swappiness, has_kernel_tcp;
  int64_t swap;        /* memory + swap, bytes; -1 = unlimited */
  int64_t reservation; /* bytes (soft limit) */
  int64_t kernel_tcp;  /* bytes of TCP buffers (v1 only) */
  uint64_t swappiness; /* 0..100 */
  bool disable_oom_killer;
  bool has_shares, has_quota, has_period;
  uint64_t shares, period;
  int64_t quota; /* -1 = unlimited */
  char *cpus, *mems;
  struct sbx_device_rule *devices;
  size_t n_devices;
  struct sbx_block_io block_io;
  struct sbx_hugepage_limit *hugepage_limits;
  size_t n_hugepage_limits;
  struct sbx_net_settings network;
};

struct sbx_resources
{
  bool has_memory_limit;
  int64_t memory_limit; /* bytes; -1 = unlimited */
  bool has_pids_limit;
  int64_t pids_limit; /* -1 or 0 = unlimited, as OCI says */
  struct sbx_resources_tuning tuning;
};

/* One linux.devices entry: a node the sandbox gets at PATH.  */
struct sbx_device
{
  char *path;            /* absolute, normalized, no ".." */
  char type;             /* 'c', 'b' or 'p' (OCI's "u" is read as 'c') */
  uint32_t major, minor; /* 0 for 'p' */
  uint32_t file_mode;    /* permission bits; 0666 when absent, as runc */
  uint32_t uid, gid;     /* the node's owner; 0 when absent */
};

struct sbx_linux
{
  struct sbx_namespace *namespaces;
  size_t n_namespaces;
  struct sbx_id_mapping *uid_mappings, *gid_mappings;
  size_t n_uid_mappings, n_gid_mappings;
  struct strv masked_paths;
  struct strv readonly_paths;
  struct sbx_seccomp *seccomp; /* NULL when absent */
  struct sbx_resources resources;
  char *cgroups_path;
  struct sbx_kv *sysctl;
  size_t n_sysctl;
  char *rootfs_propagation;
  char *mount_label; /* SELinux context of the mounts made; NULL: none */
  struct sbx_device *devices;
  size_t n_devices;
};

struct sbx_hook
{
  char *path; /* required, absolute */
  struct strv args;
  struct strv env;
  int timeout; /* seconds; 0 = none */
};

struct sbx_hook_list
{
  struct sbx_hook *v;
  size_t n;
};

/* OCI's hook phases, in the order the lifecycle reaches them.  */
enum sbx_hook_phase
{
  SBX_HOOK_PRESTART,
  SBX_HOOK_CREATE_RUNTIME,
  SBX_HOOK_CREATE_CONTAINER,
  SBX_HOOK_START_CONTAINER,
  SBX_HOOK_POSTSTART,
  SBX_HOOK_POSTSTOP,
  SBX_HOOK_PHASE_N,
};

struct sbx_hooks
{
  struct sbx_hook_list phase[SBX_HOOK_PHASE_N];
};

struct sbx_spec
{
  char *oci_version; /* required */
  char *bundle;      /* absolute directory the config came from */
  char *root_path;   /* required; absolute after parsing (bundle-relative) */
  bool root_readonly;
  struct sbx_mount *mounts;
  size_t n_mounts;
  bool has_process;
  struct sbx_process process;
  char *hostname;
  struct sbx_kv *annotations;
  size_t n_annotations;
  bool has_linux;
  struct sbx_linux
      linux_; /* "linux": trailing _ because gcc predefines linux */
  struct sbx_hooks hooks;
  struct sbx_ext ext;
  struct strv ignored; /* keys no parser read (OCI: ignore unknown keys),
                          as JSON paths: the outcome's "ignoredFields" */
  struct strv fields;  /* every key path the file sets, arrays as "[]":
                          what a ceiling checks (spec_fields.c) */
  char *text;          /* the file's bytes as parsed (sbx_spec_load only):
                          what `create` keeps, so later commands read what
                          was checked, never the bundle again */
  size_t text_len;
};

/* Parse JSON text (LEN bytes) of a config.json found in BUNDLE (an absolute
   directory, used to resolve relative root.path and mount sources).  On
   failure, err->msg is "JSON.PATH: what is wrong", e.g.
   "process.args: expected a non-empty array of strings".  */
int sbx_spec_parse (const char *json, size_t len, const char *bundle,
                    struct sbx_spec **out, struct sbx_error *err);

/* Read BUNDLE/config.json and parse it.  BUNDLE may be relative; the spec
   records it made absolute.  Errors are prefixed with the file's path.  */
int sbx_spec_load (const char *bundle, struct sbx_spec **out,
                   struct sbx_error *err);

/* Read the config file CONFIG (any name; its directory is the bundle)
   and parse it, as sbx_spec_load does.  */
int sbx_spec_load_config (const char *config, struct sbx_spec **out,
                          struct sbx_error *err);

void sbx_spec_free (struct sbx_spec *spec);

/* Free a seccomp model allocated like the parser's (every string and array
   malloc'd): the parser's own and the runtime's built-in filters.  */
void sbx_seccomp_free (struct sbx_seccomp *seccomp);

/* A bind mount: type "bind", or options "bind"/"rbind" (OCI allows both).
   A writable one is a bind without "ro": a write grant.  */
bool sbx_mount_is_bind (const struct sbx_mount *m);
bool sbx_mount_is_writable_bind (const struct sbx_mount *m);

/* The first setting of T that nothing but a cgroup can hold and that
   does something, as the field a refusal names
   ("linux.resources.cpu.shares"), or NULL: a share, quota or
   period of 0, a quota or swap of -1, an empty cpus or mems and a rate
   of 0 ask for nothing a new cgroup does not have.  Device rules are not
   among them: without a cgroup the only device nodes are the ones the
   sandbox's /dev and linux.devices make, and a user namespace cannot
   make more.  */
const char *sbx_tuning_cgroup_only (const struct sbx_resources_tuning *t);

/* The agent case: the sandbox's root is the host's own "/".  */
bool sbx_spec_is_agent (const struct sbx_spec *spec);

/* The namespace entry of TYPE, or NULL when the spec does not list it.  */
const struct sbx_namespace *sbx_spec_namespace (const struct sbx_spec *spec,
                                                enum sbx_ns_type type);

const char *sbx_mode_name (enum sbx_mode mode);
const char *sbx_net_name (enum sbx_net net);
const char *sbx_level_name (enum sbx_level level);
/* The phase's key in config.json's "hooks" ("createRuntime").  */
const char *sbx_hook_phase_name (enum sbx_hook_phase phase);

static inline void
sbx_spec_freep (struct sbx_spec **p)
{
  sbx_spec_free (*p);
}
#define cleanup_spec __attribute__ ((cleanup (sbx_spec_freep)))

#endif
