import os
import secrets
import time
import unittest

from _support import BINARY, workspace
import sbx_oci


class RunTest(unittest.TestCase):
    def test_write_inside_workspace_succeeds_outside_fails(self):
        ws = workspace(self)
        outside = "/var/tmp/sbx-py-%s" % secrets.token_hex(6)
        o = sbx_oci.run(["sh", "-c", "echo in > in.txt; echo out > %s || echo refused" % outside],
                        workspace=ws, binary=BINARY)
        self.assertEqual(o.outcome, "exited")
        self.assertEqual(o.exit_code, 0)
        with open(os.path.join(ws, "in.txt")) as f:
            self.assertEqual(f.read(), "in\n")
        self.assertFalse(os.path.exists(outside))
        self.assertIn(b"refused", o.stdout)
        self.assertEqual(o.enforcement.trust, "ceiling")
        self.assertEqual(o.enforcement.mode, "workspace-write")

    def test_network_deny(self):
        py = ("import socket\ntry:\n socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
              " print('made')\nexcept OSError as e:\n print('refused', e.errno)")
        o = sbx_oci.run(["python3", "-c", py], workspace=workspace(self), network="deny",
                        binary=BINARY)
        self.assertEqual(o.outcome, "exited")
        self.assertTrue(o.stdout.startswith(b"refused"), o.stdout)
        self.assertEqual(o.enforcement.network_reach, "deny")

    def test_env_passed_only_when_approved(self):
        ws = workspace(self)
        argv = ["sh", "-c", 'echo "v=$SBX_PY_VAR"']
        env = {"SBX_PY_VAR": "hello"}
        refused = sbx_oci.run(argv, workspace=ws, env=env, binary=BINARY)
        self.assertEqual(refused.outcome, "refused")
        self.assertEqual(refused.status, 121)
        self.assertEqual(refused.refused_fields, ["sbx.env.allow[0]"])
        self.assertIn("env:SBX_PY_VAR", refused.reason)
        self.assertEqual(refused.stdout, b"")
        passed = sbx_oci.run(argv, workspace=ws, env=env, binary=BINARY,
                             ceiling=sbx_oci.Ceiling(approve=["env:SBX_PY_VAR"]))
        self.assertEqual(passed.stdout, b"v=hello\n")

    def test_wall_clock_limit(self):
        started = time.monotonic()
        o = sbx_oci.run(["sleep", "60"], workspace=workspace(self), binary=BINARY,
                        limits={"wall_clock_seconds": 1})
        self.assertEqual(o.outcome, "limit")
        self.assertEqual(o.limits.breach, "wall-clock")
        self.assertLess(time.monotonic() - started, 20)

    def test_memory_and_pids_limits(self):
        o = sbx_oci.run(["true"], workspace=workspace(self), binary=BINARY,
                        limits=sbx_oci.SandboxLimits(memory_bytes=256 << 20, pids=64))
        self.assertEqual(o.outcome, "exited")
        self.assertNotEqual(o.limits.mechanism, "none")

    def test_missing_command(self):
        o = sbx_oci.run(["sbx-no-such-command"], workspace=workspace(self), binary=BINARY)
        self.assertEqual(o.outcome, "command-not-found")
        self.assertEqual(o.status, 127)  # the outcome agrees with the exit status
        self.assertEqual(o.exit_status, 127)
        self.assertEqual(o.version, 2)
        self.assertIn("not found", o.reason)

    def test_stdin_fed_and_stdout_streamed(self):
        chunks = []
        o = sbx_oci.run(["cat"], workspace=workspace(self), binary=BINARY, stdin="piped\n",
                        stdout=chunks.append)
        self.assertEqual(o.exit_code, 0)
        self.assertIsNone(o.stdout)
        self.assertEqual(b"".join(chunks), b"piped\n")

    def test_missing_binary(self):
        with self.assertRaises(sbx_oci.SbxError) as cm:
            sbx_oci.run(["true"], workspace=workspace(self), binary="/nonexistent/sbx-oci")
        self.assertIsNone(cm.exception.status)
        self.assertIn("cannot start", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
