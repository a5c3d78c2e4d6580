#include "runtime/linux/state/sandbox_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"

#define RECORD_MAX 65536

static char *
record_path (const char *dir)
{
  char *p = NULL;
  return asprintf (&p, "%s/%s", dir, SBX_SANDBOX_RECORD) < 0 ? NULL : p;
}

int
sbx_record_append (const char *dir, const char *line, struct sbx_error *err)
{
  cleanup_free char *path = record_path (dir);
  cleanup_free char *text = NULL;
  if (path == NULL || asprintf (&text, "%s\n", line) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_close int fd = open (
      path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  size_t len = strlen (text);
  if (fd < 0 || write (fd, text, len) != (ssize_t) len)
    return sbx_fail_errno (err, fd < 0 ? -errno : -EIO, "cannot write %s",
                           path);
  return 0;
}

int
sbx_record_cgroup (const char *dir, const struct strv *strings,
                   struct sbx_error *err)
{
  int r = 0;
  for (size_t i = 0; r == 0 && i < strings->n; i++)
    {
      cleanup_free char *line = NULL;
      if (asprintf (&line, "cgroup=%s", strings->v[i]) < 0)
        return sbx_fail (err, -ENOMEM, "out of memory");
      r = sbx_record_append (dir, line, err);
    }
  return r;
}

int
sbx_record_pid (const char *dir, const char *key, pid_t pid,
                unsigned long long start, struct sbx_error *err)
{
  char line[96];
  snprintf (line, sizeof line, "%s=%d %llu", key, (int) pid, start);
  return sbx_record_append (dir, line, err);
}

static void
parse_pid (const char *value, pid_t *pid, unsigned long long *start)
{
  int p;
  unsigned long long s;
  if (sscanf (value, "%d %llu", &p, &s) == 2 && p > 0 && s > 0)
    {
      *pid = (pid_t) p;
      *start = s;
    }
}

static int
take_line (struct sbx_record *rec, const char *line)
{
  if (strncmp (line, "cgroup=", 7) == 0)
    return strv_push (&rec->cgroup, line + 7);
  if (strcmp (line, "nocgroup") == 0)
    strv_free (&rec->cgroup);
  else if (strncmp (line, "pid=", 4) == 0)
    parse_pid (line + 4, &rec->pid, &rec->start);
  else if (strncmp (line, "watcher=", 8) == 0)
    parse_pid (line + 8, &rec->watcher, &rec->watcher_start);
  else if (strncmp (line, "forwarder=", 10) == 0)
    parse_pid (line + 10, &rec->forwarder, &rec->forwarder_start);
  return 0;
}

int
sbx_record_read (const char *dir, struct sbx_record *out)
{
  *out = (struct sbx_record){ 0 };
  cleanup_free char *path = record_path (dir);
  cleanup_free char *text = NULL;
  size_t len;
  struct sbx_error ignored = { 0 };
  if (path == NULL)
    return -ENOMEM;
  int r = sbx_read_file (path, RECORD_MAX, &text, &len, &ignored);
  if (r == -ENOENT)
    return 0;
  if (r < 0)
    return r;
  /* Only whole lines: a write cut short by a kill has no newline.  */
  for (char *line = text, *nl; r == 0 && (nl = strchr (line, '\n'));
       line = nl + 1)
    {
      *nl = '\0';
      r = take_line (out, line);
    }
  return r;
}

void
sbx_record_free (struct sbx_record *rec)
{
  strv_free (&rec->cgroup);
}
