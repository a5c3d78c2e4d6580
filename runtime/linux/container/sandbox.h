/* Everything a sandbox needs before it is launched, shared by `run` and
   `create`: the spec, the host facts, the plan, the capabilities to keep
   and the compiled seccomp program.  */
#ifndef SBX_SANDBOX_H
#define SBX_SANDBOX_H

#include "runtime/context.h"
#include "runtime/linux/confine/alias_walk.h"
#include "runtime/linux/confine/capabilities.h"
#include "runtime/linux/bwrap/probe.h"
#include "runtime/path_kinds.h"
#include "policy/policy.h"
#include "spec/spec_call.h"

/* A covered host socket's file as planned (sandbox.c).  */
struct sbx_socket_file
{
  const char *dest; /* the plan's mount's; NULL once left out */
  dev_t dev;        /* all 0: not there when planned */
  ino_t ino;
  struct timespec ctime;
};

struct sbx_sandbox
{
  struct sbx_spec *spec;
  struct sbx_probe probe;
  struct sbx_path_kinds path_kinds; /* what the plan saw of host paths */
  struct sbx_plan *plan;
  struct sbx_caps_decision caps;
  struct strv host_sockets;             /* path sockets listening at launch */
  struct sbx_socket_file *socket_files; /* the plan's covers of them */
  size_t n_socket_files;
  struct sbx_alias_result aliases;
  char *alias_gap;
  int seccomp_fd;     /* what the runner reads: a sealed memfd, or a pipe
                         holding a built-in filter; -1: no filter */
  int seccomp_net_fd; /* the same for network "deny"'s filter */
  int exec_status;    /* 127/126 when the command cannot be found/run */
  char *mqueue_dir;   /* the shared (joined or host's) IPC namespace's
                         mqueue is bound from here (spawn.c mounts it);
                         NULL: bwrap mounts a fresh one */
  char *nodes_dir;    /* root's runner makes linux.devices' nodes in a
                         tmpfs here (the host facts' nodes_dir) */
  char *state_root;   /* the context's, its real path once it exists: what
                         the runner covers for a range's user namespace
                         (runner_cover.h) */
};

/* Load BUNDLE, probe the host, resolve the plan and compile what the
   runner needs.  On failure ERR says why; when the command itself cannot
   be found or executed, exec_status is 127 or 126.  */
int sbx_sandbox_prepare (const struct sbx_context *g, const char *bundle,
                         struct sbx_sandbox *sb, struct sbx_error *err);

/* The half of sbx_sandbox_prepare that ends with the plan, for SB->spec
   loaded already (SB otherwise zeroed, its fds -1): the operator's
   ceiling, the host probe (cached in ROOT_FD, the state root, or -1), the
   hard-link walk and the host's sockets, then sbx_policy_resolve.  The
   fence (fence/) answers from exactly this plan.  */
int sbx_sandbox_resolve (const struct sbx_context *g, int root_fd,
                         struct sbx_sandbox *sb, struct sbx_error *err);

/* The same, for `run`'s config source: a bundle, or a policy and a call
   (spec/spec_call.h).  */
int sbx_sandbox_prepare_source (const struct sbx_context *g,
                                const struct sbx_config_source *src,
                                struct sbx_sandbox *sb, struct sbx_error *err);

void sbx_sandbox_release (struct sbx_sandbox *sb);

/* SB's seccomp programs once more, for another attempt at its set-up:
   bwrap read the built-in ones out of their pipes (made again) and a
   config's to the end of its memfd (rewound).  */
int sbx_sandbox_rewind_filters (struct sbx_sandbox *sb, struct sbx_error *err);

/* Note the files of the host sockets SB's plan covers (prepare does).  */
int sbx_sandbox_note_sockets (struct sbx_sandbox *sb, struct sbx_error *err);

/* How many host sockets SB's plan covers are gone or made anew since it
   was planned: a daemon that restarted between the listing and
   bubblewrap's set-up leaves no file for bwrap to cover, which it then
   tries to make in a read-only directory, and fails.  The gone ones are
   left out of the plan as if never there (a socket made anew after that
   stays connectable, as one bound after launch does); one made anew
   keeps its cover.  Only sockets: a protected path that went away is a
   set-up that fails for good.  */
int sbx_sandbox_sockets_changed (struct sbx_sandbox *sb);

/* One line on stderr naming what PLAN's environment lost (credential-
   shaped names, URL passwords), if anything: create's and exec's.  */
void sbx_report_env_dropped (const struct sbx_context *g,
                             const struct sbx_plan *plan);

/* The state root open in *FD, made if it is not there, or -1 when it
   cannot be made: the host is then probed without a cache, slower, not
   wrong.  One that is there but not the caller's own (or not a
   directory) is refused: ERR names it and the fix.  */
int sbx_usable_state_root (const struct sbx_context *g, int *fd,
                           struct sbx_error *err);

/* mkdir -p of the state root, mode 0700, and the check that it is the
   caller's own (runtime/state_root.h).  */
int sbx_state_root_ensure (const char *root, struct sbx_error *err);

#endif
