#include "common/block_io.h"

const char *const sbx_blkio_throttle_keys[SBX_BLKIO_THROTTLE_N] = {
  "throttleReadBpsDevice",
  "throttleWriteBpsDevice",
  "throttleReadIOPSDevice",
  "throttleWriteIOPSDevice",
};
