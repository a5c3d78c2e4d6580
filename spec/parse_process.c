/* The "process" section: what runs, as whom, with which limits.  */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "spec/parse_json.h"
#include "spec/parse_sections.h"

/* Every RLIMIT_* Linux knows, in the kernel's order.  */
static const struct jenum rlimit_names[] = {
  { "RLIMIT_CPU", RLIMIT_CPU },
  { "RLIMIT_FSIZE", RLIMIT_FSIZE },
  { "RLIMIT_DATA", RLIMIT_DATA },
  { "RLIMIT_STACK", RLIMIT_STACK },
  { "RLIMIT_CORE", RLIMIT_CORE },
  { "RLIMIT_RSS", RLIMIT_RSS },
  { "RLIMIT_NPROC", RLIMIT_NPROC },
  { "RLIMIT_NOFILE", RLIMIT_NOFILE },
  { "RLIMIT_MEMLOCK", RLIMIT_MEMLOCK },
  { "RLIMIT_AS", RLIMIT_AS },
  { "RLIMIT_LOCKS", RLIMIT_LOCKS },
  { "RLIMIT_SIGPENDING", RLIMIT_SIGPENDING },
  { "RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE },
  { "RLIMIT_NICE", RLIMIT_NICE },
  { "RLIMIT_RTPRIO", RLIMIT_RTPRIO },
  { "RLIMIT_RTTIME", RLIMIT_RTTIME },
};

static const char *
check_env_entry (const char *s)
{
  const char *eq = strchr (s, '=');
  return eq && eq != s ? NULL : "expected \"NAME=value\"";
}

static int
parse_additional_gids (struct sbx_jctx *c, yajl_val obj, struct sbx_user *u)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, "additionalGids", 0, &v, &mark);
  if (r <= 0)
    return r;
  if (!YAJL_IS_ARRAY (v))
    return jfail (c, "expected an array");
  if (v->u.array.len == 0)
    {
      jpath_pop (c, mark);
      return 0;
    }
  u->additional_gids = calloc (v->u.array.len, sizeof *u->additional_gids);
  if (u->additional_gids == NULL)
    return jfail_nomem (c);
  for (size_t i = 0; i < v->u.array.len; i++)
    {
      uint64_t gid;
      size_t item_mark = jpath_push_index (c, i);
      r = jv_u64 (c, v->u.array.values[i], 0, UINT32_MAX, &gid);
      if (r < 0)
        return r;
      u->additional_gids[u->n_additional_gids++] = (gid_t) gid;
      jpath_pop (c, item_mark);
    }
  jpath_pop (c, mark);
  return 0;
}

static int
parse_user (struct sbx_jctx *c, yajl_val process, struct sbx_user *u)
{
  yajl_val obj;
  size_t mark;
  uint32_t uid = 0, gid = 0, umask = 0;
  int r = json_object (c, process, "user", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = json_u32 (c, obj, "uid", JSON_REQUIRED, 0, UINT32_MAX, &uid);
  if (r >= 0)
    r = json_u32 (c, obj, "gid", JSON_REQUIRED, 0, UINT32_MAX, &gid);
  if (r >= 0)
    r = json_u32 (c, obj, "umask", 0, 0, 07777, &umask);
  u->uid = uid;
  u->gid = gid;
  u->has_umask = r > 0;
  u->umask = umask;
  if (r >= 0)
    r = parse_additional_gids (c, obj, u);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static int
parse_capabilities (struct sbx_jctx *c, yajl_val process,
                    struct sbx_capabilities *caps)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, process, "capabilities", 0, &obj, &mark);
  if (r <= 0)
    return r;
  caps->present = true;
  r = json_strv (c, obj, "bounding", 0, NULL, &caps->bounding);
  if (r >= 0)
    r = json_strv (c, obj, "effective", 0, NULL, &caps->effective);
  if (r >= 0)
    r = json_strv (c, obj, "inheritable", 0, NULL, &caps->inheritable);
  if (r >= 0)
    r = json_strv (c, obj, "permitted", 0, NULL, &caps->permitted);
  if (r >= 0)
    r = json_strv (c, obj, "ambient", 0, NULL, &caps->ambient);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static int
parse_rlimit_type (struct sbx_jctx *c, yajl_val obj, struct sbx_rlimit *rl,
                   const struct sbx_rlimit *earlier, size_t n_earlier)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, "type", JSON_REQUIRED, &v, &mark);
  if (r < 0)
    return r;
  r = jv_enum (c, v, rlimit_names, sizeof rlimit_names / sizeof *rlimit_names,
               &rl->resource);
  if (r < 0)
    return r;
  rl->type = strdup (v->u.string);
  if (rl->type == NULL)
    return jfail_nomem (c);
  for (size_t j = 0; j < n_earlier; j++)
    if (earlier[j].resource == rl->resource)
      return jfail (c, "duplicate \"%s\"", rl->type);
  jpath_pop (c, mark);
  return 0;
}

static int
parse_rlimit (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_rlimit *rl = (struct sbx_rlimit *) items + i;
  int r = parse_rlimit_type (c, obj, rl, items, i);
  if (r >= 0)
    r = json_u64 (c, obj, "hard", JSON_REQUIRED, &rl->hard);
  if (r >= 0)
    r = json_u64 (c, obj, "soft", JSON_REQUIRED, &rl->soft);
  if (r < 0)
    return r;
  if (rl->soft > rl->hard)
    {
      jpath_push_key (c, "soft");
      /* setrlimit(2) would refuse it later, with a worse message.  */
      return jfail (c, "greater than hard");
    }
  return 0;
}

static int
parse_rlimits (struct sbx_jctx *c, yajl_val obj, struct sbx_process *p)
{
  void *items = NULL;
  int r = json_object_array (c, obj, "rlimits", 0, sizeof *p->rlimits,
                             parse_rlimit, &items, &p->n_rlimits);
  p->rlimits = items;
  return r;
}

int
sbx_parse_process (struct sbx_jctx *c, yajl_val obj, struct sbx_process *p)
{
  int64_t oom = 0;
  int r = json_bool (c, obj, "terminal", 0, &p->terminal);
  if (r >= 0)
    r = parse_user (c, obj, &p->user);
  if (r >= 0)
    r = json_strv (c, obj, "args", JSON_REQUIRED | JSON_NON_EMPTY, NULL,
                   &p->args);
  if (r >= 0)
    r = json_strv (c, obj, "env", 0, check_env_entry, &p->env);
  if (r >= 0)
    r = json_abs_path (c, obj, "cwd", JSON_REQUIRED, &p->cwd);
  if (r >= 0)
    r = parse_capabilities (c, obj, &p->capabilities);
  if (r >= 0)
    r = parse_rlimits (c, obj, p);
  if (r >= 0)
    r = json_bool (c, obj, "noNewPrivileges", 0, &p->no_new_privileges);
  if (r >= 0)
    r = json_label (c, obj, "apparmorProfile", &p->apparmor_profile);
  if (r >= 0)
    r = json_label (c, obj, "selinuxLabel", &p->selinux_label);
  if (r >= 0)
    r = json_i64 (c, obj, "oomScoreAdj", 0, -1000, 1000, &oom);
  if (r < 0)
    return r;
  p->has_oom_score_adj = r > 0;
  p->oom_score_adj = (int) oom;
  return 0;
}
