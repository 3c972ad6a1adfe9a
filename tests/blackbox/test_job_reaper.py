"""Commands die with ninja, however ninja dies (src/exec/job_reaper.h).

After `kill -9` of ninja no command of the build may live on: a survivor
would write its output behind the next build's back, and the next build
would run the same command a second time. And what the killed commands had
started to write is removed, as on Ctrl-C: a partial output newer than its
inputs would otherwise pass for up to date."""

import os
import signal
import subprocess
import sys
import time
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


class MarkedProcessesTestCase(NinjaTestCase):
    """Commands carry self.marker on their command line (a unique fraction
    of a second in a sleep, say), so that what survives can be found, and is
    killed after the test."""

    def setUp(self):
        super().setUp()
        self.marker = "." + str(uuid.uuid4().int)[:15]
        self.addCleanup(self.kill_leftovers)

    def kill_leftovers(self):
        for pid in marked_processes(self.marker):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


class KillNinjaTests(MarkedProcessesTestCase):

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

    def logged(self, output):
        """Whether .ninja_log has a line for `output`."""
        if not self.exists(".ninja_log"):
            return False
        return any(line.split("\t")[3:4] == [output] for line in self.read(".ninja_log").splitlines())

    def start_and_kill(self, env=None):
        proc = subprocess.Popen([harness.NINJA, "-j3", "all"], cwd=self.dir, env=harness.base_env(env),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The quick edge d finishes at once; killed before ninja logged it,
        # it would rightly run again (its command ended unseen): the kill
        # waits for its log line, so that only a and b are interrupted.
        started = wait_for(lambda: self.exists("a.started") and self.exists("b.started")
                           and len(marked_processes(self.marker)) >= 2 and self.logged("d"), timeout=20)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertTrue(started, "the slow commands never started")

    def test_sigkill_ends_every_command_and_its_children(self):
        self.write("build.ninja", self.manifest(30))
        self.start_and_kill()
        self.assertTrue(wait_for(lambda: not marked_processes(self.marker), timeout=5),
                        "commands outlived ninja: %s" % marked_processes(self.marker))

    def test_job_reaper_off_leaves_commands_running(self):
        # Ninja's behaviour, on request: the commands outlive ninja.
        self.write("build.ninja", self.manifest(1))
        self.start_and_kill({"RONIN_FLAGS": "--job-reaper=off"})
        # The killed build's slow commands finish on their own.
        self.assertTrue(wait_for(lambda: self.exists("count") and
                                 {"a", "b"} <= set(self.read("count").split()), timeout=20))

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



HELD = ("old", "edit", "gone", "new")


def stat_fields(pid):
    """State, parent and process group of `pid`, or None if it is gone."""
    try:
        with open("/proc/%s/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[:3]
    except OSError:
        return None


def alive(pid):
    """Whether `pid` is a live process (a zombie is dead)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def live_members(groups):
    """Live processes in any of the process groups `groups`."""
    found = []
    for entry in os.listdir("/proc"):
        fields = stat_fields(entry) if entry.isdigit() else None
        if fields and fields[0] != "Z" and int(fields[2]) in groups:
            found.append(int(entry))
    return found


class PartialOutputTests(NinjaTestCase):
    """Killed halfway through writing its output, a command leaves it partial
    and newer than its inputs. If its log line is not older than the inputs
    (the output was deleted by hand, or restored from an older copy, since
    it was last built), mtimes alone take the partial file for up to date,
    under ronin as under Ninja 1.13.2: the reaper must remove it, as ninja
    removes the outputs of the commands it interrupts."""

    # `hold` commands append their name to `ran`, note their shell's and a
    # background child's pids, write a partial output, then wait while the
    # file `hold` exists before writing the real one. The background child
    # of a held command appends to `ran` too when `hold` goes, if it lives.
    MANIFEST = (
        "rule hold\n"
        "  command = echo $out >> ran; echo $$$$ >> pids; echo partial > $out; "
        "(if [ -e hold ]; then while [ -e hold ]; do sleep 0.02; done; echo late $out >> ran; fi) & "
        "echo $$! >> pids; "
        "while [ -e hold ]; do sleep 0.02; done; cat $in > $out\n"
        "rule quick\n  command = echo $out >> ran; cat $in > $out\n"
        "build old: hold old.in\n"      # built, logged, then older than its input (restored)
        "build edit: hold edit.in\n"    # built, logged, its input edited since
        "build gone: hold gone.in\n"    # built, logged, deleted by hand since
        "build new: hold new.in\n"      # never built
        "build done: quick done.in\n"   # finishes before the kill
        "build pend: quick old new gone edit\n"  # waits for the held ones
        "build all: phony pend done\n")

    def setUp(self):
        super().setUp()
        self.addCleanup(self.release_and_kill_leftovers)

    def release_and_kill_leftovers(self):
        if self.exists("hold"):
            os.unlink(self.path("hold"))
        for pid in self.pids():
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass

    def pids(self):
        if not self.exists("pids"):
            return []
        return [int(line) for line in self.read("pids").split()]

    def ran(self):
        return sorted(self.read("ran").split("\n")[:-1]) if self.exists("ran") else []

    def prepare(self):
        self.write("build.ninja", self.MANIFEST)
        for name in ("old", "edit", "gone", "new", "done"):
            self.write(name + ".in", name + "\n")
        r = self.ninja("old", "edit", "gone")
        self.assertEqual(r.returncode, 0, r)
        # Inputs and outputs in the past, so that what the killed commands
        # write is clearly newer than every input.
        past = time.time() - 100
        for name in ("old.in", "gone.in", "new.in", "done.in", "old", "gone"):
            harness.touch(self.path(name), past)
        harness.touch(self.path("old.in"), past + 50)
        harness.touch(self.path("edit.in"))  # after its log line
        os.unlink(self.path("gone"))
        os.unlink(self.path("ran"))
        os.unlink(self.path("pids"))

    def kill_mid_build(self):
        # -j5: the four held commands and `done` at once.
        self.write("hold", "")
        proc = subprocess.Popen([harness.NINJA, "-j5", "all"], cwd=self.dir, env=harness.base_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        held = wait_for(lambda: self.ran() == ["done", "edit", "gone", "new", "old"] and len(self.pids()) == 8
                        and all(self.read(name) == "partial\n" for name in HELD)
                        and "\tdone\t" in self.read(".ninja_log"), timeout=20)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertTrue(held, "the build never reached the held commands: %r" % self.ran())

    def test_rerun_after_sigkill_redoes_partial_outputs_once(self):
        self.prepare()
        self.kill_mid_build()
        pids = self.pids()
        self.assertTrue(wait_for(lambda: not any(alive(pid) for pid in pids), timeout=10),
                        "commands outlived ninja: %r" % [pid for pid in pids if alive(pid)])
        groups = pids[0::2]  # each job's shell leads its process group
        self.assertTrue(wait_for(lambda: not live_members(groups), timeout=10),
                        "processes of the killed jobs live on: %r" % live_members(groups))
        os.unlink(self.path("hold"))
        os.unlink(self.path("ran"))

        r = self.ninja("-j5", "all")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(r.stderr, "")
        self.assertNotIn("warning", r.stdout)
        # The interrupted and the pending edges once each; `done` not again.
        self.assertEqual(self.ran(), sorted(HELD + ("pend",)))
        for name in HELD:
            self.assertEqual(self.read(name), name + "\n")
        self.assertEqual(self.read("pend"), "old\nnew\ngone\nedit\n")
        self.assertEqual(self.ninja("all").stdout, "ninja: no work to do.\n")
        self.assertEqual(self.ran(), sorted(HELD + ("pend",)), "a killed command came back")
        if harness.REF_NINJA:
            ref = harness.run(harness.REF_NINJA, ["all"], self.dir)
            self.assertEqual(ref.stdout, "ninja: no work to do.\n", ref)
        else:
            print("SKIPPED the Ninja 1.13.2 check: " + harness.SKIP_NO_REF, file=sys.stderr)


    def test_killed_job_with_a_depfile_loses_its_outputs_and_depfile(self):
        # Ninja's rule for a depfile: every output goes, whatever its mtime
        # (the depfile may be newer than an output not yet rewritten).
        self.write("build.ninja",
                   "rule hold\n  depfile = $out.d\n  deps = gcc\n"
                   "  command = echo $$$$ >> pids; echo \"$out: in\" > $out.d; "
                   "while [ -e hold ]; do sleep 0.02; done; cat in > $out\n"
                   "build out | side: hold in\n")
        self.write("in", "x\n")
        self.write("side", "untouched\n")
        self.write("hold", "")
        proc = subprocess.Popen([harness.NINJA], cwd=self.dir, env=harness.base_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        held = wait_for(lambda: self.exists("out.d") and self.pids(), timeout=20)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertTrue(held)
        self.assertTrue(wait_for(lambda: not live_members(self.pids()) and not self.exists("out.d")
                                 and not self.exists("side"), timeout=10),
                        "left: %r" % sorted(os.listdir(self.dir)))


if __name__ == "__main__":
    unittest.main()
