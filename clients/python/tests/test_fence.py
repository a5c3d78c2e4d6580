import os
import unittest

from _support import BINARY, workspace
import sbx_oci


class FenceTest(unittest.TestCase):
    def test_write_read_inside_the_workspace(self):
        ws = workspace(self)
        with sbx_oci.open_fence(workspace=ws, binary=BINARY) as fence:
            fence.write_file(os.path.join(ws, "a.txt"), "one")
            fence.append_file("a.txt", "+two")  # relative: the sandbox's cwd
            with open(os.path.join(ws, "a.txt")) as f:
                self.assertEqual(f.read(), "one+two")
            self.assertEqual(fence.read_text(os.path.join(ws, "a.txt")), "one+two")
            fence.mkdir(os.path.join(ws, "d"))
            fence.rename(os.path.join(ws, "a.txt"), os.path.join(ws, "d", "b.txt"))
            self.assertEqual(fence.list(os.path.join(ws, "d")), ["b.txt"])
            self.assertEqual(fence.stat(os.path.join(ws, "d", "b.txt"))["size"], 7)
            fence.remove(os.path.join(ws, "d", "b.txt"))
            self.assertFalse(os.path.exists(os.path.join(ws, "d", "b.txt")))

    def test_refusals_carry_rule_and_grant(self):
        ws = workspace(self)
        os.makedirs(os.path.join(ws, ".git", "hooks"))
        with open(os.path.join(ws, ".git", "config"), "w") as f:
            f.write("[core]\n")
        outside = workspace(self)
        os.symlink(outside, os.path.join(ws, "out"))
        with sbx_oci.open_fence(workspace=ws, binary=BINARY) as fence:
            with self.assertRaises(sbx_oci.FenceError) as cm:
                fence.write_file(os.path.join(ws, ".git", "config"), "x")
            e = cm.exception
            self.assertEqual((e.rule, e.code, e.status), ("protected-metadata", "EACCES", 3))
            self.assertIn("allowed by", str(e))
            self.assertTrue(e.grant)
            with self.assertRaises(sbx_oci.FenceError) as cm:
                fence.write_file(os.path.join(ws, "out", "f"), "x")
            self.assertEqual(cm.exception.rule, "symlink")
            self.assertFalse(os.path.exists(os.path.join(outside, "f")))
            with self.assertRaises(sbx_oci.FenceError) as cm:
                fence.assert_writable("/etc/passwd")
            self.assertEqual(cm.exception.rule, "read-only")
            with self.assertRaises(sbx_oci.FenceError) as cm:
                fence.read_file(os.path.join(ws, "nothere"))
            self.assertEqual((cm.exception.rule, cm.exception.code), (None, "ENOENT"))
            self.assertTrue(fence.assert_writable(os.path.join(ws, "new"))["allowed"])
            self.assertTrue(fence.check(os.path.join(ws, ".git", "config"), "read")["allowed"])


if __name__ == "__main__":
    unittest.main()
