/* linux.resources.blockIO as cgroup v2's io files take it, written into a
   directory of plain files that stands in for a cgroup (this host's v2
   mount has no io controller, so cgroup_resources.sh checks v1 only):
   which weight file is chosen, the 10..1000 to 1..10000 mapping of
   io.weight, io.max's lines, and the leaf weight refused.  Each case
   asks for one setting, so the file holds exactly what was written.  */
#include "cgroups/cgroup_backend.h"
#include "tests/unit/tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/sbx-cgio.XXXXXX";

static void
make_files (const char *const *names)
{
  for (; *names; names++)
    {
      char path[256];
      snprintf (path, sizeof path, "%s/%s", dir, *names);
      int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0)
        close (fd);
    }
}

static void
remove_files (void)
{
  static const char *const all[]
      = { "io.weight", "io.bfq.weight", "io.max", NULL };
  for (const char *const *n = all; *n; n++)
    {
      char path[256];
      snprintf (path, sizeof path, "%s/%s", dir, *n);
      unlink (path);
    }
}

static char *
content (const char *name)
{
  static char buf[256];
  char path[256];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen (path, "r");
  size_t n = f ? fread (buf, 1, sizeof buf - 1, f) : 0;
  buf[n] = '\0';
  if (f)
    fclose (f);
  return buf;
}

/* Write B with only FILES present; the error message, or "".  */
static const char *
write_with (const struct sbx_block_io *b, const char *const *files)
{
  static struct sbx_error err;
  sbx_error_clear (&err);
  remove_files ();
  make_files (files);
  struct sbx_cgroup_limits l = { .block_io = b };
  return cg2_write_resources (dir, &l, &err) < 0 ? err.msg : "";
}

static const char *const iocost[] = { "io.weight", "io.max", NULL };
static const char *const bfq[]
    = { "io.weight", "io.bfq.weight", "io.max", NULL };

static void
test_weights (void)
{
  struct sbx_block_io b = { .weight = 500 };
  tap_streq (write_with (&b, iocost), "", "weight: written");
  tap_streq (content ("io.weight"), "default 4950",
             "io.weight: 500 mapped to 1 + 490 * 9999 / 990");
  b.weight = 10;
  write_with (&b, iocost);
  tap_streq (content ("io.weight"), "default 1", "the least weight is 1");
  b.weight = 1000;
  write_with (&b, iocost);
  tap_streq (content ("io.weight"), "default 10000",
             "the greatest weight is 10000");
  b.weight = 500;
  write_with (&b, bfq);
  tap_streq (content ("io.bfq.weight"), "default 500",
             "io.bfq.weight, where the kernel has it, takes OCI's range");
  tap_streq (content ("io.weight"), "", "and io.weight is left alone");
  struct sbx_blkio_weight_device d = { 8, 16, 300, 0 };
  b = (struct sbx_block_io){ .weight_devices = &d, .n_weight_devices = 1 };
  write_with (&b, iocost);
  tap_streq (content ("io.weight"), "8:16 2930", "a device's weight");
}

static void
test_throttles (void)
{
  struct sbx_blkio_rate_device d = { 254, 0, 2000 };
  static const char *const want[SBX_BLKIO_THROTTLE_N]
      = { "254:0 rbps=2000", "254:0 wbps=2000", "254:0 riops=2000",
          "254:0 wiops=2000" };
  for (int t = 0; t < SBX_BLKIO_THROTTLE_N; t++)
    {
      struct sbx_block_io b = { 0 };
      b.throttle[t] = &d;
      b.n_throttle[t] = 1;
      tap_streq (write_with (&b, iocost), "", sbx_blkio_throttle_keys[t]);
      tap_streq (content ("io.max"), want[t], want[t]);
    }
}

static void
test_refusals (void)
{
  struct sbx_block_io b = { .leaf_weight = 500 };
  tap_streq (write_with (&b, bfq),
             "linux.resources.blockIO.leafWeight: cgroup v2 has no leaf "
             "weight (it was the CFQ scheduler's, in v1)",
             "a leaf weight is refused");
  struct sbx_blkio_weight_device d = { 8, 0, 0, 200 };
  b = (struct sbx_block_io){ .weight_devices = &d, .n_weight_devices = 1 };
  tap_ok (strstr (write_with (&b, bfq), "blockIO.leafWeight") != NULL,
          "so is a device's leaf weight");
  static const char *const none[] = { "io.max", NULL };
  b = (struct sbx_block_io){ .weight = 100 };
  const char *msg = write_with (&b, none);
  tap_ok (strncmp (msg, "linux.resources.blockIO.weight: ", 32) == 0
              && strstr (msg, "/io.weight: writing default 910") != NULL,
          "no weight file: the error names the field and the file (%s)", msg);
}

int
main (void)
{
  if (mkdtemp (dir) == NULL)
    {
      printf ("1..0 # SKIP no temporary directory\n");
      return 0;
    }
  test_weights ();
  test_throttles ();
  test_refusals ();
  remove_files ();
  rmdir (dir);
  return tap_done ();
}
