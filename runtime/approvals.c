#include "runtime/approvals.h"

#include <errno.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/file_io.h"

int
sbx_read_approvals (const struct sbx_globals *g, struct strv *tokens,
                    struct sbx_error *err)
{
  cleanup_free char *text = NULL;
  if (g->approve == NULL)
    return 0;
  int r = sbx_read_file (g->approve, 64 * 1024, &text, NULL, err);
  if (r == -ENOENT)
    return sbx_fail (err, r, "--approve: %s does not exist", g->approve);
  if (r < 0)
    return r;
  for (char *save = NULL, *line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    {
      line[strcspn (line, "#")] = '\0';
      line += strspn (line, " \t");
      line[strcspn (line, " \t\r")] = '\0';
      if (line[0] && strv_push (tokens, line) < 0)
        return sbx_fail (err, -ENOMEM, "out of memory");
    }
  return 0;
}

int
sbx_check_approvals (const struct sbx_globals *g, const struct sbx_spec *spec,
                     const struct sbx_plan *plan, struct sbx_error *err)
{
  cleanup_strv struct strv tokens = { 0 };
  int r = sbx_read_approvals (g, &tokens, err);
  if (r < 0)
    return r;
  return sbx_policy_check_approvals (spec, plan, &tokens, err);
}
