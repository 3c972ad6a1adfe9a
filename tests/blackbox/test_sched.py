"""The scheduler: critical path by measured time (src/duration_model.cc),
memory-aware admission (--keep-free-memory, src/memory_admission.cc) and the
live view of running jobs (--progress=live, src/live_status.cc)."""

import os
import unittest

from harness import NinjaTestCase, REF_NINJA, run

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


if __name__ == "__main__":
    unittest.main(verbosity=2)
