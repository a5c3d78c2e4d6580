/* linux.resources.blockIO as cgroup v2's io files take it, and
   hugepageLimits as v2's hugetlb files do, written into a directory of
   plain files that stands in for a cgroup (this host's v2 mount has no io
   controller, and root's cgroups are v1 here, so cgroup_resources.sh
   checks v1 only): which weight file is chosen, the 10..1000 to 1..10000
   mapping of io.weight, io.max's lines, the leaf weight refused before
   anything is made, hugetlb.SIZE.max and its reservation twin; and v1's
   net_cls and net_prio files, whose hierarchies this host does not mount
   (cgroup_resources.sh mounts hugetlb's, but theirs outlive the unmount).
   Each case asks for one setting, so the file holds exactly what was
   written.  */
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
  static const char *const all[] = { "io.weight",
                                     "io.bfq.weight",
                                     "io.max",
                                     "hugetlb.2MB.max",
                                     "hugetlb.2MB.rsvd.max",
                                     "hugetlb.1GB.max",
                                     "blkio.bfq.weight",
                                     NULL };
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

/* What v2 cannot hold is refused before the cgroup is made.  */
static const char *
refusal (const struct sbx_block_io *b)
{
  static struct sbx_error err;
  sbx_error_clear (&err);
  struct sbx_cgroup_limits l = { .block_io = b };
  return cg2_refuse_unheld (&l, &err) < 0 ? err.msg : "";
}

static void
test_refusals (void)
{
  struct sbx_block_io b = { .leaf_weight = 500 };
  tap_streq (refusal (&b),
             "linux.resources.blockIO.leafWeight: cgroup v2 has no leaf "
             "weight (it was the CFQ scheduler's, in v1)",
             "a leaf weight is refused before the cgroup is made");
  struct sbx_blkio_weight_device d = { 8, 0, 0, 200 };
  b = (struct sbx_block_io){ .weight_devices = &d, .n_weight_devices = 1 };
  tap_ok (strstr (refusal (&b), "blockIO.leafWeight") != NULL,
          "so is a device's leaf weight");
  b = (struct sbx_block_io){ .weight = 100 };
  tap_streq (refusal (&b), "", "a weight is not");
  static const char *const none[] = { "io.max", NULL };
  const char *msg = write_with (&b, none);
  tap_ok (strncmp (msg,
                   "linux.resources.blockIO.weight: this host cannot "
                   "hold it (no ",
                   55)
                  == 0
              && strstr (msg, "/io.weight)") != NULL,
          "no weight file: the refusal names the field and the file (%s)",
          msg);
}

static const char *
write_hugetlb (const struct sbx_hugepage_limit *h, size_t n,
               const char *const *files)
{
  static struct sbx_error err;
  sbx_error_clear (&err);
  remove_files ();
  make_files (files);
  struct sbx_cgroup_limits l
      = { .hugepage_limits = h, .n_hugepage_limits = n };
  return cg2_write_resources (dir, &l, &err) < 0 ? err.msg : "";
}

static void
test_hugetlb (void)
{
  static const char *const plain[] = { "hugetlb.2MB.max", NULL };
  static const char *const rsvd[]
      = { "hugetlb.2MB.max", "hugetlb.2MB.rsvd.max", NULL };
  struct sbx_hugepage_limit h = { "2MB", 4194304 };
  tap_streq (write_hugetlb (&h, 1, plain), "", "hugetlb: written");
  tap_streq (content ("hugetlb.2MB.max"), "4194304", "hugetlb.2MB.max");
  tap_streq (write_hugetlb (&h, 1, rsvd), "", "hugetlb with rsvd: written");
  tap_streq (content ("hugetlb.2MB.rsvd.max"), "4194304",
             "and its reservation twin where the kernel has one");
  struct sbx_hugepage_limit two[] = { { "2MB", 0 }, { "1GB", 1 } };
  const char *msg = write_hugetlb (two, 2, plain);
  tap_ok (strncmp (msg,
                   "linux.resources.hugepageLimits: this host has no 1GB "
                   "huge pages (no ",
                   68)
              == 0,
          "a page size the host lacks is an error naming it (%s)", msg);
}

static const char *
write_network (const struct sbx_net_settings *n)
{
  static struct sbx_error err;
  static const char *const files[]
      = { "net_cls.classid", "net_prio.ifpriomap", NULL };
  sbx_error_clear (&err);
  remove_files ();
  make_files (files);
  struct sbx_cgroup cg = { .version = SBX_CGROUP_V1 };
  cg.v1[SBX_CG_NET_CLS] = cg.v1[SBX_CG_NET_PRIO] = dir;
  struct sbx_cgroup_limits l = { .network = n };
  return cg1_write_resources (&cg, &l, &err) < 0 ? err.msg : "";
}

static void
test_network (void)
{
  struct sbx_net_settings n = { .has_class_id = true, .class_id = 0x100001 };
  tap_streq (write_network (&n), "", "network.classID: written");
  tap_streq (content ("net_cls.classid"), "1048577", "net_cls.classid");
  tap_streq (content ("net_prio.ifpriomap"), "", "no priority asked");
  struct sbx_net_priority p = { "eth0", 7 };
  n = (struct sbx_net_settings){ .priorities = &p, .n_priorities = 1 };
  tap_streq (write_network (&n), "", "network.priorities: written");
  tap_streq (content ("net_prio.ifpriomap"), "eth0 7",
             "net_prio.ifpriomap takes \"IFNAME PRIORITY\"");
  tap_streq (content ("net_cls.classid"), "", "no class id asked");
}

/* A setting whose file the host's kernel lacks (CFQ's leaf weight, gone
   in Linux 5.0; BFQ's weight on a disk with another scheduler) is refused
   (121, the field listed), as a missing controller is, not failed.  */
static void
test_v1_missing_file (void)
{
  static struct sbx_error err;
  static const char *const files[] = { "blkio.bfq.weight", NULL };
  sbx_error_clear (&err);
  remove_files ();
  make_files (files);
  struct sbx_cgroup cg = { .version = SBX_CGROUP_V1 };
  cg.v1[SBX_CG_BLKIO] = dir;
  struct sbx_block_io b = { .weight = 300, .leaf_weight = 300 };
  struct sbx_cgroup_limits l = { .block_io = &b };
  int r = cg1_write_resources (&cg, &l, &err);
  tap_ok (r < 0 && err.kind == SBX_ERROR_REFUSED
              && strcmp (err.field, "linux.resources.blockIO.leafWeight") == 0,
          "v1: a leaf weight the kernel has no file for is refused, naming "
          "it (%s)",
          err.msg);
  tap_streq (content ("blkio.bfq.weight"), "300",
             "the weight it has a file for was written first");
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
  test_hugetlb ();
  test_network ();
  test_v1_missing_file ();
  remove_files ();
  rmdir (dir);
  return tap_done ();
}
