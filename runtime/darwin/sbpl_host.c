/* The parts of a Seatbelt profile that come from macOS rather than from
   the plan: what every profile denies or allows before the plan's layers
   (LaunchServices, AppleEvents, the blanket write deny, devices, ptys,
   Apple's per-user directories), and the daemon sockets macOS tools keep
   where Linux has none, hidden after them.  */
#include "common/cleanup.h"
#include "runtime/darwin/sbpl_emit.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Character devices that every tool opens for writing; allowed again after
   the blanket deny.  /dev/fd only re-opens descriptors the process already
   holds.  */
static const char *const write_devices[] = {
  "/dev/null",   "/dev/zero",    "/dev/tty",
  "/dev/random", "/dev/urandom", "/dev/dtracehelper",
};

/* Under (allow default), `open x.command` asks LaunchServices to start
   Terminal, and an AppleEvent asks a running app to run a script: both run
   code outside the sandbox, in a process Seatbelt does not follow.  Codex's
   seatbelt base policy and the peer agent sandbox's profile start from
   (deny default) and never allow lsopen or appleevent-send; these rules
   give an (allow default) profile the same.  The lookups of the two
   daemons are denied as well, so a client that skips its own sandbox check
   cannot talk to them directly.  Which tools need launchservicesd to work
   at all only a Mac can tell (tests/macos/first-run.sh runs the /usr/bin
   shims); the stricter reading is taken.  sbx.allowLaunchServices, with
   the operator's approval, lifts all three (a browser for a login flow).  */
static void
emit_launch_services (struct profile *pr)
{
  if (pr->host->launch_services)
    {
      fputs ("; launchservices and appleevents: allowed "
             "(sbx.allowLaunchServices, approved)\n",
             pr->f);
      return;
    }
  fputs ("; launchservices and appleevents: they start code outside the "
         "sandbox\n"
         "(deny lsopen)\n"
         "(deny appleevent-send)\n"
         "(deny mach-lookup\n"
         "  (global-name \"com.apple.coreservices.launchservicesd\")\n"
         "  (global-name \"com.apple.coreservices.appleevents\"))\n",
         pr->f);
}

/* openpty(3) and the terminals it makes (script, expect, Python's pty,
   node-pty, tmux).  Homebrew's sandbox.rb allows writes to /dev/ptmx and
   ^/dev/tty[a-z0-9]*$; Codex's base policy allows file-read*, file-write*
   and file-ioctl on /dev/ptmx and on ^/dev/ttys[0-9]+; the peer the same.
   Writing to another of the user's terminals shows text there: all three
   accept that for ptys that work.  */
static void
emit_ptys (struct profile *pr)
{
  fputs ("; ptys: /dev/ptmx and the terminals it makes\n"
         "(allow file-read* file-write* file-ioctl\n"
         "  (literal \"/dev/ptmx\")\n"
         "  (regex #\"^/dev/ttys[0-9]+$\")) ; ptys\n",
         pr->f);
}

/* Apple's per-user temporary and cache directories (confstr
   _CS_DARWIN_USER_TEMP_DIR and _CS_DARWIN_USER_CACHE_DIR): xcrun ignores
   TMPDIR and every /usr/bin shim (git, clang, python3, make) writes there,
   as clang's module cache does.  Homebrew allows writes to
   ^/private/var/folders/[^/]+/[^/]+/[C,T]/; only the caller's own two are
   granted here.  Both are shared with the user's unsandboxed tools, as
   /private/tmp is.  */
static int
emit_user_dirs (struct profile *pr)
{
  const char *const dirs[][2] = {
    { pr->host->user_temp_dir, "user temp" },
    { pr->host->user_cache_dir, "user cache" },
  };
  for (size_t i = 0; i < 2; i++)
    {
      if (dirs[i][0] == NULL || dirs[i][0][0] == '\0')
        continue;
      cleanup_free char *q = NULL;
      int r = sbpl_quoted (pr, SIZE_MAX, dirs[i][0], &q);
      if (r < 0)
        return r;
      fprintf (pr->f,
               "(allow file-read* " SBPL_WRITE " (subpath %s)) ; %s: "
               "write\n",
               q, dirs[i][1]);
    }
  return 0;
}

int
sbpl_emit_baseline (struct profile *pr)
{
  FILE *f = pr->f;
  emit_launch_services (pr);
  if (pr->plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    {
      fputs ("; files: danger-full-access, no blanket write deny\n", f);
      return 0;
    }
  fputs ("; files: every write is denied unless a rule below grants it\n"
         "(deny " SBPL_WRITE ")\n"
         "(allow file-write*",
         f);
  for (size_t i = 0; i < sizeof write_devices / sizeof write_devices[0]; i++)
    fprintf (f, "\n  (literal \"%s\")", write_devices[i]);
  fputs ("\n  (subpath \"/dev/fd\")) ; devices\n", f);
  emit_ptys (pr);
  return emit_user_dirs (pr);
}

/* Hide the directory or file PATH (canonicalised with and without its
   last symlink, when they differ) from reads, writes and connects.  */
static int
hide_host_path (struct profile *pr, const char *path, bool dir,
                const char *why)
{
  cleanup_free char *clean = NULL;
  cleanup_free char *link = NULL;
  cleanup_free char *canon = NULL;
  int r = sbx_macos_path_normalise (path, &clean, pr->err);
  if (r == 0)
    r = sbx_macos_path_unalias (clean, &link, pr->err);
  if (r == 0)
    r = sbpl_canonical (pr, SIZE_MAX, path, &canon);
  for (int k = 0; r == 0 && k < 2; k++)
    {
      const char *p = k == 0 ? link : canon;
      if (k == 1 && strcmp (link, canon) == 0)
        break;
      cleanup_free char *q = NULL;
      r = sbpl_quote_path (pr, SIZE_MAX, p, &q);
      if (r < 0)
        break;
      fprintf (pr->f,
               "(deny file-read* " SBPL_WRITE " (%s %s)) ; %s: "
               "hidden\n",
               dir ? "subpath" : "literal", q, why);
      fprintf (pr->f,
               "(allow file-read-metadata (literal %s)) ; %s: stat "
               "only\n",
               q, why);
      /* The peer sandbox names socket directories to the network
         operations with (subpath ...), Homebrew a socket with (literal
         ...); Chromium spells one socket (remote unix-socket
         (path-literal ...)).  */
      if (dir)
        fprintf (pr->f,
                 "(deny network-outbound (subpath %s)) ; %s: no "
                 "connect\n",
                 q, why);
      else
        fprintf (pr->f,
                 "(deny network-outbound (remote unix-socket (path-literal "
                 "%s))) ; %s: no connect\n",
                 q, why);
      r = sbpl_guard (pr, p);
    }
  return r;
}

/* Container engines' sockets below the caller's home, each a way out of
   any sandbox: Docker Desktop (~/.docker/run, and /var/run/docker.sock,
   a symlink to it), colima (~/.colima/PROFILE/docker.sock), OrbStack
   (~/.orbstack/run), Rancher Desktop (~/.rd/docker.sock), podman machine
   (~/.local/share/containers/podman/machine, and podman/ in the user temp
   directory).  Whole directories where the engine keeps only its run
   state there, so that every profile's socket is covered.  */
static const struct
{
  const char *rel;
  bool dir;
} home_sockets[] = {
  { ".docker/run", true },
  { ".colima", true },
  { ".orbstack/run", true },
  { ".rd/docker.sock", false },
  { ".local/share/containers/podman/machine", true },
};

static int
hide_engine_sockets (struct profile *pr)
{
  int r = hide_host_path (pr, "/var/run/docker.sock", false, "socket");
  const char *home = pr->host->home;
  for (size_t i = 0; r == 0 && home && home[0] == '/'
                     && i < sizeof home_sockets / sizeof home_sockets[0];
       i++)
    {
      cleanup_free char *p = NULL;
      if (asprintf (&p, "%s/%s", home, home_sockets[i].rel) < 0)
        return sbx_fail (pr->err, -ENOMEM, "out of memory");
      r = hide_host_path (pr, p, home_sockets[i].dir, "socket");
    }
  const char *tmp = pr->host->user_temp_dir;
  if (r == 0 && tmp && tmp[0] == '/')
    {
      cleanup_free char *p = NULL;
      if (asprintf (&p, "%s/podman", tmp) < 0)
        return sbx_fail (pr->err, -ENOMEM, "out of memory");
      r = hide_host_path (pr, p, true, "socket");
    }
  return r;
}

static bool
has_private_tmp (const struct sbx_plan *plan)
{
  for (size_t i = 0; i < plan->n_mounts; i++)
    if (plan->mounts[i].op == SBX_PLAN_TMPFS
        && strcmp (plan->mounts[i].dest, "/tmp") == 0)
      return true;
  return false;
}

int
sbpl_emit_host_hides (struct profile *pr)
{
  int r = 0;
  /* Where Linux gives a private /tmp, tmux's sockets (a shell in every
     session of the user) are out of reach there; on macOS the shared
     /private/tmp is granted instead, so its tmux directory is hidden.  */
  if (has_private_tmp (pr->plan) && pr->host->uid >= 0)
    {
      char tmux[64];
      snprintf (tmux, sizeof tmux, "/private/tmp/tmux-%ld", pr->host->uid);
      r = hide_host_path (pr, tmux, true, "temp");
    }
  if (r == 0 && pr->host->hardened)
    r = hide_engine_sockets (pr);
  return r;
}
