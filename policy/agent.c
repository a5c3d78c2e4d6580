/* The agent case: the host's "/" read-only, then grant layers in order.
 *
 * Order is semantics (DESIGN.md): the mode's writable roots, then the
 * config's mounts exactly as written (so a deny can sit inside a grant and a
 * grant inside a deny), then what hardening adds on top, which no config
 * layer may re-open.  Seals of hidden directories come last of all.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/build.h"

/* Credential stores below $HOME (and the account's own home when $HOME
   is elsewhere), hidden (unreadable) by hardened defaults: keys and
   tokens, files that hold passwords, histories that hold what was typed,
   browser profiles that hold sessions.  */
static const char *const credential_stores[] = {
  ".ssh",
  ".aws",
  ".gnupg",
  ".kube",
  ".docker/config.json",
  ".npmrc",
  ".netrc",
  ".config/gcloud",
  ".azure",
  ".git-credentials",
  ".pypirc",
  ".config/gh",
  ".cargo/credentials.toml",
  ".cargo/credentials",
  ".pgpass",
  ".my.cnf",
  ".mylogin.cnf",
  ".vault-token",
  ".terraform.d/credentials.tfrc.json",
  ".terraformrc",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  ".gem/credentials",
  ".config/containers/auth.json",
  ".config/rclone",
  ".s3cfg",
  ".boto",
  ".local/share/keyrings",
  ".password-store",
  ".bash_history",
  ".zsh_history",
  ".local/share/fish/fish_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  NULL,
};

/* The host's own secrets: password hashes, the SSH daemon's host keys,
   private TLS keys, Kerberos, WireGuard and network passwords.  A
   sandbox a root caller runs has no capability, but needs none for
   what root owns: it read /etc/shadow (a review, 2026-12-04).  */
static const char *const system_secrets[] = {
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/security/opasswd",
  "/etc/ssh/ssh_host_rsa_key",
  "/etc/ssh/ssh_host_ecdsa_key",
  "/etc/ssh/ssh_host_ed25519_key",
  "/etc/ssh/ssh_host_dsa_key",
  "/etc/ssl/private",
  "/etc/krb5.keytab",
  "/etc/wireguard",
  "/etc/NetworkManager/system-connections",
  "/etc/letsencrypt",
  NULL,
};

/* Host daemon sockets (a directory: everything in it), and the caller's
   own below /run/user/UID and $XDG_RUNTIME_DIR.  */
static const char *const daemon_sockets[] = {
  "/run/docker.sock",
  "/run/podman/podman.sock",
  "/run/containerd/containerd.sock",
  "/run/containerd/containerd.sock.ttrpc",
  "/run/dbus/system_bus_socket",
  "/run/systemd/private",
  "/run/snapd.socket",
  "/run/snapd-snap.socket",
  "/run/libvirt",
  "/run/crio/crio.sock",
  "/run/buildkit/buildkitd.sock",
  "/var/snap/lxd/common/lxd/unix.socket",
  "/var/lib/lxd/unix.socket",
  NULL,
};
/* gnupg: gpg-agent (and its ssh socket), keyring: gnome-keyring's
   control and ssh sockets, gcr: its ssh agent, systemd: the user
   manager's private bus (`systemd-run --user` runs anything outside the
   sandbox), bus and dbus-1: the session bus, p11-kit: remote PKCS#11
   keys, pulse and pipewire-0: the microphone and the screen.  */
static const char *const user_sockets[] = {
  "bus",
  "dbus-1",
  "docker.sock",
  "podman",
  "gnupg",
  "keyring",
  "gcr",
  "ssh-agent.socket",
  "openssh_agent",
  "systemd",
  "p11-kit",
  "kwallet5.socket",
  "kwallet6.socket",
  "pulse",
  "pipewire-0",
  NULL,
};

static int
bind_root (const struct sbx_host_facts *host, enum sbx_plan_op op,
           const char *path, enum sbx_plan_why why, const char *field,
           struct sbx_plan *plan, struct sbx_error *err)
{
  if (host_path_kind (host, path) != SBX_PATH_DIR)
    return sbx_refuse (err, -ENOENT, field, "%s is not an existing directory",
                       path);
  return plan_add (plan, op, why, path, path) ? 0 : -ENOMEM;
}

static int
grant_root (const struct sbx_host_facts *host, const char *path,
            enum sbx_plan_why why, const char *field, struct sbx_plan *plan,
            struct sbx_error *err)
{
  return bind_root (host, SBX_PLAN_BIND_RW, path, why, field, plan, err);
}

static bool
tmp_is_granted (const struct sbx_spec *spec)
{
  const struct sbx_ext *x = &spec->ext;
  if (strv_contains (&x->temp_roots, "/tmp"))
    return true;
  if (x->mode == SBX_MODE_WORKSPACE_WRITE
      && ((x->workspace && strcmp (x->workspace, "/tmp") == 0)
          || strv_contains (&x->writable_roots, "/tmp")))
    return true;
  return false;
}

static int
system_mounts (const struct sbx_spec *spec, const struct sbx_host_facts *host,
               struct sbx_plan *plan)
{
  bool rw_root = plan->mode == SBX_MODE_DANGER_FULL_ACCESS;
  if (!plan_add (plan, rw_root ? SBX_PLAN_BIND_RW : SBX_PLAN_BIND_RO,
                 SBX_WHY_ROOT, "/", "/")
      || !plan_add (plan, SBX_PLAN_DEV, SBX_WHY_SYSTEM, NULL, "/dev"))
    return -ENOMEM;
  if (plan->unshare[SBX_NS_PID] && host->private_proc_ok)
    {
      /* danger-full-access seals nothing, host-wide sysctls included.  */
      if (rw_root
              ? !plan_add (plan, SBX_PLAN_PROC, SBX_WHY_SYSTEM, NULL, "/proc")
              : plan_add_proc (plan, SBX_WHY_SYSTEM, "/proc") < 0)
        return -ENOMEM;
    }
  else
    {
      /* The restricted rung: every other layer stays, but processes
         outside the sandbox are visible through the host's /proc.  */
      if (!plan_add (plan, SBX_PLAN_BIND_RO, SBX_WHY_SYSTEM, "/proc", "/proc"))
        return -ENOMEM;
      int r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                        plan->unshare[SBX_NS_PID]
                            ? "a private /proc could not be mounted on this "
                              "host: the host's /proc is visible read-only"
                            : "the host's PID namespace is shared: host "
                              "processes are visible");
      if (r < 0)
        return r;
    }
  if (!rw_root && !tmp_is_granted (spec)
      && !plan_add (plan, SBX_PLAN_TMPFS, SBX_WHY_TEMP, NULL, "/tmp"))
    return -ENOMEM;
  return 0;
}

static int
mode_grants (const struct sbx_spec *spec, const struct sbx_host_facts *host,
             struct sbx_plan *plan, struct sbx_error *err)
{
  const struct sbx_ext *x = &spec->ext;
  int r = 0;
  if (plan->mode == SBX_MODE_WORKSPACE_WRITE)
    {
      r = grant_root (host, x->workspace, SBX_WHY_WORKSPACE, "sbx.workspace",
                      plan, err);
      for (size_t i = 0; r == 0 && i < x->writable_roots.n; i++)
        {
          char field[64];
          snprintf (field, sizeof field, "sbx.writableRoots[%zu]", i);
          r = grant_root (host, x->writable_roots.v[i], SBX_WHY_WORKSPACE,
                          field, plan, err);
        }
    }
  /* Read-only, the workspace is still bound (read-only): below /tmp the
     private tmpfs would hide it, and the command could not even start in
     it.  */
  else if (plan->mode == SBX_MODE_READ_ONLY && x->workspace)
    r = bind_root (host, SBX_PLAN_BIND_RO, x->workspace, SBX_WHY_WORKSPACE,
                   "sbx.workspace", plan, err);
  for (size_t i = 0; r == 0 && i < x->temp_roots.n; i++)
    {
      char field[64];
      snprintf (field, sizeof field, "sbx.tempRoots[%zu]", i);
      r = grant_root (host, x->temp_roots.v[i], SBX_WHY_TEMP, field, plan,
                      err);
    }
  return r;
}

/* The last mount so far whose destination covers PATH (not a seal, not
   a directory made), or NULL.  */
static const struct sbx_plan_mount *
last_covering (const struct sbx_plan *plan, const char *path)
{
  const struct sbx_plan_mount *last = NULL;
  for (size_t i = 0; i < plan->n_mounts; i++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[i];
      if (m->op != SBX_PLAN_REMOUNT_RO && m->op != SBX_PLAN_DIR
          && sbx_path_is_under (path, m->dest))
        last = m;
    }
  return last;
}

/* The directories between the writable root that shows each credential
   store under DIR and the store, pinned (policy_pin_parents), right after
   the grants, so that every later layer (the config's mounts, protected
   metadata, the hides) lies on top of the pins and none is covered by
   one.  Else a sandbox could rename the directory that holds a store
   (.docker of .docker/config.json) while another sandbox is planned or
   set up, which then hides nothing at the old name and shows the store
   under the new one (tests/integration/dest_swap.sh); a sandbox cannot
   rename a mount point of its own namespace.  */
static int
pin_store_ways (const struct sbx_host_facts *host, const char *dir,
                struct sbx_plan *plan)
{
  int r = 0;
  for (size_t i = 0; r == 0 && dir && credential_stores[i]; i++)
    {
      cleanup_free char *path = sbx_path_join (dir, credential_stores[i]);
      if (path == NULL)
        return -ENOMEM;
      /* Only inside a writable root (most workspaces hold no home): the
         stores are looked at once more by the hides, later.  */
      const struct sbx_plan_mount *w = last_covering (plan, path);
      if (w == NULL || !sbx_plan_changeable_root (w)
          || w->op == SBX_PLAN_BIND_RO || strcmp (w->dest, path) == 0)
        continue;
      enum sbx_path_kind kind = host_path_kind (host, path);
      if (kind != SBX_PATH_ABSENT && kind != SBX_PATH_SYMLINK)
        r = policy_pin_parents (host, w->dest, path, plan);
    }
  return r;
}

static int
pin_homes_stores (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  cleanup_strv struct strv homes = { 0 };
  int r = policy_homes (host, &homes);
  for (size_t i = 0; r == 0 && i < homes.n; i++)
    r = pin_store_ways (host, homes.v[i], plan);
  return r;
}

/* At most this many directories are pinned for aliases: each is an
   argument triple to bwrap, whose limit is 9,000 arguments (a pnpm tree
   holds thousands of hard links).  */
#define MAX_ALIAS_PINS 512

/* Whether the config binds a directory writable under another name: a
   second writable view of the files it holds.  */
static bool
second_writable_view (const struct sbx_spec *spec)
{
  for (size_t i = 0; i < spec->n_mounts; i++)
    {
      const struct sbx_mount *m = &spec->mounts[i];
      if (sbx_mount_is_writable_bind (m) && m->source && m->destination
          && strcmp (m->source, m->destination) != 0)
        return true;
    }
  return false;
}

/* A file with another name outside the grants is masked read-only where
   it lies (mask_aliases), and where a writable bind shows it.  With a
   second writable view of a root, a sandbox could move the file's
   directory into the bound one, out from under its mask, and write the
   outside file there: the directories on the way to each such file are
   pinned, right after the grants, as the stores' are.  Only then: a tree
   of thousands of links would pass bwrap's argument limit otherwise.  */
static int
pin_alias_ways (const struct sbx_spec *spec, const struct sbx_host_facts *host,
                struct sbx_plan *plan, struct sbx_error *err)
{
  if (!spec->ext.alias_masking || plan->mode == SBX_MODE_DANGER_FULL_ACCESS
      || !host->alias_files || !second_writable_view (spec))
    return 0;
  size_t before = plan->n_mounts;
  for (size_t i = 0; i < host->alias_files->n; i++)
    {
      const char *f = host->alias_files->v[i];
      const struct sbx_plan_mount *w = last_covering (plan, f);
      if (w == NULL || !sbx_plan_changeable_root (w)
          || w->op == SBX_PLAN_BIND_RO || strcmp (w->dest, f) == 0)
        continue;
      if (policy_pin_parents (host, w->dest, f, plan) < 0)
        return sbx_fail (err, -ENOMEM, "out of memory");
      if (plan->n_mounts - before > MAX_ALIAS_PINS)
        return sbx_refuse (err, -E2BIG, "mounts",
                           "a writable bind under another name, with hard "
                           "links to files outside the grants in more than "
                           "%d directories: their ways cannot all be "
                           "pinned, and moving one into the bound directory "
                           "would write the outside file; bind a directory "
                           "of another tree",
                           MAX_ALIAS_PINS);
    }
  return 0;
}

static int
hide_path (const struct sbx_host_facts *host, const char *path,
           enum sbx_plan_why why, struct sbx_plan *plan)
{
  enum sbx_path_kind kind = host_path_kind (host, path);
  if (kind == SBX_PATH_ABSENT)
    return 0;
  if (kind == SBX_PATH_SYMLINK)
    return plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                     "%s is a symbolic link: not hidden (hide its target "
                     "with a deny mount)",
                     path);
  enum sbx_plan_op op
      = kind == SBX_PATH_DIR ? SBX_PLAN_HIDE_DIR : SBX_PLAN_HIDE_FILE;
  return plan_add (plan, op, why, NULL, path) ? 0 : -ENOMEM;
}

/* Each of LIST (relative names, NULL-ended) below DIR, hidden.  */
static int
hide_under (const struct sbx_host_facts *host, const char *dir,
            const char *const *list, enum sbx_plan_why why,
            struct sbx_plan *plan)
{
  /* Nothing is below a directory the host lacks (/run/user/UID of an
     account never logged in): one question instead of one a name.  */
  enum sbx_path_kind kind = host_path_kind (host, dir);
  if (kind != SBX_PATH_DIR && kind != SBX_PATH_SYMLINK)
    return 0;
  int r = 0;
  for (size_t i = 0; r == 0 && list[i]; i++)
    {
      cleanup_free char *p = sbx_path_join (dir, list[i]);
      r = p ? hide_path (host, p, why, plan) : -ENOMEM;
    }
  return r;
}

static int
hide_sockets (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  int r = 0;
  for (size_t i = 0; r == 0 && daemon_sockets[i]; i++)
    r = hide_path (host, daemon_sockets[i], SBX_WHY_SOCKET, plan);
  char run_user[64];
  snprintf (run_user, sizeof run_user, "/run/user/%u", (unsigned) host->uid);
  if (r == 0)
    r = hide_under (host, run_user, user_sockets, SBX_WHY_SOCKET, plan);
  const char *xdg = strv_env_value (host->environ, "XDG_RUNTIME_DIR");
  if (r == 0 && xdg && xdg[0] == '/' && strcmp (xdg, run_user) != 0)
    r = hide_under (host, xdg, user_sockets, SBX_WHY_SOCKET, plan);
  const char *ssh = strv_env_value (host->environ, "SSH_AUTH_SOCK");
  if (r == 0 && ssh && ssh[0] == '/')
    r = hide_path (host, ssh, SBX_WHY_SOCKET, plan);
  const char *bus = strv_env_value (host->environ, "DBUS_SESSION_BUS_ADDRESS");
  if (r == 0 && bus && strncmp (bus, "unix:path=", 10) == 0)
    {
      cleanup_free char *p = strndup (bus + 10, strcspn (bus + 10, ",;"));
      r = p ? hide_path (host, p, SBX_WHY_SOCKET, plan) : -ENOMEM;
    }
  return r;
}

/* Whether PATH is still the host's, read-only, in the sandbox: the last
   mount whose destination covers it binds the host read-only (not a
   grant, not a tmpfs, not hidden already).  */
static bool
shows_host_read_only (const struct sbx_plan *plan, const char *path)
{
  const struct sbx_plan_mount *last = last_covering (plan, path);
  return last && last->op == SBX_PLAN_BIND_RO;
}

/* Every path socket listening on the host at launch that the sandbox
   would see read-only, unless the operator names it ("socket:PATH"):
   the fixed lists above miss whatever else runs on a host.  Sockets in
   the writable roots stay, the sandbox's own tools use them.  */
static int
hide_host_sockets (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  const struct strv *socks = host->host_sockets;
  int r = 0;
  for (size_t i = 0; r == 0 && socks && i < socks->n; i++)
    {
      const char *p = socks->v[i];
      char token[4200];
      snprintf (token, sizeof token, "socket:%s", p);
      if ((host->approved && strv_contains (host->approved, token))
          || host_path_kind (host, p) != SBX_PATH_SOCKET
          || !shows_host_read_only (plan, p))
        continue;
      r = plan_add (plan, SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, NULL, p)
              ? 0
              : -ENOMEM;
    }
  return r;
}

static int
hardened_defaults (const struct sbx_host_facts *host, struct sbx_plan *plan)
{
  /* HOME unset or not absolute names no home: the account's is still
     known, and hidden, unless it has none either.  */
  cleanup_strv struct strv homes = { 0 };
  int r = host->home || host->account_home
              ? policy_homes (host, &homes)
              : plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                          "no home directory is known (HOME is unset or "
                          "relative, and the account has none): the "
                          "credential stores in it are not hidden");
  for (size_t i = 0; r == 0 && i < homes.n; i++)
    r = hide_under (host, homes.v[i], credential_stores, SBX_WHY_CREDENTIAL,
                    plan);
  for (size_t i = 0; r == 0 && system_secrets[i]; i++)
    r = hide_path (host, system_secrets[i], SBX_WHY_CREDENTIAL, plan);
  if (r == 0 && host->host_root)
    r = plan_gap (plan, false, SBX_LEVEL_PARTIAL,
                  "the sandbox runs as the host's root: it has no "
                  "capability, but owns every file root owns and reads "
                  "those not hidden (the homes' credential stores and the "
                  "host's secrets, /etc/shadow, SSH host keys, "
                  "/etc/ssl/private, are); run agents as an unprivileged "
                  "user");
  if (r == 0)
    r = hide_sockets (host, plan);
  return r == 0 ? hide_host_sockets (host, plan) : r;
}

/* F is also reachable for writing wherever a writable bind of a directory
   holding it is mounted under another name: it is masked there too.  */
static int
mask_alias_elsewhere (struct sbx_plan *plan, size_t n, const char *f)
{
  for (size_t k = 0; k < n; k++)
    {
      const struct sbx_plan_mount *m = &plan->mounts[k];
      if ((m->op != SBX_PLAN_BIND_RW && m->op != SBX_PLAN_BIND_DEV)
          || !m->source || strcmp (m->source, m->dest) == 0
          || !sbx_path_is_under (f, m->source))
        continue;
      /* "/src" under "/": the rest keeps its own leading slash; else it
         starts at the slash after SOURCE.  */
      const char *rest = f + strlen (m->source);
      rest += rest[0] == '/';
      cleanup_free char *at = sbx_path_join (m->dest, rest[0] ? rest : ".");
      if (at == NULL
          || !plan_add (plan, SBX_PLAN_BIND_RO, SBX_WHY_ALIAS, f, at))
        return -ENOMEM;
    }
  return 0;
}

/* Files with another name elsewhere stay read-only: writing one through
   the sandbox would change a file outside every grant.  */
static int
mask_aliases (const struct sbx_spec *spec, const struct sbx_host_facts *host,
              struct sbx_plan *plan)
{
  if (!spec->ext.alias_masking || plan->mode == SBX_MODE_DANGER_FULL_ACCESS)
    return 0;
  size_t n = plan->n_mounts; /* the grants: not the masks added below */
  for (size_t i = 0; host->alias_files && i < host->alias_files->n; i++)
    {
      const char *f = host->alias_files->v[i];
      if (!plan_add (plan, SBX_PLAN_BIND_RO, SBX_WHY_ALIAS, f, f)
          || mask_alias_elsewhere (plan, n, f) < 0)
        return -ENOMEM;
    }
  if (host->alias_gap)
    return plan_gap (plan, false, SBX_LEVEL_PARTIAL, "%s", host->alias_gap);
  return 0;
}

int
policy_agent_mounts (const struct sbx_spec *spec,
                     const struct sbx_host_facts *host, struct sbx_plan *plan,
                     struct sbx_error *err)
{
  int r = policy_devices (spec, host, plan, err);
  if (r == 0)
    r = system_mounts (spec, host, plan);
  if (r == 0)
    r = policy_refuse_roots_in_metadata (spec, host, plan, err);
  if (r == 0)
    r = mode_grants (spec, host, plan, err);
  if (r == 0 && spec->ext.hardened_defaults)
    r = pin_homes_stores (host, plan);
  if (r == 0)
    r = pin_alias_ways (spec, host, plan, err);
  for (size_t i = 0; r == 0 && i < spec->n_mounts; i++)
    r = policy_oci_mount (spec, host, i, plan, err);
  if (r == 0)
    r = policy_protect_metadata (spec, host, plan);
  if (r == 0)
    r = mask_aliases (spec, host, plan);
  if (r == 0 && spec->ext.hardened_defaults)
    r = hardened_defaults (host, plan);
  return r;
}
