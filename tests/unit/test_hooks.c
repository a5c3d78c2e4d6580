/* Hooks run for real: this binary doubles as a recording hook (argv[1] is
   "--as-hook", or it is invoked through the "as-hook" symlink) that appends
   its argv, environment, stdin and open descriptors to ./hook.log.  */
#include "common/error.h"
#include "common/strv.h"
#include "hooks/hooks.h"
#include "tests/unit/tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char tmpdir[] = "/tmp/sbx-test-hooks-XXXXXX";
static char self_exe[PATH_MAX];

static const char *const script_env[] = { "PATH=/usr/bin:/bin", NULL };
static const char *const state = "{\"ociVersion\":\"1.2.0\",\"id\":\"c1\","
                                 "\"status\":\"creating\",\"pid\":42}";

/* ---- the recording hook ---- */

static void
print_joined (FILE *f, const char *key, char **v, int n)
{
  fprintf (f, "%s=", key);
  for (int i = 0; v && (n < 0 ? v[i] != NULL : i < n); i++)
    fprintf (f, "%s%s", i ? "|" : "", v[i]);
  fputc ('\n', f);
}

static int
act_as_hook (int argc, char **argv)
{
  char fds[256] = "";
  DIR *dir = opendir ("/proc/self/fd");
  struct dirent *de;
  while (dir && (de = readdir (dir)) != NULL)
    if (de->d_name[0] != '.' && atoi (de->d_name) != dirfd (dir))
      snprintf (fds + strlen (fds), sizeof fds - strlen (fds), "%s%s",
                fds[0] ? " " : "", de->d_name);
  if (dir)
    closedir (dir);

  FILE *log = fopen ("hook.log", "a");
  if (log == NULL)
    return 99;
  print_joined (log, "argv", argv, argc);
  print_joined (log, "env", environ, -1);
  fputs ("stdin=", log);
  char buf[4096];
  size_t n;
  while ((n = fread (buf, 1, sizeof buf, stdin)) > 0)
    fwrite (buf, 1, n, log);
  fprintf (log, "\nfds=%s\n", fds);
  return fclose (log) == 0 ? 0 : 99;
}

/* ---- helpers ---- */

static void
add_hook (struct sbx_hook_list *list, const char *path,
          const char *const *args, const char *const *env, int timeout)
{
  list->v = realloc (list->v, (list->n + 1) * sizeof *list->v);
  struct sbx_hook *h = &list->v[list->n++];
  memset (h, 0, sizeof *h);
  h->path = strdup (path);
  for (size_t i = 0; args && args[i]; i++)
    strv_push (&h->args, args[i]);
  for (size_t i = 0; env && env[i]; i++)
    strv_push (&h->env, env[i]);
  h->timeout = timeout;
}

static void
free_hooks (struct sbx_hook_list *list)
{
  for (size_t i = 0; i < list->n; i++)
    {
      free (list->v[i].path);
      strv_free (&list->v[i].args);
      strv_free (&list->v[i].env);
    }
  free (list->v);
  list->v = NULL;
  list->n = 0;
}

/* Write TMPDIR/NAME as a shell script with BODY; returns its path.  */
static const char *
script (const char *name, const char *body, mode_t mode)
{
  static char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen (path, "w");
  fprintf (f, "#!/bin/sh\n%s\n", body);
  fclose (f);
  chmod (path, mode);
  return path;
}

static char *
slurp (const char *path)
{
  FILE *f = fopen (path, "r");
  if (f == NULL)
    return NULL;
  char *s = NULL;
  size_t len = 0;
  FILE *mem = open_memstream (&s, &len);
  int c;
  while ((c = fgetc (f)) != EOF)
    fputc (c, mem);
  fclose (mem);
  fclose (f);
  return s;
}

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Gone or a zombie waiting for its new parent to reap it.  */
static bool
process_dead (pid_t pid)
{
  char path[64], *stat;
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  stat = slurp (path);
  bool dead = stat == NULL || strstr (stat, ") Z ") != NULL;
  free (stat);
  return dead;
}

static char *
expected_record (const char *argv, const char *env, const char *in)
{
  char *s = NULL;
  if (asprintf (&s, "argv=%s\nenv=%s\nstdin=%s\nfds=0 1 2\n", argv, env, in)
      < 0)
    abort ();
  return s;
}

/* ---- tests ---- */

static void
test_order_stdin_argv0 (void)
{
  struct sbx_hook_list list = { 0 };
  struct sbx_error err = { 0 };
  char link[PATH_MAX + 16];
  snprintf (link, sizeof link, "%s/as-hook", tmpdir);
  add_hook (&list, self_exe,
            (const char *[]){ "first-argv0", "--as-hook", "x y", NULL }, NULL,
            5);
  add_hook (&list, link, NULL, NULL, 0);
  unlink ("hook.log");
  int r = sbx_hooks_run (&list, "prestart", state, &err);
  tap_ok (r == 0, "two recording hooks succeed (%s)", err.msg);
  char *log = slurp ("hook.log");
  char *first = expected_record ("first-argv0|--as-hook|x y", "", state);
  char *second = expected_record (link, "", state);
  char *want = NULL;
  if (asprintf (&want, "%s%s", first, second) < 0)
    abort ();
  tap_streq (log, want,
             "hooks run in order, get the state on stdin, args[0] is argv[0], "
             "path is argv[0] without args, no env, only fds 0-2");
  free (log), free (first), free (second), free (want);
  free_hooks (&list);
}

static void
test_env_exact (void)
{
  struct sbx_hook_list list = { 0 };
  struct sbx_error err = { 0 };
  setenv ("SBX_TEST_CANARY", "must-not-leak", 1);
  add_hook (&list, self_exe, (const char *[]){ "h", "--as-hook", NULL },
            (const char *[]){ "A=1", "B=two words", "EMPTY=", NULL }, 0);
  unlink ("hook.log");
  int r = sbx_hooks_run (&list, "createRuntime", "{}", &err);
  char *log = slurp ("hook.log");
  char *want = expected_record ("h|--as-hook", "A=1|B=two words|EMPTY=", "{}");
  tap_ok (r == 0, "hook with env succeeds (%s)", err.msg);
  tap_streq (log, want, "env is exactly as given, nothing inherited");
  free (log), free (want);
  free_hooks (&list);
  unsetenv ("SBX_TEST_CANARY");
}

static void
test_timeout (void)
{
  struct sbx_hook_list list = { 0 };
  struct sbx_error err = { 0 };
  const char *p
      = script ("sleeper", "sleep 30 & echo $! > sleeper.pid\nwait", 0755);
  add_hook (&list, p, NULL, script_env, 1);
  double t0 = now_s ();
  int r = sbx_hooks_run (&list, "prestart", state, &err);
  double elapsed = now_s () - t0;
  char want[PATH_MAX + 64];
  snprintf (want, sizeof want, "hooks.prestart[0]: %s timed out after 1s", p);
  tap_ok (r == -ETIMEDOUT, "timeout returns -ETIMEDOUT (got %d)", r);
  tap_streq (err.msg, want, "timeout message");
  tap_ok (elapsed >= 0.95 && elapsed < 1.5,
          "killed within timeout + 0.5s (%.3fs)", elapsed);

  char *pid_text = slurp ("sleeper.pid");
  pid_t sleeper = pid_text ? atoi (pid_text) : 0;
  bool dead = false;
  for (int i = 0; sleeper > 0 && i < 100 && !dead; i++, usleep (10000))
    dead = process_dead (sleeper);
  tap_ok (dead, "the hook's own child (pid %d) was killed too", (int) sleeper);
  free (pid_text);
  free_hooks (&list);
}

static void
test_exit_status_stops (void)
{
  struct sbx_hook_list list = { 0 };
  struct sbx_error err = { 0 };
  char failing[PATH_MAX];
  add_hook (&list, script ("mark1", "touch marker1", 0755), NULL, script_env,
            0);
  snprintf (failing, sizeof failing, "%s",
            script ("exit3", "cat >/dev/null; exit 3", 0755));
  add_hook (&list, failing, NULL, script_env, 0);
  add_hook (&list, script ("mark2", "touch marker2", 0755), NULL, script_env,
            0);
  int r = sbx_hooks_run (&list, "createRuntime", state, &err);
  char want[PATH_MAX + 64];
  snprintf (want, sizeof want,
            "hooks.createRuntime[1]: %s exited with status 3", failing);
  tap_ok (r == -EIO, "non-zero exit returns -EIO (got %d)", r);
  tap_streq (err.msg, want, "exit status message");
  tap_ok (access ("marker1", F_OK) == 0 && access ("marker2", F_OK) != 0,
          "hooks before the failure ran, hooks after it did not");
  free_hooks (&list);
}

static void
expect_failure (const char *path, const char *phase, int want_code,
                const char *what, const char *name)
{
  struct sbx_hook_list list = { 0 };
  struct sbx_error err = { 0 };
  char want[PATH_MAX + 128];
  add_hook (&list, path, NULL, script_env, 0);
  int r = sbx_hooks_run (&list, phase, state, &err);
  snprintf (want, sizeof want, "hooks.%s[0]: %s %s", phase, path, what);
  tap_ok (r == want_code, "%s: code %d (got %d)", name, want_code, r);
  tap_streq (err.msg, want, name);
  free_hooks (&list);
}

static void
test_failures (void)
{
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s", script ("selfkill", "kill -9 $$", 0755));
  expect_failure (path, "poststart", -EIO, "killed by signal 9",
                  "signal death");
  snprintf (path, sizeof path, "%s", script ("noexec", "exit 0", 0644));
  expect_failure (path, "prestart", -EACCES,
                  "cannot execute: Permission denied", "non-executable file");
  snprintf (path, sizeof path, "%s/does-not-exist", tmpdir);
  expect_failure (path, "prestart", -ENOENT,
                  "cannot execute: No such file or directory", "missing file");
  snprintf (path, sizeof path, "%s", script ("exit127", "exit 127", 0755));
  expect_failure (path, "startContainer", -EIO, "exited with status 127",
                  "a hook exiting 127 is not an exec failure");
}

static void
test_large_state_and_sigpipe (void)
{
  size_t big_len = 1 << 20;
  char *big = malloc (big_len + 1);
  memset (big, 'x', big_len);
  big[big_len] = '\0';
  struct sbx_hook_list list = { 0 };
  struct sbx_error err = { 0 };

  add_hook (&list, script ("count", "wc -c > count.out", 0755), NULL,
            script_env, 5);
  int r = sbx_hooks_run (&list, "prestart", big, &err);
  char *count = slurp ("count.out");
  long got = count ? atol (count) : -1;
  tap_ok (r == 0 && got == (long) big_len,
          "a hook that reads stdin gets all of a 1 MiB state (%ld bytes)",
          got);
  free (count);
  free_hooks (&list);

  sigset_t before, after, pending;
  sigprocmask (SIG_SETMASK, NULL, &before);
  add_hook (&list, script ("noread", "exec 0<&-\nsleep 0.2", 0755), NULL,
            script_env, 5);
  add_hook (&list, "/bin/true", NULL, NULL, 5);
  r = sbx_hooks_run (&list, "prestart", big, &err);
  sigprocmask (SIG_SETMASK, NULL, &after);
  sigpending (&pending);
  tap_ok (r == 0, "hooks that do not read a 1 MiB state succeed (%s)",
          err.msg);
  tap_ok (!sigismember (&after, SIGPIPE) && !sigismember (&pending, SIGPIPE)
              && sigismember (&before, SIGPIPE)
                     == sigismember (&after, SIGPIPE),
          "SIGPIPE is neither left blocked nor pending");
  free_hooks (&list);
  free (big);
}

static void
test_all_logged (void)
{
  struct sbx_hook_list list = { 0 };
  struct strv msgs = { 0 };
  char p0[PATH_MAX], p1[PATH_MAX], want[PATH_MAX + 64];
  snprintf (p0, sizeof p0, "%s", script ("ps-exit3", "exit 3", 0755));
  snprintf (p1, sizeof p1, "%s/missing-poststop", tmpdir);
  add_hook (&list, p0, NULL, script_env, 0);
  add_hook (&list, p1, NULL, script_env, 0);
  add_hook (&list, script ("ps-mark", "touch poststop.marker", 0755), NULL,
            script_env, 0);
  int n = sbx_hooks_run_all_logged (&list, "poststop", state, &msgs);
  tap_ok (n == 2 && msgs.n == 2, "two of three poststop hooks fail (%d)", n);
  snprintf (want, sizeof want, "hooks.poststop[0]: %s exited with status 3",
            p0);
  tap_streq (msgs.n > 0 ? msgs.v[0] : NULL, want, "first poststop message");
  snprintf (want, sizeof want,
            "hooks.poststop[1]: %s cannot execute: No such file or directory",
            p1);
  tap_streq (msgs.n > 1 ? msgs.v[1] : NULL, want, "second poststop message");
  tap_ok (access ("poststop.marker", F_OK) == 0,
          "the hook after the failures still ran");
  strv_free (&msgs);
  free_hooks (&list);
}

static int
remove_entry (const char *path, const struct stat *st, int flag,
              struct FTW *ftw)
{
  (void) st, (void) flag, (void) ftw;
  return remove (path);
}

int
main (int argc, char **argv)
{
  const char *base = strrchr (argv[0], '/');
  if ((argc > 1 && strcmp (argv[1], "--as-hook") == 0)
      || (base && strcmp (base, "/as-hook") == 0))
    return act_as_hook (argc, argv);

  char link[PATH_MAX + 16];
  if (realpath ("/proc/self/exe", self_exe) == NULL || !mkdtemp (tmpdir)
      || chdir (tmpdir) < 0)
    return 99;
  snprintf (link, sizeof link, "%s/as-hook", tmpdir);
  if (symlink (self_exe, link) < 0)
    return 99;
  /* An inheritable descriptor the hooks must not see.  */
  if (dup2 (open ("/dev/null", O_RDONLY), 20) != 20)
    return 99;

  test_order_stdin_argv0 ();
  test_env_exact ();
  test_timeout ();
  test_exit_status_stops ();
  test_failures ();
  test_large_state_and_sigpipe ();
  test_all_logged ();

  if (chdir ("/") == 0)
    nftw (tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  return tap_done ();
}
