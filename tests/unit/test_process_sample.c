/* The sampled process tree that ends a Seatbelt sandbox's descendants.  */
#include "common/pid_list.h"
#include "runtime/darwin/process_sample.h"
#include "tests/unit/tap.h"

#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

static void
test_table (void)
{
  /* 100 -> 101 -> 103 -> 104; 100 -> 102; 200 unrelated; a row out of
     order; pid 1 and a self-parented row never count.  */
  const char *ps = "  104   103\n  1 0\n 100 50\n 101 100\n 102 100\n"
                   "garbage\n 103 101\n 200 1\n 105 105\n";
  struct sbx_pid_pair t[16];
  size_t n = sbx_parse_ps (ps, t, 16);
  tap_ok (n == 8, "ps text: 8 rows, the malformed line skipped (%zu)", n);
  pid_t out[16];
  size_t k = sbx_descendants (t, n, 100, out, 16);
  tap_ok (k == 4 && sbx_pid_listed (out, k, 101)
              && sbx_pid_listed (out, k, 102) && sbx_pid_listed (out, k, 103)
              && sbx_pid_listed (out, k, 104),
          "descendants of 100: 101 102 103 104, grandchildren included");
  tap_ok (!sbx_pid_listed (out, k, 100) && !sbx_pid_listed (out, k, 200),
          "root and others out");
  k = sbx_descendants (t, n, 100, out, 2);
  tap_ok (k == 2, "at most MAX");
  k = sbx_descendants (t, n, 105, out, 16);
  tap_ok (k == 0, "a row that is its own parent does not loop");
  k = sbx_descendants (t, n, 999, out, 16);
  tap_ok (k == 0, "an unknown root has none");
}

/* A child whose own child setsid'd: both are found by a live sample.  */
static void
test_live (void)
{
  int p[2];
  if (pipe (p) < 0)
    return;
  pid_t child = fork ();
  if (child == 0)
    {
      pid_t grand = fork ();
      if (grand == 0)
        {
          setsid ();
          pause ();
          _exit (0);
        }
      ssize_t w = write (p[1], &grand, sizeof grand);
      (void) w;
      pause ();
      _exit (0);
    }
  pid_t grand = 0;
  ssize_t r = read (p[0], &grand, sizeof grand);
  pid_t out[64];
  long k = sbx_sample_descendants ("/bin/ps", getpid (), out, 64);
  tap_ok (r == sizeof grand && k >= 2
              && sbx_pid_listed (out, (size_t) k, child)
              && sbx_pid_listed (out, (size_t) k, grand),
          "a live sample finds a child and its setsid'd child (%ld)", k);
  kill (grand, SIGKILL);
  kill (child, SIGKILL);
  waitpid (child, NULL, 0);
  tap_ok (sbx_sample_descendants ("/nonexistent/ps", getpid (), out, 64) < 0,
          "a missing ps is an error, not an empty tree");
}

int
main (void)
{
  test_table ();
  test_live ();
  return tap_done ();
}
