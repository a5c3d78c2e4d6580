/* sbx-oci-init: the step between bubblewrap's set-up and a container's
 * command, run inside the finished container (as runc's `runc init` and
 * crun's own child are).  bwrap executes it as /proc/self/fd/N from a
 * sealed copy sbx-oci made (init_helper.h); it is static and never
 * sanitized, since the container's rootfs has no libraries of ours.
 *
 * Why a step of our own: bubblewrap (not set-uid) never changes the host
 * uid the command runs as, so a root caller's container for uid 1000
 * would run as host root, only *appearing* as 1000 inside a user
 * namespace; and the capabilities of a process in a user namespace of
 * bwrap's making do nothing to the namespaces the caller made (podman's
 * network namespace: port 80, NET_ADMIN).  So for a root caller's
 * container without a user namespace of its own, bwrap runs in the
 * caller's user namespace and this step, after every mount is in place,
 * takes the identity (setgroups, setresgid, setresuid) and the five
 * capability sets the config gives, as runc does, then executes the
 * command.  For every container it also
 *   - finds the command among the container's final mounts (a
 *     bind-mounted entrypoint, podman's /run/podman-init), reporting a
 *     missing one in runc's words (podman maps them to 127 and 126);
 *   - holds before the command on the release FIFO, in place of bwrap's
 *     --block-fd, so that the lookup's failure fails `create`;
 *   - keeps the exec FIFO open until its exec succeeds (close-on-exec), so
 *     that `start` returns only once the command runs, as runc's does, and
 *     a signal sent right after `start` reaches the command.
 *
 * Usage (written by bwrap_args.c, never by hand):
 *   sbx-oci-init [-r FD] [-h FD] [-s FD] [-u UID -g GID [-G G1,G2...]]
 *                [-c BND:EFF:PRM:INH:AMB] [-Z CONTEXT] [-P PROFILE]
 *                -- COMMAND...
 * -r: where a lookup failure is reported (else stderr); -h: read one byte
 * before going on; -s: kept open until the exec; -c: the capability sets
 * as hexadecimal masks; -Z, -P: the SELinux context and the AppArmor
 * profile the command is executed into (exec_labels.h).  */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/error.h"
#include "runtime/linux/container/exec_labels.h"

#define MAX_GROUPS 256 /* SBX_INIT_MAX_GROUPS (policy/policy.h) */

struct init_request
{
  int report_fd, hold_fd, started_fd;
  bool set_ids;
  uid_t uid;
  gid_t gid;
  gid_t groups[MAX_GROUPS];
  size_t n_groups;
  bool set_caps;
  uint64_t bnd, eff, prm, inh, amb;
  const char *selinux, *apparmor; /* -Z, -P: NULL for none */
  char **argv;
};

/* One line where the caller reads it, then the exit status runc uses.  */
static __attribute__ ((noreturn)) void
fail (const struct init_request *q, int status, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg - 1, fmt, ap);
  va_end (ap);
  /* The command's name is the config's: one line, as sbx-oci's are.  */
  sbx_escape_controls (msg, sizeof msg - 1);
  size_t n = strlen (msg);
  msg[n++] = '\n';
  /* `start` reads the exec FIFO; `create` the report pipe, until the
     hold; `run`, and anyone after that, the command's stderr.  */
  if (q->started_fd >= 0)
    (void) !write (q->started_fd, msg, n);
  if (q->report_fd >= 0)
    (void) !write (q->report_fd, msg, n);
  else if (write (2, "sbx-oci: ", 9) >= 0)
    (void) !write (2, msg, n);
  _exit (status);
}

static bool
parse_ulong (const char *s, unsigned long *v, int base)
{
  char *end;
  errno = 0;
  *v = strtoul (s, &end, base);
  return errno == 0 && end != s && *end == '\0';
}

static bool
parse_groups (char *s, struct init_request *q)
{
  for (char *tok = strtok (s, ","); tok; tok = strtok (NULL, ","))
    {
      unsigned long g;
      if (q->n_groups == MAX_GROUPS || !parse_ulong (tok, &g, 10))
        return false;
      q->groups[q->n_groups++] = (gid_t) g;
    }
  return true;
}

static bool
parse_caps (const char *s, struct init_request *q)
{
  return sscanf (s, "%" SCNx64 ":%" SCNx64 ":%" SCNx64 ":%" SCNx64 ":%" SCNx64,
                 &q->bnd, &q->eff, &q->prm, &q->inh, &q->amb)
         == 5;
}

static bool
parse_args (int argc, char **argv, struct init_request *q)
{
  *q = (struct init_request){ .report_fd = -1,
                              .hold_fd = -1,
                              .started_fd = -1 };
  int i = 1;
  for (; i + 1 < argc && strcmp (argv[i], "--") != 0; i += 2)
    {
      unsigned long v;
      const char *opt = argv[i];
      char *val = argv[i + 1];
      if (strcmp (opt, "-G") == 0)
        {
          if (!parse_groups (val, q))
            return false;
          continue;
        }
      if (strcmp (opt, "-Z") == 0 || strcmp (opt, "-P") == 0)
        {
          *(opt[1] == 'Z' ? &q->selinux : &q->apparmor) = val;
          continue;
        }
      if (strcmp (opt, "-c") == 0)
        {
          if (!parse_caps (val, q))
            return false;
          q->set_caps = true;
          continue;
        }
      if (!parse_ulong (val, &v, 10))
        return false;
      if (strcmp (opt, "-r") == 0)
        q->report_fd = (int) v;
      else if (strcmp (opt, "-h") == 0)
        q->hold_fd = (int) v;
      else if (strcmp (opt, "-s") == 0)
        q->started_fd = (int) v;
      else if (strcmp (opt, "-u") == 0)
        q->uid = (uid_t) v, q->set_ids = true;
      else if (strcmp (opt, "-g") == 0)
        q->gid = (gid_t) v;
      else
        return false;
    }
  if (i >= argc || strcmp (argv[i], "--") != 0 || i + 1 >= argc)
    return false;
  q->argv = argv + i + 1;
  return true;
}

/* 0: PATH names an executable regular file; else -ENOENT or -EACCES.  */
static int
probe (const char *path)
{
  struct stat st;
  if (stat (path, &st) < 0)
    return errno == ENOENT || errno == ENOTDIR ? -ENOENT : -EACCES;
  if (!S_ISREG (st.st_mode) || (st.st_mode & 0111) == 0)
    return -EACCES;
  return 0;
}

/* The command's file, found as execvp would, inside the container's
   final mount table.  */
static const char *
lookup (const struct init_request *q, char *buf, size_t len)
{
  const char *name = q->argv[0];
  int r = -ENOENT;
  if (strchr (name, '/'))
    r = probe (name);
  else
    {
      const char *p = getenv ("PATH");
      if (p == NULL)
        p = "/usr/local/bin:/usr/bin:/bin";
      for (; r != 0 && *p; p += *p == ':')
        {
          size_t n = strcspn (p, ":");
          snprintf (buf, len, "%.*s%s%s", (int) n, p, n ? "/" : "", name);
          int c = probe (buf);
          if (c == 0 || c == -EACCES)
            r = c; /* execvp reports EACCES after trying the rest */
          p += n;
        }
      if (r == 0)
        return buf;
    }
  if (r == -ENOENT)
    fail (q, 127, "exec: \"%s\": executable file not found in $PATH", name);
  if (r < 0)
    fail (q, 126, "exec: \"%s\": permission denied", name);
  return name;
}

/* The identity first, keeping the permitted set across setresuid (the
   sets are put in place right after).  */
static void
switch_ids (const struct init_request *q)
{
  if (syscall (SYS_setgroups, q->n_groups, q->groups) < 0)
    fail (q, 1, "process.user.additionalGids: cannot set them: %s",
          strerror (errno));
  if (syscall (SYS_setresgid, q->gid, q->gid, q->gid) < 0)
    fail (q, 1, "process.user.gid %u: cannot switch to it: %s",
          (unsigned) q->gid, strerror (errno));
  if (prctl (PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0
      || syscall (SYS_setresuid, q->uid, q->uid, q->uid) < 0)
    fail (q, 1, "process.user.uid %u: cannot switch to it: %s",
          (unsigned) q->uid, strerror (errno));
}

/* The five sets as the config gives them, as runc sets them: bounding
   first (drop_bounding, before the identity), then effective, permitted
   and inheritable, then ambient.  By system calls, not libcap-ng as in
   sbx-oci: the masks come ready (-c), each failure names its capability,
   and libcap-ng's constructor would cost every container's start a
   procfs read and four prctls.  */
static void
drop_bounding (const struct init_request *q)
{
  for (int cap = 0; cap < 64 && prctl (PR_CAPBSET_READ, cap, 0, 0, 0) >= 0;
       cap++)
    if (!(q->bnd & (UINT64_C (1) << cap))
        && prctl (PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
      fail (q, 1, "process.capabilities.bounding: cannot drop %d: %s", cap,
            strerror (errno));
}

static void
set_caps (const struct init_request *q)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct d[2];
  for (int i = 0; i < 2; i++)
    d[i] = (struct __user_cap_data_struct){ (uint32_t) (q->eff >> (32 * i)),
                                            (uint32_t) (q->prm >> (32 * i)),
                                            (uint32_t) (q->inh >> (32 * i)) };
  if (syscall (SYS_capset, &hdr, d) < 0)
    fail (q, 1, "process.capabilities: cannot set them: %s", strerror (errno));
  if (prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
    fail (q, 1, "process.capabilities.ambient: %s", strerror (errno));
  /* The kernel raises an ambient capability only when it is permitted
     and inheritable; runc and crun skip the others (runc spec's own
     default asks for some without an inheritable set).  */
  uint64_t raisable = q->amb & q->prm & q->inh;
  for (int cap = 0; cap < 64; cap++)
    if ((raisable & (UINT64_C (1) << cap))
        && prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
      fail (q, 1, "process.capabilities.ambient: cannot raise %d: %s", cap,
            strerror (errno));
}

/* bwrap executed this program as /proc/self/fd/N, a descriptor that had
   to stay open through bwrap's own exec; the command gets none of it (the
   second review found the sealed copy of sbx-oci at the workload's fd 6). */
static void
close_own_copy (const char *argv0)
{
  static const char prefix[] = "/proc/self/fd/";
  if (argv0 == NULL || strncmp (argv0, prefix, sizeof prefix - 1) != 0)
    return;
  char *end;
  long fd = strtol (argv0 + sizeof prefix - 1, &end, 10);
  if (*end == '\0' && fd > 2 && fd < INT32_MAX)
    fcntl ((int) fd, F_SETFD, FD_CLOEXEC);
}

int
main (int argc, char **argv)
{
  struct init_request q;
  /* Until its exec, nothing of the container may ptrace this process or
     open /proc/PID/exe of it (bwrap made it dumpable).  */
  prctl (PR_SET_DUMPABLE, 0, 0, 0, 0);
  close_own_copy (argv[0]);
  if (!parse_args (argc, argv, &q))
    {
      q.report_fd = -1;
      fail (&q, 1, "sbx-oci-init: bad arguments (it is run by sbx-oci)");
    }
  char buf[4096];
  const char *file = lookup (&q, buf, sizeof buf);
  if (q.report_fd >= 0)
    fcntl (q.report_fd, F_SETFD, FD_CLOEXEC);
  if (q.started_fd >= 0)
    fcntl (q.started_fd, F_SETFD, FD_CLOEXEC);
  /* Bounding first: dropping needs CAP_SETPCAP, which setresuid to a
     non-zero uid takes out of the effective set.  */
  if (q.set_caps)
    drop_bounding (&q);
  if (q.hold_fd >= 0)
    {
      /* One NUL on the report pipe: create knows the command was found
         and the container is held.  */
      if (q.report_fd >= 0 && write (q.report_fd, "", 1) != 1)
        fail (&q, 1, "cannot tell create the container is held");
      char b;
      ssize_t n;
      do
        n = read (q.hold_fd, &b, 1);
      while (n < 0 && errno == EINTR);
      if (n != 1)
        fail (&q, 1, "the release FIFO closed before start");
      close (q.hold_fd);
      /* create has gone: later failures go to start and to stderr.  */
      close (q.report_fd);
      q.report_fd = -1;
    }
  if (q.set_ids)
    switch_ids (&q);
  if (q.set_caps)
    set_caps (&q);
  const char *which = NULL;
  int r = sbx_exec_labels (-1, q.selinux, q.apparmor, &which);
  if (r < 0)
    fail (&q, 1, "%s: cannot apply it: %s", which, strerror (-r));
  execv (file, q.argv);
  fail (&q, errno == ENOENT ? 127 : 126, "exec: \"%s\": %s", q.argv[0],
        strerror (errno));
}
