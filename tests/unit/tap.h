/* A minimal TAP producer for the C unit tests run by `meson test`.  */
#ifndef SBX_TAP_H
#define SBX_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

__attribute__ ((format (printf, 2, 3))) static inline bool
tap_ok (bool cond, const char *fmt, ...)
{
  va_list ap;
  printf ("%s %d - ", cond ? "ok" : "not ok", ++tap_count);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  if (!cond)
    tap_failed++;
  return cond;
}

/* Compare strings; on mismatch print both as TAP diagnostics.  */
static inline bool
tap_streq (const char *got, const char *want, const char *name)
{
  bool eq = got && want && strcmp (got, want) == 0;
  if (!tap_ok (eq, "%s", name))
    printf ("# got:  %s\n# want: %s\n", got ? got : "(null)",
            want ? want : "(null)");
  return eq;
}

static inline int
tap_done (void)
{
  printf ("1..%d\n", tap_count);
  return tap_failed ? 1 : 0;
}

#endif
