#!/usr/bin/env python3
"""The include rules of docs/design.md ("Rooms"), checked: each room of the
source tree may include only the rooms listed for it.  TAP, one test per
room; a violation names the file, the line and the include."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")

PORTABLE = ["common/", "spec/", "policy/", "config.h"]
# The runtime's root headers an engine may use: everything but the
# command line's own (cli.h), which only commands/ and main.c see.
RUNTIME_ROOT = re.compile(r"^runtime/(?!cli\.h)[^/]+\.h$")

# room -> (files in it, includes it may make)
RULES = {
    "common": (r"^common/", ["common/"]),
    "spec": (r"^spec/", ["common/", "spec/"]),
    "policy": (r"^policy/", ["common/", "spec/", "policy/"]),
    "cgroups": (r"^cgroups/", ["common/", "cgroups/"]),
    # hooks run only where the lifecycle exists, the Linux backend's.
    "hooks": (r"^hooks/",
              ["common/", "spec/", "hooks/", "runtime/linux/confine/"]),
    "runtime (portable root)": (r"^runtime/[^/]+\.[ch]$",
                                PORTABLE + ["runtime/cli.h", RUNTIME_ROOT]),
    "runtime/linux": (r"^runtime/linux/",
                      PORTABLE + ["cgroups/", "hooks/", "runtime/linux/",
                                  RUNTIME_ROOT]),
    # The fence answers from the plan the Linux engine resolves
    # (runtime/linux/container/sandbox.h): it is the engine's, off the
    # command line.
    "fence": (r"^fence/",
              PORTABLE + ["fence/", "runtime/linux/", RUNTIME_ROOT]),
    "runtime/darwin": (r"^runtime/darwin/",
                       PORTABLE + ["runtime/darwin/", RUNTIME_ROOT]),
}

# Decisions taken in one place (docs/design.md): a name -> the only
# files outside its own room's header that may use it.
OWNERS = {
    # state.json: one writer and reader, the state store.
    "SBX_STATE_FILE": ["runtime/linux/state/state_store.c",
                       "runtime/linux/state/state_store.h"],
    # the limits' cgroup: made by the one limits subsystem only.
    "sbx_cgroup_create": ["cgroups/cgroup.c", "cgroups/cgroup.h",
                          "runtime/linux/supervise/limits.c"],
    # a launcher's child reports its failed step one way.
    "struct sbx_child_step": ["runtime/linux/child_step.c",
                              "runtime/linux/child_step.h",
                              "runtime/linux/bwrap/runner_child.c",
                              "runtime/linux/container/exec_join.c"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def allowed(inc, rules):
    for r in rules:
        if isinstance(r, str) and (inc == r or inc.startswith(r)):
            return True
        if not isinstance(r, str) and r.match(inc):
            return True
    return False


def sources():
    for d, _, names in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        if rel.startswith(("build", "tests", ".git", "clients", "subprojects")):
            continue
        for n in names:
            if n.endswith((".c", ".h")):
                yield os.path.normpath(os.path.join(rel, n))


def main():
    files = sorted(sources())
    print("1..%d" % (len(RULES) + 1 + len(OWNERS)))
    n = 0
    placed = set()
    for room, (pattern, rules) in RULES.items():
        n += 1
        bad = []
        members = [f for f in files if re.match(pattern, f)]
        placed.update(members)
        for f in members:
            with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
                for i, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if m and not allowed(m.group(1), rules):
                        bad.append("%s:%d includes \"%s\"" % (f, i, m.group(1)))
        ok = members and not bad
        print("%s %d - %s (%d files) includes only what it may"
              % ("ok" if ok else "not ok", n, room, len(members)))
        for b in bad:
            print("#   " + b)
    # commands/ may include any room: it is where the verbs dispatch.
    stray = [f for f in files if f not in placed
             and not f.startswith("runtime/commands/")
             and f not in ("config.h",)]
    print("%s %d - every source file is in a room with rules"
          % ("not ok" if stray else "ok", n + 1))
    for s in stray:
        print("#   no room: " + s)
    n += 1
    for name, owners in OWNERS.items():
        n += 1
        users = []
        for f in files:
            with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
                if re.search(r"\b%s\b" % re.escape(name), fh.read()):
                    users.append(f)
        bad = [f for f in users if f not in owners]
        print("%s %d - %s is used only by its owners (%d files)"
              % ("not ok" if bad or not users else "ok", n, name, len(users)))
        for b in bad:
            print("#   also in: " + b)
    return 0


if __name__ == "__main__":
    sys.exit(main())
