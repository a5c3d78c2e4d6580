/* cgroup v2: the memory, cpu and cpuset settings of linux.resources, in
   the one directory.  v2 has no swappiness and no OOM-killer switch:
   those are v1's alone (cgroup.h says what happens); its device rules
   are a BPF program (cgroup_v2_devices.c).  */
#include "cgroups/cgroup_backend.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

static int
put (const char *dir, const char *file, const char *value,
     struct sbx_error *err)
{
  int r = cgfs_write (dir, file, value);
  if (r < 0)
    return sbx_fail_errno (err, r, "%s/%s: writing %s", dir, file, value);
  return 0;
}

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
    return sbx_fail (err, -EINVAL,
                     "linux.resources.memory.swap: %" PRId64
                     " is below the memory limit %" PRId64
                     " (it counts memory + swap)",
                     l->memory_swap, l->memory_limit);
  else if (l->memory_swap > 0)
    snprintf (num, sizeof num, "%" PRId64, l->memory_swap - l->memory_limit);
  return put (dir, "memory.swap.max", num, err);
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
      r = put (dir, "cpu.weight", v, err);
    }
  if (r == 0 && (l->cpu_quota || l->cpu_period))
    {
      char quota[24] = "max";
      if (l->cpu_quota > 0)
        snprintf (quota, sizeof quota, "%" PRId64, l->cpu_quota);
      snprintf (v, sizeof v, "%s %" PRIu64, quota,
                l->cpu_period ? l->cpu_period : 100000);
      r = put (dir, "cpu.max", v, err);
    }
  return r;
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
      r = put (dir, "memory.low", num, err);
    }
  if (r == 0)
    r = write_cpu (dir, l, err);
  if (r == 0 && l->cpus)
    r = put (dir, "cpuset.cpus", l->cpus, err);
  if (r == 0 && l->mems)
    r = put (dir, "cpuset.mems", l->mems, err);
  return r;
}
