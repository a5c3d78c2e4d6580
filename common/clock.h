/* The monotonic clock in milliseconds: deadlines and wall times.  */
#ifndef SBX_CLOCK_H
#define SBX_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t
sbx_now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

#endif
