#!/bin/bash
# The adversarial suite of the trust boundary (TAP): configs an agent could
# compose, each an edit of the starter agent config, run under the
# operator's ceiling.  Each case names either the refusal it must meet (the
# field and the token) and the host-side evidence that the attack did
# nothing (a sentinel unchanged, a secret unread, a host process alive).
#
# Run as root, the cases run as root and then as uid 65534 (setpriv); some
# attacks only mean something as root and say so.  SBX_ADV_OLD=1 runs the
# same attacks the way main before the ceiling took an untrusted config
# (an empty --approve file): there the evidence checks are expected to
# fail, which is how each case was seen to fail against the old code.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../integration/lib.sh"
: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
: "${BUSYBOX:=/bin/busybox}"
: "${SWAP_LOOP:?set SWAP_LOOP to tests/adversarial/swap_loop}"
WORK=${SBX_IT_WORK:-}
N=0

sbx ()
{
  if [ -n "${SBX_ADV_OLD:-}" ]; then
    "$SBX_OCI" --root "$WORK/state" --approve "$WORK/empty" "$@"
  else
    "$SBX_OCI" --root "$WORK/state" --ceiling "$WORK/ceiling" ${SBX_FLAGS:-} "$@"
  fi
}

# refused PHRASE NAME [STATUS]: the command was refused with STATUS (121,
# a refused config: nothing ran) and PHRASE in its line.
refused ()
{
  [ -n "${SBX_ADV_OLD:-}" ] && return 0
  tap_is "$RC" "${3:-121}" "$2: refused"
  tap_has "$OUT" "$1" "$2: the refusal names $1"
}

# agent_case NAME MODE MOUNTS ARG...: a starter agent config in WS, edited
# through SBX_EXTRA, PROCESS_EXTRA, SBX_WS (the workspace it names) and
# CONFIG_EDIT (a sed expression on the file), then run.
agent_case ()
{
  local b="$WORK/b$N"
  write_agent "$b" "$2" "${SBX_WS:-$WS}" "$3" "${@:4}"
  [ -n "${CONFIG_EDIT:-}" ] && sed -i "$CONFIG_EDIT" "$b/config.json"
  run_bundle "$b"
}

as_root () { [ "$(id -u)" = 0 ]; }

case_workspace_root ()
{
  SBX_WS=/ agent_case ws-root workspace-write "" touch "$OUTSIDE/pwned"
  refused "sbx.workspace: / is not one of the ceiling's workspaces" \
    "\"/\" as the workspace"
  tap_ok "\"/\" as the workspace: nothing written outside" \
    test ! -e "$OUTSIDE/pwned"
  SBX_WS=$WORK agent_case ws-parent workspace-write "" touch "$OUTSIDE/pwned"
  refused "is not one of the ceiling's workspaces" "a parent of the workspace"
  tap_ok "a parent of the workspace: nothing written outside" \
    test ! -e "$OUTSIDE/pwned"
}

case_bind_sources ()
{
  agent_case rw-bind workspace-write \
    "$(bind_to "$OUTSIDE" "$WS/o" rw)" touch "$WS/o/pwned"
  refused "add \"$OUTSIDE\" to the ceiling's \"approve\"" \
    "a writable bind of an outside directory into the workspace"
  tap_ok "a writable bind of an outside directory: nothing written there" \
    test ! -e "$OUTSIDE/pwned"
  agent_case ro-secret workspace-write \
    "$(bind_to "$HOME_DIR/.ssh" "$WS/k" ro)" cat "$WS/k/id_ed25519"
  refused "add \"$HOME_DIR/.ssh\" to the ceiling's \"approve\"" \
    "a read-only bind of ~/.ssh"
  tap_lacks "$OUT" sbx-adv-secret "a read-only bind of ~/.ssh: the key stays unread"
  ln -sfn "$OUTSIDE" "$WS/planted"
  agent_case symlink workspace-write \
    "$(bind_to "$WS/planted" "$WS/p" rw)" touch "$WS/p/pwned"
  refused "is a symbolic link" "a bind through a symlink planted in the workspace"
  tap_ok "a planted symlink: nothing written where it points" \
    test ! -e "$OUTSIDE/pwned"
  rm -f "$WS/planted"
  mkdir -p "$WS/.git"
  echo original > "$WS/.git/config"
  agent_case self-bind workspace-write "$(bind_to "$WS" "$WS/sub" rw)" \
    sh -c "echo changed > $WS/sub/.git/config"
  refused "would make the protected" "the workspace bound into itself"
  tap_is "$(cat "$WS/.git/config")" original \
    "the workspace bound into itself: .git/config unchanged"
}

case_container_shape ()
{
  local b="$WORK/container"
  mkdir -p "$b/rootfs/bin" "$b/rootfs/host"
  cp "$BUSYBOX" "$b/rootfs/bin/busybox"
  cat > "$b/config.json" <<JSON
{"ociVersion": "1.2.0", "root": {"path": "rootfs"},
 "process": {"args": ["/bin/busybox", "touch", "/host$OUTSIDE/pwned"],
             "cwd": "/", "user": {"uid": $(id -u), "gid": $(id -g)}},
 "mounts": [{"destination": "/host", "type": "bind", "source": "/",
             "options": ["rbind", "rw"]}],
 "linux": {"namespaces": [{"type": "pid"}, {"type": "mount"},
                          {"type": "network"}, {"type": "ipc"}, {"type": "uts"}]}}
JSON
  [ "$(id -u)" = 0 ] || sed -i 's/{"type": "uts"}/{"type": "uts"}, {"type": "user"}/' "$b/config.json"
  run_bundle "$b"
  refused "root.path: a container rootfs is refused under a ceiling" \
    "a container rootfs with a writable bind of /"
  tap_ok "a container rootfs: nothing written outside" \
    test ! -e "$OUTSIDE/pwned"
}

case_host_pid ()
{
  sleep 300 &
  local victim=$!
  CONFIG_EDIT='s/"sbx": {/"linux": {"namespaces": [{"type": "network"}, {"type": "mount"}, {"type": "ipc"}, {"type": "uts"}]}, "sbx": {/' \
    agent_case host-pid workspace-write "" kill -9 "$victim"
  refused "add \"host-pid\" to the ceiling's \"approve\"" \
    "the host's PID namespace"
  tap_ok "the host's PID namespace: a host process stays alive" \
    kill -0 "$victim"
  kill "$victim" 2>/dev/null
  wait "$victim" 2>/dev/null
}

case_host_netns ()
{
  if ! as_root; then
    tap_skip "joining the host's network namespace" "only root can join it"
    return
  fi
  # The test's own shell is in the host's network namespace.
  CONFIG_EDIT="s|\"sbx\": {|\"linux\": {\"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"network\", \"path\": \"/proc/$$/ns/net\"}]}, \"sbx\": {|; s|\"network\": \"deny\"|\"requireEnforcement\": \"none\"|" \
    agent_case host-netns workspace-write "" cat /proc/net/dev
  refused "add \"namespace-join\" to the ceiling's \"approve\"" \
    "joining the host's network namespace"
  local ifaces
  ifaces=$(printf '%s\n' "$OUT" | grep -c '^ *[a-z0-9]*: *[0-9]')
  tap_ok "joining the host's network namespace: no host interface is seen" \
    test "$ifaces" -le 1 -o "$(grep -c ':' /proc/net/dev)" -le 1
}

case_capabilities ()
{
  PROCESS_EXTRA='"capabilities": {"bounding": ["CAP_DAC_READ_SEARCH", "CAP_SYS_ADMIN"], "effective": ["CAP_DAC_READ_SEARCH", "CAP_SYS_ADMIN"], "permitted": ["CAP_DAC_READ_SEARCH", "CAP_SYS_ADMIN"]}' \
    agent_case caps workspace-write "" grep CapEff /proc/self/status
  refused "add \"capabilities\" to the ceiling's \"approve\"" "capabilities"
  tap_lacks "$OUT" "CapEff:	0000000000200004" \
    "capabilities: none is granted"
}

case_rlimits ()
{
  # Above the caller's hard limit: only root could raise it, so only there
  # is this an attack; unprivileged, the kernel refuses it anyway.
  local above=$((($(ulimit -Hl) + 1) * 1024))
  PROCESS_EXTRA="\"rlimits\": [{\"type\": \"RLIMIT_MEMLOCK\", \"hard\": $above, \"soft\": $above}]" \
    agent_case rlimits workspace-write "" sh -c 'echo "memlock=$(ulimit -Hl)"'
  refused "add \"rlimits\" to the ceiling's \"approve\"" \
    "a resource limit above the caller's"
  tap_lacks "$OUT" "memlock=$((above / 1024))" \
    "a resource limit above the caller's: not raised"
}

case_alias_masking ()
{
  echo original > "$OUTSIDE/linked"
  ln -f "$OUTSIDE/linked" "$WS/alias"
  SBX_EXTRA='"aliasMasking": {"enabled": false}' \
    agent_case alias workspace-write "" sh -c "echo pwned > $WS/alias"
  refused "add \"alias-masking-off\" to the ceiling's \"approve\"" \
    "alias masking off"
  tap_is "$(cat "$OUTSIDE/linked")" original \
    "alias masking off: the hard-linked file outside is unchanged"
  rm -f "$WS/alias"
  # A walk bound of 1 leaves everything deeper unwalked: masking off there.
  mkdir -p "$WS/deep/er"
  ln -f "$OUTSIDE/linked" "$WS/deep/er/alias"
  SBX_EXTRA='"aliasMasking": {"maxDepth": 1}' \
    agent_case alias-depth workspace-write "" sh -c "echo pwned > $WS/deep/er/alias"
  refused "add \"alias-masking-off\" to the ceiling's \"approve\"" \
    "an alias walk bound of 1"
  tap_is "$(cat "$OUTSIDE/linked")" original \
    "an alias walk bound of 1: the hard-linked file outside is unchanged"
  rm -rf "$WS/deep"
}

case_environment ()
{
  export SBX_ADV_HOSTVAR=sbx-adv-host-value
  SBX_EXTRA='"env": {"mode": "inherit"}' \
    agent_case env-inherit workspace-write "" env
  refused "add \"env-inherit\" to the ceiling's \"approve\"" "env inherit"
  tap_lacks "$OUT" sbx-adv-host-value "env inherit: the caller's variable stays out"
  SBX_EXTRA='"env": {"allow": ["SBX_ADV_HOSTVAR"]}' \
    agent_case env-allow workspace-write "" env
  refused "add \"env:SBX_ADV_HOSTVAR\" to the ceiling's \"approve\"" "env allow"
  tap_lacks "$OUT" sbx-adv-host-value "env allow: the caller's variable stays out"
  unset SBX_ADV_HOSTVAR
}

case_unknown_fields ()
{
  SBX_EXTRA='"requireEnforcment": "full"' \
    agent_case typo workspace-write "" true
  refused "sbx.requireEnforcment: unknown key, did you mean requireEnforcement?" \
    "a misspelt sbx key"
  CONFIG_EDIT='s/"sbx": {/"domainname": "x", "sbx": {/' \
    agent_case unknown workspace-write "" true
  refused "domainname: not a field an untrusted config may set" \
    "a field the allow-list does not know"
}

case_policy_first ()
{
  SBX_NETWORK=allow SBX_EXTRA='"requireEnforcement": "full"' \
    agent_case order workspace-write "" true
  refused "above the ceiling's maxNetwork" \
    "a refusal names the ceiling before requireEnforcement"
}

case_hooks ()
{
  local b="$WORK/hooks"
  write_agent "$b" workspace-write "$WS" "" true
  sed -i "s|\"sbx\": {|\"hooks\": {\"prestart\": [{\"path\": \"/bin/sh\", \"args\": [\"sh\", \"-c\", \"touch $OUTSIDE/pwned\"]}]}, \"sbx\": {|" "$b/config.json"
  N=$((N + 1))
  # A created sandbox keeps its stdout: a file, not a pipe that would wait.
  sbx create --bundle "$b" "adv-$N" > "$WORK/create.out" 2>&1
  RC=$?
  OUT=$(cat "$WORK/create.out")
  sbx delete --force "adv-$N" > /dev/null 2>&1
  refused "add \"hooks\" to the ceiling's \"approve\"" "hooks"
  tap_ok "hooks: nothing ran on the host" test ! -e "$OUTSIDE/pwned"
}

# A config's own narrowing stays: a read-only layer over .git is not
# undone by the pins that keep .git/config read-only.
case_narrowing_kept ()
{
  mkdir -p "$WS/.git/objects"
  agent_case narrow workspace-write "$(bind_to "$WS/.git" "$WS/.git" ro)" \
    touch "$WS/.git/objects/pwned"
  tap_ok "a read-only .git of the config's own: nothing written in it" \
    test ! -e "$WS/.git/objects/pwned"
}

# A config's read-only .git/hooks: the pin that keeps .git in place binds
# the host's .git afresh, and must not lay the writable hooks back over
# it.  Both hooks and config narrowed: .git must still be pinned, or it
# could be renamed away and replaced by one of the sandbox's making.
case_narrowing_pinned ()
{
  mkdir -p "$WS/.git/hooks" "$WS/decoy"
  echo original > "$WS/.git/config"
  agent_case narrow-hooks workspace-write "$(bind_to "$WS/decoy" "$WS/.git/hooks" ro)" \
    touch "$WS/.git/hooks/pwned"
  tap_ok "a read-only .git/hooks of the config's own: nothing written in it" \
    test ! -e "$WS/.git/hooks/pwned"
  agent_case narrow-both workspace-write \
    "$(deny "$WS/.git/hooks"), $(deny "$WS/.git/config")" \
    sh -c "cd $WS && mv .git .git.old && mkdir -p .git/hooks && echo changed > .git/config"
  tap_is "$(cat "$WS/.git/config")" original \
    "hooks and config hidden by the config: .git cannot be replaced"
  rm -rf "$WS/.git.old" "$WS/decoy"
}

# A writable bind of protected metadata itself (WS/.git, WS/.git/hooks)
# at another destination, where no pin is.
case_bind_metadata ()
{
  mkdir -p "$WS/.git/hooks" "$WS/o"
  echo original > "$WS/.git/config"
  agent_case bind-git workspace-write "$(bind_to "$WS/.git" "$WS/o" rw)" \
    sh -c "echo changed > $WS/o/config; touch $WS/o/hooks/pwned"
  refused "would make the protected $WS/.git/hooks writable" \
    "a writable bind of .git elsewhere"
  tap_is "$(cat "$WS/.git/config")" original \
    "a writable bind of .git elsewhere: .git/config unchanged"
  agent_case bind-hooks workspace-write "$(bind_to "$WS/.git/hooks" "$WS/o" rw)" \
    touch "$WS/o/pwned"
  refused "would make the protected $WS/.git/hooks writable" \
    "a writable bind of .git/hooks elsewhere"
  tap_ok "a writable bind of .git/hooks elsewhere: no hook written" \
    test ! -e "$WS/.git/hooks/pwned"
}

# Read-only, the workspace is still bound in: "/proc" would show the
# host's processes (their command lines) without the host-pid approval.
case_readonly_workspace ()
{
  sleep 300 &
  local victim=$!
  SBX_WS=/proc agent_case ro-proc read-only "" \
    sh -c "test -e /proc/$victim && echo sbx-adv-seen"
  refused "add \"/proc\" to the ceiling's \"approve\"" \
    "\"/proc\" as a read-only workspace"
  tap_lacks "$OUT" sbx-adv-seen \
    "\"/proc\" as a read-only workspace: no host process is seen"
  kill "$victim" 2>/dev/null
  wait "$victim" 2>/dev/null
}

# A ceiling whose maxMode is read-only: a temp root inside the workspace
# made it writable all the same (found by a review), protected metadata
# included.
case_temp_root_max_mode ()
{
  printf '{"workspaces": [%s], "maxMode": "read-only"}\n' "$(json_str "$WS")" \
    > "$WORK/ceiling"
  SBX_EXTRA="\"tempRoots\": [$(json_str "$WS")]" agent_case temp-max read-only "" \
    sh -c "echo x > $WS/temp-root-pwned"
  refused "sbx.tempRoots[0]" "a temp root in a workspace under maxMode read-only"
  tap_ok "a temp root under maxMode read-only: nothing written" \
    test ! -e "$WS/temp-root-pwned"
  # Approved, a temp root is writable, and its protected metadata is not
  # (it was not protected in a read-only mode).
  local tr="$WORK/temp-root"
  mkdir -p "$tr/.git/hooks"
  chmod -R a+rwX "$tr"
  printf '{"workspaces": [%s], "maxMode": "read-only", "approve": [%s]}\n' \
    "$(json_str "$WS")" "$(json_str "$tr")" > "$WORK/ceiling"
  SBX_EXTRA="\"tempRoots\": [$(json_str "$tr")]" agent_case temp-meta read-only "" \
    sh -c "echo x > $tr/scratch; echo x > $tr/.git/hooks/pre-commit"
  tap_ok "an approved temp root is written" test -e "$tr/scratch"
  tap_ok "... but not its .git/hooks" test ! -e "$tr/.git/hooks/pre-commit"
  rm -rf "$tr"
  write_ceiling
  # A temp root that is the workspace's .git, in a read-only mode (found
  # by the second review: hooks and config were written).
  mkdir -p "$WS/.git/hooks"
  SBX_EXTRA="\"tempRoots\": [$(json_str "$WS/.git")]" agent_case temp-git read-only "" \
    sh -c "echo x > $WS/.git/hooks/pre-commit"
  refused "sbx.tempRoots[0]" "a temp root that is the workspace's .git"
  tap_ok "a temp root that is .git: no hook written" \
    test ! -e "$WS/.git/hooks/pre-commit"
  # A nested repository's .git, and a bare repository (HEAD, objects,
  # refs), which the walk of a read-only workspace never lists (found by
  # the third review).
  mkdir -p "$WS/sub/.git/hooks" "$WS/bare.git/hooks" "$WS/bare.git/objects" \
    "$WS/bare.git/refs"
  echo "ref: refs/heads/main" > "$WS/bare.git/HEAD"
  local d
  for d in sub/.git bare.git; do
    SBX_EXTRA="\"tempRoots\": [$(json_str "$WS/$d")]" agent_case temp-git-2 read-only "" \
      sh -c "echo x > $WS/$d/hooks/pre-commit"
    refused "sbx.tempRoots[0]" "a temp root that is $d"
    tap_ok "a temp root that is $d: no hook written" \
      test ! -e "$WS/$d/hooks/pre-commit"
  done
  rm -rf "$WS/bare.git" "$WS/sub/.git/hooks"
}

# The workspace holds the home (a parent of HOME): the home's start-up
# files run code for the account as anywhere, and are protected as a
# workspace's own, pinned from the workspace so that the home cannot be
# renamed away and made anew.
case_home_in_workspace ()
{
  local h="$WS/homes/hm"
  mkdir -p "$h/.config/autostart"
  echo original > "$h/.bashrc"
  echo original > "$h/.gitconfig"
  HOME=$h agent_case home-in-ws workspace-write "" sh -c \
    "echo evil > $h/.bashrc; echo evil > $h/.gitconfig; echo evil > $h/.config/autostart/x.desktop; mv $h $WS/homes/hm2 && mkdir $h && echo evil > $h/.bashrc; true"
  tap_is "$(cat "$h/.bashrc")" original \
    "a home inside the workspace: its .bashrc stays as it was"
  tap_is "$(cat "$h/.gitconfig")" original \
    "a home inside the workspace: its .gitconfig stays as it was"
  tap_ok "a home inside the workspace: nothing autostarts from it" \
    test ! -e "$h/.config/autostart/x.desktop"
  tap_ok "a home inside the workspace: it cannot be renamed away" \
    test ! -e "$WS/homes/hm2"
  tap_has "$OUTCOME" "the home $h is writable and lacks .bash_profile" \
    "a home inside the workspace: the start-up files it lacks are reported"
  # The workspace bound writable elsewhere: the home's files are reached
  # through the destination, where no pin is.
  HOME=$h agent_case home-via-bind workspace-write \
    "$(bind_to "$WS/homes" "$WS/o" rw)" sh -c "echo evil > $WS/o/hm/.bashrc"
  refused "would make the protected $h/.bashrc writable" \
    "a writable bind of a directory that holds a home"
  tap_is "$(cat "$h/.bashrc")" original \
    "a home inside the workspace, reached through a bind: .bashrc stays"
  # HOME written with // (or through a link): the same home.
  HOME=$WS//homes/hm agent_case home-dslash workspace-write "" sh -c \
    "echo evil > $h/.bashrc"
  tap_is "$(cat "$h/.bashrc")" original \
    "HOME=WS//hm: the home's .bashrc stays as it was"
  ln -sfn "$WS" "$WORK/wslink"
  HOME=$WORK/wslink/homes/hm agent_case home-link workspace-write "" sh -c \
    "echo evil > $h/.bashrc"
  tap_is "$(cat "$h/.bashrc")" original \
    "HOME through a link: the home's .bashrc stays as it was"
  mkdir -p "$WORK/deep/d"
  echo original > "$WORK/deep/d/.bashrc"
  HOME="$WS/$WORK/deep/d" agent_case home-escape workspace-write "" sh -c \
    "touch $WORK/deep/pwned"
  tap_ok "HOME=WS//elsewhere pins nothing outside the grants" \
    test ! -e "$WORK/deep/pwned"
  rm -rf "$WORK/wslink" "$WORK/deep"
  HOME=$WS agent_case home-is-ws workspace-write "" true
  tap_has "$OUTCOME" "the home $WS is writable and lacks .bashrc" \
    "the workspace is the home: the start-up files it lacks are reported"
  rm -rf "$WS/homes"
}

# The home bind-mounted into the workspace by the host (a dev container's
# set-up, say): the same directory under another name, where its start-up
# files and credential stores were reached by path no more.  Root makes
# the mount; the sandbox runs as root and, through setpriv, as uid 65534.
case_home_bind_mounted ()
{
  if ! as_root; then
    tap_skip "a home bind-mounted into the workspace" "needs root for the host's mount"
    return
  fi
  local hm="$WORK/mhome" at="$WS/mh" who
  mkdir -p "$hm/.ssh" "$at"
  echo sbx-adv-mounted-secret > "$hm/.ssh/id_ed25519"
  mount --bind "$hm" "$at" || { tap_skip "a home bind-mounted" "mount failed"; return; }
  for who in root 65534; do
    echo original > "$hm/.bashrc"
    chown -R "$who" "$hm" "$WS"
    if [ "$who" = root ]; then
      HOME=$hm agent_case home-mounted workspace-write "" sh -c \
        "cat $at/.ssh/id_ed25519; echo evil > $at/.bashrc"
    else
      mkdir -p "$WORK/state65534"
      chown 65534 "$WORK/state65534"
      local b="$WORK/b$N"
      write_agent "$b" workspace-write "$WS" "" sh -c \
        "cat $at/.ssh/id_ed25519; echo evil > $at/.bashrc"
      sed -i 's/"uid": 0, "gid": 0/"uid": 65534, "gid": 65534/' "$b/config.json"
      chmod -R a+rX "$b"
      OUT=$(HOME=$hm setpriv --reuid 65534 --regid 65534 --clear-groups \
        "$SBX_OCI" --root "$WORK/state65534" --ceiling "$WORK/ceiling" \
        run --bundle "$b" "adv-mounted" 2>&1)
    fi
    tap_is "$(cat "$hm/.bashrc")" original \
      "a home bind-mounted into the workspace ($who): its .bashrc stays"
    tap_lacks "$OUT" sbx-adv-mounted-secret \
      "a home bind-mounted into the workspace ($who): its ~/.ssh is hidden"
  done
  chown -R root "$WS"
  umount "$at"
  rm -rf "$hm" "$at"
}

# A mount of another file system inside the workspace (a tmpfs, a
# volume): the walk does not enter it, so hard-link aliases, nested
# repositories and homes there are not looked for, and the report says so.
case_other_fs_mount ()
{
  if ! as_root; then
    tap_skip "a mount of another file system in the workspace" "needs root for the host's mount"
    return
  fi
  mkdir -p "$WS/tm"
  mount -t tmpfs -o size=1m tmpfs "$WS/tm" || { tap_skip "another file system" "mount failed"; return; }
  agent_case other-fs workspace-write "" true
  tap_has "$OUTCOME" "mounts of other file systems, not entered: $WS/tm" \
    "a mount of another file system in the workspace is reported"
  umount "$WS/tm"
  rmdir "$WS/tm"
}

# HOME names another directory than the account's home (as in this
# suite): the stores of the account's own home are hidden too.  The
# account's home is replaced by a scratch one in a mount namespace of the
# test's, so the host's is never read.
case_account_home ()
{
  local home
  home=$(getent passwd "$(id -u)" | cut -d: -f6)
  if ! as_root || [ -z "$home" ] || [ "$home" = "$HOME" ]; then
    tap_skip "the account's home's ~/.ssh" "needs root (a mount namespace)"
    return
  fi
  mkdir -p "$WORK/account/.ssh"
  echo sbx-adv-account-secret > "$WORK/account/.ssh/id_ed25519"
  local b="$WORK/account-bundle"
  write_agent "$b" workspace-write "$WS" "" cat "$home/.ssh/id_ed25519"
  N=$((N + 1))
  OUT=$(unshare -m --propagation private sh -c \
    'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
    "$WORK/account" "$home" "$SBX_OCI" --root "$WORK/state" \
    --ceiling "$WORK/ceiling" run --bundle "$b" "adv-$N" 2>&1)
  tap_lacks "$OUT" sbx-adv-account-secret \
    "the account's home's ~/.ssh stays unread when HOME is elsewhere"
}

# An outcome file in the workspace (here: the bundle is there): sbx
# writes it after the sandbox exits, through a temporary name beside it.
# The sandbox plants a symbolic link at every name that could be (one per
# pid; here the next few thousand the host will hand out, where an agent
# would plant all of pid_max) toward a file outside: the write must not
# follow one.
case_outcome_links ()
{
  local py=/usr/bin/python3
  if [ ! -x "$py" ]; then
    tap_skip "links planted at the outcome's temporary names" "needs python3"
    return
  fi
  local b="$WS/ob" last
  last=$(cat /proc/sys/kernel/ns_last_pid)
  write_agent "$b" workspace-write "$WS" "" "$py" -c "
import os
for i in range($last, $last + 5000):
    os.symlink('$OUTSIDE/clobbered', '$b/outcome.json.tmp.%d' % i)"
  run_bundle "$b"
  tap_ok "links planted at the outcome's temporary names: nothing written outside" \
    test ! -e "$OUTSIDE/clobbered"
  rm -rf "$b"
}

# systemd's private bus for root (what systemctl and systemd-run use as
# root): a root-run sandbox is uid 0 to it, and a transient unit would run
# on the host.  Staged in a mount namespace of the test's: a scratch
# /run/systemd with a listener on "private", whose log is the evidence.
case_systemd_private ()
{
  local py=/usr/bin/python3
  if ! as_root || [ ! -d /run/systemd ] || [ ! -x "$py" ]; then
    tap_skip "systemd's private socket" "needs root, /run/systemd and python3"
    return
  fi
  local b="$WORK/systemd-bundle" log="$WORK/systemd-accepted"
  write_agent "$b" workspace-write "$WS" "" "$py" -c \
    "import socket; socket.socket(socket.AF_UNIX).connect('/run/systemd/private')"
  N=$((N + 1))
  OUT=$(unshare -m --propagation private sh -c '
    mount -t tmpfs tmpfs /run/systemd || exit 1
    "$1" -c "
import os, socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(\"/run/systemd/private\")
os.chmod(\"/run/systemd/private\", 0o600); s.listen(1); s.settimeout(15)
c, _ = s.accept(); open(sys.argv[1], \"w\").write(\"accepted\")
" "$2" > /dev/null 2>&1 &
    sleep 0.5
    shift 2
    "$@"' sh "$py" "$log" "$SBX_OCI" --root "$WORK/state" \
    --ceiling "$WORK/ceiling" run --bundle "$b" "adv-$N" 2>&1)
  tap_ok "systemd's private socket: the sandbox cannot connect to it" \
    test ! -e "$log"
}

# process.env is also the environment the runner (bubblewrap) starts with,
# on the host: LD_DEBUG_OUTPUT makes the loader write outside every grant
# there (LD_PRELOAD of a library the sandbox wrote would run it there).
case_runner_env ()
{
  # The runner starts with an empty environment (runtime/linux/
  # runner_env.h): these reach the command inside, never bwrap's loader.
  PROCESS_EXTRA="\"env\": [\"LD_DEBUG=files\", \"LD_DEBUG_OUTPUT=$OUTSIDE/ld\"]" \
    agent_case runner-env workspace-write "" true
  tap_ok "loader variables in process.env: nothing written outside" \
    test -z "$(ls "$OUTSIDE" | grep '^ld\.')"
}

# Metadata where it really lives: a .git that is a file, the start-up
# files of a home, a protected path that is a symbolic link.
case_metadata ()
{
  local r="$WS/wt"
  mkdir -p "$r"
  echo "gitdir: $OUTSIDE/real.git" > "$r/.git"
  echo original > "$r/.gitconfig"
  SBX_WS=$r agent_case gitfile workspace-write "" sh -c \
    "echo 'gitdir: $r/evil' > $r/.git; echo '[core] fsmonitor = x' > $r/.gitconfig"
  tap_is "$(cat "$r/.git")" "gitdir: $OUTSIDE/real.git" \
    "a .git file (worktree): its gitdir cannot be redirected"
  tap_is "$(cat "$r/.gitconfig")" original \
    "a home's .gitconfig is protected"
  mkdir -p "$WS/lr/.git"
  echo original > "$OUTSIDE/gitconfig"
  ln -sfn "$OUTSIDE/gitconfig" "$WS/lr/.git/config"
  SBX_WS=$WS/lr agent_case linked workspace-write "" true
  tap_has "$OUTCOME" \
    "is not protected: it is a symbolic link" \
    "a symlinked .git/config is reported, never skipped silently"
}

# Git takes its settings from more than config and hooks: a linked
# worktree's commondir names the directory git takes config and hooks from,
# and where a git directory has none the sandbox can make one; a
# core.hooksPath or include.path in the (read-only) config sends git to
# files the config does not hold.  What exists is held; what cannot be is
# reported, never claimed.
case_git_settings ()
{
  local g="$WS/gs"
  mkdir -p "$g/.git/hooks" "$g/.git/worktrees/w" "$g/hk"
  echo original > "$g/.git/config"
  echo ../.. > "$g/.git/worktrees/w/commondir"
  echo original > "$g/.git/worktrees/w/config.worktree"
  SBX_WS=$g agent_case git-settings workspace-write "" sh -c \
    "echo $g/evil > $g/.git/worktrees/w/commondir; echo x > $g/.git/worktrees/w/config.worktree"
  tap_is "$(cat "$g/.git/worktrees/w/commondir")" ../.. \
    "a linked worktree's commondir is protected"
  tap_is "$(cat "$g/.git/worktrees/w/config.worktree")" original \
    "a linked worktree's config.worktree is protected"
  tap_has "$OUTCOME" "$g/.git lacks commondir" \
    "a git directory without commondir is reported: the sandbox can make one"
  # git looks into a submodule its index records (a gitlink: no
  # .gitmodules needed) and runs that repository's core.fsmonitor: a
  # review had the host's `git status` run a program a sandbox planted
  # so.  The index must stay writable for git to work: reported.
  tap_has "$OUTCOME" "the sandbox can write $g/.git/index: a repository it makes" \
    "a writable git index is reported: it can record a submodule of the sandbox's"
  printf '[core]\n\thooksPath = hk\n[include]\n\tpath = ../inc\n' > "$g/.git/config"
  SBX_WS=$g agent_case git-hookspath workspace-write "" true
  tap_has "$OUTCOME" "$g/.git/config names core.hooksPath" \
    "a config's core.hooksPath into the workspace is reported"
  tap_has "$OUTCOME" "include.path" \
    "a config's include.path is reported"
  printf '[core]\n\tfsmonitor = tools/fsmon\n[include]\n\tpath = %s\n' \
    "$OUTSIDE/team.inc" > "$g/.git/config"
  printf '[core]\n\thooksPath = %s\n' "$g/hk" > "$OUTSIDE/team.inc"
  SBX_WS=$g agent_case git-programs workspace-write "" true
  tap_has "$OUTCOME" "names core.fsmonitor tools/fsmon" \
    "a config's core.fsmonitor program in the workspace is reported"
  tap_has "$OUTCOME" "the git config $OUTSIDE/team.inc names core.hooksPath $g/hk" \
    "an included file outside is read, and its hooksPath reported"
  printf '[core]\n\thooksPath = hk\n' > "$g/.git/config"
  SBX_WS=$g agent_case git-readonly workspace-write "$(bind_to "$g/.git" "$g/.git" ro)" \
    sh -c "echo ../x > $g/.git/commondir; true"
  tap_lacks "$OUTCOME" "$g/.git lacks commondir" \
    "a git directory the config keeps read-only: no commondir gap"
  tap_ok "  and the sandbox could make none there" test ! -e "$g/.git/commondir"
  tap_has "$OUTCOME" "$g/.git/config names core.hooksPath" \
    "  but its config's hooksPath into the workspace is still reported"
  # Without it the gap is real: a sandbox plants a commondir, and one that
  # names a second planted back (git follows one step; a planning that
  # followed them all recursed until sbx-oci crashed).
  echo original > "$g/.git/config"
  SBX_WS=$g agent_case git-plant workspace-write "" sh -c \
    "mkdir -p $g/lp && echo ../lp > $g/.git/commondir && echo ../.git > $g/lp/commondir"
  tap_is "$(cat "$g/.git/commondir" 2>/dev/null)" ../lp \
    "without a read-only .git the sandbox plants a commondir (the gap is real)"
  SBX_WS=$g agent_case git-after-plant workspace-write "" true
  tap_is "$RC" 0 "the next run on the planted commondir loop runs ($OUT)"
  tap_has "$OUTCOME" "the git directory $g/.git names $g/lp as its commondir" \
    "  and reports the planted commondir"
  rm -rf "$g/.git" "$g/hk" "$g/lp"
  # The workspace a linked worktree of a repository outside: git there
  # takes the main repository's config, whose hooksPath leads back in.
  local main="$OUTSIDE/main"
  mkdir -p "$main/.git/worktrees/w"
  printf '[core]\n\thooksPath = .husky\n' > "$main/.git/config"
  echo ../.. > "$main/.git/worktrees/w/commondir"
  echo "gitdir: $main/.git/worktrees/w" > "$g/.git"
  SBX_WS=$g agent_case git-worktree workspace-write "" true
  tap_has "$OUTCOME" "the git config $main/.git/config names core.hooksPath .husky" \
    "a workspace that is a linked worktree: the main repository's hooksPath is reported"
  rm -rf "$g/.git" "$main"
}

# A hard-linked file reached through a writable bind's destination.
case_alias_destination ()
{
  mkdir -p "$WS/src"
  echo original > "$OUTSIDE/aliased"
  ln -f "$OUTSIDE/aliased" "$WS/src/alias"
  agent_case alias-dest workspace-write "$(bind_to "$WS/src" "$WS/o" rw)" \
    sh -c "echo pwned > $WS/o/alias"
  tap_is "$(cat "$OUTSIDE/aliased")" original \
    "a hard link reached through a bind's destination stays read-only"
  rm -f "$WS/src/alias"
}

# A hard link to an outside file, masked read-only where it lies, and a
# second writable view of the same tree (a directory of the workspace
# bound writable under another name): moving the link's directory into
# the bound one would carry it out from under its mask (review).  The
# directories on its way are pinned: the move fails.
case_alias_second_view ()
{
  mkdir -p "$WS/av/d" "$WS/av/e" "$WS/av/x"
  echo original > "$OUTSIDE/av-linked"
  ln -f "$OUTSIDE/av-linked" "$WS/av/e/alias"
  agent_case alias-view workspace-write "$(bind_to "$WS/av/d" "$WS/av/x" rw)" \
    sh -c "mv $WS/av/e $WS/av/d/e && echo pwned > $WS/av/x/e/alias; true"
  tap_is "$(cat "$OUTSIDE/av-linked")" original \
    "a hard link moved into a directory bound writable elsewhere: the outside file stays"
  tap_ok "  its directory was not moved" test -d "$WS/av/e"
  # More such directories than can be pinned within bwrap's argument
  # limit: refused, not run half-held.
  local i
  for i in $(seq 1 520); do
    mkdir -p "$WS/av/many/$i"
    ln -f "$OUTSIDE/av-linked" "$WS/av/many/$i/alias"
  done
  agent_case alias-many workspace-write "$(bind_to "$WS/av/d" "$WS/av/x" rw)" true
  refused "in more than 512 directories" \
    "a second writable view with hard links in 520 directories"
  rm -rf "$WS/av" "$OUTSIDE/av-linked"
}

# A nested writable root swapped for a symbolic link to the outside, in a
# loop, while sandboxes are set up: what was checked must be what is
# mounted (bind sources are held as descriptors).
case_swap_race ()
{
  local i
  mkdir -p "$WS/nest"
  ln -sfn "$OUTSIDE" "$WS/swap"
  "$SWAP_LOOP" "$WS/nest" "$WS/swap" 8 &
  local swapper=$!
  # The command writes ten times: the name is the link half the time.
  for i in $(seq 1 30); do
    agent_case race workspace-write "$(bind_to "$WS/nest" "$WS/nest" rw)" \
      sh -c "for j in 0 1 2 3 4 5 6 7 8 9; do touch $WS/nest/race-$i-\$j; done 2>/dev/null; true"
  done
  wait "$swapper"
  tap_ok "a nested root swapped for a symlink in a loop: nothing written outside" \
    test -z "$(ls "$OUTSIDE" | grep race-)"
  rm -rf "$WS/nest" "$WS/swap"
}

# A bind source in another of the ceiling's workspaces (WS/wt), which a
# concurrent sandbox there may change, swapped for a link to the outside
# in a loop while this sandbox (workspace WS/lr) is planned and set up:
# the source is settled where it leads when checked and held with no
# link allowed, so a swap fails the run rather than mounting the outside.
case_foreign_swap_race ()
{
  local i
  mkdir -p "$WS/wt/d" "$WS/lr/x"
  ln -sfn "$OUTSIDE" "$WS/wt/s"
  "$SWAP_LOOP" "$WS/wt/d" "$WS/wt/s" 8 &
  local swapper=$!
  for i in $(seq 1 30); do
    SBX_WS=$WS/lr agent_case foreign workspace-write \
      "$(bind_to "$WS/wt/d" "$WS/lr/x" rw)" \
      sh -c "touch $WS/lr/x/foreign-$i 2>/dev/null; true"
  done
  wait "$swapper"
  tap_ok "a source in another workspace swapped for a link in a loop: nothing written outside" \
    test -z "$(ls "$OUTSIDE" | grep foreign-)"
  # The control, with no swapper: the bind is allowed and works.
  rm -rf "$WS/wt/d" "$WS/wt/s"
  mkdir -p "$WS/wt/d"
  SBX_WS=$WS/lr agent_case foreign-control workspace-write \
    "$(bind_to "$WS/wt/d" "$WS/lr/x" rw)" touch "$WS/lr/x/foreign-control"
  tap_ok "  control: without a swap the bind takes the write" \
    test -e "$WS/wt/d/foreign-control"
  rm -rf "$WS/wt/d" "$WS/lr/x"
}

# The same swap under a read-only workspace (another sandbox, or any
# process of the agent's, writing it at the same time) toward a hidden
# store: a read-only bind of the swapped name must not show the key.
case_swap_race_readonly ()
{
  local i seen=0
  mkdir -p "$WS/rnest" "$WS/rdest"
  ln -sfn "$HOME_DIR/.ssh" "$WS/rswap"
  "$SWAP_LOOP" "$WS/rnest" "$WS/rswap" 8 &
  local swapper=$!
  for i in $(seq 1 30); do
    agent_case race-ro read-only "$(bind_to "$WS/rnest" "$WS/rdest" ro)" \
      sh -c "cat $WS/rdest/id_ed25519 2>/dev/null; true"
    case $OUT in *sbx-adv-secret*) seen=$((seen + 1)) ;; esac
  done
  wait "$swapper"
  tap_is "$seen" 0 \
    "a read-only workspace's bind source swapped for a link to ~/.ssh: the key stays unread"
  rm -rf "$WS/rnest" "$WS/rswap" "$WS/rdest"
}

# A sandbox that can write its own bundle: it adds a poststop hook and
# capabilities to config.json after `create`; the operator's `delete` and
# `exec` must use what `create` checked, not the bundle again.
case_bundle_rewrite ()
{
  local b="$WS/bundle" id
  write_agent "$b" workspace-write "$WS" "" sh -c \
    "sed -i 's|\"sbx\": {|\"hooks\": {\"poststop\": [{\"path\": \"/bin/sh\", \"args\": [\"sh\", \"-c\", \"touch $OUTSIDE/pwned\"]}]}, \"sbx\": {|' $b/config.json; sleep 30"
  N=$((N + 1))
  id="adv-$N"
  sbx create --bundle "$b" "$id" > "$WORK/create.out" 2>&1
  tap_is "$?" 0 "a bundle the sandbox can write: create works"
  sbx start "$id" > /dev/null 2>&1
  local i
  for i in $(seq 1 50); do
    grep -q poststop "$b/config.json" && break
    sleep 0.1
  done
  tap_has "$(cat "$b/config.json")" poststop \
    "a bundle the sandbox can write: the sandbox rewrote it"
  sbx delete --force "$id" > /dev/null 2>&1
  tap_ok "a bundle the sandbox can write: delete ran no hook it added" \
    test ! -e "$OUTSIDE/pwned"
}

# Repositories inside the workspace that are not its own: a nested one, a
# submodule's git directory, a nested checkout's .git file.
case_nested_repositories ()
{
  mkdir -p "$WS/nested/.git/hooks" "$WS/.git/modules/m/hooks" "$WS/sm"
  echo original > "$WS/nested/.git/config"
  echo original > "$WS/.git/modules/m/config"
  echo "gitdir: ../.git/modules/m" > "$WS/sm/.git"
  agent_case nested workspace-write "" sh -c \
    "echo x > $WS/nested/.git/config; echo x > $WS/.git/modules/m/config; \
     echo x > $WS/nested/.git/hooks/pre-commit; echo 'gitdir: /x' > $WS/sm/.git"
  tap_is "$(cat "$WS/nested/.git/config")" original \
    "a nested repository's .git/config is protected"
  tap_ok "a nested repository's hooks are protected" \
    test ! -e "$WS/nested/.git/hooks/pre-commit"
  tap_is "$(cat "$WS/.git/modules/m/config")" original \
    "a submodule's git directory's config is protected"
  tap_is "$(cat "$WS/sm/.git")" "gitdir: ../.git/modules/m" \
    "a nested checkout's .git file is protected"
}

# The positive controls: the default agent run, and an approved widening.
# A limit the config asks for makes the sandbox's cgroup: under a ceiling
# it is made inside the caller's own, so whatever limits the operator put
# the caller under hold for the sandbox too.  It went to sbx-oci/ at the
# hierarchy's root, out of them (a cage of 64 MiB, a config asking 1 GiB).
case_cgroup_escape ()
{
  if ! as_root; then
    tap_skip "a limit that would move the sandbox out of the caller's cgroup" \
      "only root puts the caller in a cgroup of the test's here"
    return
  fi
  local ctl path mnt cage cages="" c rel line own
  own=$(cat /proc/self/cgroup) # read whole: moving this shell changes it
  while IFS=: read -r _ ctl path; do
    case $ctl in
      memory) mnt=$(findmnt -rn -t cgroup -o TARGET,FS-OPTIONS | awk '$2 ~ /(^|,)memory(,|$)/ { print $1; exit }') ;;
      "") mnt=$(findmnt -rn -t cgroup2 -o TARGET | head -1) ;;
      *) continue ;;
    esac
    path=${path%/}
    [ -n "$mnt" ] && [ -w "$mnt$path/cgroup.procs" ] || continue
    cage=$mnt$path/sbx-adv-cage-$$
    mkdir "$cage" || continue
    [ "$ctl" = memory ] && echo $((64 << 20)) > "$cage/memory.limit_in_bytes"
    # this shell, which may be a subshell of the suite's ($$)
    echo "$BASHPID" > "$cage/cgroup.procs" && cages="$cages $ctl:$path:$mnt"
  done <<< "$own"
  # --systemd-cgroup, which engines pass, must not name one elsewhere
  local flags
  for flags in "" --systemd-cgroup; do
    SBX_FLAGS=$flags CONFIG_EDIT='s/"sbx": {/"linux": {"resources": {"memory": {"limit": 1073741824}}}, "sbx": {/' \
      agent_case cgroup-escape workspace-write "" cat /proc/self/cgroup
    for c in $cages; do
      IFS=: read -r ctl path mnt <<< "$c"
      rel=$path/sbx-adv-cage-$$
      line=$(printf '%s\n' "$OUT" | awk -F: -v c="$ctl" '$2 == c { print $3 }')
      case $line in
        "$rel" | "$rel"/*) tap_ok "a memory limit asked under a ceiling${flags:+ ($flags)}: the sandbox stays in the caller's ${ctl:-v2} cgroup ($line)" true ;;
        *) tap_ok "a memory limit asked under a ceiling${flags:+ ($flags)}: the sandbox stays in the caller's ${ctl:-v2} cgroup (got '$line', rc $RC: $OUT)" false ;;
      esac
      # nothing of the run's is left in it
      [ -n "${SBX_ADV_OLD:-}" ] || tap_ok "... and nothing of the run is left in the caller's ${ctl:-v2} cgroup" \
        test -z "$(find "$mnt$rel" -mindepth 1 -type d)"
    done
  done
  # A run killed by SIGKILL leaves its cgroup there; the next run sweeps
  # it, and then no empty parent of it is left either (it was).
  if [ -z "${SBX_ADV_OLD:-}" ] && [ -n "$cages" ]; then
    local b="$WORK/bkill" runner
    write_agent "$b" workspace-write "$WS" "" sleep 30
    sed -i 's/"sbx": {/"linux": {"resources": {"memory": {"limit": 1073741824}}}, "sbx": {/' "$b/config.json"
    # exec: $! is sbx-oci itself, not a subshell running the sbx function
    (exec "$SBX_OCI" --root "$WORK/state" --ceiling "$WORK/ceiling" run \
      --bundle "$b" killed-run > /dev/null 2>&1) &
    runner=$!
    for _ in $(seq 100); do
      find /sys/fs/cgroup -path "*sbx-adv-cage-$$/sbx-oci/killed-run*" -type d 2> /dev/null | grep -q . && break
      sleep 0.05
    done
    kill -9 "$runner"; wait "$runner" 2> /dev/null
    CONFIG_EDIT='s/"sbx": {/"linux": {"resources": {"memory": {"limit": 1073741824}}}, "sbx": {/' \
      agent_case after-kill workspace-write "" true
    for c in $cages; do
      IFS=: read -r ctl path mnt <<< "$c"
      tap_is "$(find "$mnt$path/sbx-adv-cage-$$" -mindepth 1 -type d)" "" \
        "after a killed run and the next one, nothing is left in the caller's ${ctl:-v2} cgroup"
    done
  fi
  for c in $cages; do
    IFS=: read -r ctl path mnt <<< "$c"
    echo "$BASHPID" > "$mnt$path/cgroup.procs"
    find "$mnt$path/sbx-adv-cage-$$" -mindepth 1 -depth -type d -exec rmdir {} + 2> /dev/null
    rmdir "$mnt$path/sbx-adv-cage-$$" 2> /dev/null
  done
  [ -n "$cages" ] || tap_skip "a limit that would move the sandbox out of the caller's cgroup" \
    "no writable memory or v2 cgroup of the caller's"
}

case_controls ()
{
  agent_case control workspace-write "" sh -c "echo ok > $WS/control"
  tap_is "$RC" 0 "control: the default agent run works under the ceiling"
  tap_is "$(cat "$WS/control" 2>/dev/null)" ok "control: its write reached the workspace"
  [ -n "${SBX_ADV_OLD:-}" ] && return 0
  write_ceiling env:SBX_ADV_HOSTVAR
  SBX_ADV_HOSTVAR=approved-value SBX_EXTRA='"env": {"allow": ["SBX_ADV_HOSTVAR"]}' \
    agent_case approved workspace-write "" env
  tap_is "$RC" 0 "control: an approved widening runs"
  tap_has "$OUT" approved-value "control: the approved variable is passed"
  write_ceiling
}

# write_ceiling [APPROVE...]: the operator's ceiling: the workspace and the
# two inner ones the metadata cases use, each approval JSON-quoted.
write_ceiling ()
{
  local approve="" a
  for a in "$@"; do approve="$approve${approve:+, }$(json_str "$a")"; done
  printf '{"workspaces": [%s, %s, %s, %s], "approve": [%s]}\n' "$(json_str "$WS")" \
    "$(json_str "$WS/wt")" "$(json_str "$WS/lr")" "$(json_str "$WS/gs")" "$approve" > "$WORK/ceiling"
}

bind_to ()
{
  printf '{"destination": %s, "type": "bind", "source": %s, "options": ["rbind", "%s"]}' \
    "$(json_str "$2")" "$(json_str "$1")" "$3"
}

run_cases ()
{
  WS="$WORK/ws"
  OUTSIDE="$WORK/outside"
  HOME_DIR="$WORK/home"
  mkdir -p "$WS/o" "$WS/k" "$WS/p" "$WS/sub" "$WS/wt" "$WS/lr" "$WS/gs" "$OUTSIDE" \
    "$HOME_DIR/.ssh" "$WORK/state"
  echo sbx-adv-secret > "$HOME_DIR/.ssh/id_ed25519"
  export HOME="$HOME_DIR"
  : > "$WORK/empty"
  write_ceiling
  case_controls
  case_workspace_root
  case_bind_sources
  case_container_shape
  case_host_pid
  case_host_netns
  case_capabilities
  case_rlimits
  case_alias_masking
  case_environment
  case_unknown_fields
  case_policy_first
  case_hooks
  case_narrowing_kept
  case_narrowing_pinned
  case_bind_metadata
  case_readonly_workspace
  case_temp_root_max_mode
  case_account_home
  case_home_in_workspace
  case_home_bind_mounted
  case_other_fs_mount
  case_runner_env
  case_outcome_links
  case_systemd_private
  case_metadata
  case_git_settings
  case_alias_destination
  case_alias_second_view
  case_swap_race
  case_swap_race_readonly
  case_foreign_swap_race
  case_bundle_rewrite
  case_nested_repositories
  case_cgroup_escape
}

tap_suite "$HERE/attacks.sh" adv SBX_OCI BUSYBOX SWAP_LOOP SBX_ADV_OLD
