#include "common/cgroup_settings.h"

const char *const sbx_blkio_throttle_keys[SBX_BLKIO_THROTTLE_N] = {
  "throttleReadBpsDevice",
  "throttleWriteBpsDevice",
  "throttleReadIOPSDevice",
  "throttleWriteIOPSDevice",
};
