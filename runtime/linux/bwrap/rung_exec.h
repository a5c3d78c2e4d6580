/* Starting an agent sandbox without bubblewrap, for the rung without
   namespaces (policy/no_namespaces.c): what bubblewrap would have
   done before exec that still applies (a new session, the working
   directory, no_new_privs, the seccomp programs, no stray descriptors)
   is done here, in the child spawn.c starts, which then execs the
   Landlock helper with the rules of runtime/linux/confine/landlock_rung.c.  */
#ifndef SBX_RUNG_EXEC_H
#define SBX_RUNG_EXEC_H

#include <linux/filter.h>
#include <stdbool.h>

#include "policy/policy.h"

struct sbx_rung
{
  struct sock_fprog progs[2]; /* read before the child starts: it runs on
                                 a small stack of its own */
  size_t n_progs;
  const char *cwd;
  bool new_session;
  int close_fds[8]; /* the layout's numbers the command must not keep */
  size_t n_close;
  char *tmpdir; /* the stand-in for the private /tmp, removed at the end */
  struct strv env;
};

/* Read the programs from SECCOMP_FD and SECCOMP_NET_FD (> 2, or none),
   make the run's own TMPDIR and the environment that names it.  */
int sbx_rung_prepare (const struct sbx_plan *plan, int seccomp_fd,
                      int seccomp_net_fd, struct sbx_rung *rung,
                      struct sbx_error *err);

/* In the child: its own session (or process group).  0 or -errno.  */
int sbx_rung_session (const struct sbx_rung *rung);

/* In the child, last before exec: working directory, descriptors,
   no_new_privs, no capability, seccomp.  0 or -errno.  */
int sbx_rung_confine (const struct sbx_rung *rung);

/* Remove the TMPDIR (and what the run left in it); free.  */
void sbx_rung_release (struct sbx_rung *rung);

#endif
