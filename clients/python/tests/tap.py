"""Run the unittest suite and print TAP, for meson's `protocol: 'tap'`.
Usage: python3 tap.py [START_DIR] (default: this directory)."""
import os
import sys
import unittest


class TapResult(unittest.TestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.count = 0

    def _line(self, ok, test, note=""):
        self.count += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.count, test.id(), note), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def _fail(self, test, err, kind):
        self._line(False, test)
        for line in self._exc_info_to_string(err, test).splitlines():
            print("# %s: %s" % (kind, line), flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._fail(test, err, "failure")

    def addError(self, test, err):
        super().addError(test, err)
        self._fail(test, err, "error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, " # SKIP %s" % reason)


def main():
    start = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(start)
    print("1..%d" % suite.countTestCases(), flush=True)
    result = TapResult()
    suite.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
