/* The bwrap argument builder: a pure function from a resolved plan to the
   runner's argv.  The environment is not in the argv (it would be visible
   to every user in /proc/PID/cmdline): the runner is exec'd with the plan's
   environment and passes it on.  */
#ifndef SBX_BWRAP_ARGS_H
#define SBX_BWRAP_ARGS_H

#include "policy/policy.h"
#include "runtime/linux/confine/capabilities.h"

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
  /* sbx-oci-init (plan->init): the sealed copy bwrap executes as
     /proc/self/fd/N (-1: named "sbx-oci-init", for a dry run); where it
     reports a lookup failure to create (-r); the exec FIFO it keeps open
     until its exec (-s).  With plan->init, BLOCK is the helper's to read
     (-h), not bwrap's.  */
  int init, init_report, init_started;
  /* The Landlock helper (landlock_helper.c) as a sealed memfd, exec'd as
     /proc/self/fd/N in place of the command (after sbx-oci-init, when
     there is one) when the plan has a Landlock layer; -1: a dry run names
     it "sbx-landlock".  */
  int landlock;
  /* --pidns: the PID namespace the plan joins, which bwrap enters from its
     first child so that the sandbox's --proc is that namespace's (a
     runner that entered it itself would get the runner's /proc bound);
     -1: a dry run says so in a comment.  */
  int pidns;
};

#define SBX_BWRAP_NO_FDS                                                      \
  (struct sbx_bwrap_fds)                                                      \
  {                                                                           \
    .json_status = -1, .info = -1, .block = -1, .seccomp = -1,                \
    .seccomp_net = -1, .userns_block = -1, .args = -1, .mounts = NULL,        \
    .init = -1, .init_report = -1, .init_started = -1, .landlock = -1,        \
    .pidns = -1                                                               \
  }

struct sbx_bwrap_opts
{
  bool as_pid_1;        /* the command is pid 1 of its namespace (create) */
  bool die_with_parent; /* the sandbox dies with its launcher (run) */
  /* The capabilities (capabilities.h): the one set bwrap keeps, or the
     five sbx-oci-init gives (plan->init_ids); NULL: none.  */
  const struct sbx_caps_decision *caps;
  const char *mqueue_dir; /* mqueue mounts bind this (a joined IPC
                             namespace's, mounted by spawn.c); NULL: fresh */
};

/* bubblewrap's own bound on the arguments it parses, --args' included
   (MAX_ARGS in bubblewrap.c).  */
#define SBX_BWRAP_MAX_ARGS 9000

/* The same in two parts, for a bwrap whose options and command come
   separately (prestart.h): the options alone, without the runner's path
   and the "--" that ends them; and what follows that "--", appended to
   ARGV.  Each fails with ERR (-ENOMEM, or -EINVAL for a plan that cannot
   be written).  */
int sbx_bwrap_options (const struct sbx_plan *plan,
                       const struct sbx_host_facts *host,
                       const struct sbx_bwrap_fds *fds,
                       const struct sbx_bwrap_opts *opts, struct strv *argv,
                       struct sbx_error *err);
int sbx_bwrap_command (const struct sbx_plan *plan,
                       const struct sbx_bwrap_fds *fds,
                       const struct sbx_bwrap_opts *opts, struct strv *argv,
                       struct sbx_error *err);

int sbx_bwrap_args (const struct sbx_plan *plan,
                    const struct sbx_host_facts *host,
                    const struct sbx_bwrap_fds *fds,
                    const struct sbx_bwrap_opts *opts, struct strv *argv,
                    struct sbx_error *err);

#endif
