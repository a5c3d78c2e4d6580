/* The default seccomp filter of agent sandboxes: allow everything except
 * what a coding agent's tools never need and an escape or a credential
 * theft would.  It is built as an ordinary struct sbx_seccomp, so it goes
 * through the same compiler as a user's profile and can be printed.
 *
 * Refused always (EPERM):
 *   ptrace                        read and write another process's memory
 *   process_vm_readv, _writev     the same without ptrace
 *   keyctl, add_key, request_key  kernel keyrings are not namespaced: the
 *                                 caller's session keyring holds secrets
 *   bpf                           eBPF: kernel attack surface, tracing
 *   userfaultfd                   stalls kernel page faults: exploit aid
 *   perf_event_open               kernel and cross-process side channels
 *   kexec_load, kexec_file_load   replace the running kernel
 *   init_module, finit_module,
 *   delete_module                 load or unload kernel code
 *   ioctl (fd, TIOCSTI)           push keystrokes into the caller's
 *                                 terminal (CVE-2017-5226)
 *   ioctl (fd, TIOCLINUX)         the same through the virtual console
 *   kcmp, pidfd_getfd,
 *   process_madvise               ptrace's relatives: compare, take the
 *                                 descriptors of, or advise on another
 *                                 process's memory
 *   io_uring_setup, _enter,
 *   _register                     ENOSYS (libuv and friends then use
 *                                 plain system calls): its operations run
 *                                 in the kernel without passing through
 *                                 this filter (IORING_OP_SOCKET makes a
 *                                 socket no rule sees), and it has been a
 *                                 steady source of kernel exploits
 *   open_by_handle_at             open any inode of a mounted file system
 *                                 by its handle, around every mount that
 *                                 hides it ("shocker"); needs
 *                                 CAP_DAC_READ_SEARCH, refused anyway
 *   name_to_handle_at             EOPNOTSUPP, what a file system without
 *                                 handles answers, so callers fall back
 *   socket (AF_VSOCK, ...)        EAFNOSUPPORT: vsock is not confined by
 *                                 network namespaces, and in a VM guest
 *                                 it reaches the host's services
 *   socket (AF_ALG, ...)          EAFNOSUPPORT: the kernel crypto API,
 *                                 a page-cache write primitive on stock
 *                                 kernels, and no tool's business
 *   socketcall (SYS_SOCKET, ...)  EAFNOSUPPORT: the 32-bit x86 entry to
 *                                 socket, whose family sits in memory a
 *                                 filter cannot read; 32-bit programs
 *                                 whose libc makes sockets this way
 *                                 cannot make any
 *   syslog                        the kernel log: addresses and the
 *                                 host's messages
 *
 * Refused unless user namespaces are allowed (a new user namespace is the
 * only way an unprivileged agent gains capabilities, and so the way to the
 * mount table and to much more kernel code):
 *   unshare, clone with CLONE_NEWUSER      EPERM
 *   clone3                                 ENOSYS: its flags sit in memory
 *                                          a filter cannot read; libc then
 *                                          falls back to clone (Flatpak's
 *                                          answer too)
 *   setns                                  EPERM: join other namespaces
 *   mount, umount, umount2, pivot_root,
 *   chroot, open_tree, move_mount, fsopen,
 *   fsconfig, fsmount, fspick,
 *   mount_setattr                          EPERM: change the mount table
 *
 * Refusing mounts does not hurt bwrap: it loads the filter as its very last
 * step before exec, after its own mounts.  When user namespaces are
 * allowed, a nested sandbox (bwrap inside the agent) needs all of the
 * second group, so none of it is refused.
 *
 * The ioctl rules compare only the low 32 bits of the request (MASKED_EQ
 * 0xffffffff): the kernel truncates it to an int, so high bits set by the
 * caller must not slip past the filter.  */
#include "runtime/linux/confine/seccomp.h"
#include "runtime/linux/confine/seccomp_builtin.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

/* clone's flags are its second argument on s390, the first elsewhere.  */
#if defined(__s390__) || defined(__s390x__)
#define CLONE_FLAGS_ARG 1u
#else
#define CLONE_FLAGS_ARG 0u
#endif

#define NO_ARG UINT32_MAX
/* socketcall's first argument: which socket call (linux/net.h).  */
#define SOCKETCALL_SOCKET 1u
#define SOCKETCALL_SOCKETPAIR 8u
#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef AF_ALG
#define AF_ALG 38
#endif

struct agent_rule
{
  const char *name;
  int errno_value;
  bool only_without_userns; /* dropped when user namespaces are allowed */
  uint32_t arg;             /* NO_ARG, or MASKED_EQ (mask, value) on it */
  uint64_t mask, value;
  bool not_equal; /* instead: ARG != MASK, all 64 bits of it */
};

static const struct agent_rule agent_rules[] = {
  { "ptrace", EPERM, false, NO_ARG, 0, 0 },
  { "process_vm_readv", EPERM, false, NO_ARG, 0, 0 },
  { "process_vm_writev", EPERM, false, NO_ARG, 0, 0 },
  { "keyctl", EPERM, false, NO_ARG, 0, 0 },
  { "add_key", EPERM, false, NO_ARG, 0, 0 },
  { "request_key", EPERM, false, NO_ARG, 0, 0 },
  { "bpf", EPERM, false, NO_ARG, 0, 0 },
  { "userfaultfd", EPERM, false, NO_ARG, 0, 0 },
  { "perf_event_open", EPERM, false, NO_ARG, 0, 0 },
  { "kexec_load", EPERM, false, NO_ARG, 0, 0 },
  { "kexec_file_load", EPERM, false, NO_ARG, 0, 0 },
  { "init_module", EPERM, false, NO_ARG, 0, 0 },
  { "finit_module", EPERM, false, NO_ARG, 0, 0 },
  { "delete_module", EPERM, false, NO_ARG, 0, 0 },
  { "ioctl", EPERM, false, 1, 0xffffffffu, TIOCSTI },
  { "ioctl", EPERM, false, 1, 0xffffffffu, TIOCLINUX },
  { "kcmp", EPERM, false, NO_ARG, 0, 0 },
  { "pidfd_getfd", EPERM, false, NO_ARG, 0, 0 },
  { "process_madvise", EPERM, false, NO_ARG, 0, 0 },
  { "io_uring_setup", ENOSYS, false, NO_ARG, 0, 0 },
  { "io_uring_enter", ENOSYS, false, NO_ARG, 0, 0 },
  { "io_uring_register", ENOSYS, false, NO_ARG, 0, 0 },
  { "open_by_handle_at", EPERM, false, NO_ARG, 0, 0 },
  { "name_to_handle_at", EOPNOTSUPP, false, NO_ARG, 0, 0 },
  { "socket", EAFNOSUPPORT, false, 0, 0xffffffffu, AF_VSOCK },
  { "socket", EAFNOSUPPORT, false, 0, 0xffffffffu, AF_ALG },
  { "socketcall", EAFNOSUPPORT, false, 0, 0xffffffffu, SOCKETCALL_SOCKET },
  { "syslog", EPERM, false, NO_ARG, 0, 0 },
  { "unshare", EPERM, true, 0, CLONE_NEWUSER, CLONE_NEWUSER },
  { "clone", EPERM, true, CLONE_FLAGS_ARG, CLONE_NEWUSER, CLONE_NEWUSER },
  { "clone3", ENOSYS, true, NO_ARG, 0, 0 },
  { "setns", EPERM, true, NO_ARG, 0, 0 },
  { "mount", EPERM, true, NO_ARG, 0, 0 },
  { "umount", EPERM, true, NO_ARG, 0, 0 },
  { "umount2", EPERM, true, NO_ARG, 0, 0 },
  { "pivot_root", EPERM, true, NO_ARG, 0, 0 },
  { "chroot", EPERM, true, NO_ARG, 0, 0 },
  { "open_tree", EPERM, true, NO_ARG, 0, 0 },
  { "move_mount", EPERM, true, NO_ARG, 0, 0 },
  { "fsopen", EPERM, true, NO_ARG, 0, 0 },
  { "fsconfig", EPERM, true, NO_ARG, 0, 0 },
  { "fsmount", EPERM, true, NO_ARG, 0, 0 },
  { "fspick", EPERM, true, NO_ARG, 0, 0 },
  { "mount_setattr", EPERM, true, NO_ARG, 0, 0 },
};

/* network "deny": an allow-list of one address family, AF_UNIX, on every
   way to make a socket, so that nothing networks at all, not even over
   the sandbox's own loopback (that is what "loopback" is for).  The
   comparison takes all 64 bits of the family: high bits the kernel drops
   make a value unequal to AF_UNIX, so they are refused, never let past.
   AF_NETLINK is refused too: in a sandbox without IP nothing common needs
   it (glibc's getaddrinfo assumes both IPv4 and IPv6 when its netlink
   socket fails, and has no network to ask anyway), and it is the way into
   the kernel's routing, netfilter and diagnostics code.  socketcall (the
   32-bit x86 entry) hides the family in memory: its SYS_SOCKET and
   SYS_SOCKETPAIR are refused whole.  io_uring is refused here as well as
   in the agent default, because a config's own filter replaces that one
   while this one is stacked on top of any.  Unix-domain sockets stay:
   seccomp cannot see the path a connect names.  */
static const struct agent_rule network_deny_rules[] = {
  { "socket", EAFNOSUPPORT, false, 0, AF_UNIX, 0, true },
  { "socketpair", EAFNOSUPPORT, false, 0, AF_UNIX, 0, true },
  { "socketcall", EAFNOSUPPORT, false, 0, 0xffffffffu, SOCKETCALL_SOCKET },
  { "socketcall", EAFNOSUPPORT, false, 0, 0xffffffffu, SOCKETCALL_SOCKETPAIR },
  { "io_uring_setup", ENOSYS, false, NO_ARG, 0, 0 },
  { "io_uring_enter", ENOSYS, false, NO_ARG, 0, 0 },
  { "io_uring_register", ENOSYS, false, NO_ARG, 0, 0 },
};

/* 32-bit programs run filtered rather than killed by the filter's
   architecture check.  */
static const char *const agent_extra_architectures[] = {
#if defined(__x86_64__)
  "SCMP_ARCH_X86",
  "SCMP_ARCH_X32",
#elif defined(__aarch64__)
  "SCMP_ARCH_ARM",
#endif
  NULL,
};

static int
fill_rule (struct sbx_seccomp_rule *rule, const struct agent_rule *ar)
{
  if (strv_push (&rule->names, ar->name) < 0)
    return -ENOMEM;
  rule->action = strdup ("SCMP_ACT_ERRNO");
  if (rule->action == NULL)
    return -ENOMEM;
  rule->has_errno_ret = true;
  rule->errno_ret = (uint32_t) ar->errno_value;
  if (ar->arg == NO_ARG)
    return 0;
  rule->args = calloc (1, sizeof *rule->args);
  if (rule->args == NULL)
    return -ENOMEM;
  rule->n_args = 1;
  rule->args[0] = (struct sbx_seccomp_arg){
    .index = ar->arg,
    .value = ar->mask,
    .value_two = ar->value,
    .op = strdup (ar->not_equal ? "SCMP_CMP_NE" : "SCMP_CMP_MASKED_EQ")
  };
  return rule->args[0].op ? 0 : -ENOMEM;
}

static int
fill_filter (struct sbx_seccomp *sc, const struct agent_rule *rules, size_t n,
             bool allow_user_namespaces)
{
  sc->default_action = strdup ("SCMP_ACT_ALLOW");
  sc->syscalls = calloc (n, sizeof *sc->syscalls);
  if (sc->default_action == NULL || sc->syscalls == NULL)
    return -ENOMEM;
  for (size_t i = 0; agent_extra_architectures[i]; i++)
    if (strv_push (&sc->architectures, agent_extra_architectures[i]) < 0)
      return -ENOMEM;
  for (size_t i = 0; i < n; i++)
    {
      if (allow_user_namespaces && rules[i].only_without_userns)
        continue;
      /* Counted before filling, so that a half-filled rule is freed.  */
      struct sbx_seccomp_rule *rule = &sc->syscalls[sc->n_syscalls++];
      if (fill_rule (rule, &rules[i]) < 0)
        return -ENOMEM;
    }
  return 0;
}

static int
build (const struct agent_rule *rules, size_t n, bool allow_user_namespaces,
       struct sbx_seccomp **out, struct sbx_error *err)
{
  struct sbx_seccomp *sc = calloc (1, sizeof *sc);
  if (sc == NULL || fill_filter (sc, rules, n, allow_user_namespaces) < 0)
    {
      sbx_seccomp_free (sc);
      return sbx_fail (err, -ENOMEM, "seccomp filter: out of memory");
    }
  *out = sc;
  return 0;
}

int
sbx_seccomp_agent_default (bool allow_user_namespaces,
                           struct sbx_seccomp **out, struct sbx_error *err)
{
  return build (agent_rules, sizeof agent_rules / sizeof *agent_rules,
                allow_user_namespaces, out, err);
}

int
sbx_seccomp_network_deny (struct sbx_seccomp **out, struct sbx_error *err)
{
  return build (network_deny_rules,
                sizeof network_deny_rules / sizeof *network_deny_rules, false,
                out, err);
}

int
sbx_builtin_filter_define (enum sbx_builtin_filter which,
                           struct sbx_seccomp **out, struct sbx_error *err)
{
  if (which == SBX_FILTER_NET_DENY)
    return sbx_seccomp_network_deny (out, err);
  return sbx_seccomp_agent_default (which == SBX_FILTER_AGENT_USERNS, out,
                                    err);
}
