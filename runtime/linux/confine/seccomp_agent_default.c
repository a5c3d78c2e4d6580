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
 *   chmod, fchmod, fchmodat,
 *   fchmodat2, open, openat,
 *   creat, mknod, mknodat with
 *   S_ISUID or S_ISGID in the mode
 *                                 a set-user-ID or set-group-ID file left
 *                                 in the workspace acts after the sandbox
 *                                 has ended: the workspace is not nosuid
 *                                 on the host, and a host user who runs it
 *                                 becomes root (a root-run agent's files
 *                                 are root's) or the caller (an
 *                                 unprivileged agent's are the caller's:
 *                                 the same step from one user to another,
 *                                 so refused there too).  The mode is
 *                                 checked whatever open's flags say (a
 *                                 mode without O_CREAT or O_TMPFILE means
 *                                 nothing to the kernel, and libcs pass 0
 *                                 there).  A set-group-ID directory goes
 *                                 too (`git init --shared` makes them;
 *                                 nothing an agent needs).  The rest of
 *                                 the ways are closed already: the agent
 *                                 holds no capability (no CAP_FSETID, so a
 *                                 write clears an existing set-id bit; no
 *                                 CAP_CHOWN or CAP_FOWNER, so no file of
 *                                 another's changes; no CAP_SETFCAP, so no
 *                                 security.capability), io_uring's
 *                                 IORING_OP_OPENAT is refused above, and a
 *                                 hard link of a host's setuid binary
 *                                 fails with EXDEV (the workspace is
 *                                 another mount than the read-only root)
 *   openat2                       ENOSYS (libc and its callers fall back
 *                                 to openat): its mode sits in a struct a
 *                                 filter cannot read
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
 *   chroot, open_tree, open_tree_attr,
 *   move_mount, fsopen, fsconfig, fsmount,
 *   fspick, mount_setattr                  EPERM: change the mount table
 *                                          (open_tree_attr, Linux 6.15,
 *                                          by number: libseccomp 2.5.4
 *                                          does not know it)
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
#include <sys/stat.h>

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

/* NAME refused (EPERM) when its mode, argument ARG, has the set-user-ID
   or the set-group-ID bit: one rule per bit, as a rule tests its masked
   argument for one value.  */
#define SETID_RULES(name, arg)                                                \
  { name, EPERM, false, arg, S_ISUID, S_ISUID },                              \
  {                                                                           \
    name, EPERM, false, arg, S_ISGID, S_ISGID                                 \
  }

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
  SETID_RULES ("chmod", 1),
  SETID_RULES ("fchmod", 1),
  SETID_RULES ("fchmodat", 2),
  SETID_RULES ("fchmodat2", 2),
  SETID_RULES ("creat", 1),
  SETID_RULES ("open", 2),
  SETID_RULES ("openat", 3),
  SETID_RULES ("mknod", 1),
  SETID_RULES ("mknodat", 2),
  { "openat2", ENOSYS, false, NO_ARG, 0, 0 },
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
  { "open_tree_attr", EPERM, true, NO_ARG, 0, 0 },
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

/* Host unix sockets bound after launch, which the launch-time hiding
   (runtime/linux/unix_sockets.c) cannot know: a pathname connect is not
   confined by a network namespace, Landlock (ABI 7) has no right for it,
   and seccomp cannot read the path it names.  So where the network reach
   is "deny" or "loopback" and the operator approved no host socket
   ("socket:PATH"), no socket of the sandbox can name a path at all:

   "deny" (only AF_UNIX sockets exist there): connect is refused (EACCES),
   sendto with a destination too, and datagram sockets cannot be made
   (socket and socketpair of SOCK_DGRAM, and SOCK_RAW, which AF_UNIX makes
   a datagram socket): sendmsg and sendmmsg name their destination in
   memory a filter cannot read, and a datagram socket, even one of a
   socketpair, sends to any path it names.  A stream or seqpacket socket
   ignores or refuses a destination once connected, and an unconnected one
   sends nowhere.  socketcall's SYS_CONNECT and SYS_SENDTO (32-bit x86)
   go too.

   "loopback" (IP over the sandbox's own lo stays): socket(AF_UNIX) is
   refused (EAFNOSUPPORT; a pathname connect needs a socket of socket()'s
   making), socketpair keeps working but not for datagrams, and io_uring
   and socketcall's socket calls are refused here as in "deny"'s filter,
   since a config's own filter may replace the agent default.

   What still works: socketpair (stream, seqpacket), pipes, and in
   "loopback" TCP and UDP on 127.0.0.1; what does not: a unix server and
   client in the workspace (use loopback TCP), and what connects to a
   local daemon (nscd, syslog's /dev/log, git's credential cache): they
   fail as if the daemon were absent.  */
#define SOCKETCALL_CONNECT 3u
#define SOCKETCALL_SENDTO 11u
#define SOCK_TYPE_MASK 0xfu

static const struct agent_rule unix_closed_deny_rules[] = {
  { "connect", EACCES, false, NO_ARG, 0, 0 },
  { "sendto", EACCES, false, 4, 0, 0, true },
  { "socket", EACCES, false, 1, SOCK_TYPE_MASK, SOCK_DGRAM },
  { "socket", EACCES, false, 1, SOCK_TYPE_MASK, SOCK_RAW },
  { "socketpair", EACCES, false, 1, SOCK_TYPE_MASK, SOCK_DGRAM },
  { "socketpair", EACCES, false, 1, SOCK_TYPE_MASK, SOCK_RAW },
  { "socketcall", EACCES, false, 0, 0xffffffffu, SOCKETCALL_CONNECT },
  { "socketcall", EACCES, false, 0, 0xffffffffu, SOCKETCALL_SENDTO },
};

static const struct agent_rule unix_closed_loopback_rules[] = {
  { "socket", EAFNOSUPPORT, false, 0, 0xffffffffu, AF_UNIX },
  { "socketpair", EACCES, false, 1, SOCK_TYPE_MASK, SOCK_DGRAM },
  { "socketpair", EACCES, false, 1, SOCK_TYPE_MASK, SOCK_RAW },
  { "socketcall", EAFNOSUPPORT, false, 0, 0xffffffffu, SOCKETCALL_SOCKET },
  { "socketcall", EAFNOSUPPORT, false, 0, 0xffffffffu, SOCKETCALL_SOCKETPAIR },
  { "io_uring_setup", ENOSYS, false, NO_ARG, 0, 0 },
  { "io_uring_enter", ENOSYS, false, NO_ARG, 0, 0 },
  { "io_uring_register", ENOSYS, false, NO_ARG, 0, 0 },
};

#define N_RULES(a) (sizeof (a) / sizeof *(a))

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

/* A filter is one or two of the tables above, one after the other.  */
struct rule_table
{
  const struct agent_rule *rules;
  size_t n;
};

static int
fill_filter (struct sbx_seccomp *sc, const struct rule_table *t,
             size_t n_tables, bool allow_user_namespaces)
{
  size_t n = 0;
  for (size_t k = 0; k < n_tables; k++)
    n += t[k].n;
  sc->default_action = strdup ("SCMP_ACT_ALLOW");
  sc->syscalls = calloc (n, sizeof *sc->syscalls);
  if (sc->default_action == NULL || sc->syscalls == NULL)
    return -ENOMEM;
  for (size_t i = 0; agent_extra_architectures[i]; i++)
    if (strv_push (&sc->architectures, agent_extra_architectures[i]) < 0)
      return -ENOMEM;
  for (size_t k = 0; k < n_tables; k++)
    for (size_t i = 0; i < t[k].n; i++)
      {
        if (allow_user_namespaces && t[k].rules[i].only_without_userns)
          continue;
        /* Counted before filling, so that a half-filled rule is freed.  */
        struct sbx_seccomp_rule *rule = &sc->syscalls[sc->n_syscalls++];
        if (fill_rule (rule, &t[k].rules[i]) < 0)
          return -ENOMEM;
      }
  return 0;
}

static int
build (const struct rule_table *t, size_t n_tables, bool allow_user_namespaces,
       struct sbx_seccomp **out, struct sbx_error *err)
{
  struct sbx_seccomp *sc = calloc (1, sizeof *sc);
  if (sc == NULL || fill_filter (sc, t, n_tables, allow_user_namespaces) < 0)
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
  const struct rule_table t[] = { { agent_rules, N_RULES (agent_rules) } };
  return build (t, 1, allow_user_namespaces, out, err);
}

int
sbx_seccomp_network_deny (bool unix_closed, struct sbx_seccomp **out,
                          struct sbx_error *err)
{
  const struct rule_table t[] = {
    { network_deny_rules, N_RULES (network_deny_rules) },
    { unix_closed_deny_rules, N_RULES (unix_closed_deny_rules) },
  };
  return build (t, unix_closed ? 2 : 1, false, out, err);
}

int
sbx_seccomp_loopback_unix_closed (struct sbx_seccomp **out,
                                  struct sbx_error *err)
{
  const struct rule_table t[] = {
    { unix_closed_loopback_rules, N_RULES (unix_closed_loopback_rules) },
  };
  return build (t, 1, false, out, err);
}

int
sbx_builtin_filter_define (enum sbx_builtin_filter which,
                           struct sbx_seccomp **out, struct sbx_error *err)
{
  switch (which)
    {
    case SBX_FILTER_NET_DENY:
    case SBX_FILTER_NET_DENY_UNIX:
      return sbx_seccomp_network_deny (which == SBX_FILTER_NET_DENY_UNIX, out,
                                       err);
    case SBX_FILTER_LOOPBACK_UNIX:
      return sbx_seccomp_loopback_unix_closed (out, err);
    default:
      return sbx_seccomp_agent_default (which == SBX_FILTER_AGENT_USERNS, out,
                                        err);
    }
}
