import asyncio
import unittest

from _support import BINARY, marker_alive, marker_seconds, stubborn_tree, wait_for, workspace
import sbx_oci


async def wait_async(test, seconds=10.0):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, wait_for, test, seconds)


class AsyncTest(unittest.TestCase):
    def test_async_run(self):
        o = asyncio.run(sbx_oci.async_run(["sh", "-c", "echo ok > f; cat f"],
                                          workspace=workspace(self), binary=BINARY))
        self.assertEqual(o.stdout, b"ok\n")
        self.assertEqual(o.enforcement.trust, "ceiling")

    def test_cancel_ends_the_whole_sandbox(self):
        marker = marker_seconds()
        ws = workspace(self)

        async def main():
            task = asyncio.ensure_future(sbx_oci.async_run(
                stubborn_tree(marker), workspace=ws, binary=BINARY, kill_grace=2.0))
            self.assertTrue(await wait_async(lambda: marker_alive(marker)), "marker started")
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task

        asyncio.run(main())
        self.assertTrue(wait_for(lambda: not marker_alive(marker), 3.0), "no marker left")

    def test_async_session(self):
        ws = workspace(self)

        async def main():
            async with sbx_oci.AsyncSession(workspace=ws, binary=BINARY) as s:
                w = await s.exec(["sh", "-c", "echo one > a.txt; sleep 60 &"])
                r = await s.exec(["cat", "a.txt"])
                return w, r

        w, r = asyncio.run(main())
        self.assertEqual(w.status, 0)
        self.assertEqual(r.stdout, b"one\n")


if __name__ == "__main__":
    unittest.main()
