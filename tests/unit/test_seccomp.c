/* linux.seccomp compilation: programs are loaded for real, in forked
   children (and, when bwrap is installed, through bwrap itself).  */
#include "runtime/linux/confine/seccomp.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define BWRAP "/usr/bin/bwrap"

/* ---- building filters by hand (the parser is not used here) ------------ */

static struct sbx_seccomp *
filter_new (const char *default_action)
{
  struct sbx_seccomp *sc = calloc (1, sizeof *sc);
  sc->default_action = default_action ? strdup (default_action) : NULL;
  return sc;
}

/* Append a rule for the comma-separated NAMES; ERRNO_RET < 0 means absent.
   The pointer is valid until the next filter_rule.  */
static struct sbx_seccomp_rule *
filter_rule (struct sbx_seccomp *sc, const char *action, long errno_ret,
             const char *names)
{
  sc->syscalls
      = realloc (sc->syscalls, (sc->n_syscalls + 1) * sizeof *sc->syscalls);
  struct sbx_seccomp_rule *r = &sc->syscalls[sc->n_syscalls++];
  memset (r, 0, sizeof *r);
  r->action = strdup (action);
  r->has_errno_ret = errno_ret >= 0;
  r->errno_ret = errno_ret >= 0 ? (uint32_t) errno_ret : 0;
  char *copy = strdup (names), *save = NULL;
  for (char *n = strtok_r (copy, ",", &save); n;
       n = strtok_r (NULL, ",", &save))
    strv_push (&r->names, n);
  free (copy);
  return r;
}

static void
rule_arg (struct sbx_seccomp_rule *r, uint32_t index, const char *op,
          uint64_t value, uint64_t value_two)
{
  r->args = realloc (r->args, (r->n_args + 1) * sizeof *r->args);
  r->args[r->n_args++] = (struct sbx_seccomp_arg){
    .index = index, .op = strdup (op), .value = value, .value_two = value_two
  };
}

/* ---- running a program ------------------------------------------------- */

static int
install_program (int fd)
{
  struct stat st;
  if (fstat (fd, &st) < 0 || st.st_size <= 0 || st.st_size % 8 != 0)
    return 100;
  struct sock_filter *insns = malloc ((size_t) st.st_size);
  /* pread: the offset is shared with the parent, which reuses FD.  */
  if (pread (fd, insns, (size_t) st.st_size, 0) != st.st_size)
    return 101;
  struct sock_fprog prog
      = { .len = (unsigned short) (st.st_size / 8), .filter = insns };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
    return 102;
  return 0;
}

/* Run PROBE in a child under the program in FD.  Returns PROBE's result:
   0 when everything behaved as expected, else the failed check's number
   (100+ for loading, 200+N for death by signal N).  */
static int
run_filtered (int fd, int (*probe) (void))
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int r = install_program (fd);
      _exit (r ? r : probe ());
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 999;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 200 + WTERMSIG (status);
}

/* Compile SC (freeing it), run PROBE under it, report as NAME.  */
static void
check_filtered (struct sbx_seccomp *sc, int (*probe) (void), int want,
                const char *name)
{
  struct sbx_error err = { 0 };
  int fd = sbx_seccomp_compile (sc, &err);
  sbx_seccomp_free (sc);
  if (!tap_ok (fd >= 0, "%s: compiles", name))
    {
      printf ("# %s\n", err.msg);
      return;
    }
  int r = run_filtered (fd, probe);
  if (!tap_ok (r == want, "%s", name))
    printf ("# probe returned %d, want %d\n", r, want);
  close (fd);
}

/* Expect syscall result R to be a failure with errno WANT.  */
#define FAILS_WITH(r, want) ((r) == -1 && errno == (want))

static int
probe_getppid_42 (void)
{
  if (!FAILS_WITH (syscall (SYS_getppid), 42))
    return 1;
  return syscall (SYS_getpid) > 0 ? 0 : 2;
}

static int
probe_getppid_eperm (void)
{
  return FAILS_WITH (syscall (SYS_getppid), EPERM) ? 0 : 1;
}

static int
probe_umask_either (void)
{
  if (!FAILS_WITH (syscall (SYS_umask, 077), 43))
    return 1;
  if (!FAILS_WITH (syscall (SYS_umask, 07), 43))
    return 2;
  return syscall (SYS_umask, 022) >= 0 ? 0 : 3;
}

static int
probe_getpriority_both (void)
{
  if (!FAILS_WITH (syscall (SYS_getpriority, PRIO_PROCESS, 99999), 44))
    return 1;
  errno = 0;
  syscall (SYS_getpriority, PRIO_PGRP, 99999);
  if (errno == 44)
    return 2;
  return syscall (SYS_getpriority, PRIO_PROCESS, 0) != -1 ? 0 : 3;
}

static int
probe_umask_masked (void)
{
  if (!FAILS_WITH (syscall (SYS_umask, 0777), 45))
    return 1;
  return syscall (SYS_umask, 0022) >= 0 ? 0 : 2;
}

static int
probe_getppid_dies (void)
{
  syscall (SYS_getppid);
  return 1;
}

static int
probe_mkdir_42 (void)
{
  return FAILS_WITH (mkdir ("/tmp/sbx-seccomp-probe", 0700), 42) ? 0 : 1;
}

static void *
thread_main (void *arg)
{
  return arg;
}

/* The agent filter, user namespaces refused.  */
static int
probe_agent (void)
{
  int devnull = open ("/dev/null", O_RDWR);
  char c = 'x';
  if (!FAILS_WITH (ptrace (PTRACE_TRACEME, 0, NULL, NULL), EPERM))
    return 1;
  if (!FAILS_WITH (ioctl (devnull, TIOCSTI, &c), EPERM))
    return 2;
  /* High bits the kernel ignores must not get past the filter.  */
  if (!FAILS_WITH (syscall (SYS_ioctl, devnull, (1UL << 32) | TIOCSTI, &c),
                   EPERM))
    return 3;
  if (!FAILS_WITH (ioctl (devnull, TIOCLINUX, &c), EPERM))
    return 4;
  if (!FAILS_WITH (syscall (SYS_keyctl, 0, 0, 0, 0, 0), EPERM)
      || !FAILS_WITH (syscall (SYS_bpf, 0, NULL, 0), EPERM)
      || !FAILS_WITH (syscall (SYS_userfaultfd, 0), EPERM)
      || !FAILS_WITH (syscall (SYS_perf_event_open, NULL, 0, -1, -1, 0),
                      EPERM))
    return 5;
  if (!FAILS_WITH (unshare (CLONE_NEWUSER), EPERM))
    return 6;
  if (!FAILS_WITH (syscall (SYS_io_uring_setup, 1, NULL), ENOSYS)
      || !FAILS_WITH (
          syscall (SYS_name_to_handle_at, AT_FDCWD, ".", NULL, NULL, 0),
          EOPNOTSUPP)
      || !FAILS_WITH (syscall (SYS_open_by_handle_at, AT_FDCWD, NULL, 0),
                      EPERM)
      || !FAILS_WITH (syscall (SYS_kcmp, 0, 0, 0, 0, 0), EPERM))
    return 12;
  if (!FAILS_WITH (socket (AF_VSOCK, SOCK_STREAM, 0), EAFNOSUPPORT)
      || !FAILS_WITH (
          syscall (SYS_socket, (1UL << 32) | AF_ALG, SOCK_SEQPACKET, 0),
          EAFNOSUPPORT))
    return 13;
  int s = socket (AF_UNIX, SOCK_STREAM, 0);
  if (s < 0)
    return 14;
  close (s);
  if (!FAILS_WITH (syscall (SYS_clone3, NULL, 0), ENOSYS))
    return 7;
  if (!FAILS_WITH (mount ("none", "/sbx-no-such-dir", "tmpfs", 0, NULL),
                   EPERM))
    return 8;
  /* What every tool does must still work: ioctls, fork, threads.  */
  int n;
  if (FAILS_WITH (ioctl (devnull, FIONREAD, &n), EPERM))
    return 9;
  pid_t pid = fork ();
  if (pid == 0)
    _exit (0);
  if (pid < 0 || waitpid (pid, NULL, 0) != pid)
    return 10;
  pthread_t t;
  if (pthread_create (&t, NULL, thread_main, NULL) != 0
      || pthread_join (t, NULL) != 0)
    return 11;
  return 0;
}

/* Network deny: AF_UNIX only, however the family is spelled.  */
static int
probe_net_deny (void)
{
  int sv[2];
  if (!FAILS_WITH (socket (AF_INET, SOCK_STREAM, 0), EAFNOSUPPORT)
      || !FAILS_WITH (socket (AF_INET6, SOCK_DGRAM, 0), EAFNOSUPPORT)
      || !FAILS_WITH (socket (AF_NETLINK, SOCK_RAW, 0), EAFNOSUPPORT)
      || !FAILS_WITH (socket (AF_VSOCK, SOCK_STREAM, 0), EAFNOSUPPORT)
      || !FAILS_WITH (socketpair (AF_INET, SOCK_STREAM, 0, sv), EAFNOSUPPORT))
    return 1;
  /* High bits the kernel drops make the family unequal to AF_UNIX.  */
  if (!FAILS_WITH (syscall (SYS_socket, (1UL << 32) | AF_UNIX, SOCK_STREAM, 0),
                   EAFNOSUPPORT))
    return 2;
  if (!FAILS_WITH (syscall (SYS_io_uring_setup, 1, NULL), ENOSYS))
    return 3;
  int s = socket (AF_UNIX, SOCK_STREAM, 0);
  if (s < 0 || socketpair (AF_UNIX, SOCK_STREAM, 0, sv) < 0)
    return 4;
  return 0;
}

/* The agent filter, user namespaces allowed.  */
static int
probe_agent_userns (void)
{
  if (!FAILS_WITH (ptrace (PTRACE_TRACEME, 0, NULL, NULL), EPERM))
    return 1;
  return unshare (CLONE_NEWUSER) == 0 ? 0 : 2;
}

static int
probe_unshare_userns (void)
{
  return unshare (CLONE_NEWUSER) == 0 ? 0 : 1;
}

/* ---- tests ---------------------------------------------------------------
 */

static void
test_basic_rules (void)
{
  struct sbx_seccomp *sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ERRNO", 42, "getppid");
  check_filtered (sc, probe_getppid_42, 0, "errnoRet 42 is what getppid gets");

  sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ERRNO", 42, "sbx_no_such_syscall,getppid");
  filter_rule (sc, "SCMP_ACT_ERRNO", 1, "sbx_another_unknown_one");
  check_filtered (sc, probe_getppid_42, 0, "unknown syscall names skipped");

  sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ALLOW", -1, "getpid");
  filter_rule (sc, "SCMP_ACT_ERRNO", -1, "getppid");
  check_filtered (sc, probe_getppid_eperm, 0,
                  "rule equal to the default skipped; ERRNO means EPERM");

  sc = filter_new ("SCMP_ACT_ERRNO");
  filter_rule (sc, "SCMP_ACT_ERRNO", -1, "getppid");
  filter_rule (sc, "SCMP_ACT_ALLOW", -1, "getpid");
  struct sbx_error err = { 0 };
  int fd = sbx_seccomp_compile (sc, &err);
  tap_ok (fd >= 0, "ERRNO rule equal to an ERRNO default (EPERM) skipped");
  close (fd);
  sbx_seccomp_free (sc);

  sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_KILL_PROCESS", -1, "getppid");
  check_filtered (sc, probe_getppid_dies, 200 + SIGSYS,
                  "SCMP_ACT_KILL_PROCESS kills with SIGSYS");
}

static void
test_args (void)
{
  struct sbx_seccomp *sc = filter_new ("SCMP_ACT_ALLOW");
  struct sbx_seccomp_rule *r = filter_rule (sc, "SCMP_ACT_ERRNO", 43, "umask");
  rule_arg (r, 0, "SCMP_CMP_EQ", 077, 0);
  rule_arg (r, 0, "SCMP_CMP_EQ", 07, 0);
  check_filtered (sc, probe_umask_either, 0,
                  "two args on one index match either (as runc and crun)");

  sc = filter_new ("SCMP_ACT_ALLOW");
  r = filter_rule (sc, "SCMP_ACT_ERRNO", 44, "getpriority");
  rule_arg (r, 0, "SCMP_CMP_EQ", PRIO_PROCESS, 0);
  rule_arg (r, 1, "SCMP_CMP_EQ", 99999, 0);
  check_filtered (sc, probe_getpriority_both, 0,
                  "args on different indexes must all match");

  sc = filter_new ("SCMP_ACT_ALLOW");
  r = filter_rule (sc, "SCMP_ACT_ERRNO", 45, "umask");
  rule_arg (r, 0, "SCMP_CMP_MASKED_EQ", 0700, 0700);
  check_filtered (sc, probe_umask_masked, 0,
                  "SCMP_CMP_MASKED_EQ: mask, value");
}

static void
test_large_and_options (void)
{
  /* Over 32 rules: the binary-tree layout must filter the same.  */
  static const char *const names[] = {
    "getuid",      "getgid",        "geteuid",        "getegid",
    "getpgrp",     "getsid",        "times",          "sync",
    "pause",       "alarm",         "sched_yield",    "vhangup",
    "acct",        "swapon",        "swapoff",        "reboot",
    "sethostname", "setdomainname", "iopl",           "ioperm",
    "syslog",      "quotactl",      "nfsservctl",     "uselib",
    "ustat",       "sysfs",         "lookup_dcookie", "vserver",
    "tuxcall",     "security",      "afs_syscall",    "putpmsg",
    "getpmsg",     "create_module",
  };
  struct sbx_seccomp *sc = filter_new ("SCMP_ACT_ALLOW");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    filter_rule (sc, "SCMP_ACT_ERRNO", 7, names[i]);
  filter_rule (sc, "SCMP_ACT_ERRNO", 42, "getppid");
  check_filtered (sc, probe_getppid_42, 0, "35 rules (tree layout) filter");

  sc = filter_new ("SCMP_ACT_ALLOW");
#if defined(__x86_64__)
  const char *archs[]
      = { "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32" };
#elif defined(__aarch64__)
  const char *archs[]
      = { "SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM", "SCMP_ARCH_ARM" };
#else
  const char *archs[] = { "SCMP_ARCH_X86", "SCMP_ARCH_X86", "SCMP_ARCH_X86" };
#endif
  for (int i = 0; i < 3; i++)
    strv_push (&sc->architectures, archs[i]);
  for (int i = 0; sbx_seccomp_flags[i]; i++)
    strv_push (&sc->flags, sbx_seccomp_flags[i]);
  filter_rule (sc, "SCMP_ACT_ERRNO", 42, "getppid");
  struct strv notes = { 0 };
  sbx_seccomp_notes (sc, &notes);
  tap_ok (notes.n == 3, "one note per flag bwrap cannot pass on");
  tap_streq (notes.n ? notes.v[1] : NULL,
             "linux.seccomp.flags[1]: SECCOMP_FILTER_FLAG_LOG is not passed "
             "to the kernel (bwrap loads the filter with prctl): refused "
             "system calls are not audit-logged",
             "the LOG note");
  strv_free (&notes);
  check_filtered (sc, probe_getppid_42, 0,
                  "native and secondary architectures and all flags");
}

static void
test_fd (void)
{
  struct sbx_seccomp *sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ERRNO", 42, "getppid");
  struct sbx_error err = { 0 };
  int fd = sbx_seccomp_compile (sc, &err);
  sbx_seccomp_free (sc);
  struct stat st;
  tap_ok (fd >= 0 && (fcntl (fd, F_GETFD) & FD_CLOEXEC), "fd is O_CLOEXEC");
  tap_ok (lseek (fd, 0, SEEK_CUR) == 0, "fd is at offset 0");
  tap_ok (fstat (fd, &st) == 0 && st.st_size > 0 && st.st_size % 8 == 0,
          "fd holds whole BPF instructions");
  int seals = fcntl (fd, F_GET_SEALS);
  tap_ok (seals >= 0 && (seals & F_SEAL_WRITE) && (seals & F_SEAL_SEAL),
          "fd is sealed");
  close (fd);
}

/* Compile SC (freeing it) and expect failure with message WANT.  */
static void
check_error (struct sbx_seccomp *sc, const char *want)
{
  struct sbx_error err = { 0 };
  int fd = sbx_seccomp_compile (sc, &err);
  sbx_seccomp_free (sc);
  if (fd >= 0)
    close (fd);
  tap_ok (fd < 0 && err.code == fd, "refused: %s", want);
  tap_streq (err.msg, want, "  message");
}

static void
test_rule_errors (void)
{
  struct sbx_seccomp *sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ERRNO", -1, "getppid");
  filter_rule (sc, "SCMP_ACT_FOO", -1, "getpid");
  check_error (sc, "linux.seccomp.syscalls[1].action: unsupported action "
                   "\"SCMP_ACT_FOO\"");

  sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ERRNO", -1, "getppid");
  rule_arg (filter_rule (sc, "SCMP_ACT_ERRNO", -1, "umask"), 0, "X", 0, 0);
  check_error (sc, "linux.seccomp.syscalls[1].args[0].op: unknown operator "
                   "\"X\"");

  sc = filter_new ("SCMP_ACT_ALLOW");
  struct sbx_seccomp_rule *r = filter_rule (sc, "SCMP_ACT_ERRNO", -1, "umask");
  rule_arg (r, 0, "SCMP_CMP_EQ", 0, 0);
  rule_arg (r, 6, "SCMP_CMP_EQ", 0, 0);
  check_error (sc, "linux.seccomp.syscalls[0].args[1].index: 6 is out of "
                   "range (0-5)");

  sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_NOTIFY", -1, "getppid");
  check_error (sc, "linux.seccomp.syscalls[0].action: \"SCMP_ACT_NOTIFY\" "
                   "needs a seccomp listener, which sbx-oci does not "
                   "provide; use SCMP_ACT_ERRNO");
}

static void
test_top_level_errors (void)
{
  struct sbx_seccomp *sc;
  check_error (filter_new ("SCMP_ACT_NOPE"),
               "linux.seccomp.defaultAction: unsupported action "
               "\"SCMP_ACT_NOPE\"");
  check_error (filter_new (NULL), "linux.seccomp.defaultAction: required");

  sc = filter_new ("SCMP_ACT_KILL");
  sc->has_default_errno_ret = true;
  sc->default_errno_ret = 1;
  check_error (sc, "linux.seccomp.defaultErrnoRet: only valid with "
                   "SCMP_ACT_ERRNO or SCMP_ACT_TRACE, not \"SCMP_ACT_KILL\"");

  sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_LOG", 1, "getppid");
  check_error (sc, "linux.seccomp.syscalls[0].errnoRet: only valid with "
                   "SCMP_ACT_ERRNO or SCMP_ACT_TRACE, not \"SCMP_ACT_LOG\"");

  sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ERRNO", 5000, "getppid");
  check_error (sc, "linux.seccomp.syscalls[0].errnoRet: 5000 is above the "
                   "kernel's largest errno (4095)");

  sc = filter_new ("SCMP_ACT_ALLOW");
  strv_push (&sc->architectures, "SCMP_ARCH_X86_64");
  strv_push (&sc->architectures, "SCMP_ARCH_VAX");
  check_error (sc, "linux.seccomp.architectures[1]: unknown architecture "
                   "\"SCMP_ARCH_VAX\"");

  sc = filter_new ("SCMP_ACT_ALLOW");
  strv_push (&sc->flags, "SECCOMP_FILTER_FLAG_BOGUS");
  check_error (sc, "linux.seccomp.flags[0]: unsupported flag "
                   "\"SECCOMP_FILTER_FLAG_BOGUS\"");
}

static void
test_tables (void)
{
  bool has_errno = false, has_notify = false;
  for (int i = 0; sbx_seccomp_actions[i]; i++)
    {
      has_errno |= strcmp (sbx_seccomp_actions[i], "SCMP_ACT_ERRNO") == 0;
      has_notify |= strcmp (sbx_seccomp_actions[i], "SCMP_ACT_NOTIFY") == 0;
    }
  tap_ok (has_errno && !has_notify, "action table: ERRNO in, NOTIFY out");
  int n = 0;
  while (sbx_seccomp_operators[n])
    n++;
  tap_ok (n == 7, "operator table has the seven OCI operators");
  /* Every listed architecture really compiles on this host's libseccomp,
     except those of the other byte order.  */
  int ok = 0, total = 0;
  for (int i = 0; sbx_seccomp_architectures[i]; i++, total++)
    {
      struct sbx_seccomp *sc = filter_new ("SCMP_ACT_ALLOW");
      strv_push (&sc->architectures, sbx_seccomp_architectures[i]);
      struct sbx_error err = { 0 };
      int fd = sbx_seccomp_compile (sc, &err);
      sbx_seccomp_free (sc);
      ok += fd >= 0 || strstr (err.msg, "cannot add") != NULL;
      if (fd >= 0)
        close (fd);
    }
  tap_ok (ok == total && total >= 19, "architecture table is all known");
}

static void
test_agent_default (void)
{
  struct sbx_error err = { 0 };
  struct sbx_seccomp *sc = NULL;
  int r = sbx_seccomp_agent_default (false, &sc, &err);
  tap_ok (r == 0 && sc && sc->n_syscalls == 44,
          "agent filter built (44 rules)");
  check_filtered (sc, probe_agent, 0,
                  "agent filter: ptrace, keyrings, bpf, TIOCSTI, "
                  "TIOCLINUX, new user namespaces, mount, io_uring, file "
                  "handles, vsock, AF_ALG refused; fork, threads and unix "
                  "sockets work");
  sc = NULL;
  r = sbx_seccomp_network_deny (&sc, &err);
  tap_ok (r == 0 && sc && sc->n_syscalls == 7,
          "network deny filter built (7 rules)");
  check_filtered (sc, probe_net_deny, 0,
                  "network deny: only AF_UNIX sockets, io_uring refused");

  /* Whether this host lets root make a user namespace at all.  */
  int fd = sbx_seccomp_compile (
      &(struct sbx_seccomp){ .default_action = "SCMP_ACT_ALLOW" }, &err);
  bool userns = run_filtered (fd, probe_unshare_userns) == 0;
  close (fd);
  sc = NULL;
  r = sbx_seccomp_agent_default (true, &sc, &err);
  tap_ok (r == 0 && sc && sc->n_syscalls == 28,
          "agent filter with user namespaces built (28 rules)");
  if (userns)
    check_filtered (sc, probe_agent_userns, 0,
                    "agent filter with user namespaces: unshare works, "
                    "ptrace still refused");
  else
    {
      sbx_seccomp_free (sc);
      tap_ok (true, "# SKIP this host refuses user namespaces");
    }
}

/* ---- end to end through bwrap ------------------------------------------ */

/* Run bwrap with the program in FD (or none) and this binary as its
   command, in PROBE mode; returns the exit status.  */
static int
run_in_bwrap (int fd, const char *probe, const char *self)
{
  char fdbuf[16];
  snprintf (fdbuf, sizeof fdbuf, "%d", fd);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);
      dup2 (null, STDERR_FILENO);
      if (fd >= 0)
        fcntl (fd, F_SETFD, 0);
      /* Under LeakSanitizer this binary would stop the world with ptrace
         at exit, which is exactly what the agent filter refuses.  */
      setenv ("ASAN_OPTIONS", "detect_leaks=0", 1);
      if (fd >= 0)
        execl (BWRAP, BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs",
               "/mnt", "--seccomp", fdbuf, "--", self, "--probe", probe,
               (char *) NULL);
      else
        execl (BWRAP, BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--",
               "/bin/true", (char *) NULL);
      _exit (127);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 200 + WTERMSIG (status);
}

static void
test_bwrap (const char *self)
{
  if (access (BWRAP, X_OK) != 0 || run_in_bwrap (-1, NULL, self) != 0)
    {
      tap_ok (true, "# SKIP " BWRAP " missing or cannot make a sandbox");
      tap_ok (true, "# SKIP " BWRAP " missing or cannot make a sandbox");
      return;
    }
  struct sbx_error err = { 0 };
  struct sbx_seccomp *sc = filter_new ("SCMP_ACT_ALLOW");
  filter_rule (sc, "SCMP_ACT_ERRNO", 42, "mkdir,mkdirat");
  int fd = sbx_seccomp_compile (sc, &err);
  sbx_seccomp_free (sc);
  int r = run_in_bwrap (fd, "mkdir42", self);
  if (!tap_ok (r == 0, "bwrap --seccomp: mkdir fails with errno 42 inside"))
    printf ("# status %d\n", r);
  close (fd);

  sc = NULL;
  sbx_seccomp_agent_default (false, &sc, &err);
  fd = sbx_seccomp_compile (sc, &err);
  sbx_seccomp_free (sc);
  r = run_in_bwrap (fd, "agent", self);
  if (!tap_ok (r == 0, "bwrap mounts, then the agent filter holds inside"))
    printf ("# status %d\n", r);
  close (fd);
}

int
main (int argc, char **argv)
{
  /* Inside bwrap: the filter is already loaded.  */
  if (argc == 3 && strcmp (argv[1], "--probe") == 0)
    return strcmp (argv[2], "mkdir42") == 0 ? probe_mkdir_42 ()
                                            : probe_agent ();
  char self[4096];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';

  test_basic_rules ();
  test_args ();
  test_large_and_options ();
  test_fd ();
  test_rule_errors ();
  test_top_level_errors ();
  test_tables ();
  test_agent_default ();
  test_bwrap (self);
  return tap_done ();
}
