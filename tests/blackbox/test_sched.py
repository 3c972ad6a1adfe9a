"""The scheduler: critical path by measured time (src/duration_model.cc),
memory-aware admission (--keep-free-memory, src/memory_admission.cc) and the
live view of running jobs (--progress=live, src/live_status.cc)."""

import os
import sys
import unittest

from harness import NinjaTestCase, REF_NINJA, run

MEMHOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "memhog.py")
MIB = 1 << 20

# Two ready chains: a1-a2-a3 has more commands, b1 alone takes longest.
# Each command appends its name to `order`, so the start order is visible.
CHAINS = ("rule r\n  command = echo $out >> order && touch $out\n"
          "build a1: r\nbuild a2: r a1\nbuild a3: r a2\n"
          "build b1: r\n"
          "build all: phony a3 b1\ndefault all\n")


def log_v7(durations):
    """A .ninja_log whose entries give each output a duration (ms)."""
    lines = ["# ninja log v7"]
    for i, (output, millis) in enumerate(durations.items()):
        lines.append("%d\t%d\t0\t%s\t%x" % (0, millis, output, i + 1))
    return "\n".join(lines) + "\n"


class TestCriticalPathByTime(NinjaTestCase):
    def started(self, *args):
        if self.exists("order"):
            os.unlink(self.path("order"))
        r = self.ninja("-j1", *args)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return self.read("order").split()

    def test_longest_timed_chain_starts_first(self):
        self.write("build.ninja", CHAINS)
        self.write(".ninja_log", log_v7({"a1": 300, "a2": 300, "a3": 300, "b1": 5000}))
        self.assertEqual(["b1", "a1", "a2", "a3"], self.started())

    def test_without_durations_the_longest_chain_of_commands_starts_first(self):
        self.write("build.ninja", CHAINS)
        self.assertEqual(["a1", "a2", "a3", "b1"], self.started())

    def test_fast_commands_keep_ninjas_order(self):
        self.write("build.ninja", CHAINS)
        self.write(".ninja_log", log_v7({"a1": 2, "a2": 1, "a3": 0, "b1": 150}))
        self.assertEqual(["a1", "a2", "a3", "b1"], self.started())

    @unittest.skipUnless(REF_NINJA, "reference ninja 1.13.2 not installed")
    def test_reference_ninja_ignores_durations(self):
        # What the timed order improves on: Ninja 1.13 starts the longer chain of commands.
        self.write("build.ninja", CHAINS)
        self.write(".ninja_log", log_v7({"a1": 300, "a2": 300, "a3": 300, "b1": 5000}))
        r = run(REF_NINJA, ["-j1"], self.dir)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(["a1", "a2", "a3", "b1"], self.read("order").split())


class TestMemoryAdmission(NinjaTestCase):
    """Jobs that each hold HOLD_MIB under a fake machine whose available
    memory leaves BUDGET_MIB above --keep-free-memory."""

    JOBS = 5
    HOLD_MIB = 40
    KEEP_FREE_MIB = 64
    BUDGET_MIB = 120

    def setUp(self):
        super().setUp()
        rules = "rule hog\n  command = %s %s %d 0.5 peaks.log && touch $out\n" % (
            sys.executable, MEMHOG, self.HOLD_MIB)
        builds = "".join("build o%d: hog\n" % i for i in range(self.JOBS))
        self.write("build.ninja", rules + builds)
        self.fake = self.path("fake")
        os.mkdir(self.fake)

    def set_available(self, mib):
        """A fake machine with `mib` available besides what memhog.py helpers hold."""
        self.write("fake/base", str(mib * MIB))
        self.write("fake/held", "0")
        self.write("fake/meminfo", "MemTotal: 99999999 kB\nMemAvailable: %d kB\n" % (mib * 1024))

    def build(self, *args):
        for i in range(self.JOBS):
            if self.exists("o%d" % i):
                os.unlink(self.path("o%d" % i))
        if self.exists("peaks.log"):
            os.unlink(self.path("peaks.log"))
        r = self.ninja("-j%d" % self.JOBS, *args,
                       env={"RONIN_MEMORY_INFO_DIR": self.fake, "FAKE_MEMINFO_DIR": self.fake})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r

    def max_concurrent_peaks(self):
        """The largest sum of peak RSS of jobs holding their memory at the same time."""
        intervals = [tuple(float(x) for x in line.split()) for line in self.read("peaks.log").splitlines()]
        self.assertEqual(self.JOBS, len(intervals))
        return max(sum(peak for start, end, peak in intervals if start <= t <= end)
                   for t, _, _ in intervals)

    def test_sum_of_concurrent_peaks_stays_under_the_budget(self):
        option = "--keep-free-memory=%dM" % self.KEEP_FREE_MIB
        # The first run with the option learns each job's peak (.ronin_state).
        self.set_available(4096)
        self.build(option)
        self.assertTrue(self.exists(".ronin_state"))

        self.set_available(self.KEEP_FREE_MIB + self.BUDGET_MIB)
        r = self.build(option, "-d", "explain")
        self.assertIn("ninja explain: not starting", r.stderr)
        self.assertLessEqual(self.max_concurrent_peaks(), self.BUDGET_MIB * MIB)

        # -j alone starts them all at once, far over the budget.
        self.set_available(self.KEEP_FREE_MIB + self.BUDGET_MIB)
        self.build()
        self.assertGreater(self.max_concurrent_peaks(), self.BUDGET_MIB * MIB)

    def test_one_job_always_runs(self):
        # Not even one job fits, yet the build completes, one job at a time.
        self.set_available(4096)
        self.build("--keep-free-memory=64M")
        self.set_available(1)
        self.build("--keep-free-memory=64M")
        self.assertLessEqual(self.max_concurrent_peaks(), (self.HOLD_MIB + 30) * MIB)

    def test_without_the_option_no_state_file(self):
        self.set_available(4096)
        self.build()
        self.assertFalse(self.exists(".ronin_state"))

    def test_bad_size(self):
        r = self.ninja("--keep-free-memory=lots")
        self.assertEqual((1, "", "ninja: error: --keep-free-memory=lots: expected a size such as 2G, 512M "
                                 "or 800000K\n"), (r.returncode, r.stdout, r.stderr))
        self.assertFalse(self.exists("o0"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
