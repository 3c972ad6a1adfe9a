"""Commands die with ninja.exe (issue 27 item 2, exec/job_reaper_win.cc), under wine.

A build of commands that each start a child (tests/win/helpers/jobtree.c: the child inherits no
handle, so only the job ties it to the build) is stopped by TerminateProcess of ronin's ninja.exe
while three of them run. Then: no process of the build is left (none of the run's processes,
found by the environment mark every one inherits, and no child lives to leave its mark), the
outputs the killed commands had started to write are gone, what had finished stays; the rerun
runs each interrupted edge once and nothing else; and ninja.exe 1.13.2 then finds the tree up
to date. The same build with --job-reaper=off shows what Ninja does: the children live on.

    NINJA_WIN=<ours.exe> [REF_NINJA_WIN=<ninja 1.13.2 .exe>] python3 -m unittest -v test_win_job_reaper
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
import wine  # noqa: E402
from harness import write_tree  # noqa: E402
from test_faults import wait_until  # noqa: E402

MANIFEST = """\
rule tree
  command = jobtree run $out
rule touch
  command = touch $out
build quick1: touch
build quick2: touch
build slow1: tree | quick1 quick2
build slow2: tree | quick1 quick2
build slow3: tree | quick1 quick2
build after: touch slow1
"""
SLOW = ["slow1", "slow2", "slow3"]
SECONDS = 30  # how long a slow command and its child sleep in the first run


class WinJobReaperTest(wine.wine_failures.RerunAfterWineFailure, unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.ours, cls.wine = wine.ninja_win_and_session()
        cls.jobtree = os.path.join(cls.wine.helpers, "jobtree.exe")

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ronin-win-reaper-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        write_tree(self.dir, {"build.ninja": MANIFEST})
        self.marks = os.path.join(self.dir, "marks")
        os.mkdir(self.marks)

    def exists(self, rel):
        return os.path.exists(os.path.join(self.dir, rel))

    def ran(self):
        with open(os.path.join(self.dir, "ran.log")) as f:
            return sorted(f.read().split())

    def kill_mid_build(self, *args):
        """Starts ours at -j3, waits until the three slow commands and their children run, and
        kills it with TerminateProcess. Returns the run (its processes carry its mark)."""
        env = {"JOBTREE_SECONDS": str(SECONDS), "JOBTREE_MARKS": wine.windows_path(self.marks)}
        running = self.wine.start(self.ours, ["-j3"] + list(args), self.dir, env=env)
        self.addCleanup(running.stop)
        self.assertTrue(wait_until(lambda: all(self.exists(s + ".started") for s in SLOW), 60),
                        "the slow commands did not start")
        self.assertTrue(all(self.exists(s) for s in SLOW))
        r = self.wine.run(self.jobtree, ["kill", "ninja.pid"], self.dir, timeout=60)
        self.assertEqual(r.returncode, 0, r)
        running.proc.wait(timeout=60)
        return running

    def alive(self, running):
        """The run's processes still there: wine's for each Windows process it started."""
        return [pid for pid in harness._tagged_processes(running.tag) if pid != running.proc.pid]

    def test_killed_ninja_takes_its_commands_and_their_children_along(self):
        running = self.kill_mid_build()
        self.assertTrue(wait_until(lambda: not self.alive(running), 30),
                        "processes of the build survived: %s" % self.alive(running))
        self.assertEqual(os.listdir(self.marks), [])
        # What the killed commands had written is gone; what had finished stays.
        for s in SLOW:
            self.assertFalse(self.exists(s), s)
        self.assertTrue(self.exists("quick1") and self.exists("quick2"))
        self.assertEqual(self.ran(), SLOW)

        self.assertRerunRedoesTheInterruptedWork()
        self.assertEqual(os.listdir(self.marks), [])  # no child of the first run lived to mark

    def test_a_ninja_started_at_once_after_the_kill(self):
        # The killed ninja's lock is free at once; the reaper's handover is not, until the
        # partial outputs are gone: the rerun must neither take them for built nor lose its
        # own outputs to the reaper. (The reaper is quicker than wine starts a program, so
        # this does not show the waiting: the next test does.)
        running = self.kill_mid_build()
        self.assertRerunRedoesTheInterruptedWork()
        self.assertTrue(wait_until(lambda: not self.alive(running), 30),
                        "processes of the build survived: %s" % self.alive(running))

    def test_the_next_ninja_waits_for_the_lock_handover(self):
        # jobtree holds the handover of this folder's lock as a reaper would: a no-op (which
        # starts no reaper of its own, whose start would wait for the handover too) waits
        # before it reads the logs, until jobtree lets go.
        self.assertEqual(self.wine.run(self.ours, ["quick1"], self.dir).returncode, 0)
        holder = self.wine.start(self.jobtree, ["hold", "."], self.dir)
        self.addCleanup(holder.stop)
        self.assertTrue(wait_until(lambda: self.exists("held"), 60), "jobtree hold did not start")
        noop = self.wine.start(self.ours, ["quick1"], self.dir, stdout=subprocess.PIPE)
        self.addCleanup(noop.stop)
        time.sleep(3)
        self.assertIsNone(noop.proc.poll(), "the no-op did not wait for the handover")
        write_tree(self.dir, {"release": ""})
        out, _ = noop.proc.communicate(timeout=60)
        self.assertEqual((noop.proc.returncode, out.replace(b"\r\n", b"\n")), (0, b"ninja: no work to do.\n"))
        self.assertEqual(holder.proc.wait(timeout=60), 0)

    def assertRerunRedoesTheInterruptedWork(self):
        """The rerun (children sleep 0 s now) runs each interrupted edge once, and what waited
        for them; its outputs are whole; ninja.exe 1.13.2 then finds the tree up to date."""
        r = self.wine.run(self.ours, ["-j3"], self.dir, env={"JOBTREE_SECONDS": "0"}, timeout=120, roots=(self.dir,))
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(self.ran(), sorted(SLOW * 2))
        self.assertEqual(sorted(line.split("] ")[1] for line in r.stdout.splitlines()),
                         sorted(["jobtree run " + s for s in SLOW] + ["touch after"]))
        for s in SLOW:
            with open(os.path.join(self.dir, s)) as f:
                self.assertEqual(f.read(), "partial\ndone\n", s)
        ref = self.wine.run(wine.reference_ninja_win(), ["-d", "explain"], self.dir, timeout=120, roots=(self.dir,))
        self.assertEqual((ref.returncode, ref.stdout.replace("\r\n", "\n"), ref.stderr),
                         (0, "ninja: no work to do.\n", ""), ref)

    def test_without_the_reaper_the_children_live_on_as_with_ninja(self):
        running = self.kill_mid_build("--job-reaper=off")
        time.sleep(3)
        self.assertTrue(self.alive(running), "with the reaper off, the commands should outlive ninja.exe")
        self.assertTrue(all(self.exists(s) for s in SLOW))  # nobody removed them


if __name__ == "__main__":
    unittest.main(verbosity=2)
