/* cgroup v1: the memory, cpu, cpuset, device, block I/O, huge page and
   network settings of linux.resources, each in its own controller's
   directory.  */
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
put_i64 (const char *field, const char *dir, const char *file, int64_t value,
         struct sbx_error *err)
{
  char num[32];
  snprintf (num, sizeof num, "%" PRId64, value);
  return cg_put (field, dir, file, num, err);
}

/* memsw is memory + swap: the swap value as given (OCI's memory.swap is
   memory + swap too), else equal to the limit, no swap.  It must not be
   lower than limit_in_bytes, which is written first.  */
static int
write_memory (const char *mem, const struct sbx_cgroup_limits *l,
              struct sbx_error *err)
{
  int r = 0;
  if (l->memory_limit > 0)
    r = put_i64 (FIELD_RESOURCES ("memory.limit"), mem,
                 "memory.limit_in_bytes", l->memory_limit, err);
  int64_t memsw = l->memory_swap != 0 ? l->memory_swap : l->memory_limit;
  if (r == 0 && memsw != 0 && (l->memory_limit > 0 || l->memory_swap != 0)
      && cgfs_has_file (mem, "memory.memsw.limit_in_bytes"))
    r = put_i64 (FIELD_RESOURCES ("memory.swap"), mem,
                 "memory.memsw.limit_in_bytes", memsw, err);
  if (r == 0 && l->memory_reservation > 0)
    r = put_i64 (FIELD_RESOURCES ("memory.reservation"), mem,
                 "memory.soft_limit_in_bytes", l->memory_reservation, err);
  if (r == 0 && l->memory_kernel_tcp)
    r = put_i64 (FIELD_RESOURCES ("memory.kernelTCP"), mem,
                 "memory.kmem.tcp.limit_in_bytes", l->memory_kernel_tcp, err);
  if (r == 0 && l->has_swappiness)
    r = put_i64 (FIELD_RESOURCES ("memory.swappiness"), mem,
                 "memory.swappiness", l->swappiness, err);
  if (r == 0 && l->disable_oom_killer)
    r = cg_put (FIELD_RESOURCES ("memory.disableOOMKiller"), mem,
                "memory.oom_control", "1", err);
  return r;
}

static int
write_cpu (const char *cpu, const struct sbx_cgroup_limits *l,
           struct sbx_error *err)
{
  int r = 0;
  if (l->cpu_shares)
    r = put_i64 (FIELD_RESOURCES ("cpu.shares"), cpu, "cpu.shares",
                 (int64_t) l->cpu_shares, err);
  /* The quota is checked against the period: period first.  */
  if (r == 0 && l->cpu_period)
    r = put_i64 (FIELD_RESOURCES ("cpu.period"), cpu, "cpu.cfs_period_us",
                 (int64_t) l->cpu_period, err);
  if (r == 0 && l->cpu_quota)
    r = put_i64 (FIELD_RESOURCES ("cpu.quota"), cpu, "cpu.cfs_quota_us",
                 l->cpu_quota, err);
  return r;
}

static void
device_id (char *buf, size_t size, int64_t n)
{
  if (n < 0)
    snprintf (buf, size, "*");
  else
    snprintf (buf, size, "%" PRId64, n);
}

static int
write_device (const char *dir, const struct sbx_cgroup_device *d,
              struct sbx_error *err)
{
  char rule[96], major[24], minor[24];
  device_id (major, sizeof major, d->major);
  device_id (minor, sizeof minor, d->minor);
  if (d->type == 'a')
    snprintf (rule, sizeof rule, "a");
  else
    snprintf (rule, sizeof rule, "%c %s:%s %s", d->type, major, minor,
              d->access);
  return cg_put (FIELD_RESOURCES ("devices"), dir,
                 d->allow ? "devices.allow" : "devices.deny", rule, err);
}

static int
write_devices (const char *dir, const struct sbx_cgroup_limits *l,
               struct sbx_error *err)
{
  struct sbx_cgroup_device *rules;
  size_t n;
  if (cgfs_device_rules (l, &rules, &n) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  int r = 0;
  for (size_t i = 0; r == 0 && i < n; i++)
    r = write_device (dir, &rules[i], err);
  free (rules);
  return r;
}

/* "MAJOR:MINOR VALUE", as every per-device block I/O file takes it.  */
static int
put_device_value (const char *dir, const char *field, const char *file,
                  uint32_t major, uint32_t minor, uint64_t value,
                  struct sbx_error *err)
{
  char v[64];
  snprintf (v, sizeof v, "%" PRIu32 ":%" PRIu32 " %" PRIu64, major, minor,
            value);
  return cg_put (field, dir, file, v, err);
}

static const char *const throttle_files[SBX_BLKIO_THROTTLE_N] = {
  "blkio.throttle.read_bps_device",
  "blkio.throttle.write_bps_device",
  "blkio.throttle.read_iops_device",
  "blkio.throttle.write_iops_device",
};

/* The weights go to CFQ's blkio.weight where the kernel has it (before
   Linux 5.0), else to BFQ's blkio.bfq.weight, which takes the same
   10..1000; a per-device weight needs that device to use the scheduler. */
static int
write_blkio (const char *dir, const struct sbx_block_io *b,
             struct sbx_error *err)
{
  bool cfq = cgfs_has_file (dir, "blkio.weight");
  const char *weight = cfq ? "blkio.weight" : "blkio.bfq.weight";
  const char *weight_dev
      = cfq ? "blkio.weight_device" : "blkio.bfq.weight_device";
  char v[64];
  int r = 0;
  if (b->weight)
    {
      snprintf (v, sizeof v, "%u", b->weight);
      r = cg_put (FIELD_RESOURCES ("blockIO.weight"), dir, weight, v, err);
    }
  if (r == 0 && b->leaf_weight)
    {
      snprintf (v, sizeof v, "%u", b->leaf_weight);
      r = cg_put (FIELD_RESOURCES ("blockIO.leafWeight"), dir,
                  "blkio.leaf_weight", v, err);
    }
  for (size_t i = 0; r == 0 && i < b->n_weight_devices; i++)
    {
      const struct sbx_blkio_weight_device *d = &b->weight_devices[i];
      if (d->weight)
        r = put_device_value (dir, FIELD_RESOURCES ("blockIO.weightDevice"),
                              weight_dev, d->major, d->minor, d->weight, err);
      if (r == 0 && d->leaf_weight)
        r = put_device_value (dir, FIELD_RESOURCES ("blockIO.weightDevice"),
                              "blkio.leaf_weight_device", d->major, d->minor,
                              d->leaf_weight, err);
    }
  if (r == 0)
    r = cg_put_throttles (dir, b, throttle_files, NULL, err);
  return r;
}

/* net_cls.classid tags the workload's packets for the host's tc and
   iptables; net_prio.ifpriomap takes one "IFNAME PRIORITY" a write.  */
static int
write_network (struct sbx_cgroup *cg, const struct sbx_net_settings *n,
               struct sbx_error *err)
{
  char v[64];
  int r = 0;
  if (n->has_class_id)
    {
      snprintf (v, sizeof v, "%" PRIu32, n->class_id);
      r = cg_put (FIELD_RESOURCES ("network.classID"), cg->v1[SBX_CG_NET_CLS],
                  "net_cls.classid", v, err);
    }
  for (size_t i = 0; r == 0 && i < n->n_priorities; i++)
    {
      snprintf (v, sizeof v, "%s %" PRIu32, n->priorities[i].name,
                n->priorities[i].priority);
      r = cg_put (FIELD_RESOURCES ("network.priorities"),
                  cg->v1[SBX_CG_NET_PRIO], "net_prio.ifpriomap", v, err);
    }
  return r;
}

int
cg1_write_resources (struct sbx_cgroup *cg, const struct sbx_cgroup_limits *l,
                     struct sbx_error *err)
{
  int r = write_memory (cg->v1[SBX_CG_MEMORY], l, err);
  if (r == 0 && sbx_cgroup_wants (l, SBX_CG_CPU))
    r = write_cpu (cg->v1[SBX_CG_CPU], l, err);
  if (r == 0 && l->cpus)
    r = cg_put (FIELD_RESOURCES ("cpu.cpus"), cg->v1[SBX_CG_CPUSET],
                "cpuset.cpus", l->cpus, err);
  if (r == 0 && l->mems)
    r = cg_put (FIELD_RESOURCES ("cpu.mems"), cg->v1[SBX_CG_CPUSET],
                "cpuset.mems", l->mems, err);
  if (r == 0 && l->n_devices)
    r = write_devices (cg->v1[SBX_CG_DEVICES], l, err);
  if (r == 0 && sbx_cgroup_wants (l, SBX_CG_BLKIO))
    r = write_blkio (cg->v1[SBX_CG_BLKIO], l->block_io, err);
  if (r == 0 && l->n_hugepage_limits)
    r = cg_put_hugetlb (cg->v1[SBX_CG_HUGETLB], l, "limit_in_bytes", err);
  if (r == 0 && l->network)
    r = write_network (cg, l->network, err);
  return r;
}

/* A new v1 cpuset cgroup starts with no cpus and no memory nodes, and no
   process can join it then: give each directory on the way down to
   MOUNT/REL its parent's sets where it has none.  */
int
cg1_cpuset_inherit (const char *mount, const char *rel)
{
  cleanup_free char *path = strdup (rel);
  if (path == NULL)
    return -ENOMEM;
  for (char *p = path;; p++)
    {
      if (*p != '/' && *p != '\0')
        continue;
      char saved = *p;
      *p = '\0';
      cleanup_free char *dir = cgfs_join (mount, path);
      cleanup_free char *parent = dir ? strdup (dir) : NULL;
      if (parent == NULL)
        return -ENOMEM;
      *strrchr (parent, '/') = '\0';
      static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };
      for (int f = 0; f < 2; f++)
        {
          cleanup_free char *mine = NULL, *theirs = NULL;
          int r = cgfs_read (dir, files[f], &mine);
          if (r == 0 && mine[0] == '\0')
            r = cgfs_read (parent, files[f], &theirs);
          if (r == 0 && theirs)
            r = cgfs_write (dir, files[f], theirs);
          if (r < 0)
            return r;
        }
      *p = saved;
      if (saved == '\0')
        return 0;
    }
}
