import json
import os
import signal
import subprocess
import threading
import time
import unittest

from _support import BINARY, marker_alive, marker_seconds, stubborn_tree, wait_for, workspace
import sbx_oci


class SessionTest(unittest.TestCase):
    def test_create_exec_close(self):
        ws = workspace(self)
        s = sbx_oci.Session(workspace=ws, binary=BINARY).create()
        self.addCleanup(s.close)
        w = s.exec(["sh", "-c", "echo one > a.txt && touch /etc/sbx-py-x 2>/dev/null || echo refused"])
        self.assertEqual((w.status, w.stdout), (0, b"refused\n"))
        self.assertEqual(s.exec(["cat", "a.txt"]).stdout, b"one\n")
        with open(os.path.join(ws, "a.txt")) as f:
            self.assertEqual(f.read(), "one\n")
        state = json.loads(subprocess.run([BINARY, "state", s.id], capture_output=True,
                                          check=True).stdout)
        self.assertEqual(state["org.sbx-oci"]["enforcement"]["trust"], "ceiling")
        self.assertEqual(s.exec(["sh", "-c", "exit 7"]).status, 7)
        sid = s.id
        s.close()
        self.assertNotEqual(subprocess.run([BINARY, "state", sid], capture_output=True).returncode, 0)
        with self.assertRaises(sbx_oci.SbxError):
            s.exec(["true"])

    def test_exec_returns_though_a_left_process_holds_stdout(self):
        with sbx_oci.Session(workspace=workspace(self), binary=BINARY) as s:
            started = time.monotonic()
            r = s.exec(["sh", "-c", "sleep 60 & echo back"])
            self.assertEqual((r.status, r.stdout), (0, b"back\n"))
            self.assertLess(time.monotonic() - started, 10)

    def test_exec_env_and_cwd_only_approved(self):
        ceiling = sbx_oci.Ceiling(approve=["env:SBX_OK"])
        with sbx_oci.Session(workspace=workspace(self), binary=BINARY, ceiling=ceiling) as s:
            r = s.exec(["sh", "-c", 'echo "$SBX_OK $LANG"; pwd'], env={"SBX_OK": "yes", "LANG": "C"},
                       cwd="/")
            self.assertEqual(r.stdout, b"yes C\n/\n")
            with self.assertRaisesRegex(sbx_oci.SbxError, "env:SBX_NOT_OK"):
                s.exec(["true"], env={"SBX_NOT_OK": "x"})

    def test_refused_session_is_an_error(self):
        s = sbx_oci.Session(workspace=workspace(self), binary=BINARY, network="allow")
        with self.assertRaises(sbx_oci.SbxError) as cm:
            s.create()
        self.assertNotEqual(cm.exception.status, 0)
        self.assertIn("maxNetwork", str(cm.exception))
        self.assertNotIn("\n", str(cm.exception))
        self.assertIsNone(s.dir)

    def test_close_ends_what_calls_left_running(self):
        marker = marker_seconds()
        s = sbx_oci.Session(workspace=workspace(self), binary=BINARY).create()
        self.addCleanup(s.close)
        cmd = "setsid sleep %s >/dev/null 2>&1 & echo started" % marker
        self.assertEqual(s.exec(["sh", "-c", cmd]).stdout, b"started\n")
        self.assertTrue(wait_for(lambda: marker_alive(marker)), "marker started")
        s.close()
        self.assertTrue(wait_for(lambda: not marker_alive(marker), 3.0), "no marker left")

    def test_interrupted_run_ends_the_whole_sandbox(self):
        # The sync run() ends the sandbox when waiting is interrupted: a real
        # SIGINT sent to the main thread stands for Ctrl-C.
        marker = marker_seconds()
        ws = workspace(self)
        main = threading.main_thread().ident
        t = threading.Thread(target=lambda: wait_for(lambda: marker_alive(marker))
                             and signal.pthread_kill(main, signal.SIGINT))
        t.start()
        with self.assertRaises(KeyboardInterrupt):
            sbx_oci.run(stubborn_tree(marker), workspace=ws, binary=BINARY, kill_grace=2.0)
        t.join()
        self.assertTrue(wait_for(lambda: not marker_alive(marker), 3.0), "no marker left")


if __name__ == "__main__":
    unittest.main()
