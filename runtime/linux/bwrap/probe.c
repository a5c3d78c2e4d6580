#include "runtime/linux/bwrap/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/host_root.h"
#include "common/file_io.h"
#include "common/path.h"
#include "runtime/linux/bwrap/setup_retry.h"
#include "runtime/host_paths.h"
#include "runtime/linux/real_path.h"
#include "runtime/linux/stop_wait.h"
#include "runtime/linux/state/state_dir.h"
#include "runtime/linux/confine/landlock_abi.h"
#include "runtime/state_root.h"

extern char **environ;

static const char *const runner_places[] = {
  "/usr/bin/bwrap",
  "/usr/local/bin/bwrap",
  "/bin/bwrap",
  NULL,
};

/* Run the runner with ARGS, output discarded (or captured into OUT), and
   return its exit status, or a negative errno when it could not start or
   a held signal stopped it (-EINTR).  */
static int
run_runner (const char *const *args, char *out, size_t out_len)
{
  int pipefd[2];
  if (pipe2 (pipefd, O_CLOEXEC) < 0)
    return -errno;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_addopen (&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2 (&fa, pipefd[1], 1);
  posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int r
      = posix_spawn (&pid, args[0], &fa, NULL, (char *const *) args, environ);
  posix_spawn_file_actions_destroy (&fa);
  close (pipefd[1]);
  if (r != 0)
    {
      close (pipefd[0]);
      return -r;
    }
  size_t n = 0;
  ssize_t got;
  /* A stop ends the read, and (still pending) the reap, which kills; a
     wait that could not be made (no signalfd) leaves the plain read.  */
  while (out && n + 1 < out_len
         && sbx_wait_unless_stopped (pipefd[0], POLLIN, -1) != -EINTR
         && (got = read (pipefd[0], out + n, out_len - n - 1)) > 0)
    n += (size_t) got;
  if (out)
    out[n] = '\0';
  close (pipefd[0]);
  int status;
  r = sbx_reap_unless_stopped (pid, &status);
  if (r < 0)
    return r;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* What the probe's runs of the runner came to: a sandbox's set-up
   that failed while the host's mounts changed (sandbox_runs), a stop
   (stop_wait.h), after which the runner is run no more.  */
struct probe_run
{
  bool unsettled, stopped;
};

/* run_runner, unless stopped (PR).  */
static int
ask (struct probe_run *pr, const char *const *args, char *out, size_t out_len)
{
  if (pr->stopped)
    return -EINTR;
  int r = run_runner (args, out, out_len);
  pr->stopped = r == -EINTR;
  return r;
}

/* Whether the runner's test sandbox ARGS runs.  Its recursive bind of /
   fails while the host's mounts change (setup_retry.h): such a failure
   is tried again, after the same pauses as a sandbox's set-up.  One that
   failed every time with the mounts still changing sets PR->unsettled:
   the cache would keep "no namespaces" for this state root until bwrap or
   the kernel changed.  */
static bool
sandbox_runs (const char *const *args, struct probe_run *pr)
{
  cleanup_close int watch = sbx_mounts_watch ();
  for (int attempt = 1;; attempt++)
    {
      int r = ask (pr, args, NULL, 0);
      if (r == 0 || r == -EINTR)
        return r == 0;
      bool changed = sbx_mounts_changed (&watch);
      if (attempt == SBX_SETUP_ATTEMPTS || !changed)
        {
          pr->unsettled |= changed;
          return false;
        }
      sbx_setup_pause (attempt);
    }
}

/* Whether the runner takes --bind-fd: its --help lists every option.  */
static bool
runner_has_bind_fd (const char *runner, struct probe_run *pr)
{
  char help[16384];
  const char *args[] = { runner, "--help", NULL };
  return ask (pr, args, help, sizeof help) == 0
         && strstr (help, "--bind-fd ") != NULL;
}

static void
probe_runner (struct sbx_probe *p, struct probe_run *pr)
{
  struct sbx_host_facts *f = &p->facts;
  char out[256];
  const char *version[] = { p->runner_path, "--version", NULL };
  if (ask (pr, version, out, sizeof out) == 0)
    sscanf (out, "bubblewrap %d.%d.%d", &f->runner_version[0],
            &f->runner_version[1], &f->runner_version[2]);
  const char *userns[] = {
    p->runner_path, "--unshare-user", "--ro-bind", "/", "/", "true", NULL
  };
  f->userns_ok = sandbox_runs (userns, pr);
  /* Root's sandboxes make their namespaces without a user namespace,
     which needs CAP_SYS_ADMIN: root in a container of default settings
     (podman, docker) lacks it, while a user namespace may still work
     there.  Probed in the shape root's launches take.  */
  const char *root_shape[]
      = { p->runner_path, "--ro-bind", "/", "/", "true", NULL };
  f->root_ns_ok = f->is_root && sandbox_runs (root_shape, pr);
  const char *proc[] = { p->runner_path,
                         f->is_root ? "--unshare-pid" : "--unshare-user",
                         "--unshare-pid",
                         "--ro-bind",
                         "/",
                         "/",
                         "--proc",
                         "/proc",
                         "true",
                         NULL };
  f->private_proc_ok = sandbox_runs (proc, pr);
  f->runner_bind_fd = runner_has_bind_fd (p->runner_path, pr);
}

/* What would change the probe's answer: the runner, the kernel, and who
   asks.  A uid alone does not say who: uid 0 in a user namespace of its
   own may share the host root's state root, and probes with the host
   root's arguments (rootless podman's) or a user's (`unshare -r`) in
   probe_runner.  */
static int
cache_key (const char *runner, const struct sbx_host_facts *f, char *key,
           size_t len)
{
  struct stat st;
  struct utsname u;
  if (stat (runner, &st) < 0 || uname (&u) < 0)
    return -errno;
  /* A named runner's entry holds only what --help says (it is trusted,
     never test-run): it must not answer for the same file found unnamed. */
  snprintf (key, len, "%s %lld %lld.%09ld %s %d %s%s", runner,
            (long long) st.st_size, (long long) st.st_mtim.tv_sec,
            st.st_mtim.tv_nsec, u.release, (int) f->uid,
            f->host_root ? "host-root"
            : f->is_root ? "ns-root"
                         : "user",
            f->runner_named ? " named" : "");
  return 0;
}

/* The cache's text, when it is the caller's own regular file (a symlink
   is not followed): its answer turns mitigations on or off, so a file
   someone else could have written is not believed, only probed over.  */
static bool
read_cache (int dirfd, char *text, size_t size)
{
  cleanup_close int fd
      = openat (dirfd, SBX_PROBE_CACHE_NAME,
                O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  struct sbx_error ignored = { 0 };
  if (fd < 0 || fstat (fd, &st) < 0
      || sbx_state_trust_check ("probe cache", SBX_PROBE_CACHE_NAME, &st,
                                S_IFREG, geteuid (), &ignored)
             < 0)
    return false;
  size_t n = 0;
  ssize_t got;
  while (n + 1 < size && (got = read (fd, text + n, size - n - 1)) != 0)
    if (got < 0 && errno != EINTR)
      return false;
    else if (got > 0)
      n += (size_t) got;
  text[n] = '\0';
  return true;
}

static bool
load_cache (int dirfd, const char *key, struct sbx_host_facts *f)
{
  char text[8192];
  if (!read_cache (dirfd, text, sizeof text))
    return false;
  char *nl = strchr (text, '\n');
  if (nl == NULL || (size_t) (nl - text) != strlen (key)
      || strncmp (text, key, strlen (key)) != 0)
    return false;
  int userns, proc, bind_fd, root_ns;
  if (sscanf (nl + 1, "%d.%d.%d %d %d %d %d", &f->runner_version[0],
              &f->runner_version[1], &f->runner_version[2], &userns, &proc,
              &bind_fd, &root_ns)
      != 7)
    return false;
  f->userns_ok = userns;
  f->root_ns_ok = root_ns;
  f->private_proc_ok = proc;
  f->runner_bind_fd = bind_fd;
  return true;
}

static void
store_cache (int dirfd, const char *key, const struct sbx_host_facts *f)
{
  char text[8192];
  int n = snprintf (text, sizeof text, "%s\n%d.%d.%d %d %d %d %d\n", key,
                    f->runner_version[0], f->runner_version[1],
                    f->runner_version[2], f->userns_ok, f->private_proc_ok,
                    f->runner_bind_fd, f->root_ns_ok);
  struct sbx_error ignored = { 0 };
  /* A cache that cannot be written only costs the next run a probe.  */
  if (n > 0 && (size_t) n < sizeof text)
    sbx_write_file_atomic_at (dirfd, SBX_PROBE_CACHE_NAME,
                              SBX_PROBE_CACHE_NAME, text, (size_t) n, 0644,
                              &ignored);
}

const char *
sbx_probe_named_runner (const char *runner)
{
  return runner ? runner : getenv ("SBX_OCI_RUNNER");
}

const char *
sbx_probe_runner_found (void)
{
  /* A place is taken only if it can be executed.  Looked for once a
     command: `run` asks before its prestart and again in the probe.  */
  static const char *found;
  static bool looked;
  for (size_t i = 0; !looked && !found && runner_places[i]; i++)
    if (access (runner_places[i], X_OK) == 0)
      found = runner_places[i];
  looked = true;
  return found;
}

static int
find_runner (const char *runner, struct sbx_probe *p, struct sbx_error *err)
{
  runner = sbx_probe_named_runner (runner);
  p->facts.runner_named = runner != NULL && runner[0] != '\0';
  if (runner == NULL)
    runner = sbx_probe_runner_found ();
  if (runner == NULL || runner[0] == '\0')
    return sbx_fail (err, -ENOENT,
                     "bubblewrap (bwrap) is not installed: install it "
                     "(apt-get install bubblewrap) or name one with "
                     "--runner PATH");
  if (runner[0] != '/')
    return sbx_fail (err, -EINVAL,
                     "runner %s: give an absolute path (--runner or "
                     "SBX_OCI_RUNNER)",
                     runner);
  if (p->facts.runner_named && access (runner, X_OK) < 0)
    return sbx_fail_errno (err, -errno, "runner %s: cannot execute it",
                           runner);
  if ((p->runner_path = strdup (runner)) == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  p->facts.runner_path = p->runner_path;
  return 0;
}

int
sbx_probe_landlock_abi (void)
{
  static long abi = -1;
  if (abi < 0)
    {
      abi = syscall (SBX_NR_LANDLOCK_CREATE_RULESET, NULL, 0,
                     SBX_LL_CREATE_RULESET_VERSION);
      abi = abi > 0 ? abi : 0;
    }
  return (int) abi;
}

/* SELinux when its file system is mounted where libselinux looks,
   AppArmor when its module says it is enabled (what runc reads).  */
void
sbx_probe_label_modules (struct sbx_host_facts *f)
{
  char c = 0;
  f->selinux = access ("/sys/fs/selinux/enforce", F_OK) == 0;
  int fd
      = open ("/sys/module/apparmor/parameters/enabled", O_RDONLY | O_CLOEXEC);
  f->apparmor = fd >= 0 && read (fd, &c, 1) == 1 && c == 'Y';
  if (fd >= 0)
    close (fd);
}

/* A home as the plan compares it with its roots: absolute, where it
   really leads (HOME=/ws//hm, /ws/link/hm or /x/../ws/hm are /ws/hm), or
   written normally where it leads nowhere yet.  A relative HOME names no
   home.  Into *OUT, to be freed (NULL: none); 0 or -ENOMEM.  */
static int
own_home (const char *home, char **out)
{
  *out = NULL;
  if (home == NULL || home[0] != '/')
    return 0;
  char real[PATH_MAX];
  if (sbx_real_path (home, real, sizeof real) == 0)
    return (*out = strdup (real)) ? 0 : -ENOMEM;
  char *normal = sbx_path_normalize (home);
  if (normal == NULL)
    return -ENOMEM;
  if (strlen (normal) < PATH_MAX)
    *out = normal;
  else
    free (normal);
  return 0;
}

/* sbx_host_facts.resolve: the real path of PATH's longest existing
   prefix, the rest appended.  */
static char *
resolve_path (const char *path, void *ctx)
{
  (void) ctx;
  char head[PATH_MAX], real[PATH_MAX];
  if (snprintf (head, sizeof head, "%s", path) >= (int) sizeof head)
    return NULL;
  size_t cut = strlen (head);
  for (;;)
    {
      int r = sbx_real_path (head, real, sizeof real);
      if (r == 0)
        break;
      char *slash = strrchr (head, '/');
      /* Absent, or a file in the way (which the sandbox could make a
         directory): resolve what is there, keep the rest as written.  */
      if ((r != -ENOENT && r != -ENOTDIR) || slash == NULL || slash == head)
        return NULL;
      *slash = '\0';
      cut = (size_t) (slash - head);
    }
  char *out = NULL;
  return asprintf (&out, "%s%s", real, path + cut) < 0 ? NULL : out;
}

static int
probe_identity (struct sbx_probe *p)
{
  struct sbx_host_facts *f = &p->facts;
  f->uid = geteuid ();
  f->gid = getegid ();
  f->is_root = sbx_runs_as_root ();
  f->host_root = sbx_host_root ();
  f->initial_userns = sbx_initial_user_namespace ();
  f->root_uid_here = sbx_parent_root_id ("uid_map");
  f->root_gid_here = sbx_parent_root_id ("gid_map");
  f->caller_is_root_here = (int64_t) getuid () == f->root_uid_here
                           || (int64_t) geteuid () == f->root_uid_here;
  const char *home = sbx_host_home (f->uid);
  if (own_home (home, &p->home) < 0)
    return -ENOMEM;
  /* $HOME may point elsewhere (a scratch home): the account's own
     credential stores are hidden too.  The same name is the same home,
     not resolved twice.  */
  const char *account = sbx_account_home (f->uid);
  if (!(account && home && strcmp (account, home) == 0)
      && own_home (account, &p->account_home) < 0)
    return -ENOMEM;
  f->home = p->home;
  f->account_home = p->account_home;
  if (f->account_home && f->home && strcmp (f->account_home, f->home) == 0)
    f->account_home = NULL;
  f->environ = environ;
  f->path_kind = sbx_host_path_kind;
  f->path_node = sbx_host_path_node;
  f->read_text = sbx_host_read_text;
  f->resolve = resolve_path;
  f->rlimit_hard = sbx_host_rlimit_hard;
  f->landlock_abi = sbx_probe_landlock_abi ();
  sbx_probe_label_modules (f);
  return 0;
}

/* Root: its launches' namespaces cannot be made (no CAP_SYS_ADMIN).
   Anyone else: neither a user namespace nor, with a setuid runner, the
   pid namespace a private /proc needs.  Either way bubblewrap can make
   none of what sbx would ask.  */
static bool
no_namespaces (const struct sbx_host_facts *f)
{
  if (f->is_root)
    return !f->root_ns_ok;
  return !f->userns_ok && !f->private_proc_ok;
}

int
sbx_probe_host (const char *runner, int cache_fd, struct sbx_probe *out,
                struct sbx_error *err)
{
  memset (out, 0, sizeof *out);
  int r = find_runner (runner, out, err);
  if (r == 0 && probe_identity (out) < 0)
    r = sbx_fail (err, -ENOMEM, "out of memory");
  if (r < 0)
    return r;
  char key[4096 + 256];
  bool keyed
      = cache_fd >= 0
        && cache_key (out->runner_path, &out->facts, key, sizeof key) == 0;
  if (keyed && load_cache (cache_fd, key, &out->facts))
    {
      out->facts.no_namespaces = no_namespaces (&out->facts);
      return 0;
    }
  struct probe_run pr = { 0 };
  if (out->facts.runner_named)
    {
      /* Trusted as named: no sandbox is launched to test it; its --help
         says which options it takes, once, then the cache does.  */
      out->facts.userns_ok = out->facts.private_proc_ok = true;
      out->facts.root_ns_ok = out->facts.is_root;
      out->facts.runner_bind_fd = runner_has_bind_fd (out->runner_path, &pr);
    }
  if (!out->facts.runner_named)
    probe_runner (out, &pr);
  /* What the runner answered is not all there is: nothing is kept.  */
  if (pr.stopped)
    return sbx_fail (err, -EINTR, "probing %s: sbx-oci was sent signal %d",
                     out->runner_path, sbx_stop_pending ());
  if (keyed && !pr.unsettled)
    store_cache (cache_fd, key, &out->facts);
  out->facts.no_namespaces = no_namespaces (&out->facts);
  return 0;
}

void
sbx_probe_release (struct sbx_probe *p)
{
  free (p->runner_path);
  free (p->home);
  free (p->account_home);
  p->runner_path = p->home = p->account_home = NULL;
}
