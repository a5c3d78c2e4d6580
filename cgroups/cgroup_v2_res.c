/* cgroup v2: the memory, cpu, cpuset, io and hugetlb settings of
   linux.resources, in the one directory.  v2 has no swappiness, no
   OOM-killer switch and no net_cls or net_prio: those are v1's alone
   (cgroup.h says what happens); its device rules are a BPF program
   (cgroup_v2_devices.c).  */
#include "cgroups/cgroup_backend.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

/* OCI's swap is memory + swap; memory.swap.max is the swap alone.  No
   swap asked: none at all, so memory cannot move to swap.  Without swap
   accounting the file is absent and there is no swap to escape to.  */
static int
write_swap (const char *dir, const struct sbx_cgroup_limits *l,
            struct sbx_error *err)
{
  if (l->memory_limit <= 0 || !cgfs_has_file (dir, "memory.swap.max"))
    return 0;
  char num[32] = "0";
  if (l->memory_swap == -1)
    snprintf (num, sizeof num, "max");
  else if (l->memory_swap > 0 && l->memory_swap < l->memory_limit)
    return sbx_fail (
        err, -EINVAL,
        FIELD_RESOURCES ("memory.swap") ": %" PRId64
                                        " is below the memory limit %" PRId64
                                        " (it counts memory + swap)",
        l->memory_swap, l->memory_limit);
  else if (l->memory_swap > 0)
    snprintf (num, sizeof num, "%" PRId64, l->memory_swap - l->memory_limit);
  return cg_put (FIELD_RESOURCES ("memory.swap"), dir, "memory.swap.max", num,
                 err);
}

/* cpu.weight (1..10000) from v1 shares (2..262144), as crun and runc map
   it, so a workload gets the same share on either version.  */
static uint64_t
shares_to_weight (uint64_t shares)
{
  if (shares < 2)
    shares = 2;
  if (shares > 262144)
    shares = 262144;
  return 1 + ((shares - 2) * 9999) / 262142;
}

static int
write_cpu (const char *dir, const struct sbx_cgroup_limits *l,
           struct sbx_error *err)
{
  char v[64];
  int r = 0;
  if (l->cpu_shares)
    {
      snprintf (v, sizeof v, "%" PRIu64, shares_to_weight (l->cpu_shares));
      r = cg_put (FIELD_RESOURCES ("cpu.shares"), dir, "cpu.weight", v, err);
    }
  if (r == 0 && (l->cpu_quota || l->cpu_period))
    {
      char quota[24] = "max";
      if (l->cpu_quota > 0)
        snprintf (quota, sizeof quota, "%" PRId64, l->cpu_quota);
      snprintf (v, sizeof v, "%s %" PRIu64, quota,
                l->cpu_period ? l->cpu_period : 100000);
      r = cg_put (FIELD_RESOURCES ("cpu.quota"), dir, "cpu.max", v, err);
    }
  return r;
}

/* io.weight's 1..10000 from OCI's 10..1000, as crun and runc map it.  */
static uint64_t
io_weight (uint64_t weight)
{
  return 1 + (weight - 10) * 9999 / 990;
}

static bool
asks_leaf_weight (const struct sbx_block_io *b)
{
  bool leaf = b->leaf_weight != 0;
  for (size_t i = 0; i < b->n_weight_devices; i++)
    leaf = leaf || b->weight_devices[i].leaf_weight != 0;
  return leaf;
}

static const char *const io_max_keys[SBX_BLKIO_THROTTLE_N]
    = { "rbps", "wbps", "riops", "wiops" };

/* The weights go to BFQ's io.bfq.weight, which takes OCI's range, where
   the kernel has it, else to io.weight (blk-iocost).  */
static int
write_io (const char *dir, const struct sbx_block_io *b, struct sbx_error *err)
{
  bool bfq = cgfs_has_file (dir, "io.bfq.weight");
  const char *file = bfq ? "io.bfq.weight" : "io.weight";
  char v[96];
  int r = 0;
  if (b->weight)
    {
      snprintf (v, sizeof v, "default %" PRIu64,
                bfq ? b->weight : io_weight (b->weight));
      r = cg_put (FIELD_RESOURCES ("blockIO.weight"), dir, file, v, err);
    }
  for (size_t i = 0; r == 0 && i < b->n_weight_devices; i++)
    {
      const struct sbx_blkio_weight_device *d = &b->weight_devices[i];
      if (d->weight == 0)
        continue; /* a leaf weight alone, refused before */
      snprintf (v, sizeof v, "%" PRIu32 ":%" PRIu32 " %" PRIu64, d->major,
                d->minor, bfq ? d->weight : io_weight (d->weight));
      r = cg_put (FIELD_RESOURCES ("blockIO.weightDevice"), dir, file, v, err);
    }
  if (r == 0)
    {
      static const char *const io_max[SBX_BLKIO_THROTTLE_N]
          = { "io.max", "io.max", "io.max", "io.max" };
      r = cg_put_throttles (dir, b, io_max, io_max_keys, err);
    }
  return r;
}

/* A leaf weight was CFQ's, which v2 never had: refused, not dropped.  */
int
cg2_refuse_unheld (const struct sbx_cgroup_limits *l, struct sbx_error *err)
{
  if (l->block_io && asks_leaf_weight (l->block_io))
    return sbx_refuse (err, -EOPNOTSUPP,
                       FIELD_RESOURCES ("blockIO.leafWeight"),
                       "cgroup v2 has no leaf weight (it was the CFQ "
                       "scheduler's, in v1)");
  return 0;
}

int
cg2_write_resources (const char *dir, const struct sbx_cgroup_limits *l,
                     struct sbx_error *err)
{
  int r = write_swap (dir, l, err);
  if (r == 0 && l->memory_reservation > 0)
    {
      char num[32];
      snprintf (num, sizeof num, "%" PRId64, l->memory_reservation);
      r = cg_put (FIELD_RESOURCES ("memory.reservation"), dir, "memory.low",
                  num, err);
    }
  if (r == 0)
    r = write_cpu (dir, l, err);
  if (r == 0 && l->cpus)
    r = cg_put (FIELD_RESOURCES ("cpu.cpus"), dir, "cpuset.cpus", l->cpus,
                err);
  if (r == 0 && l->mems)
    r = cg_put (FIELD_RESOURCES ("cpu.mems"), dir, "cpuset.mems", l->mems,
                err);
  if (r == 0 && sbx_cgroup_wants (l, SBX_CG_BLKIO))
    r = write_io (dir, l->block_io, err);
  if (r == 0 && l->n_hugepage_limits)
    r = cg_put_hugetlb (dir, l, "max", err);
  return r;
}
