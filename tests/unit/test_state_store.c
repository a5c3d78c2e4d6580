/* The state store without a sandbox: id rules, claims (also against a
   racing delete --force), corrupt state, and a status computed from a pid
   and its start time.  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "common/file_io.h"
#include "runtime/linux/state/state_dir.h"
#include "runtime/state_root.h"
#include "runtime/linux/state/state_store.h"
#include "tap.h"

static bool
id_ok (const char *id)
{
  struct sbx_error err = { 0 };
  return sbx_state_check_id (id, &err) == 0;
}

static void
test_ids (void)
{
  char long_id[1026];
  memset (long_id, 'a', sizeof long_id - 1);
  long_id[1025] = '\0';
  tap_ok (id_ok ("web-1_a.b"), "letters, digits, _ . - are allowed");
  tap_ok (!id_ok (""), "an empty id is refused");
  tap_ok (!id_ok (".") && !id_ok (".."), ". and .. are refused");
  tap_ok (!id_ok ("a/b") && !id_ok ("a b"), "/ and spaces are refused");
  tap_ok (!id_ok (long_id), "1025 characters are refused");
  long_id[1024] = '\0';
  tap_ok (id_ok (long_id), "1024 characters are allowed");
  tap_ok (!id_ok (SBX_TEMP_DIR_PREFIX "x") && !id_ok (SBX_PROBE_CACHE_NAME)
              && !id_ok (SBX_MQUEUE_DIR_NAME) && !id_ok (SBX_NODES_DIR_NAME),
          "the state root's own entries are no ids");
}

static void
write_state (const char *root, const char *id, const char *text)
{
  char path[512];
  struct sbx_error err = { 0 };
  snprintf (path, sizeof path, "%s/%s/state.json", root, id);
  sbx_write_file_atomic (path, text, strlen (text), 0600, &err);
}

static void
test_store (const char *root)
{
  struct sbx_container c;
  struct sbx_error err = { 0 };
  tap_ok (sbx_state_claim (root, "one", &c, &err) == 0, "claim a new id");
  sbx_state_close (&c);
  sbx_error_clear (&err);
  tap_ok (sbx_state_claim (root, "one", &c, &err) == -EEXIST
              && strcmp (err.msg, "container \"one\" already exists") == 0,
          "a second claim: %s", err.msg);
  sbx_state_close (&c);

  /* Our own pid and start time: alive, and created until marked.  */
  char text[256];
  snprintf (text, sizeof text,
            "{\"ociVersion\":\"1.2.0\",\"id\":\"one\",\"pid\":%d,"
            "\"bundle\":\"/b\",\"org.sbx-oci\":{\"startTime\":%llu}}",
            (int) getpid (), sbx_pid_start_time (getpid ()));
  write_state (root, "one", text);
  sbx_error_clear (&err);
  int r = sbx_state_open (root, "one", true, &c, &err);
  tap_ok (r == 0 && sbx_state_status (&c) == SBX_STATUS_CREATED,
          "a live pid with its start time and no start: created");
  sbx_state_close (&c);

  /* The same pid with another start time is a recycled pid.  */
  snprintf (text, sizeof text,
            "{\"pid\":%d,\"bundle\":\"/b\",\"org.sbx-oci\":{\"startTime\":1}}",
            (int) getpid ());
  write_state (root, "one", text);
  r = sbx_state_open (root, "one", false, &c, &err);
  tap_ok (r == 0 && sbx_state_status (&c) == SBX_STATUS_STOPPED,
          "a recycled pid (other start time): stopped");
  sbx_state_close (&c);

  write_state (root, "one", "{\"pid\": 1, \"bun");
  sbx_error_clear (&err);
  r = sbx_state_open (root, "one", false, &c, &err);
  tap_ok (r == -EINVAL && strstr (err.msg, "one/state.json: corrupt state"),
          "truncated JSON names the file: %s", err.msg);
  char pts[512];
  snprintf (pts, sizeof pts, "%s/one/pts", root);
  mkdir (pts, 0755); /* what a create killed with a terminal leaves */
  tap_ok (c.dir != NULL && sbx_state_remove (&c, &err) == 0
              && access (c.dir, F_OK) < 0,
          "a corrupt container, pts directory and all, can still be "
          "removed");
  sbx_state_close (&c);

  sbx_error_clear (&err);
  r = sbx_state_open (root, "one", false, &c, &err);
  tap_ok (r == -ENOENT
              && strcmp (err.msg, "container \"one\" does not exist") == 0,
          "after removal: %s", err.msg);
  sbx_state_close (&c);
}

/* A --root that is a file is named as such, not as a missing container. */
static void
test_root_is_file (const char *root)
{
  char file[512];
  snprintf (file, sizeof file, "%s/plain", root);
  struct sbx_error err = { 0 };
  sbx_write_file_atomic (file, "", 0, 0600, &err);
  struct sbx_container c;
  int r = sbx_state_open (file, "one", false, &c, &err);
  tap_ok (r == -ENOTDIR && strstr (err.msg, "/plain is not a directory"),
          "a root that is a file: %s", err.msg);
  sbx_state_close (&c);
  unlink (file);
}

/* The rule itself: the caller's own, of the right type, not writable by
   group or others; each refusal one line naming the path and the fix. */
static void
test_trust_rule (void)
{
  struct stat st = { .st_mode = S_IFDIR | 0700, .st_uid = 1000 };
  struct sbx_error err = { 0 };
  tap_ok (sbx_state_trust_check ("state root", "/r", &st, S_IFDIR, 1000, &err)
              == 0,
          "a 0700 directory of the caller's is trusted");
  st.st_mode = S_IFDIR | 0755;
  tap_ok (sbx_state_trust_check ("state root", "/r", &st, S_IFDIR, 1000, &err)
              == 0,
          "0755 too: others may read, not write");
  tap_ok (sbx_state_trust_check ("state root", "/r", &st, S_IFDIR, 1001, &err)
                  == -EPERM
              && strcmp (err.msg,
                         "state root /r is owned by uid 1000, not by uid 1001 "
                         "who runs sbx-oci: remove it, or name one of your "
                         "own with --root")
                     == 0,
          "another user's: %s", err.msg);
  sbx_error_clear (&err);
  st.st_mode = S_IFDIR | 01777;
  tap_ok (sbx_state_trust_check ("state root", "/r", &st, S_IFDIR, 1000, &err)
                  == -EPERM
              && strstr (err.msg, "/r is writable by group or others "
                                  "(mode 1777): chmod go-w it"),
          "world-writable, sticky or not: %s", err.msg);
  sbx_error_clear (&err);
  st.st_mode = S_IFDIR | 0770;
  tap_ok (sbx_state_trust_check ("state root", "/r", &st, S_IFDIR, 1000, &err)
              == -EPERM,
          "group-writable");
  sbx_error_clear (&err);
  st.st_mode = S_IFREG | 0600;
  tap_ok (sbx_state_trust_check ("state root", "/r", &st, S_IFDIR, 1000, &err)
                  == -EPERM
              && strstr (err.msg, "is not a directory"),
          "a file where a directory should be: %s", err.msg);
  sbx_error_clear (&err);
  st.st_mode = S_IFREG | 0666;
  tap_ok (sbx_state_trust_check ("probe cache", "c", &st, S_IFREG, 1000, &err)
              == -EPERM,
          "a file writable by others");
}

/* A state root or a container's directory that is not the caller's own
   is refused before anything in it is read; a symlink is not followed. */
static void
test_untrusted (const char *root)
{
  char path[512], target[512];
  struct sbx_container c;
  struct sbx_error err = { 0 };
  snprintf (path, sizeof path, "%s/open", root);
  mkdir (path, 0700);
  chmod (path, 0777);
  int r = sbx_state_open (path, "one", false, &c, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "writable by group or others"),
          "a world-writable root is refused: %s", err.msg);
  sbx_state_close (&c);
  sbx_error_clear (&err);
  r = sbx_state_claim (path, "one", &c, &err);
  tap_ok (r == -EPERM, "  and nothing is claimed in it");
  sbx_state_close (&c);
  rmdir (path);

  snprintf (target, sizeof target, "%s/elsewhere", root);
  mkdir (target, 0700);
  snprintf (path, sizeof path, "%s/elsewhere/precious", root);
  sbx_write_file_atomic (path, "x", 1, 0600, &err);
  snprintf (path, sizeof path, "%s/link", root);
  symlink (target, path);
  sbx_error_clear (&err);
  r = sbx_state_open (root, "link", true, &c, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "/link is a symlink"),
          "a container entry that is a symlink is refused: %s", err.msg);
  sbx_state_close (&c);
  snprintf (path, sizeof path, "%s/elsewhere/precious", root);
  tap_ok (access (path, F_OK) == 0, "  and its target is left alone");
  unlink (path);
  rmdir (target);
  snprintf (path, sizeof path, "%s/link", root);
  unlink (path);

  snprintf (path, sizeof path, "%s/wide", root);
  mkdir (path, 0700);
  chmod (path, 0757);
  sbx_error_clear (&err);
  r = sbx_state_open (root, "wide", false, &c, &err);
  tap_ok (r == -EPERM && strstr (err.msg, "state directory "),
          "a container directory writable by others is refused: %s", err.msg);
  sbx_state_close (&c);
  rmdir (path);
}

/* What delete --force does, as fast as it can: open with the lock, and
   remove the directory whatever its state (a claim not yet written reads
   as "create did not finish").  */
static void __attribute__ ((noreturn))
delete_forever (const char *root, const char *id)
{
  for (;;)
    {
      struct sbx_container c;
      struct sbx_error err = { 0 };
      int r = sbx_state_open (root, id, true, &c, &err);
      if ((r == 0 || r == -EINVAL) && c.dir)
        sbx_state_remove (&c, &err);
      sbx_state_close (&c);
    }
}

/* Whether C's directory is there and its lock file is the one C holds,
   held: a second open file description cannot take it.  */
static bool
owned (const struct sbx_container *c)
{
  cleanup_free char *path = sbx_state_file (c, SBX_LOCK_FILE);
  cleanup_close int fd = path ? open (path, O_RDWR | O_CLOEXEC) : -1;
  struct stat held, at;
  return fd >= 0 && fstat (c->lock_fd, &held) == 0 && fstat (fd, &at) == 0
         && held.st_ino == at.st_ino && held.st_dev == at.st_dev
         && flock (fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
}

static void
remove_temp_dirs (const char *root)
{
  DIR *d = opendir (root);
  struct dirent *e;
  while (d && (e = readdir (d)) != NULL)
    if (strncmp (e->d_name, SBX_TEMP_DIR_PREFIX, strlen (SBX_TEMP_DIR_PREFIX))
        == 0)
      {
        char path[600];
        snprintf (path, sizeof path, "%s/%s/%s", root, e->d_name,
                  SBX_LOCK_FILE);
        unlink (path);
        *strrchr (path, '/') = '\0';
        rmdir (path);
      }
  if (d)
    closedir (d);
}

/* A claim owns its directory from the moment it succeeds: a delete
   --force landing between making the directory and locking it, or one
   that waited on the lock of the previous claim of the id, must not
   remove it under us.  */
static void
test_claim_vs_delete (const char *root)
{
  pid_t deleters[2];
  for (int i = 0; i < 2; i++)
    if ((deleters[i] = fork ()) == 0)
      delete_forever (root, "race");
  int claims = 0, failed = 0, lost = 0;
  char first[256] = "";
  uint64_t end = sbx_now_ms () + 2000;
  for (; claims < 3000 && sbx_now_ms () < end; claims++)
    {
      struct sbx_container c;
      struct sbx_error err = { 0 };
      int r = sbx_state_claim (root, "race", &c, &err);
      if (r < 0 && failed++ == 0)
        snprintf (first, sizeof first, "%s", err.msg);
      /* Long enough for the deleter to act if it could.  */
      bool ok = r == 0 && owned (&c) && (usleep (50), owned (&c));
      if (r == 0 && !ok)
        lost++;
      if (r == 0)
        sbx_state_remove (&c, &err); /* as a create that failed */
      sbx_state_close (&c);
    }
  for (int i = 0; i < 2; i++)
    {
      kill (deleters[i], SIGKILL);
      waitpid (deleters[i], NULL, 0);
    }
  tap_ok (failed == 0,
          "%d claims against two looping delete --force: %d failed (%s)",
          claims, failed, first);
  tap_ok (lost == 0, "no successful claim lost its directory or lock (%d did)",
          lost);
  /* A deleter killed halfway may leave the id or a temporary directory. */
  struct sbx_container c;
  struct sbx_error err = { 0 };
  if (sbx_state_open (root, "race", false, &c, &err) != -ENOENT && c.dir)
    sbx_state_remove (&c, &err);
  sbx_state_close (&c);
  remove_temp_dirs (root);
}

static int
count_temp_dirs (const char *root)
{
  DIR *d = opendir (root);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir (d)) != NULL)
    n += strncmp (e->d_name, SBX_TEMP_DIR_PREFIX, strlen (SBX_TEMP_DIR_PREFIX))
         == 0;
  if (d)
    closedir (d);
  return n;
}

/* A temporary directory as a create killed before its rename leaves it,
   AGE seconds old; with its lock held by us when HOLD.  */
static int
make_temp_dir (const char *root, const char *name, int age, bool hold)
{
  char dir[512], lock[600];
  snprintf (dir, sizeof dir, "%s/%s%s", root, SBX_TEMP_DIR_PREFIX, name);
  snprintf (lock, sizeof lock, "%s/%s", dir, SBX_LOCK_FILE);
  mkdir (dir, 0700);
  int fd = open (lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (hold)
    flock (fd, LOCK_EX);
  else
    close (fd);
  struct timespec t[2]
      = { { time (NULL) - age, 0 }, { time (NULL) - age, 0 } };
  utimensat (AT_FDCWD, dir, t, 0);
  return hold ? fd : -1;
}

/* Claims and removals go through temporary directories: none is left,
   and what a killed command leaves is swept by a later claim.  */
static void
test_temp_dirs (const char *root)
{
  struct sbx_container c;
  struct sbx_error err = { 0 };
  tap_ok (sbx_state_claim (root, "two", &c, &err) == 0
              && count_temp_dirs (root) == 0,
          "a claim leaves no temporary directory");
  sbx_state_close (&c);
  tap_ok (sbx_state_claim (root, "two", &c, &err) == -EEXIST
              && count_temp_dirs (root) == 0,
          "nor does a claim of an id that exists");
  sbx_state_close (&c);
  int r = sbx_state_open (root, "two", true, &c, &err);
  tap_ok (r == -EINVAL && sbx_state_remove (&c, &err) == 0
              && access (c.dir, F_OK) < 0 && count_temp_dirs (root) == 0,
          "nor does a removal");
  sbx_state_close (&c);

  char named[64];
  snprintf (named, sizeof named, "%sabc123", SBX_TEMP_DIR_PREFIX);
  tap_ok (!id_ok (named),
          "a temporary name is no container id: no command names it and "
          "list skips it");
  make_temp_dir (root, "stale1", 3600, false);
  int held = make_temp_dir (root, "held11", 3600, true);
  make_temp_dir (root, "young1", 0, false);
  tap_ok (sbx_state_claim (root, "three", &c, &err) == 0,
          "a claim next to leftovers succeeds");
  sbx_state_remove (&c, &err);
  sbx_state_close (&c);
  tap_ok (count_temp_dirs (root) == 2,
          "and sweeps the old unlocked one, not the held or the young one");
  close (held);
  make_temp_dir (root, "young1", 3600, false);
  sbx_state_claim (root, "three", &c, &err);
  sbx_state_remove (&c, &err);
  sbx_state_close (&c);
  tap_ok (count_temp_dirs (root) == 0, "once old and unlocked, they go too");
}

/* A directory without its lock file (an older sbx-oci killed between
   making it and locking it) is locked as that did, and reads as an
   unfinished create that delete --force removes.  */
static void
test_no_lock_file (const char *root)
{
  char dir[512];
  snprintf (dir, sizeof dir, "%s/bare", root);
  mkdir (dir, 0700);
  struct sbx_container c;
  struct sbx_error err = { 0 };
  int r = sbx_state_open (root, "bare", true, &c, &err);
  tap_ok (r == -EINVAL && strstr (err.msg, "bare/state.json: missing")
              && c.lock_fd >= 0,
          "no lock file: %s", err.msg);
  tap_ok (c.dir && sbx_state_remove (&c, &err) == 0 && access (dir, F_OK) < 0,
          "and it can be removed");
  sbx_state_close (&c);
}

int
main (void)
{
  char root[] = "/tmp/sbx-state-store-XXXXXX";
  if (mkdtemp (root) == NULL)
    return 1;
  test_ids ();
  test_store (root);
  test_root_is_file (root);
  test_trust_rule ();
  test_untrusted (root);
  test_temp_dirs (root);
  test_no_lock_file (root);
  test_claim_vs_delete (root);
  rmdir (root);
  return tap_done ();
}
