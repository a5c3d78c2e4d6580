#!/usr/bin/env python3
"""Sum the TAP results of meson test logs (testlog.json) and plain TAP files
into one line: 'N passed, N failed, N skipped, N todo'.  A test that failed
without reporting a failing TAP line (a crash, a timeout) counts as one
failure, and so does a file holding no result at all; a 'not ok # TODO' (a
known bug) is counted apart, not as a pass."""
import json
import re
import sys

passed = failed = skipped = todo = 0
line_re = re.compile(r"^(not ok|ok)\b(.*)$")


def count(text):
    """Add TEXT's results to the totals; return (its failures, its results)."""
    global passed, failed, skipped, todo
    bad = results = 0
    for line in text.splitlines():
        m = line_re.match(line.strip())
        if not m:
            continue
        results += 1
        if m.group(1) == "not ok" and "# TODO" in m.group(2):
            todo += 1
        elif m.group(1) == "not ok":
            failed += 1
            bad += 1
        elif re.search(r"#\s*SKIP", m.group(2), re.I):
            skipped += 1
        else:
            passed += 1
    return bad, results


for path in sys.argv[1:]:
    try:
        f = open(path)
    except OSError:
        print(f"tap-totals: {path}: missing", file=sys.stderr)
        failed += 1
        continue
    results = 0
    with f:
        if path.endswith(".json"):
            for raw in f:
                entry = json.loads(raw)
                bad, n = count(entry.get("stdout") or "")
                results += n
                if entry.get("result") not in ("OK", "SKIP", "EXPECTEDFAIL") and bad == 0:
                    failed += 1
        else:
            results = count(f.read())[1]
    if results == 0:
        print(f"tap-totals: {path}: no results", file=sys.stderr)
        failed += 1

print(f"{passed} passed, {failed} failed, {skipped} skipped, {todo} todo")
sys.exit(1 if failed else 0)
