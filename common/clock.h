/* Clocks: the monotonic one in milliseconds for deadlines and wall times,
   the real one for timestamps people read.  */
#ifndef SBX_CLOCK_H
#define SBX_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t
sbx_now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

/* Now, in UTC, as RFC 3339 with nanoseconds ("2026-11-29T10:00:00.123Z"),
   the form runc writes in state and logs.  LEN >= 40.  */
void sbx_utc_timestamp (char *buf, size_t len);

#endif
