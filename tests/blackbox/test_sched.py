"""The scheduler: critical path by measured time (src/sched/duration_model.cc),
memory-aware admission (--keep-free-memory, src/sched/memory_admission.cc) and the
live view of running jobs (--progress=live, src/status/live_status.cc)."""

import itertools
import os
import re
import shutil
import subprocess
import sys
import time
import unittest

from harness import NINJA, NinjaTestCase, REF_NINJA, run, run_in_pty

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
    # The program that holds the memory, memhog.py's arguments after it, and
    # how long each job holds it (the unbudgeted run's jobs must overlap).
    HOG = "%s %s" % (sys.executable, MEMHOG)
    HOLD_SECONDS = 0.5

    def setUp(self):
        super().setUp()
        rules = "rule hog\n  command = %s %d %s peaks.log && touch $out\n" % (self.HOG, self.HOLD_MIB,
                                                                               self.HOLD_SECONDS)
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
        r = self.ninja(env={"RONIN_FLAGS": "--keep-free-memory=-1"})
        self.assertEqual((1, "", "ninja: error: RONIN_FLAGS: --keep-free-memory=-1: expected a size such as "
                                 "2G, 512M or 800000K\n"), (r.returncode, r.stdout, r.stderr))
        self.assertFalse(self.exists("o0"))


# Each job waits for its own go_<out> file, so the test decides when jobs
# end and in which order: the final screen is the same every time.
GATED = ("rule r\n  command = touch started_$out; while [ ! -e go_$out ]; do sleep 0.05; done; "
         "echo output of $out; touch $out\n  description = BUILD $out\n"
         "build a: r\nbuild b: r\nbuild c: r\n")
BLOCK_LINE = re.compile(r"^ +\d+\.\ds BUILD [abc]( \| .*)?$")
FINAL_LINES = re.compile(r"^(\[\d/3\] BUILD [abc]|output of [abc])$")


class Tmux:
    """A ninja run in a detached tmux session: a real terminal we can read and resize."""

    # Each session gets a server name never used before: a name built from
    # id(self) repeats once the previous object is freed, and the new server
    # then races the old one's asynchronous shutdown on the same socket
    # ("server exited unexpectedly").
    sessions = itertools.count()

    def __init__(self, test, cwd, args, columns=80, rows=12):
        self.name = "ronin-test-%d-%d" % (os.getpid(), next(Tmux.sessions))
        # The exit status lands in rc by rename: a test that sees rc exist
        # must never read it between the shell's create and its write.
        command = "%s; echo $? > rc.tmp; mv rc.tmp rc; sleep 600" % test.terminal_command(args)
        env = dict(os.environ, TERM="xterm")
        env.pop("TMUX", None)
        subprocess.run(["tmux", "-L", self.name, "new-session", "-d", "-s", self.name, "-x", str(columns),
                        "-y", str(rows), "-c", cwd, command], check=True, env=env)
        test.addCleanup(subprocess.run, ["tmux", "-L", self.name, "kill-server"], stderr=subprocess.DEVNULL)

    def screen(self):
        out = subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p", "-t", self.name],
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        return [line.rstrip() for line in out.splitlines()]

    def resize(self, columns, rows):
        subprocess.run(["tmux", "-L", self.name, "resize-window", "-t", self.name, "-x", str(columns),
                        "-y", str(rows)], check=True)

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name] + list(keys), check=True)


@unittest.skipUnless(shutil.which("tmux"), "SKIPPED: tmux not installed (apt-get install tmux)")
class TestLiveView(NinjaTestCase):
    GATED = GATED
    # A command's wait for the test's go_$out file.
    WAIT_FOR_GO = "while [ ! -e go_$out ]; do sleep 0.05; done"

    def wait_for(self, what, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = what()
            if value:
                return value
            time.sleep(0.05)
        self.fail("timed out waiting")

    def block(self, tmux):
        return [line for line in tmux.screen() if BLOCK_LINE.match(line)]

    def run_gated(self, args, during=None):
        """Runs GATED under tmux; releases a, b, c in turn; returns the final screen."""
        self.write("build.ninja", self.GATED)
        for f in os.listdir(self.dir):
            if f != "build.ninja":
                os.unlink(self.path(f))
        tmux = Tmux(self, self.dir, ["-j3"] + args)
        self.wait_for(lambda: all(self.exists("started_" + o) for o in "abc"))
        if during:
            during(tmux)
        for output in "abc":
            self.write("go_" + output, "")
            self.wait_for(lambda: any(line == "output of " + output for line in tmux.screen()))
        self.wait_for(lambda: self.exists("rc"))
        self.assertEqual("0", self.read("rc").strip())
        return tmux.screen()

    def test_running_jobs_are_shown_then_erased(self):
        seen = []

        def watch(tmux):
            # All three jobs, oldest first, each with its elapsed time.
            seen.extend(self.wait_for(lambda: len(self.block(tmux)) == 3 and self.block(tmux)))
            first = float(seen[0].split("s")[0])
            self.wait_for(lambda: self.block(tmux) and float(self.block(tmux)[0].split("s")[0]) > first)

        live = self.run_gated(["--progress=live"], during=watch)
        self.assertEqual(["BUILD a", "BUILD b", "BUILD c"], sorted(line.split("s ", 1)[1] for line in seen))
        self.assertEqual([], [line for line in live if BLOCK_LINE.match(line)], "the block is erased")
        classic = self.run_gated([])
        self.assertEqual(classic, live, "the final screen is the classic one")

    def test_resize_mid_build_does_not_garble(self):
        def shrink(tmux):
            self.wait_for(lambda: len(self.block(tmux)) == 3)
            tmux.resize(30, 8)
            # Redrawn for the new width, nothing else left on the screen.
            self.wait_for(lambda: len(self.block(tmux)) == 3 and all(len(l) < 30 for l in tmux.screen()))
            status = [line for line in tmux.screen() if line and not BLOCK_LINE.match(line)]
            self.assertEqual(1, len(status), tmux.screen())
            self.assertRegex(status[0], r"^\[0/3\] BUILD [abc]$")

        final = self.run_gated(["--progress=live"], during=shrink)
        self.assertEqual(["[1/3] BUILD a", "output of a", "[2/3] BUILD b", "output of b",
                          "[3/3] BUILD c", "output of c"], [line for line in final if line])

    def test_a_running_jobs_last_line_of_output(self):
        # What a job printed so far is looked at before each redraw (src/sched/builder.cc's RefreshStatus).
        self.write("build.ninja", "rule r\n  command = printf 'one\\ntwo 50%%\\r75%%\\n'; "
                                  + self.WAIT_FOR_GO + "; touch $out\n  description = BUILD $out\nbuild a: r\n")
        tmux = Tmux(self, self.dir, ["-j1", "--progress=live"])
        self.wait_for(lambda: any(line.endswith("BUILD a | 75%") for line in self.block(tmux)))
        self.write("go_a", "")
        self.wait_for(lambda: self.exists("rc"))
        self.assertEqual("0", self.read("rc").strip())

    def test_a_silent_job_is_redrawn_several_times_a_second(self):
        # No output and no other job: only the refresh deadline ends the build loop's wait.
        self.write("build.ninja", "rule r\n  command = %s; touch $out\n  description = BUILD $out\nbuild a: r\n"
                   % self.WAIT_FOR_GO)
        tmux = Tmux(self, self.dir, ["-j1", "--progress=live"])
        self.wait_for(lambda: self.block(tmux))
        seen = set()
        start = time.time()
        while time.time() - start < 2:
            seen.update(line.split("s ", 1)[0] for line in self.block(tmux))
            time.sleep(0.03)
        # Ten redraws a second: 20 values, if this machine lets the poll see them.
        self.assertGreaterEqual(len(seen), 8, sorted(seen))
        self.write("go_a", "")
        self.wait_for(lambda: self.exists("rc"))
        self.assertEqual("0", self.read("rc").strip())

    def test_the_status_line_stays_while_output_is_printed(self):
        # a prints its output and ends while b and c run on: the status line
        # is back below the output at once, not when b or c end.
        self.write("build.ninja", self.GATED)
        tmux = Tmux(self, self.dir, ["-j3", "--progress=live"])
        self.wait_for(lambda: len(self.block(tmux)) == 3)
        self.write("go_a", "")

        def status_below_output():
            screen = tmux.screen()
            if "output of a" not in screen:
                return False
            below = screen[screen.index("output of a") + 1:]
            return below and below[0] == "[1/3] BUILD a" and len(self.block(tmux)) == 2
        self.wait_for(status_below_output)
        self.write("go_b", "")
        self.write("go_c", "")
        self.wait_for(lambda: self.exists("rc"))
        self.assertEqual("0", self.read("rc").strip())

    def test_interrupt_leaves_a_clean_terminal(self):
        self.write("build.ninja", self.GATED)
        tmux = Tmux(self, self.dir, ["-j3", "--progress=live"])
        self.wait_for(lambda: len(self.block(tmux)) == 3)
        tmux.keys("C-c")
        self.wait_for(lambda: self.exists("rc"))
        self.assertEqual("130", self.read("rc").strip())
        screen = [line for line in tmux.screen() if line]
        self.assertEqual([], [line for line in screen if BLOCK_LINE.match(line)])
        self.assertEqual("ninja: build stopped: interrupted by user.", screen[-1])


class TestLiveViewOutput(NinjaTestCase):
    def test_not_a_terminal_changes_nothing(self):
        self.write("build.ninja", "rule r\n  command = echo hi $out; touch $out\nbuild a: r\nbuild b: r\n")
        classic = self.ninja("-j1")
        for f in ("a", "b", ".ninja_log"):
            os.unlink(self.path(f))
        live = self.ninja("-j1", "--progress=live")
        self.assertEqual((classic.returncode, classic.stdout, classic.stderr),
                         (live.returncode, live.stdout, live.stderr))

    def test_a_terminal_that_reports_no_size(self):
        # Some terminals say 0x0: COLUMNS and LINES (else 80x24) stand in.
        long_name = "x" * 120
        self.write("build.ninja", "rule r\n  command = sleep 1; touch $out\n  description = BUILD $out\n"
                                  "build a: r\nbuild %s: r\n" % long_name)
        r = run_in_pty(NINJA, ["-j2", "--progress=live"], self.dir, env={"COLUMNS": "50", "LINES": "10"},
                       columns=0, rows=0)
        self.assertEqual(0, r.returncode, r.stdout)
        rows = re.findall(r"\r\n( +\d+\.\ds BUILD [^\x1b]*)\x1b\[K", r.stdout.replace("\n", "\r\n"))
        self.assertTrue(any(row.endswith("BUILD a") for row in rows), r.stdout)
        self.assertTrue(all(len(row) <= 49 for row in rows), rows)
        self.assertTrue(any("..." in row for row in rows), rows)

    def test_failure_recap(self):
        self.write("build.ninja", "rule r\n  command = exit $code\nbuild a: r\n  code = 3\n"
                                  "build b: r\n  code = 0\nbuild c d: r\n  code = 1\n")
        r = self.ninja_pty("-j1", "-k0", "--progress=live")
        self.assertEqual(1, r.returncode)
        self.assertIn("\nninja: 2 commands failed:\n  [code=3] a\n  [code=1] c d\nninja: build stopped: ", r.stdout)
        classic = self.ninja_pty("-j1", "-k0")
        self.assertNotIn("commands failed:", classic.stdout)

    def test_bad_mode(self):
        r = self.ninja("--progress=fancy")
        self.assertEqual((1, "", "ninja: error: --progress=fancy: expected live or classic\n"),
                         (r.returncode, r.stdout, r.stderr))
        r = self.ninja(env={"RONIN_FLAGS": "--progress=fancy"})
        self.assertEqual((1, "", "ninja: error: RONIN_FLAGS: --progress=fancy: expected live or classic\n"),
                         (r.returncode, r.stdout, r.stderr))


if __name__ == "__main__":
    unittest.main(verbosity=2)
