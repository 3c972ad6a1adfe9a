"""Commands die with ninja, however ninja dies (src/job_reaper.h).

After `kill -9` of ninja no command of the build may live on: a survivor
would write its output behind the next build's back, and the next build
would run the same command a second time."""

import os
import signal
import subprocess
import sys
import unittest
import uuid

import harness
from harness import NinjaTestCase

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_reliability import wait_for  # noqa: E402


def marked_processes(marker):
    """Pids of live (not zombie) processes whose command line holds `marker`."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                cmdline = f.read()
            with open("/proc/%s/stat" % entry) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            pids.append(int(entry))
    return pids


class KillNinjaTests(NinjaTestCase):

    def setUp(self):
        super().setUp()
        # A unique fraction of a second in every sleep: pgrep by it.
        self.marker = "." + str(uuid.uuid4().int)[:15]
        self.addCleanup(self.kill_leftovers)

    def kill_leftovers(self):
        for pid in marked_processes(self.marker):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def manifest(self, seconds):
        # Each command says it started, then (much later) appends to `count`
        # and writes its output; a background grandchild in the same process
        # group does the same, so the whole group must die, not just the shell.
        sleep = "sleep %d%s" % (seconds, self.marker)
        return ("rule slow\n"
                "  command = touch $out.started; (%s; echo late >> count) & "
                "%s; echo $out >> count; echo $out > $out\n"
                "rule quick\n  command = echo $out >> count; echo $out > $out\n"
                "build a: slow\nbuild b: slow\nbuild c: quick a b\nbuild d: quick\n"
                "build all: phony c d\n" % (sleep, sleep))

    def start_and_kill(self):
        proc = subprocess.Popen([harness.NINJA, "-j3", "all"], cwd=self.dir,
                                env=harness.base_env({"RONIN_JOB_REAPER": "1"}),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = wait_for(lambda: self.exists("a.started") and self.exists("b.started")
                           and len(marked_processes(self.marker)) >= 2, timeout=20)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertTrue(started, "the slow commands never started")

    def test_sigkill_ends_every_command_and_its_children(self):
        self.write("build.ninja", self.manifest(30))
        self.start_and_kill()
        self.assertTrue(wait_for(lambda: not marked_processes(self.marker), timeout=5),
                        "commands outlived ninja: %s" % marked_processes(self.marker))

    def test_rerun_after_sigkill_runs_each_interrupted_edge_once(self):
        self.write("build.ninja", self.manifest(1))
        self.start_and_kill()
        wait_for(lambda: not marked_processes(self.marker), timeout=5)
        r = self.ninja("-j3", "all")
        self.assertEqual(r.returncode, 0, r)
        self.assertNotIn("warning", r.stderr)
        # Give anything that survived the kill time to show itself.
        wait_for(lambda: not marked_processes(self.marker), timeout=5)
        counted = sorted(line for line in self.read("count").split("\n") if line and line != "late")
        self.assertEqual(counted, ["a", "b", "c", "d"])
        self.assertEqual(self.ninja("all").stdout, "ninja: no work to do.\n")
        if harness.REF_NINJA:
            ref = harness.run(harness.REF_NINJA, ["all"], self.dir)
            self.assertEqual(ref.stdout, "ninja: no work to do.\n", ref)


if __name__ == "__main__":
    unittest.main()
