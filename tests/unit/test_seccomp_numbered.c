/* System calls newer than the libseccomp sbx-oci is built with: a rule
   that names one is compiled by its number (seccomp_numbered.h), for every
   architecture of the filter, instead of being skipped.  The programs are
   loaded for real in forked children.  */
#include "runtime/linux/confine/seccomp.h"
#include "runtime/linux/confine/seccomp_builtin.h"
#include "runtime/linux/confine/seccomp_numbered.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* open_tree_attr (Linux 6.15): the same number on every architecture
   sbx-oci builds for, unknown to libseccomp 2.5.4.  */
#define NR_OPEN_TREE_ATTR 467

static int
load (const unsigned char *code, size_t len)
{
  struct sock_fprog prog = { .len = (unsigned short) (len / 8),
                             .filter = (struct sock_filter *) (void *) code };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
    return 100;
  return 0;
}

/* The errno open_tree_attr (-1, "", 0, NULL, 0) fails with under the
   program CODE: the kernel's own answer (ENOSYS before 6.15, EBADF after)
   unless the filter answers first; 0 when it did not fail.  */
static int
open_tree_attr_errno (const unsigned char *code, size_t len)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int r = code ? load (code, len) : 0;
      if (r)
        _exit (r);
      long got = syscall (NR_OPEN_TREE_ATTR, -1, "", 0, NULL, 0);
      _exit (got == -1 ? errno : 0);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return -1;
  return WEXITSTATUS (status);
}

static size_t
read_program (int fd, unsigned char *buf, size_t size)
{
  ssize_t n = fd >= 0 ? read (fd, buf, size) : -1;
  if (fd >= 0)
    close (fd);
  return n > 0 ? (size_t) n : 0;
}

static void
test_table (void)
{
  uint32_t native = seccomp_arch_native ();
  tap_ok (seccomp_syscall_resolve_name ("open_tree_attr") == __NR_SCMP_ERROR,
          "this libseccomp does not know open_tree_attr (what the table is "
          "for)");
  tap_ok (sbx_syscall_number ("open_tree_attr", native) == NR_OPEN_TREE_ATTR,
          "the table gives open_tree_attr's number for this architecture");
  tap_ok (sbx_syscall_number ("open_tree_attr", SCMP_ARCH_X32)
                  == (NR_OPEN_TREE_ATTR | 0x40000000)
              && sbx_syscall_number ("open_tree_attr", SCMP_ARCH_AARCH64)
                     == NR_OPEN_TREE_ATTR
              && sbx_syscall_number ("open_tree_attr", SCMP_ARCH_MIPS) < 0,
          "numbers are per architecture: x32's carry its bit, mips has none");
  tap_ok (sbx_syscall_number ("getpid", native) < 0,
          "a name libseccomp knows is not in the table");
}

/* A config's rule naming it is kept, by number: ERRNO 42.  */
static void
test_config_rule (void)
{
  int kernel = open_tree_attr_errno (NULL, 0);
  struct sbx_seccomp *sc = calloc (1, sizeof *sc);
  sc->default_action = strdup ("SCMP_ACT_ALLOW");
  sc->syscalls = calloc (1, sizeof *sc->syscalls);
  sc->n_syscalls = 1;
  sc->syscalls[0].action = strdup ("SCMP_ACT_ERRNO");
  sc->syscalls[0].has_errno_ret = true;
  sc->syscalls[0].errno_ret = 42;
  strv_push (&sc->syscalls[0].names, "open_tree_attr");
  struct sbx_error err = { 0 };
  unsigned char buf[65536];
  size_t len = read_program (sbx_seccomp_compile (sc, &err), buf, sizeof buf);
  sbx_seccomp_free (sc);
  int got = len ? open_tree_attr_errno (buf, len) : -2;
  if (!tap_ok (got == 42,
               "a rule for open_tree_attr: errno 42, not the "
               "kernel's own %d",
               kernel))
    printf ("# got %d (%s)\n", got, err.msg);
}

/* The shipped agent filter refuses it with the rest of the mount API;
   allowing user namespaces allows it with them.  */
static void
test_builtin (void)
{
  const struct sbx_bpf *b = &sbx_builtin_filters[SBX_FILTER_AGENT];
  int got = open_tree_attr_errno (b->code, b->len);
  if (!tap_ok (got == EPERM, "built-in agent filter: open_tree_attr EPERM"))
    printf ("# got %d\n", got);
  b = &sbx_builtin_filters[SBX_FILTER_AGENT_USERNS];
  int kernel = open_tree_attr_errno (NULL, 0);
  got = open_tree_attr_errno (b->code, b->len);
  tap_ok (got == kernel,
          "built-in filter with user namespaces: the kernel answers (%d)",
          got);
}

int
main (void)
{
  test_table ();
  test_config_rule ();
  test_builtin ();
  return tap_done ();
}
