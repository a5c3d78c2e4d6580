/* The settings of linux.resources that only a cgroup carries, as OCI
   gives them and as the cgroup code writes them: blockIO (blkio on v1,
   io on v2), hugepageLimits (hugetlb) and network (v1's net_cls and
   net_prio).  One shape for the parser (spec/) and the cgroup code
   (cgroups/), which may share only common/, so nothing is copied between
   them.  */
#ifndef SBX_CGROUP_SETTINGS_H
#define SBX_CGROUP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The config field a refusal or an error names: FIELD_RESOURCES ("cpu.quota")
   is "linux.resources.cpu.quota".  */
#define FIELD_RESOURCES(name) "linux.resources." name

/* A weight is 10..1000, as OCI and v1 take it; 0 = not asked.  */
struct sbx_blkio_weight_device
{
  uint32_t major, minor;
  uint16_t weight, leaf_weight;
};

struct sbx_blkio_rate_device
{
  uint32_t major, minor;
  uint64_t rate; /* bytes or I/O operations a second */
};

enum sbx_blkio_throttle
{
  SBX_BLKIO_READ_BPS,
  SBX_BLKIO_WRITE_BPS,
  SBX_BLKIO_READ_IOPS,
  SBX_BLKIO_WRITE_IOPS,
  SBX_BLKIO_THROTTLE_N
};

struct sbx_block_io
{
  uint16_t weight, leaf_weight; /* 0 = not asked */
  struct sbx_blkio_weight_device *weight_devices;
  size_t n_weight_devices;
  struct sbx_blkio_rate_device *throttle[SBX_BLKIO_THROTTLE_N];
  size_t n_throttle[SBX_BLKIO_THROTTLE_N];
};

/* OCI's key for each throttle list, "throttleReadBpsDevice" first.  */
extern const char *const sbx_blkio_throttle_keys[SBX_BLKIO_THROTTLE_N];

/* Whether B asks for anything (a rate of 0 is no throttle).  */
static inline bool
sbx_block_io_asked (const struct sbx_block_io *b)
{
  bool asked = b->weight || b->leaf_weight || b->n_weight_devices > 0;
  for (int t = 0; t < SBX_BLKIO_THROTTLE_N; t++)
    for (size_t i = 0; i < b->n_throttle[t]; i++)
      asked = asked || b->throttle[t][i].rate > 0;
  return asked;
}

/* One hugepageLimits entry.  PAGE_SIZE is as the kernel names it in
   hugetlb's files ("2MB", "1GB": digits and KB, MB or GB).  */
struct sbx_hugepage_limit
{
  char page_size[16];
  uint64_t limit; /* bytes */
};

/* One network.priorities entry: an interface name as the kernel takes it
   (1 to 15 bytes, no white space, '/' or ':').  */
struct sbx_net_priority
{
  char name[16];
  uint32_t priority;
};

struct sbx_net_settings
{
  bool has_class_id;
  uint32_t class_id;
  struct sbx_net_priority *priorities;
  size_t n_priorities;
};

/* Whether N asks for anything.  */
static inline bool
sbx_net_settings_asked (const struct sbx_net_settings *n)
{
  return n->has_class_id || n->n_priorities > 0;
}

#endif
