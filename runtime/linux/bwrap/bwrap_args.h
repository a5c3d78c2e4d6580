/* The bwrap argument builder: a pure function from a resolved plan to the
   runner's argv.  The environment is not in the argv (it would be visible
   to every user in /proc/PID/cmdline): the runner is exec'd with the plan's
   environment and passes it on.  */
#ifndef SBX_BWRAP_ARGS_H
#define SBX_BWRAP_ARGS_H

#include "policy/policy.h"

/* Descriptors the runner is told about; -1 = not passed.  */
struct sbx_bwrap_fds
{
  int json_status;  /* --json-status-fd: child pid, then exit code */
  int info;         /* --info-fd */
  int block;        /* --block-fd: hold before exec until a byte arrives */
  int seccomp;      /* --add-seccomp-fd: the config's or the agent filter */
  int seccomp_net;  /* --add-seccomp-fd: the network "deny" filter */
  int userns_block; /* --userns-block-fd: sbx writes the id maps first */
  int args;         /* --args: the sandbox's environment as --setenv
                       (runner_env.h); -1: the runner's own is passed */
  /* One per plan mount: the number at which bwrap finds the bind's
     source held open (--bind-fd, --ro-bind-fd), or -1 for a path.  NULL:
     every source is a path (a dry run prints a reproducible command).  */
  const int *mounts;
};

#define SBX_BWRAP_NO_FDS                                                      \
  (struct sbx_bwrap_fds) { -1, -1, -1, -1, -1, -1, -1, NULL }

struct sbx_bwrap_opts
{
  bool as_pid_1;        /* the command is pid 1 of its namespace (create) */
  bool die_with_parent; /* the sandbox dies with its launcher (run) */
  const struct strv *cap_keep; /* privileged runs: the only caps kept */
  const char *mqueue_dir;      /* mqueue mounts bind this (a joined IPC
                                  namespace's, mounted by spawn.c); NULL: fresh */
};

int sbx_bwrap_args (const struct sbx_plan *plan,
                    const struct sbx_host_facts *host,
                    const struct sbx_bwrap_fds *fds,
                    const struct sbx_bwrap_opts *opts, struct strv *argv,
                    struct sbx_error *err);

#endif
