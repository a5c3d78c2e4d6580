/* `sbx-oci list [--format table|json] [-q]`: every container under the
   state root.  A container whose state cannot be read is listed as
   stopped, so it can be found and deleted.  */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/json_gen.h"
#include "runtime/cli.h"
#include "runtime/state_root.h"
#include "runtime/linux/state/state_store.h"

enum list_format
{
  LIST_TABLE,
  LIST_JSON,
  LIST_QUIET,
};

static int
cmp_str (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
collect_ids (const char *root, struct strv *ids, struct sbx_error *err)
{
  int fd = -1;
  int r = sbx_state_root_open (root, false, &fd, err);
  if (r < 0)
    return r == -ENOENT ? 0 : r;
  DIR *d = fdopendir (fd);
  if (d == NULL)
    {
      r = sbx_fail_errno (err, -errno, "cannot read %s", root);
      close (fd);
      return r;
    }
  struct dirent *e;
  struct sbx_error ignored = { 0 };
  while ((e = readdir (d)) != NULL)
    if (e->d_type == DT_DIR && sbx_state_check_id (e->d_name, &ignored) == 0
        && strv_push (ids, e->d_name) < 0)
      {
        closedir (d);
        return sbx_fail (err, -ENOMEM, "out of memory");
      }
  closedir (d);
  if (ids->n)
    qsort (ids->v, ids->n, sizeof *ids->v, cmp_str);
  return 0;
}

static void
print_row (const struct sbx_container *c)
{
  enum sbx_status s = sbx_state_status (c);
  /* The bundle's path is the caller's, and shown as text all the same.  */
  char *bundle = sbx_escaped_dup (c->bundle ? c->bundle : "");
  printf ("%-12s %-8d %-10s %s\n", c->id,
          s == SBX_STATUS_STOPPED ? 0 : (int) c->pid, sbx_status_name (s),
          bundle ? bundle : "");
  free (bundle);
}

static int
list_all (const char *root, const struct strv *ids, enum list_format fmt,
          struct sbx_error *err)
{
  yajl_gen g = fmt == LIST_JSON ? sbx_json_new (false) : NULL;
  int r = 0;
  if (fmt == LIST_JSON && (g == NULL || sbx_json_open (g, true) < 0))
    r = sbx_fail (err, -ENOMEM, "out of memory");
  if (fmt == LIST_TABLE)
    printf ("%-12s %-8s %-10s %s\n", "ID", "PID", "STATUS", "BUNDLE");
  for (size_t i = 0; r == 0 && i < ids->n; i++)
    {
      struct sbx_container c;
      struct sbx_error ignored = { 0 };
      int o = sbx_state_open (root, ids->v[i], false, &c, &ignored);
      if (o == -ENOENT || c.id == NULL)
        ; /* deleted meanwhile */
      else if (fmt == LIST_QUIET)
        printf ("%s\n", c.id);
      else if (fmt == LIST_TABLE)
        print_row (&c);
      else if (sbx_state_emit (g, &c) < 0)
        r = sbx_fail (err, -ENOMEM, "cannot format the list");
      sbx_state_close (&c);
    }
  if (g)
    {
      char *text = NULL;
      size_t len;
      if (r == 0
          && (sbx_json_close (g, true) < 0
              || sbx_json_finish (g, &text, &len) < 0))
        r = sbx_fail (err, -ENOMEM, "cannot format the list");
      if (r == 0)
        fwrite (text, 1, len, stdout);
      free (text);
      yajl_gen_free (g);
    }
  return r;
}

int
sbx_cmd_list (struct sbx_context *g, int argc, char **argv,
              struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "format", required_argument, NULL, 'f' },
    { "quiet", no_argument, NULL, 'q' },
    { NULL, 0, NULL, 0 },
  };
  enum list_format fmt = LIST_TABLE;
  bool quiet = false;
  int c;
  while ((c = getopt_long (argc, argv, "+f:q", longopts, NULL)) != -1)
    if (c == 'q')
      quiet = true;
    else if (c == 'f' && strcmp (optarg, "json") == 0)
      fmt = LIST_JSON;
    else if (c == 'f' && strcmp (optarg, "table") == 0)
      fmt = LIST_TABLE;
    else
      return sbx_fail_usage (err, "list: expected --format table|json or -q");
  if (quiet)
    fmt = LIST_QUIET;
  struct strv ids = { 0 };
  int r = collect_ids (sbx_state_root (g), &ids, err);
  if (r == 0)
    r = list_all (sbx_state_root (g), &ids, fmt, err);
  strv_free (&ids);
  return r < 0 ? r : 0;
}
