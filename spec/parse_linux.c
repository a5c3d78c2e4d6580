/* The "linux" section: namespaces, id mappings, masked paths, seccomp,
   resources.  Seccomp action and operator names are checked where the
   filter is compiled, not here.  */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "spec/parse_json.h"
#include "spec/parse_sections.h"

static const struct jenum namespace_names[] = {
  { "pid", SBX_NS_PID },       { "network", SBX_NS_NETWORK },
  { "mount", SBX_NS_MOUNT },   { "ipc", SBX_NS_IPC },
  { "uts", SBX_NS_UTS },       { "user", SBX_NS_USER },
  { "cgroup", SBX_NS_CGROUP }, { "time", SBX_NS_TIME },
};

static int
parse_namespace (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_namespace *all = items, *ns = all + i;
  yajl_val v;
  size_t mark;
  int type;
  int r = json_field (c, obj, "type", JSON_REQUIRED, &v, &mark);
  if (r >= 0)
    r = jv_enum (c, v, namespace_names,
                 sizeof namespace_names / sizeof *namespace_names, &type);
  if (r < 0)
    return r;
  ns->type = (enum sbx_ns_type) type;
  for (size_t j = 0; j < i; j++)
    if (all[j].type == ns->type)
      return jfail (c, "duplicate \"%s\"", v->u.string);
  jpath_pop (c, mark);
  return json_abs_path (c, obj, "path", 0, &ns->path);
}

/* What the kernel takes in a uid_map or gid_map (UID_GID_MAP_MAX_EXTENTS):
   refused here, with the entry, rather than as EINVAL from its write.  */
#define MAX_ID_MAPPINGS 340

/* An extent may not run past 4294967295 (the kernel refuses a first + count
   that wraps; (uid_t) -1 is never a valid id).  */
static bool
past_the_end (uint32_t first, uint32_t size)
{
  return (uint64_t) first + size > UINT32_MAX;
}

static bool
overlap (uint32_t a, uint32_t b, uint32_t size_a, uint32_t size_b)
{
  return (uint64_t) a < (uint64_t) b + size_b
         && (uint64_t) b < (uint64_t) a + size_a;
}

/* The kernel refuses a map whose extents overlap on either side.  */
static int
check_overlaps (struct sbx_jctx *c, const char *key,
                const struct sbx_id_mapping *m, size_t i)
{
  for (size_t j = 0; j < i; j++)
    {
      const char *side = NULL;
      uint32_t first = 0;
      if (overlap (m[i].container_id, m[j].container_id, m[i].size, m[j].size))
        side = "container", first = m[i].container_id;
      else if (overlap (m[i].host_id, m[j].host_id, m[i].size, m[j].size))
        side = "host", first = m[i].host_id;
      if (side)
        return jfail (c,
                      "%s ids %" PRIu32 " to %" PRIu32 " overlap those of "
                      "linux.%s[%zu]",
                      side, first, first + m[i].size - 1, key, j);
    }
  return 0;
}

static int
parse_id_mapping (struct sbx_jctx *c, const char *key, yajl_val obj,
                  void *items, size_t i)
{
  struct sbx_id_mapping *m = (struct sbx_id_mapping *) items + i;
  if (i == MAX_ID_MAPPINGS)
    return jfail (c, "more than %d mappings, the kernel's limit",
                  MAX_ID_MAPPINGS);
  int r = json_u32 (c, obj, "containerID", JSON_REQUIRED, 0, UINT32_MAX,
                    &m->container_id);
  if (r >= 0)
    r = json_u32 (c, obj, "hostID", JSON_REQUIRED, 0, UINT32_MAX, &m->host_id);
  if (r >= 0)
    r = json_u32 (c, obj, "size", JSON_REQUIRED, 1, UINT32_MAX, &m->size);
  if (r < 0)
    return r;
  if (past_the_end (m->container_id, m->size))
    return jfail (
        c, "containerID + size is past %" PRIu32 ", the end of the id range",
        UINT32_MAX);
  if (past_the_end (m->host_id, m->size))
    return jfail (c,
                  "hostID + size is past %" PRIu32 ", the end of the id range",
                  UINT32_MAX);
  return check_overlaps (c, key, items, i);
}

static int
parse_uid_mapping (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  return parse_id_mapping (c, "uidMappings", obj, items, i);
}

static int
parse_gid_mapping (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  return parse_id_mapping (c, "gidMappings", obj, items, i);
}

static int
parse_seccomp_arg (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_seccomp_arg *a = (struct sbx_seccomp_arg *) items + i;
  /* The kernel passes six syscall arguments.  */
  int r = json_u32 (c, obj, "index", JSON_REQUIRED, 0, 5, &a->index);
  if (r >= 0)
    r = json_u64 (c, obj, "value", JSON_REQUIRED, &a->value);
  if (r >= 0)
    r = json_u64 (c, obj, "valueTwo", 0, &a->value_two);
  if (r >= 0)
    r = json_string (c, obj, "op", JSON_REQUIRED, &a->op);
  return r;
}

static int
parse_seccomp_rule (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_seccomp_rule *rule = (struct sbx_seccomp_rule *) items + i;
  void *args = NULL;
  int r = json_strv (c, obj, "names", JSON_REQUIRED | JSON_NON_EMPTY, NULL,
                     &rule->names);
  if (r >= 0)
    r = json_string (c, obj, "action", JSON_REQUIRED, &rule->action);
  if (r >= 0)
    r = json_u32 (c, obj, "errnoRet", 0, 0, UINT32_MAX, &rule->errno_ret);
  rule->has_errno_ret = r > 0;
  if (r >= 0)
    {
      r = json_object_array (c, obj, "args", 0, sizeof *rule->args,
                             parse_seccomp_arg, &args, &rule->n_args);
      rule->args = args;
    }
  return r;
}

static int
parse_seccomp (struct sbx_jctx *c, yajl_val linux_obj, struct sbx_linux *lx)
{
  yajl_val obj;
  size_t mark;
  void *rules = NULL;
  int r = json_object (c, linux_obj, "seccomp", 0, &obj, &mark);
  if (r <= 0)
    return r;
  struct sbx_seccomp *s = lx->seccomp = calloc (1, sizeof *lx->seccomp);
  if (s == NULL)
    return jfail_nomem (c);
  r = json_string (c, obj, "defaultAction", JSON_REQUIRED, &s->default_action);
  if (r >= 0)
    r = json_u32 (c, obj, "defaultErrnoRet", 0, 0, UINT32_MAX,
                  &s->default_errno_ret);
  s->has_default_errno_ret = r > 0;
  if (r >= 0)
    r = json_strv (c, obj, "architectures", 0, NULL, &s->architectures);
  if (r >= 0)
    r = json_strv (c, obj, "flags", 0, NULL, &s->flags);
  if (r >= 0)
    {
      r = json_object_array (c, obj, "syscalls", 0, sizeof *s->syscalls,
                             parse_seccomp_rule, &rules, &s->n_syscalls);
      s->syscalls = rules;
    }
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

/* Below this a sandbox cannot start: the runner is killed for memory (or
   cannot exec) before the command runs, and all the caller would see is
   a runner that died without a word.  Measured as root on a cgroup v1
   host: 768 KiB kills the runner, 1 MiB starts `true` and `sh -c`; the
   margin is for cgroup v2, which charges kernel memory too, and for a
   dynamically linked runner.  */
#define MIN_MEMORY_LIMIT (4ULL << 20)

/* One "limit" inside resources.KEY (the rest of memory, cpu and devices
   are parse_resources.c's; other resources are ignored like unknown
   keys).  OCI reads -1 (and 0) as "no
   limit"; any other negative number is a mistake, not a wish for none. */
static int
parse_limit (struct sbx_jctx *c, yajl_val resources, const char *key,
             bool *has, int64_t *limit)
{
  yajl_val obj, v;
  size_t mark, limit_mark;
  int r = json_object (c, resources, key, 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = json_field (c, obj, "limit", 0, &v, &limit_mark);
  if (r <= 0)
    {
      jpath_pop (c, mark);
      return r;
    }
  r = jv_i64 (c, v, INT64_MIN, INT64_MAX, limit);
  if (r < 0)
    return r;
  if (*limit < -1)
    return jfail (c,
                  "%" PRId64 " is negative: give -1 or leave it out for no "
                  "limit",
                  *limit);
  if (strcmp (key, "memory") == 0 && *limit > 0
      && (uint64_t) *limit < MIN_MEMORY_LIMIT)
    return jfail (c,
                  "%" PRId64 " bytes is too small for the sandbox to start "
                  "(at least %llu MiB)",
                  *limit, MIN_MEMORY_LIMIT >> 20);
  *has = true;
  jpath_pop (c, limit_mark);
  jpath_pop (c, mark);
  return 0;
}

static int
parse_resources (struct sbx_jctx *c, yajl_val linux_obj,
                 struct sbx_resources *res)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, linux_obj, "resources", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = parse_limit (c, obj, "memory", &res->has_memory_limit,
                   &res->memory_limit);
  if (r >= 0)
    r = parse_limit (c, obj, "pids", &res->has_pids_limit, &res->pids_limit);
  if (r >= 0)
    r = sbx_parse_resources_tuning (c, obj, &res->tuning);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static int
parse_mappings (struct sbx_jctx *c, yajl_val obj, const char *key,
                jitem_parse parse, struct sbx_id_mapping **out, size_t *n)
{
  void *items = NULL;
  int r = json_object_array (c, obj, key, 0, sizeof **out, parse, &items, n);
  *out = items;
  return r;
}

int
sbx_parse_linux (struct sbx_jctx *c, yajl_val obj, struct sbx_linux *lx)
{
  void *namespaces = NULL;
  int r = json_object_array (c, obj, "namespaces", 0, sizeof *lx->namespaces,
                             parse_namespace, &namespaces, &lx->n_namespaces);
  lx->namespaces = namespaces;
  if (r >= 0)
    r = parse_mappings (c, obj, "uidMappings", parse_uid_mapping,
                        &lx->uid_mappings, &lx->n_uid_mappings);
  if (r >= 0)
    r = parse_mappings (c, obj, "gidMappings", parse_gid_mapping,
                        &lx->gid_mappings, &lx->n_gid_mappings);
  if (r >= 0)
    r = json_strv (c, obj, "maskedPaths", 0, jcheck_abs_path,
                   &lx->masked_paths);
  if (r >= 0)
    r = json_strv (c, obj, "readonlyPaths", 0, jcheck_abs_path,
                   &lx->readonly_paths);
  if (r >= 0)
    r = parse_seccomp (c, obj, lx);
  if (r >= 0)
    r = parse_resources (c, obj, &lx->resources);
  if (r >= 0)
    r = json_string (c, obj, "cgroupsPath", 0, &lx->cgroups_path);
  if (r >= 0)
    r = json_kv (c, obj, "sysctl", &lx->sysctl, &lx->n_sysctl);
  if (r >= 0)
    r = json_string (c, obj, "rootfsPropagation", 0, &lx->rootfs_propagation);
  if (r >= 0)
    r = sbx_parse_devices (c, obj, lx);
  if (r >= 0)
    r = json_label (c, obj, "mountLabel", &lx->mount_label);
  return r < 0 ? r : 0;
}
