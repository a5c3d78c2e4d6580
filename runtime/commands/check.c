/* `sbx-oci check`: what this host lets a sandbox have, what it does not,
   and for every gap the fix an operator can apply.  With --bundle, also the
   enforcement that bundle would get.  */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups/cgroup.h"
#include "common/cleanup.h"
#include "common/json_gen.h"
#include "runtime/cli.h"
#include "runtime/linux/confine/kernel_calls.h"
#include "runtime/outcome.h"
#include "runtime/linux/container/sandbox.h"

enum verdict
{
  CHECK_OK,
  CHECK_GAP,  /* sandboxes run, with less than full enforcement */
  CHECK_FAIL, /* sandboxes cannot run */
};

struct finding
{
  const char *name;
  enum verdict verdict;
  char detail[512];
  char fix[512];
};

#define MAX_FINDINGS 8

struct report
{
  struct finding f[MAX_FINDINGS];
  size_t n;
};

static struct finding *
add (struct report *rep, const char *name, enum verdict v)
{
  struct finding *f = &rep->f[rep->n++];
  *f = (struct finding){ .name = name, .verdict = v };
  return f;
}

static long
read_sysctl (const char *path)
{
  FILE *f = fopen (path, "re");
  long v = -1;
  if (f)
    {
      if (fscanf (f, "%ld", &v) != 1)
        v = -1;
      fclose (f);
    }
  return v;
}

static void
check_runner (const struct sbx_probe *p, struct report *rep)
{
  const struct sbx_host_facts *h = &p->facts;
  const int *v = h->runner_version;
  bool old = sbx_runner_predates_fix (v);
  struct finding *f = add (rep, "runner",
                           h->runner_named ? CHECK_OK
                           : old           ? CHECK_GAP
                                           : CHECK_OK);
  snprintf (f->detail, sizeof f->detail, "%s: bubblewrap %d.%d.%d%s",
            p->runner_path, v[0], v[1], v[2],
            h->runner_named ? " (named by the operator: trusted, not probed)"
                            : "");
  if (old && !h->runner_named)
    snprintf (f->fix, sizeof f->fix,
              "install bubblewrap >= 0.12.0, which fixes GHSA-pxhw-h44j-8pfx "
              "(CVE-2026-87766); until then sbx refuses mount destinations "
              "with a symlink component inside a writable root");
}

static void
check_userns (const struct sbx_probe *p, struct report *rep)
{
  const struct sbx_host_facts *h = &p->facts;
  if (h->is_root && h->userns_ok)
    return;
  struct finding *f = add (rep, "user namespaces",
                           h->userns_ok ? CHECK_OK
                           : h->is_root ? CHECK_GAP
                                        : CHECK_FAIL);
  snprintf (f->detail, sizeof f->detail, "%s",
            h->userns_ok ? "unprivileged user namespaces work"
                         : "a user namespace cannot be created");
  if (h->userns_ok)
    return;
  if (read_sysctl ("/proc/sys/kernel/unprivileged_userns_clone") == 0)
    snprintf (f->fix, sizeof f->fix,
              "sysctl -w kernel.unprivileged_userns_clone=1");
  else if (read_sysctl ("/proc/sys/user/max_user_namespaces") == 0)
    snprintf (f->fix, sizeof f->fix,
              "sysctl -w user.max_user_namespaces=15000");
  else if (read_sysctl (
               "/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
           == 1)
    snprintf (f->fix, sizeof f->fix,
              "give bwrap an AppArmor profile allowing userns, or sysctl -w "
              "kernel.apparmor_restrict_unprivileged_userns=0");
  else
    snprintf (f->fix, sizeof f->fix,
              "run outside a container that forbids user namespaces (or "
              "allow unshare/clone(CLONE_NEWUSER) in its seccomp profile)");
}

static void
check_proc (const struct sbx_probe *p, struct report *rep)
{
  struct finding *f = add (rep, "private /proc",
                           p->facts.private_proc_ok ? CHECK_OK : CHECK_GAP);
  snprintf (f->detail, sizeof f->detail, "%s",
            p->facts.private_proc_ok
                ? "a fresh /proc mounts in a new PID namespace"
                : "a fresh /proc cannot be mounted: sandboxes see the "
                  "host's /proc read-only (enforcement partial)");
  if (!p->facts.private_proc_ok)
    snprintf (f->fix, sizeof f->fix,
              "run outside a container whose /proc has masked or read-only "
              "paths (e.g. a privileged container or --security-opt "
              "unmask=/proc/*)");
}

/* The system calls sbx-oci relies on (kernel_calls.h): an older kernel
   lacks some, each named with what it costs.  */
static void
check_kernel (struct report *rep)
{
  struct sbx_kernel_calls k;
  sbx_kernel_calls_probe (&k);
  bool usable = k.pidfd_open && k.openat2;
  struct finding *f = add (rep, "kernel", usable ? CHECK_OK : CHECK_FAIL);
  sbx_kernel_calls_describe (&k, f->detail, sizeof f->detail);
  if (!usable)
    snprintf (f->fix, sizeof f->fix,
              "boot Linux 5.6 or later (Debian 12's 6.1 has every call "
              "sbx-oci uses)");
}

/* The second file-system layer, and what an agent sandbox gets where
   bubblewrap can make no namespace (the rung without namespaces).  */
static void
check_landlock (const struct sbx_probe *p, struct report *rep)
{
  const struct sbx_host_facts *h = &p->facts;
  int abi = h->landlock_abi;
  struct finding *f = add (rep, "landlock",
                           abi >= SBX_LANDLOCK_ABI_MAX ? CHECK_OK
                           : abi > 0                   ? CHECK_GAP
                           : h->no_namespaces          ? CHECK_FAIL
                                                       : CHECK_GAP);
  const char *rung = h->no_namespaces
                         ? "; no namespaces can be made here: agent "
                           "sandboxes run under landlock and seccomp alone "
                           "(enforcement partial)"
                         : "";
  if (abi > 0)
    snprintf (f->detail, sizeof f->detail,
              "ABI %d: agent sandboxes get a second file-system layer%s", abi,
              rung);
  else
    snprintf (f->detail, sizeof f->detail, "not offered by this kernel%s",
              h->no_namespaces ? "; no namespaces can be made here either: "
                                 "agent sandboxes are refused"
                               : "");
  if (abi < SBX_LANDLOCK_ABI_MAX)
    snprintf (f->fix, sizeof f->fix,
              "a kernel with landlock ABI %d (Linux 6.15 or newer) and "
              "landlock in its lsm= list",
              SBX_LANDLOCK_ABI_MAX);
}

static void
check_cgroups (struct report *rep)
{
  struct sbx_cgroup_layout layout;
  struct sbx_error err = { 0 };
  bool ok = sbx_cgroup_detect (&layout, &err) == 0
            && layout.version != SBX_CGROUP_NONE;
  struct finding *f = add (rep, "resource quotas", ok ? CHECK_OK : CHECK_GAP);
  if (ok)
    snprintf (f->detail, sizeof f->detail,
              "cgroup %s: memory and process limits are kernel quotas",
              sbx_cgroup_version_name (layout.version));
  else
    {
      snprintf (f->detail, sizeof f->detail,
                "no cgroup can be created (%s): limits are sampled and "
                "enforced by tear-down",
                err.code ? err.msg : layout.reason);
      snprintf (f->fix, sizeof f->fix,
                "run as root, or from a systemd user session with a "
                "delegated cgroup v2 subtree (Delegate=yes)");
    }
  if (err.code == 0)
    sbx_cgroup_layout_free (&layout);
}

static int
print_text (const struct report *rep, const struct sbx_sandbox *sb)
{
  static const char *const tag[] = { "ok  ", "gap ", "FAIL" };
  for (size_t i = 0; i < rep->n; i++)
    {
      const struct finding *f = &rep->f[i];
      printf ("%s  %-16s %s\n", tag[f->verdict], f->name, f->detail);
      if (f->fix[0])
        printf ("      %-16s fix: %s\n", "", f->fix);
    }
  if (sb && sb->plan)
    {
      const struct sbx_enforcement *e = &sb->plan->enforcement;
      printf ("\nthis bundle: enforcement %s (filesystem %s, network %s)\n",
              sbx_level_name (e->level), sbx_level_name (e->filesystem),
              sbx_level_name (e->network));
      for (size_t i = 0; i < e->reasons.n; i++)
        printf ("  - %s\n", e->reasons.v[i]);
    }
  return 0;
}

static int
print_json (const struct report *rep, const struct sbx_sandbox *sb)
{
  static const char *const names[] = { "ok", "gap", "fail" };
  yajl_gen g = sbx_json_new (true);
  if (g == NULL)
    return -ENOMEM;
  int r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key (g, "checks");
  if (r == 0)
    r = sbx_json_open (g, true);
  for (size_t i = 0; r == 0 && i < rep->n; i++)
    {
      const struct finding *f = &rep->f[i];
      r = sbx_json_open (g, false);
      if (r == 0)
        r = sbx_json_key_str (g, "name", f->name);
      if (r == 0)
        r = sbx_json_key_str (g, "status", names[f->verdict]);
      if (r == 0)
        r = sbx_json_key_str (g, "detail", f->detail);
      if (r == 0 && f->fix[0])
        r = sbx_json_key_str (g, "fix", f->fix);
      if (r == 0)
        r = sbx_json_close (g, false);
    }
  if (r == 0)
    r = sbx_json_close (g, true);
  if (r == 0 && sb && sb->plan)
    {
      r = sbx_json_key (g, "enforcement");
      if (r == 0)
        r = sbx_enforcement_json (g, sb->plan);
    }
  if (r == 0)
    r = sbx_json_close (g, false);
  cleanup_free char *text = NULL;
  if (r == 0)
    r = sbx_json_finish (g, &text, NULL);
  yajl_gen_free (g);
  if (r == 0)
    fputs (text, stdout);
  return r;
}

int
sbx_cmd_check (struct sbx_context *g, int argc, char **argv,
               struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "bundle", required_argument, NULL, 'b' },
    { "format", required_argument, NULL, 'f' },
    { NULL, 0, NULL, 0 },
  };
  const char *bundle = NULL;
  bool json = false;
  int c;
  while ((c = getopt_long (argc, argv, "b:f:", longopts, NULL)) != -1)
    if (c == 'b')
      bundle = optarg;
    else if (c == 'f'
             && (strcmp (optarg, "json") == 0 || strcmp (optarg, "text") == 0))
      json = optarg[0] == 'j';
    else
      return sbx_fail_usage (err, "check: usage: check [--bundle DIR] "
                                  "[--format text|json]");
  /* With a bundle, its preparation probes the host: that one answer
     serves the report too, rather than a second read of the cache.  */
  struct sbx_sandbox sb;
  struct sbx_probe host = { 0 };
  const struct sbx_probe *probe = &host;
  int r;
  if (bundle)
    {
      r = sbx_sandbox_prepare (g, bundle, &sb, err);
      if (r < 0 && sb.exec_status == 0)
        return r;
      probe = &sb.probe;
    }
  else
    {
      cleanup_close int root_fd = -1;
      r = sbx_usable_state_root (g, &root_fd, err);
      r = r ?: sbx_probe_host (g->runner, root_fd, &host, err);
      if (r < 0)
        {
          sbx_probe_release (&host);
          return r;
        }
    }
  struct report rep = { .n = 0 };
  check_runner (probe, &rep);
  check_userns (probe, &rep);
  check_proc (probe, &rep);
  check_kernel (&rep);
  check_landlock (probe, &rep);
  check_cgroups (&rep);
  r = json ? print_json (&rep, bundle ? &sb : NULL)
           : print_text (&rep, bundle ? &sb : NULL);
  if (bundle)
    sbx_sandbox_release (&sb);
  else
    sbx_probe_release (&host);
  for (size_t i = 0; i < rep.n; i++)
    if (rep.f[i].verdict == CHECK_FAIL)
      return 1;
  return r < 0 ? sbx_fail (err, r, "check: cannot write the report") : 0;
}
