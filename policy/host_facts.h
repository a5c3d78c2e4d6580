/* What the translation needs to know about the host, gathered by the probe
   (runtime/linux/bwrap/probe.c) so that policy resolution and the backends
   stay pure functions of (spec, host facts).  Tests fill this by hand.  */
#ifndef SBX_HOST_FACTS_H
#define SBX_HOST_FACTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/strv.h"

enum sbx_path_kind
{
  SBX_PATH_ABSENT = 0,
  SBX_PATH_DIR,
  SBX_PATH_FILE, /* regular file, device, fifo: anything /dev/null can cover */
  SBX_PATH_SOCKET,
  SBX_PATH_SYMLINK,
};

struct sbx_host_facts
{
  const char *runner_path; /* absolute path of bwrap */
  int runner_version[3];   /* {0, 8, 0}; zeros when unknown */
  bool runner_named;       /* named by the operator: trusted, not probed */
  /* The runner takes --bind-fd/--ro-bind-fd (newer bubblewraps; Debian
     12's 0.8.0 has them backported; its --help says): bind sources inside
     writable roots are then held open from the check to the mount.  */
  bool runner_bind_fd;
  /* The runner is sandbox-exec (macOS Seatbelt): no namespaces, no
     bubblewrap version to check; policy/enforce.c reports what
     Seatbelt does not confine.  */
  bool seatbelt;
  /* Root of the user namespace sbx-oci runs in: the host's root, or a
     rootless podman's (common/host_root.h).  Its launches make their
     namespaces without a user namespace, and a container's workload
     takes process.user there.  */
  bool is_root;
  /* The host's root (the initial user namespace's): the only one that
     may make a device node or mount the host IPC namespace's mqueue.  */
  bool host_root;
  /* sbx-oci runs in the initial user namespace: only there can it tell
     which of its ids is the host's root.  */
  bool initial_userns;
  /* The uid and gid of sbx-oci's user namespace that are its parent's 0
     (common/host_root.h): 0 in the initial namespace, -1 when none is.
     The host's root, in the initial namespace or one level below it; a
     range's namespace keeps it out.  */
  int64_t root_uid_here, root_gid_here;
  /* The caller's real or effective uid is ROOT_UID_HERE.  */
  bool caller_is_root_here;
  uid_t uid;
  gid_t gid;
  const char *home; /* the caller's home directory, or NULL */
  /* The account's home from its passwd entry when HOME names another
     directory, else NULL: its credential stores are hidden as well.  */
  const char *account_home;
  bool userns_ok;       /* an unprivileged user namespace can be created */
  bool private_proc_ok; /* a fresh /proc mounts inside the sandbox */
  /* is_root: bubblewrap makes namespaces without a user namespace (root
     with CAP_SYS_ADMIN; not root in a container of default settings). */
  bool root_ns_ok;
  /* bubblewrap can make no namespace at all here (no user namespace,
     and no privilege to make the others: a container with a default
     seccomp or AppArmor profile, user namespaces switched off): agent
     sandboxes then take the rung without namespaces, Landlock and
     seccomp alone (policy/no_namespaces.c).  */
  bool no_namespaces;
  /* The Landlock ABI the kernel offers (landlock_create_ruleset's
     version), 0 when it has none or it is disabled.  */
  int landlock_abi;
  /* The security modules that take labels: SELinux (selinuxfs mounted)
     and AppArmor (its module enabled).  */
  bool selinux, apparmor;
  char *const *environ; /* the caller's environment */
  /* Path sockets listening on the host at launch (/proc/net/unix), or
     NULL when not looked for: hardened defaults hide those outside the
     writable roots unless approved ("socket:PATH").  */
  const struct strv *host_sockets;
  /* The operator's --approve tokens, or NULL: "env:NAME" lets a
     credential-shaped NAME through (policy/env.c).  */
  const struct strv *approved;
  /* Hard-link aliases found in the writable roots (runtime/linux/
     alias_walk.c), re-bound read-only by the plan.  NULL: no walk.  */
  const struct strv *alias_files;
  const char *alias_gap; /* the walk was incomplete: why, else NULL */
  /* Git metadata inside the writable roots beyond each root's own .git
     (nested repositories, submodules' git directories), found by the same
     walk: protected like the root's own.  NULL: no walk.  */
  const struct strv *git_meta;
  /* Directories in the writable roots that are a home (HOME's, the
     account's) under another name, found by the same walk: a host's bind
     mount of the home into a workspace.  Their start-up files and
     credential stores are the home's.  NULL: no walk.  */
  const struct strv *home_aliases;
  /* The caller's hard limit of RESOURCE (RLIMIT_*): what an untrusted
     config may not exceed; 0 when it cannot be read.  NULL: unknown (any
     limit is refused).  Asked only of a config that sets limits.  */
  uint64_t (*rlimit_hard) (int resource);
  /* How PATH looks on the host (lstat, not following the last link).  */
  enum sbx_path_kind (*path_kind) (const char *path, void *ctx);
  void *path_ctx;
  /* The text of the regular file PATH (a last link followed, as git
     does; at most 256 KiB) into *OUT, to be freed; -ENOENT when it is
     absent, -EINVAL when it is not a regular file, -EFBIG when larger, -EILSEQ
     when it holds a NUL byte, another negative errno when unreadable.  Same
     CTX as path_kind; NULL: no file is read (a git config's redirects go
     unreported).  */
  int (*read_text) (const char *path, char **out, void *ctx);
  /* Where the absolute PATH leads on the host, every link followed, as
     far as it exists (the rest appended as written), to be freed; NULL
     when that cannot be told.  Same CTX as path_kind; NULL: paths are
     compared as written.  */
  char *(*resolve) (const char *path, void *ctx);
  /* What node PATH is on the host, not following the last link: 'c',
     'b' or 'p' (a FIFO, numbers 0) with its numbers, or 0 when it is
     none (or absent).  Same CTX as path_kind.  */
  char (*path_node) (const char *path, uint32_t *major, uint32_t *minor,
                     void *ctx);
  /* Where the runner makes linux.devices' nodes: a directory of the
     state root on which it mounts a tmpfs in a mount namespace of its
     own, so no other process sees them and none outlives the sandbox.
     NULL when sbx-oci may not make device nodes (not root in the initial
     user namespace): the host's node at the same path is bound instead,
     as runc does for a rootless container.  */
  const char *nodes_dir;
};

#endif
