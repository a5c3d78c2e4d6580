#include "runtime/linux/bwrap/rung_exec.h"

#include <errno.h>
#include <ftw.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int
read_program (int fd, struct sock_fprog *prog, struct sbx_error *err)
{
  size_t cap = 65536, len = 0;
  unsigned char *buf = malloc (cap);
  ssize_t n;
  if (buf == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* A filled pipe or a fresh memfd: read from where it stands.  */
  while (len < cap && (n = read (fd, buf + len, cap - len)) > 0)
    len += (size_t) n;
  if (len == 0 || len % sizeof (struct sock_filter) != 0 || len == cap)
    {
      free (buf);
      return sbx_fail (err, -EINVAL,
                       "cannot read a seccomp program (%zu "
                       "bytes)",
                       len);
    }
  prog->filter = (struct sock_filter *) buf;
  prog->len = (unsigned short) (len / sizeof (struct sock_filter));
  return 0;
}

/* The plan's environment, with a TMPDIR that named the private /tmp
   (which cannot be had) naming the run's own directory instead.  */
static int
rung_env (const struct sbx_plan *plan, const char *tmpdir, struct strv *env)
{
  for (size_t i = 0; i < plan->env.n; i++)
    {
      const char *v = plan->env.v[i];
      int r = strncmp (v, "TMPDIR=", 7) == 0 && strcmp (v + 7, "/tmp") == 0
                  ? strv_pushf (env, "TMPDIR=%s", tmpdir)
                  : strv_push (env, v);
      if (r < 0)
        return -ENOMEM;
    }
  return 0;
}

int
sbx_rung_prepare (const struct sbx_plan *plan, int seccomp_fd,
                  int seccomp_net_fd, struct sbx_rung *rung,
                  struct sbx_error *err)
{
  memset (rung, 0, sizeof *rung);
  rung->cwd = plan->cwd;
  rung->new_session = plan->new_session;
  int fds[2] = { seccomp_fd, seccomp_net_fd }, r = 0;
  for (int i = 0; r == 0 && i < 2; i++)
    if (fds[i] > 2)
      r = read_program (fds[i], &rung->progs[rung->n_progs++], err);
  if (r < 0)
    return r;
  char tmpl[] = "/tmp/sbx-oci-run.XXXXXX";
  if (mkdtemp (tmpl) == NULL)
    return sbx_fail_errno (err, -errno,
                           "cannot make the run's TMPDIR below /tmp");
  rung->tmpdir = strdup (tmpl);
  if (rung->tmpdir == NULL || rung_env (plan, rung->tmpdir, &rung->env) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  return 0;
}

int
sbx_rung_session (const struct sbx_rung *rung)
{
  /* What bwrap's --new-session does: no terminal to push keystrokes
     into (TIOCSTI).  */
  if (rung->new_session)
    return setsid () < 0 ? -errno : 0;
  return setpgid (0, 0) < 0 ? -errno : 0;
}

/* What bwrap does for a caller's sandbox: no capability at all.  Dropping
   needs no privilege; with no_new_privs an exec cannot bring any back,
   root's included.  Raw calls: this child shares its parent's memory.  */
static int
drop_capabilities (void)
{
  struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = { 0 };
  if (prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0
      && errno != EINVAL) /* a kernel before ambient capabilities */
    return -errno;
  return syscall (SYS_capset, &head, none) < 0 ? -errno : 0;
}

int
sbx_rung_confine (const struct sbx_rung *rung)
{
  if (rung->cwd && chdir (rung->cwd) < 0)
    return -errno;
  for (size_t i = 0; i < rung->n_close; i++)
    close (rung->close_fds[i]);
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    return -errno;
  int r = drop_capabilities ();
  if (r < 0)
    return r;
  for (size_t i = 0; i < rung->n_progs; i++)
    if (prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &rung->progs[i]) < 0)
      return -errno;
  return 0;
}

static int
remove_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void) st;
  (void) ftw;
  if (flag == FTW_DP)
    rmdir (path);
  else
    unlink (path);
  return 0;
}

void
sbx_rung_release (struct sbx_rung *rung)
{
  for (size_t i = 0; i < rung->n_progs; i++)
    free (rung->progs[i].filter);
  if (rung->tmpdir)
    nftw (rung->tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  free (rung->tmpdir);
  strv_free (&rung->env);
  memset (rung, 0, sizeof *rung);
}
