#include "config.h"

#include "runtime/linux/state/state_store.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "spec/spec.h"
#include "common/file_io.h"
#include "common/clock.h"
#include "common/json_gen.h"
#include "runtime/linux/supervise/limits.h"
#include "runtime/outcome.h"
#include "runtime/linux/pidfd.h"
#include "runtime/linux/state/state_dir.h"
#include "runtime/state_root.h"

#define STATE_MAX (4 << 20)

char *
sbx_state_file (const struct sbx_container *c, const char *name)
{
  char *p = NULL;
  if (asprintf (&p, "%s/%s", c->dir, name) < 0)
    return NULL;
  return p;
}

int
sbx_state_load_spec (const struct sbx_container *c, struct sbx_spec **out,
                     struct sbx_error *err)
{
  *out = NULL;
  cleanup_free char *path = sbx_state_file (c, SBX_KEPT_CONFIG);
  cleanup_free char *text = NULL;
  size_t len = 0;
  if (path == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (c->bundle == NULL)
    return sbx_fail (err, -ENOENT, "%s: no bundle recorded", c->id);
  int r = sbx_read_file_at (c->dir_fd, SBX_KEPT_CONFIG, path, 16u << 20, &text,
                            &len, err);
  if (r == 0 && (r = sbx_spec_parse (text, len, c->bundle, out, err)) < 0)
    return sbx_error_prefix (err, "%s", path);
  return r;
}

int
sbx_state_openat (const struct sbx_container *c, const char *name, int flags,
                  mode_t mode)
{
  return openat (c->dir_fd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
}

static int
init_container (const char *root, const char *id, struct sbx_container *c,
                struct sbx_error *err)
{
  memset (c, 0, sizeof *c);
  c->lock_fd = c->root_fd = c->dir_fd = -1;
  int r = sbx_state_check_id (id, err);
  if (r < 0)
    return r;
  c->id = strdup (id);
  if (c->id == NULL || asprintf (&c->dir, "%s/%s", root, id) < 0)
    {
      c->dir = NULL;
      return sbx_fail (err, -ENOMEM, "out of memory");
    }
  return 0;
}

int
sbx_state_claim (const char *root, const char *id, struct sbx_container *c,
                 struct sbx_error *err)
{
  int r = init_container (root, id, c, err);
  r = r ?: sbx_state_root_open (root, true, &c->root_fd, err);
  if (r < 0)
    return r;
  return sbx_state_dir_claim (c->root_fd, c->dir, id, &c->dir_fd, &c->lock_fd,
                              err);
}

static const char *
doc_str (yajl_val doc, const char **path)
{
  yajl_val v = yajl_tree_get (doc, path, yajl_t_string);
  return v ? YAJL_GET_STRING (v) : NULL;
}

static int
parse_state (struct sbx_container *c, const char *path, const char *text,
             struct sbx_error *err)
{
  char why[256] = "";
  c->doc = yajl_tree_parse (text, why, sizeof why);
  if (c->doc == NULL || !YAJL_IS_OBJECT (c->doc))
    return sbx_fail (err, -EINVAL,
                     "%s: corrupt state (%s): delete --force removes it", path,
                     c->doc ? "not an object" : strtok (why, "\n"));
  static const char *k_bundle[] = { "bundle", NULL };
  static const char *k_pid[] = { "pid", NULL };
  static const char *k_start[] = { "org.sbx-oci", "startTime", NULL };
  c->bundle = doc_str (c->doc, k_bundle);
  yajl_val pid = yajl_tree_get (c->doc, k_pid, yajl_t_number);
  yajl_val start = yajl_tree_get (c->doc, k_start, yajl_t_number);
  if (c->bundle == NULL || pid == NULL || start == NULL
      || !YAJL_IS_INTEGER (pid) || !YAJL_IS_INTEGER (start))
    return sbx_fail (err, -EINVAL,
                     "%s: corrupt state (bundle, pid or startTime missing): "
                     "delete --force removes it",
                     path);
  c->pid = (pid_t) YAJL_GET_INTEGER (pid);
  c->start_time = (unsigned long long) YAJL_GET_INTEGER (start);
  return 0;
}

/* Open ROOT/ID, checked, into C's fds, locked when LOCK.  */
static int
open_dir (const char *root, const char *id, bool lock, struct sbx_container *c,
          struct sbx_error *err)
{
  int r = sbx_state_root_open (root, false, &c->root_fd, err);
  if (r == -ENOENT)
    return sbx_fail_kind (err, SBX_ERROR_NO_CONTAINER, -ENOENT,
                          "container \"%s\" does not exist", id);
  if (r == 0 && lock)
    return sbx_state_dir_lock (c->root_fd, c->dir, id, &c->dir_fd, &c->lock_fd,
                               err);
  if (r == 0)
    r = sbx_state_subdir_open (c->root_fd, id, c->dir, &c->dir_fd, err);
  if (r == -ENOENT)
    return sbx_fail_kind (err, SBX_ERROR_NO_CONTAINER, -ENOENT,
                          "container \"%s\" does not exist", id);
  return r;
}

int
sbx_state_open (const char *root, const char *id, bool lock,
                struct sbx_container *c, struct sbx_error *err)
{
  int r = init_container (root, id, c, err);
  r = r ?: open_dir (root, id, lock, c, err);
  if (r < 0)
    return r;
  cleanup_free char *path = sbx_state_file (c, SBX_STATE_FILE);
  cleanup_free char *text = NULL;
  size_t len;
  if (path == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  r = sbx_read_file_at (c->dir_fd, SBX_STATE_FILE, path, STATE_MAX, &text,
                        &len, err);
  if (r == -ENOENT)
    {
      /* Removed while we waited for the lock, or a create that died
         before writing its state.  */
      struct stat st;
      if (fstatat (c->root_fd, id, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return sbx_fail_kind (err, SBX_ERROR_NO_CONTAINER, -ENOENT,
                              "container \"%s\" does not exist", id);
      return sbx_fail (err, -EINVAL,
                       "%s: missing (create did not finish): delete --force "
                       "removes it",
                       path);
    }
  if (r < 0)
    return r;
  return parse_state (c, path, text, err);
}

void
sbx_state_close (struct sbx_container *c)
{
  if (c->lock_fd >= 0)
    close (c->lock_fd);
  if (c->dir_fd >= 0)
    close (c->dir_fd);
  if (c->root_fd >= 0)
    close (c->root_fd);
  if (c->doc)
    yajl_tree_free (c->doc);
  free (c->id);
  free (c->dir);
  memset (c, 0, sizeof *c);
  c->lock_fd = c->root_fd = c->dir_fd = -1;
}

bool
sbx_state_pid_alive (const struct sbx_container *c)
{
  return c->doc != NULL && sbx_pid_alive_since (c->pid, c->start_time);
}

enum sbx_status
sbx_state_status (const struct sbx_container *c)
{
  if (!sbx_state_pid_alive (c))
    return SBX_STATUS_STOPPED;
  struct stat st;
  if (fstatat (c->dir_fd, SBX_STARTED_MARK, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return SBX_STATUS_CREATED;
  return SBX_STATUS_RUNNING;
}

const char *
sbx_status_name (enum sbx_status s)
{
  static const char *const names[] = { "created", "running", "stopped" };
  return names[s];
}

int
sbx_state_pidfd (const struct sbx_container *c)
{
  if (!sbx_state_pid_alive (c))
    return -ESRCH;
  int fd = sbx_pidfd_open (c->pid);
  if (fd < 0)
    return -errno;
  /* The pid could have been recycled between the check and the open.  */
  if (!sbx_state_pid_alive (c))
    {
      close (fd);
      return -ESRCH;
    }
  return fd;
}

static int
format_state (const struct sbx_container *c, const struct sbx_spec *spec,
              const struct sbx_plan *plan, const struct sbx_limits *lim,
              char **text, size_t *len)
{
  char created[64];
  sbx_utc_timestamp (created, sizeof created);

  yajl_gen g = sbx_json_new (false);
  if (g == NULL)
    return -ENOMEM;
  int r = sbx_json_open (g, false);
  r = r ?: sbx_json_key_str (g, "ociVersion", spec->oci_version);
  r = r ?: sbx_json_key_str (g, "id", c->id);
  r = r ?: sbx_json_key_str (g, "status", "created");
  r = r ?: sbx_json_key_int (g, "pid", c->pid);
  r = r ?: sbx_json_key_str (g, "bundle", spec->bundle);
  r = r ?: sbx_json_key (g, "annotations");
  r = r ?: sbx_json_open (g, false);
  for (size_t i = 0; r == 0 && i < spec->n_annotations; i++)
    r = sbx_json_key_str (g, spec->annotations[i].key,
                          spec->annotations[i].value);
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_key_str (g, "created", created);
  r = r ?: sbx_json_key (g, "org.sbx-oci");
  r = r ?: sbx_json_open (g, false);
  r = r ?: sbx_json_key_int (g, "startTime", (long long) c->start_time);
  r = r ?: sbx_json_key (g, "enforcement");
  r = r ?: sbx_enforcement_json (g, plan);
  r = r ?: sbx_json_key (g, "limits");
  r = r ?: sbx_limits_record (g, lim);
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_close (g, false);
  r = r ?: sbx_json_finish (g, text, len);
  yajl_gen_free (g);
  return r;
}

int
sbx_state_write (struct sbx_container *c, const struct sbx_spec *spec,
                 const struct sbx_plan *plan, const struct sbx_limits *lim,
                 char **text, struct sbx_error *err)
{
  cleanup_free char *path = sbx_state_file (c, SBX_STATE_FILE);
  size_t len;
  *text = NULL;
  if (path == NULL || format_state (c, spec, plan, lim, text, &len) < 0)
    return sbx_fail (err, -ENOMEM, "cannot format the state");
  return sbx_write_file_atomic_at (c->dir_fd, SBX_STATE_FILE, path, *text, len,
                                   0600, err);
}

int
sbx_state_remove (struct sbx_container *c, struct sbx_error *err)
{
  if (c->root_fd < 0)
    return sbx_fail (err, -EBADF,
                     "cannot remove %s: its state root is not open", c->dir);
  return sbx_state_dir_remove (c->root_fd, c->dir, c->id, err);
}
