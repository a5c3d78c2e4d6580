#!/usr/bin/env python3
"""Sum the TAP results of meson test logs (testlog.json) and plain TAP files
into one line: 'N passed, N failed, N skipped'.  A test that failed without
reporting a failing TAP line (a crash, a timeout) counts as one failure."""
import json
import re
import sys

passed = failed = skipped = 0
line_re = re.compile(r"^(not ok|ok)\b(.*)$")


def count(text):
    global passed, failed, skipped
    bad = 0
    for line in text.splitlines():
        m = line_re.match(line.strip())
        if not m:
            continue
        if m.group(1) == "not ok" and "# TODO" not in m.group(2):
            failed += 1
            bad += 1
        elif re.search(r"#\s*SKIP", m.group(2), re.I):
            skipped += 1
        else:
            passed += 1
    return bad


for path in sys.argv[1:]:
    try:
        f = open(path)
    except OSError:
        print(f"tap-totals: {path}: missing", file=sys.stderr)
        failed += 1
        continue
    with f:
        if path.endswith(".json"):
            for raw in f:
                entry = json.loads(raw)
                bad = count(entry.get("stdout") or "")
                if entry.get("result") not in ("OK", "SKIP", "EXPECTEDFAIL") and bad == 0:
                    failed += 1
        else:
            count(f.read())

print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
