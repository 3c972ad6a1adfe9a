"""Crash safety and the one-writer rule: what ronin guarantees beyond Ninja.

- A second ninja in the same build directory waits for the first instead of
  interleaving writes to .ninja_log / .ninja_deps (Ninja issue #2637); a
  ninja started by a command of the running build (CMake's `-t restat`
  during regeneration) does not wait for its own parent.
- Killing ninja with SIGKILL at any point leaves logs that the next run
  loads without complaint; that run redoes only unfinished work.
"""

import os
import signal
import subprocess
import sys
import time
import unittest

from harness import NinjaTestCase

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_state import read_log  # noqa: E402


def wait_for(predicate, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


class OneWriterTests(NinjaTestCase):
    # A command that says it started, then holds the build until the test writes `release`.
    SLOW = "touch started; while [ ! -e release ]; do sleep 0.01; done; touch $out"

    def write_slow_build(self):
        self.write("build.ninja", "rule slow\n  command = %s\nbuild a: slow\n" % self.SLOW)

    def test_second_ninja_waits_for_the_first(self):
        self.write_slow_build()
        first = self.start()
        self.assertTrue(wait_for(lambda: self.exists("started")))
        # The second one's stderr goes to a file so the test can wait for its
        # announcement: a fixed pause lost the race under the sanitizers, where
        # the second one had not reached the lock before the first finished.
        err2_path = self.path("second.err")
        with open(err2_path, "wb") as err2_file:
            second = self.start(stderr=err2_file)
        # The second one announces that it waits, and does nothing meanwhile.
        self.assertTrue(wait_for(lambda: b"waiting" in open(err2_path, "rb").read(), timeout=30))
        time.sleep(0.1)
        self.assertIsNone(second.proc.poll())
        self.write("release", "")
        out1, err1 = first.proc.communicate(timeout=20)
        out2, _ = second.proc.communicate(timeout=20)
        err2 = open(err2_path, "rb").read().replace(b"\r\n", b"\n")
        self.assertEqual((first.proc.returncode, out1.replace(b"\r\n", b"\n"), err1),
                         (0, b"[1/1] %s\n" % self.SLOW.replace("$out", "a").encode(), b""))
        self.assertEqual(second.proc.returncode, 0)
        self.assertEqual(out2.replace(b"\r\n", b"\n"), b"ninja: no work to do.\n")
        self.assertRegex(err2.decode(), r"^ninja: waiting for the ninja already running in this build "
                                        r"directory \(pid \d+\)\.\.\.\n$")
        self.assertEqual([e.path for e in read_log(self.path(".ninja_log"))[1]], ["a"])

    def test_dry_run_does_not_wait(self):
        self.write_slow_build()
        first = self.start()
        self.assertTrue(wait_for(lambda: self.exists("started")))
        dry = self.ninja("-n", timeout=10)
        self.write("release", "")
        first.proc.communicate(timeout=20)
        self.assertEqual((dry.returncode, dry.stderr), (0, ""))

    def test_ninja_run_by_the_build_itself_does_not_wait(self):
        # As CMake does while regenerating: a tool in the same directory,
        # started by a command of the running build.
        self.write("build.ninja",
                   "rule nested\n  command = %s -t recompact && touch $out\nbuild a: nested\n"
                   % self.command_running_ninja())
        r = self.ninja(timeout=20)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertTrue(self.exists("a"))

    def test_lock_follows_builddir(self):
        self.write("build.ninja", "builddir = b\nrule t\n  command = touch $out\nbuild x: t\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 0, r)
        self.assertTrue(self.exists("b/.ninja_log"))


class KillTests(NinjaTestCase):

    EDGES = 40
    # When ninja is killed after it started, in seconds: before, during and
    # after its commands.
    KILL_DELAYS = (0.05, 0.12, 0.2, 0.3, 0.45)

    def manifest(self):
        lines = ["rule w\n  command = sleep 0.02; echo $out > $out\n  description = W $out\n"]
        for i in range(self.EDGES):
            dep = " | o%d" % (i - 1) if i % 4 else ""
            lines.append("build o%d: w src%s\n" % (i, dep))
        lines.append("rule d\n  command = printf '%s: src h\\n' $out > $out.d; echo $out > $out\n"
                     "  depfile = $out.d\n  deps = gcc\n")
        for i in range(10):
            lines.append("build d%d: d src\n" % i)
        return "".join(lines)

    def test_sigkill_at_random_points_then_rerun_completes(self):
        self.write("build.ninja", self.manifest())
        self.write("src", "s")
        self.write("h", "h")
        for delay in self.KILL_DELAYS:
            proc = self.start("-j4", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).proc
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            # Let orphaned commands finish before the next run looks at mtimes.
            time.sleep(0.1)
            before = {e.path for e in read_log(self.path(".ninja_log"))[1]} if self.exists(".ninja_log") else set()
            r = self.ninja("-j4", "-d", "explain", timeout=60)
            self.assertEqual(r.returncode, 0, r)
            self.assertNotIn("warning", r.stderr)
            # Nothing whose log line was written is rebuilt for lack of one.
            for path in before:
                self.assertNotIn("command line not found in log for %s\n" % path, r.stderr)
            noop = self.ninja()
            self.assertEqual(noop.stdout, "ninja: no work to do.\n", noop)
            for i in range(self.EDGES):
                self.assertEqual(self.read("o%d" % i), "o%d\n" % i)
            # Start over for the next kill point.
            for name in os.listdir(self.dir):
                if name.startswith(("o", "d")) and name[1:].split(".")[0].isdigit():
                    os.unlink(self.path(name))

    def test_partial_last_log_line_is_cut_and_not_glued(self):
        self.write("build.ninja", "rule t\n  command = touch $out\nbuild a: t\nbuild b: t\n")
        r = self.ninja("a")
        self.assertEqual(r.returncode, 0, r)
        with open(self.path(".ninja_log"), "a") as f:
            f.write("0\t1\t123\tb")  # a write cut short by a crash
        r = self.ninja("b")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        paths = [e.path for e in read_log(self.path(".ninja_log"))[1]]
        self.assertEqual(paths, ["a", "b"])
        self.assertEqual(self.ninja().stdout, "ninja: no work to do.\n")


if __name__ == "__main__":
    unittest.main()
