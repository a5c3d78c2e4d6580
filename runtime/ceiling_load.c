#include "runtime/ceiling_load.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "common/file_io.h"

#define CEILING_MAX_BYTES (64u * 1024)

static int
read_text (const char *option, const char *path, char **text, size_t *len,
           struct sbx_error *err)
{
  int r = sbx_read_regular_file (path, CEILING_MAX_BYTES, text, len, err);
  if (r == -ENOENT)
    return sbx_fail (err, r, "%s: %s does not exist", option, path);
  return r < 0 ? sbx_error_prefix (err, "%s", option) : 0;
}

static int
resolve_workspaces (struct sbx_ceiling *c, const char *file,
                    struct sbx_error *err)
{
  for (size_t i = 0; i < c->workspaces.n; i++)
    {
      const char *named = c->workspaces.v[i];
      char *real = realpath (named, NULL);
      if (real == NULL)
        return sbx_fail_errno (err, -errno, "%s: workspaces[%zu]: %s", file, i,
                               named);
      struct stat st;
      if (stat (real, &st) < 0 || !S_ISDIR (st.st_mode))
        {
          free (real);
          return sbx_fail (err, -ENOTDIR,
                           "%s: workspaces[%zu]: %s is not a directory", file,
                           i, named);
        }
      free (c->workspaces.v[i]);
      c->workspaces.v[i] = real;
    }
  return 0;
}

int
sbx_ceiling_load (const struct sbx_context *g, struct sbx_ceiling *out,
                  struct sbx_error *err)
{
  memset (out, 0, sizeof *out);
  cleanup_free char *text = NULL;
  size_t len = 0;
  int r = 0;
  if (g->ceiling)
    {
      r = read_text ("--ceiling", g->ceiling, &text, &len, err);
      if (r == 0 && (r = sbx_ceiling_parse (text, len, out, err)) < 0)
        return sbx_error_prefix (err, "%s", g->ceiling);
      if (r == 0)
        r = resolve_workspaces (out, g->ceiling, err);
    }
  if (r == 0 && g->approve)
    {
      cleanup_free char *tokens = NULL;
      r = read_text ("--approve", g->approve, &tokens, &len, err);
      if (r == 0)
        r = sbx_ceiling_add_approvals (out, tokens, err);
    }
  if (r < 0)
    {
      sbx_ceiling_free (out);
      return r;
    }
  return g->ceiling != NULL;
}
