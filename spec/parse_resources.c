/* linux.resources beyond memory.limit and pids.limit: the memory, cpu,
   device, block I/O, huge page and network settings a cgroup carries
   (cgroups/ writes them at create).  */
#include <stdlib.h>
#include <string.h>

#include "spec/parse_sections.h"

static int
parse_i64_opt (struct sbx_jctx *c, yajl_val obj, const char *key, int64_t min,
               bool *has, int64_t *out)
{
  int r = json_i64 (c, obj, key, 0, min, INT64_MAX, out);
  *has = r > 0;
  return r;
}

static int
parse_memory (struct sbx_jctx *c, yajl_val resources,
              struct sbx_resources_tuning *t)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, resources, "memory", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = parse_i64_opt (c, obj, "swap", -1, &t->has_swap, &t->swap);
  if (r >= 0)
    r = parse_i64_opt (c, obj, "reservation", -1, &t->has_reservation,
                       &t->reservation);
  if (r >= 0)
    r = parse_i64_opt (c, obj, "kernelTCP", -1, &t->has_kernel_tcp,
                       &t->kernel_tcp);
  if (r >= 0)
    {
      uint32_t v = 0;
      r = json_u32 (c, obj, "swappiness", 0, 0, 100, &v);
      t->has_swappiness = r > 0;
      t->swappiness = v;
    }
  if (r >= 0)
    r = json_bool (c, obj, "disableOOMKiller", 0, &t->disable_oom_killer);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

/* A cpu or memory-node list as cpuset takes it: digits, ',' and '-'.  */
static int
parse_cpu_list (struct sbx_jctx *c, yajl_val obj, const char *key, char **out)
{
  int r = json_string (c, obj, key, 0, out);
  if (r <= 0 || (*out)[strspn (*out, "0123456789,-")] == '\0')
    return r;
  jpath_push_key (c, key);
  return jfail (c, "expected a list such as \"0-3,5\"");
}

static int
parse_cpu (struct sbx_jctx *c, yajl_val resources,
           struct sbx_resources_tuning *t)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, resources, "cpu", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = json_u64 (c, obj, "shares", 0, &t->shares);
  t->has_shares = r > 0;
  if (r >= 0)
    r = parse_i64_opt (c, obj, "quota", -1, &t->has_quota, &t->quota);
  if (r >= 0)
    {
      r = json_u64 (c, obj, "period", 0, &t->period);
      t->has_period = r > 0;
    }
  if (r >= 0)
    r = parse_cpu_list (c, obj, "cpus", &t->cpus);
  if (r >= 0)
    r = parse_cpu_list (c, obj, "mems", &t->mems);
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

static const struct jenum device_types[] = {
  { "a", 'a' },
  { "b", 'b' },
  { "c", 'c' },
};

static int
parse_device_rule (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_device_rule *d = (struct sbx_device_rule *) items + i;
  int type = 'a';
  char *access = NULL;
  d->major = d->minor = -1;
  int r = json_bool (c, obj, "allow", JSON_REQUIRED, &d->allow);
  if (r >= 0)
    r = json_enum (c, obj, "type", 0, device_types, 3, &type);
  d->type = (char) type;
  /* The kernel's rules take 32-bit numbers (v1 reads 4294967295 as
     "any", as "*").  */
  if (r >= 0)
    r = json_i64 (c, obj, "major", 0, -1, UINT32_MAX, &d->major);
  if (r >= 0)
    r = json_i64 (c, obj, "minor", 0, -1, UINT32_MAX, &d->minor);
  if (r >= 0)
    r = json_string (c, obj, "access", 0, &access);
  if (r >= 0 && access
      && (strlen (access) > 3 || access[strspn (access, "rwm")] != '\0'))
    {
      jpath_push_key (c, "access");
      r = jfail (c, "expected some of \"rwm\"");
    }
  if (r >= 0)
    strcpy (d->access, access ? access : "rwm");
  free (access);
  return r;
}

/* A block device's major and minor: 12 and 20 bits, as the kernel's
   dev_t holds them (no wildcard in the block I/O files).  */
static int
parse_block_device (struct sbx_jctx *c, yajl_val obj, uint32_t *major,
                    uint32_t *minor)
{
  int r = json_u32 (c, obj, "major", JSON_REQUIRED, 0, (1u << 12) - 1, major);
  return r < 0 ? r
               : json_u32 (c, obj, "minor", JSON_REQUIRED, 0, (1u << 20) - 1,
                           minor);
}

/* OCI's weights are 10..1000; 0 here means "not asked".  */
static int
parse_weight (struct sbx_jctx *c, yajl_val obj, const char *key, uint16_t *out)
{
  uint32_t v = 0;
  int r = json_u32 (c, obj, key, 0, 10, 1000, &v);
  *out = (uint16_t) v;
  return r;
}

static int
parse_weight_device (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_blkio_weight_device *d
      = (struct sbx_blkio_weight_device *) items + i;
  int r = parse_block_device (c, obj, &d->major, &d->minor);
  if (r >= 0)
    r = parse_weight (c, obj, "weight", &d->weight);
  if (r >= 0)
    r = parse_weight (c, obj, "leafWeight", &d->leaf_weight);
  return r;
}

/* A rate of 0 is no throttle, which a new cgroup has (runc and crun take
   it; nothing is written for it); v1's IOPS files take 32 bits.  */
static int
parse_rate_device (struct sbx_jctx *c, yajl_val obj, uint64_t max,
                   struct sbx_blkio_rate_device *d)
{
  int r = parse_block_device (c, obj, &d->major, &d->minor);
  return r < 0 ? r
               : json_u64_range (c, obj, "rate", JSON_REQUIRED, 0, max,
                                 &d->rate);
}

static int
parse_bps_device (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  return parse_rate_device (c, obj, UINT64_MAX,
                            (struct sbx_blkio_rate_device *) items + i);
}

static int
parse_iops_device (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  return parse_rate_device (c, obj, UINT32_MAX,
                            (struct sbx_blkio_rate_device *) items + i);
}

static int
parse_block_io (struct sbx_jctx *c, yajl_val resources, struct sbx_block_io *b)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, resources, "blockIO", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = parse_weight (c, obj, "weight", &b->weight);
  if (r >= 0)
    r = parse_weight (c, obj, "leafWeight", &b->leaf_weight);
  void *list = NULL;
  if (r >= 0)
    r = json_object_array (c, obj, "weightDevice", 0,
                           sizeof *b->weight_devices, parse_weight_device,
                           &list, &b->n_weight_devices);
  b->weight_devices = list;
  for (int t = 0; r >= 0 && t < SBX_BLKIO_THROTTLE_N; t++)
    {
      list = NULL;
      bool iops = t == SBX_BLKIO_READ_IOPS || t == SBX_BLKIO_WRITE_IOPS;
      r = json_object_array (c, obj, sbx_blkio_throttle_keys[t], 0,
                             sizeof *b->throttle[t],
                             iops ? parse_iops_device : parse_bps_device,
                             &list, &b->n_throttle[t]);
      b->throttle[t] = list;
    }
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

/* As hugetlb's file names spell a page size: "64KB", "2MB", "1GB".  */
static bool
page_size_valid (const char *s)
{
  size_t digits = strspn (s, "0123456789");
  return digits > 0 && digits < 10 && s[0] != '0'
         && (strcmp (s + digits, "KB") == 0 || strcmp (s + digits, "MB") == 0
             || strcmp (s + digits, "GB") == 0);
}

/* A string of at most SIZE - 1 bytes that VALID accepts, into OUT.  */
static int
parse_short_name (struct sbx_jctx *c, yajl_val obj, const char *key,
                  bool (*valid) (const char *), const char *expected,
                  char *out, size_t size)
{
  char *s = NULL;
  int r = json_string (c, obj, key, JSON_REQUIRED, &s);
  if (r >= 0 && (strlen (s) >= size || !valid (s)))
    {
      jpath_push_key (c, key);
      r = jfail (c, "expected %s", expected);
    }
  if (r >= 0)
    memcpy (out, s, strlen (s) + 1);
  free (s);
  return r;
}

static int
parse_hugepage_limit (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_hugepage_limit *h = (struct sbx_hugepage_limit *) items + i;
  int r = parse_short_name (c, obj, "pageSize", page_size_valid,
                            "a page size such as \"2MB\" or \"1GB\"",
                            h->page_size, sizeof h->page_size);
  return r < 0 ? r : json_u64 (c, obj, "limit", JSON_REQUIRED, &h->limit);
}

/* An interface name as the kernel takes one (dev_valid_name), and no
   control character: it reaches messages on a terminal.  */
static bool
ifname_valid (const char *s)
{
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    if (*p < 0x20 || *p == 0x7f)
      return false;
  return s[0] != '\0' && strcmp (s, ".") != 0 && strcmp (s, "..") != 0
         && s[strcspn (s, " /:")] == '\0';
}

static int
parse_net_priority (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_net_priority *p = (struct sbx_net_priority *) items + i;
  int r = parse_short_name (c, obj, "name", ifname_valid,
                            "an interface name (1 to 15 bytes, no white "
                            "space, '/' or ':')",
                            p->name, sizeof p->name);
  return r < 0 ? r
               : json_u32 (c, obj, "priority", JSON_REQUIRED, 0, UINT32_MAX,
                           &p->priority);
}

static int
parse_network (struct sbx_jctx *c, yajl_val resources,
               struct sbx_net_settings *n)
{
  yajl_val obj;
  size_t mark;
  int r = json_object (c, resources, "network", 0, &obj, &mark);
  if (r <= 0)
    return r;
  r = json_u32 (c, obj, "classID", 0, 0, UINT32_MAX, &n->class_id);
  n->has_class_id = r > 0;
  void *list = NULL;
  if (r >= 0)
    r = json_object_array (c, obj, "priorities", 0, sizeof *n->priorities,
                           parse_net_priority, &list, &n->n_priorities);
  n->priorities = list;
  if (r < 0)
    return r;
  jpath_pop (c, mark);
  return 0;
}

int
sbx_parse_resources_tuning (struct sbx_jctx *c, yajl_val resources,
                            struct sbx_resources_tuning *t)
{
  void *devices = NULL;
  int r = parse_memory (c, resources, t);
  if (r >= 0)
    r = parse_cpu (c, resources, t);
  if (r >= 0)
    {
      r = json_object_array (c, resources, "devices", 0, sizeof *t->devices,
                             parse_device_rule, &devices, &t->n_devices);
      t->devices = devices;
    }
  if (r >= 0)
    r = parse_block_io (c, resources, &t->block_io);
  if (r >= 0)
    {
      void *list = NULL;
      r = json_object_array (c, resources, "hugepageLimits", 0,
                             sizeof *t->hugepage_limits, parse_hugepage_limit,
                             &list, &t->n_hugepage_limits);
      t->hugepage_limits = list;
    }
  if (r >= 0)
    r = parse_network (c, resources, &t->network);
  return r < 0 ? r : 0;
}
