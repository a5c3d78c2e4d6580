/* The built-in seccomp filters (seccomp_builtin.h): the table the build
   generated, and the pipe a run hands bwrap.  What the filters refuse is
   test_seccomp's to show, on today's compile of the same definitions:
   equal bytes here carry that over to the shipped table.  */
#include "runtime/linux/confine/seccomp.h"
#include "runtime/linux/confine/seccomp_builtin.h"
#include "tests/unit/tap.h"

#include <string.h>
#include <unistd.h>

/* The filters compiled when sbx-oci was built are, byte for byte, what
   the compiler makes of their definitions now, each under its name.  */
static void
test_builtin_filters (void)
{
  static const char *const names[]
      = { "agent default", "agent default, user namespaces allowed",
          "network deny" };
  for (int i = 0; i < SBX_FILTER_COUNT; i++)
    {
      struct sbx_error err = { 0 };
      struct sbx_seccomp *sc = NULL;
      int r
          = sbx_builtin_filter_define ((enum sbx_builtin_filter) i, &sc, &err);
      unsigned char now[65536];
      ssize_t n = -1;
      int fd = r < 0 ? -1 : sbx_seccomp_compile (sc, &err);
      if (fd >= 0)
        n = read (fd, now, sizeof now);
      const struct sbx_bpf *b = &sbx_builtin_filters[i];
      tap_ok (n > 0 && (size_t) n == b->len
                  && memcmp (now, b->code, b->len) == 0,
              "built-in %s: the build's bytes are today's compile (%zd, %zu)",
              names[i], n, b->len);
      if (fd >= 0)
        close (fd);
      sbx_seccomp_free (sc);
    }
  tap_ok (sbx_agent_filter (SBX_FILTERS_AGENT) == SBX_FILTER_AGENT
              && sbx_agent_filter (SBX_FILTERS_AGENT_USERNS)
                     == SBX_FILTER_AGENT_USERNS,
          "the agent filter follows allowUserNamespaces");
  /* What the runner reads: the whole program, then the end.  */
  struct sbx_error err = { 0 };
  int fd = sbx_builtin_filter_fd (SBX_FILTER_NET_DENY, &err);
  unsigned char got[65536];
  ssize_t n = fd >= 0 ? read (fd, got, sizeof got) : -1;
  const struct sbx_bpf *b = &sbx_builtin_filters[SBX_FILTER_NET_DENY];
  tap_ok (n == (ssize_t) b->len && memcmp (got, b->code, b->len) == 0
              && read (fd, got, 1) == 0,
          "the filter's pipe holds it whole, its write end closed");
  if (fd >= 0)
    close (fd);
}

int
main (void)
{
  test_builtin_filters ();
  return tap_done ();
}
