#include "common/clock.h"

#include <stdio.h>

void
sbx_utc_timestamp (char *buf, size_t len)
{
  struct timespec ts;
  struct tm tm;
  clock_gettime (CLOCK_REALTIME, &ts);
  gmtime_r (&ts.tv_sec, &tm);
  size_t n = strftime (buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf (buf + n, len - n, ".%09ldZ", ts.tv_nsec);
}
