/* sbx_ceiling_parse: the operator's ceiling file -> struct sbx_ceiling.  */
#include "policy/ceiling.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "spec/parse_json.h"
#include "spec/parse_sections.h"

static const char *const ceiling_keys[]
    = { "workspaces", "maxMode", "maxNetwork", "approve" };

/* The ceiling is the operator's own file: a key we do not know is a typo
   that would otherwise silently grant the default.  */
static int
refuse_unknown_keys (struct sbx_jctx *c, yajl_val top)
{
  for (size_t i = 0; i < top->u.object.len; i++)
    {
      const char *key = top->u.object.keys[i];
      bool known = false;
      for (size_t k = 0; k < sizeof ceiling_keys / sizeof *ceiling_keys; k++)
        known |= strcmp (key, ceiling_keys[k]) == 0;
      if (!known)
        {
          jpath_push_key (c, key);
          return jfail (c, "unknown key (expected workspaces, maxMode, "
                           "maxNetwork or approve)");
        }
    }
  return 0;
}

static const char *
check_token (const char *s)
{
  return s[0] && !strpbrk (s, " \t\r\n#") ? NULL
                                          : "expected a token without "
                                            "blanks or '#'";
}

static int
normalize_workspaces (struct sbx_jctx *c, struct strv *v)
{
  for (size_t i = 0; i < v->n; i++)
    {
      char *p = sbx_path_normalize (v->v[i]);
      if (p == NULL)
        return jfail_nomem (c);
      free (v->v[i]);
      v->v[i] = p;
    }
  return 0;
}

static int
parse_fields (struct sbx_jctx *c, yajl_val top, struct sbx_ceiling *out)
{
  int mode = SBX_MODE_UNSET, net = SBX_NET_DENY;
  int r = refuse_unknown_keys (c, top);
  if (r == 0)
    r = json_strv (c, top, "workspaces", 0, jcheck_abs_path, &out->workspaces);
  if (r >= 0)
    r = normalize_workspaces (c, &out->workspaces);
  if (r >= 0)
    r = json_enum (c, top, "maxMode", 0, sbx_mode_jenum, SBX_MODE_JENUM_N,
                   &mode);
  if (r >= 0)
    r = json_enum (c, top, "maxNetwork", 0, sbx_net_jenum, SBX_NET_JENUM_N,
                   &net);
  if (r >= 0)
    r = json_strv (c, top, "approve", 0, check_token, &out->approvals);
  if (r < 0)
    return r;
  if (mode == SBX_MODE_UNSET)
    mode = out->workspaces.n ? SBX_MODE_WORKSPACE_WRITE : SBX_MODE_READ_ONLY;
  out->max_mode = (enum sbx_mode) mode;
  out->max_network = (enum sbx_net) net;
  if (mode == SBX_MODE_WORKSPACE_WRITE && out->workspaces.n == 0)
    {
      size_t mark = jpath_push_key (c, "workspaces");
      r = jfail (c, "maxMode \"workspace-write\" needs at least one "
                    "workspace");
      jpath_pop (c, mark);
    }
  return r;
}

int
sbx_ceiling_parse (const char *json, size_t len, struct sbx_ceiling *out,
                   struct sbx_error *err)
{
  memset (out, 0, sizeof *out);
  yajl_val top = NULL;
  int r = sbx_json_parse_object (json, len, &top, err);
  if (r == 0)
    {
      struct sbx_jctx c = { .err = err, .bundle = "/" };
      r = parse_fields (&c, top, out);
      free (c.lookups); /* what json_field noted; only spec_parse asks */
    }
  yajl_tree_free (top);
  if (r < 0)
    sbx_ceiling_free (out);
  return r;
}

int
sbx_ceiling_add_approvals (struct sbx_ceiling *c, char *text,
                           struct sbx_error *err)
{
  for (char *save = NULL, *line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    {
      line[strcspn (line, "#")] = '\0';
      line += strspn (line, " \t");
      line[strcspn (line, " \t\r")] = '\0';
      if (line[0] && strv_push (&c->approvals, line) < 0)
        return sbx_fail (err, -ENOMEM, "out of memory");
    }
  return 0;
}

bool
sbx_ceiling_approves (const struct sbx_ceiling *c, const char *token)
{
  return strv_contains (&c->approvals, token);
}

void
sbx_ceiling_free (struct sbx_ceiling *c)
{
  strv_free (&c->workspaces);
  strv_free (&c->approvals);
  memset (c, 0, sizeof *c);
}
