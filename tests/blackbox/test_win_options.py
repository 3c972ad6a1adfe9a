"""ronin's options on Windows whose Linux tests cannot run there as they are, with ronin's
ninja.exe under wine (wine.py): what works there (--question, --status, --events=PATH, the
--jobserver-pool semaphore, --watch with ReadDirectoryChangesW) and what is refused, clearly and
before anything is built (--events=fd:N, since Windows programs get handles, not descriptors). The Linux behaviour is test_question, test_events, test_watch's and test_jobserver's;
these check that the Windows binary keeps it, with its own paths, log units and pool. The options
whose Linux tests do run under wine are in test_win_option_suites.

    NINJA_WIN=<ours.exe> python3 -m unittest -v test_win_options
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wine  # noqa: E402
from harness import bump_mtime, write_tree  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc"))
from events_schema import check_stream, log_entries  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc", "bench"))
from process_lines import ProcessLines  # noqa: E402

GUARD = 120  # seconds: only ever reached when something hangs
WATCHING = re.compile(r"^ninja: watching for changes \(\d+ directories; Ctrl-C to stop\)\r?$")
ROUND_END = re.compile(r"^(ninja: no work to do\.|ninja: build stopped: .*|ninja: error: .*|\[(\d+)/\2\] .*)\r?$")

# Two copies through wsh's cp.exe (wine.py's helpers), one after the other.
MANIFEST = ("rule cp\n  command = cp $in $out\n  description = CP $out\n"
            "build mid: cp in\nbuild out: cp mid\n")


class WinOptionsTest(wine.wine_failures.RerunAfterWineFailure, unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.exe = wine.ninja_win()
        if not os.path.isfile(cls.exe):
            raise unittest.SkipTest("ninja.exe under test not found at %s (cross-build it, or set NINJA_WIN)"
                                    % cls.exe)
        cls.wine = wine.session()

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ronin-winopt-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        write_tree(self.dir, {"build.ninja": MANIFEST, "in": "text\n"})

    def ninja(self, *args, cwd=None):
        return self.wine.run(self.exe, list(args), cwd or self.dir, roots=(self.dir,))

    def path(self, rel):
        return os.path.join(self.dir, rel)

    def test_question_says_whether_work_is_due_and_does_none(self):
        r = self.ninja("--question")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (1, "", ""))
        self.assertFalse(os.path.exists(self.path("out")))
        self.assertFalse(os.path.exists(self.path(".ninja_log")))  # nothing written
        self.assertEqual(self.ninja().returncode, 0)
        r = self.ninja("--question")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        bump_mtime(self.path("in"), 600)
        self.assertEqual(self.ninja("--question", "mid").returncode, 1)
        write_tree(self.dir, {"build.ninja": "build out: nosuchrule in\n"})
        r = self.ninja("--question")
        self.assertEqual(r.returncode, 2, r)
        self.assertIn("ninja: error: build.ninja:1: unknown build rule 'nosuchrule'", r.stderr)

    def test_status_sets_the_whole_line(self):
        r = self.ninja("-j1", "--status", "<$finished of $total> $description!")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(r.stdout.replace("\r\n", "\n"), "<1 of 2> CP mid!\n<2 of 2> CP out!\n")
        bump_mtime(self.path("in"), 600)
        r = self.ninja("-j1", "--status", "$bogus")
        self.assertEqual(r.returncode, 1, r)
        self.assertIn("ninja: fatal: unknown variable 'bogus' in --status format", r.stdout + r.stderr)

    def test_events_to_a_file_tell_what_the_log_recorded(self):
        os.mkdir(self.path("elsewhere"))
        # A relative PATH is from where ninja started, before -C.
        r = self.ninja("-C", "..", "--events=events.jsonl", cwd=self.path("elsewhere"))
        self.assertEqual(r.returncode, 0, r)
        with open(self.path("elsewhere/events.jsonl"), encoding="utf-8", newline="") as f:
            text = f.read()
        problems, events = check_stream(text)
        self.assertEqual(problems, [])
        names = [e["event"] for e in events]
        self.assertEqual((names[0], names[1], names[-2], names[-1]),
                         ("stream_start", "build_start", "build_end", "stream_end"))
        self.assertEqual([e["outputs"] for e in events if e["event"] == "edge_end"], [["mid"], ["out"]])
        self.assertEqual(events[-2]["result"], "success")
        logged = {}
        with open(self.path(".ninja_log"), encoding="utf-8") as f:
            for line in f.read().splitlines()[1:]:
                start, end, mtime, output, command_hash = line.split("\t")
                logged[output] = (int(start), int(end), int(mtime), int(command_hash, 16))
        self.assertEqual(log_entries(events), logged)

    def test_events_refuse_a_descriptor(self):
        r = self.ninja("--events=fd:1")
        self.assertEqual(r.returncode, 1, r)
        self.assertEqual(r.stderr.replace("\r\n", "\n"),
                         "ninja: error: --events: 'fd:1': a file descriptor is not implemented on Windows "
                         "(programs get handles there); give a file path\n")
        self.assertFalse(os.path.exists(self.path("out")))

    def leaves(self, root, prefix, count):
        """A manifest of `count` leaf jobs (wsh's leaf: markers in root's marks folder)."""
        marks, log = (wine.windows_path(os.path.join(root, name)) for name in ("marks", "leaves.log"))
        text = "rule leaf\n  command = leaf %s $out %s 0.5 && touch $out\n" % (marks, log)
        return text + "".join("build %s%d: leaf\n" % (prefix, i) for i in range(count))

    def nested_build(self, folder, *args):
        """In a new folder, a build of a leaf and two nested ninjas (ninja.exe 1.13.2 and ours,
        5 leaves each, no -j), run with args: (its result, each leaf's peak, the nested outputs)."""
        root = self.path(folder)
        os.makedirs(os.path.join(root, "marks"))
        nested = {"ref": wine.windows_path(wine.reference_ninja_win()), "sub": wine.windows_path(self.exe)}
        manifest = self.leaves(root, "top", 1) + "rule nested\n  command = wsh $ninja -C $dir > $out 2>&1\n"
        manifest += "".join("build %s.out: nested\n  dir = %s\n  ninja = %s\n" % (name, name, ninja)
                            for name, ninja in nested.items())
        manifest += "rule show\n  command = printenv MAKEFLAGS > $out || touch $out\nbuild flags: show\n"
        write_tree(root, {"build.ninja": manifest, "ref/build.ninja": self.leaves(root, "ref", 5),
                          "sub/build.ninja": self.leaves(root, "sub", 5)})
        r = self.ninja("-C", folder, *args)
        with open(os.path.join(root, "leaves.log")) as f:
            peaks = {name: int(peak) for name, peak in (line.split() for line in f.read().splitlines())}
        outputs = {}
        for name in nested:
            with open(os.path.join(root, name + ".out")) as f:
                outputs[name] = f.read().replace("\r\n", "\n")
        return r, peaks, outputs

    def test_jobserver_pool_is_a_semaphore_that_nested_ninjas_share(self):
        # ninja.exe 1.13.2 and ours, started by commands without -j, take their further jobs
        # from the pool (a named semaphore, the form Ninja reads on Windows): all the leaves
        # together never run more than -j3 at once.
        r, peaks, outputs = self.nested_build("pool", "--jobserver-pool", "-j3")
        self.assertEqual(r.returncode, 0, r)
        with open(self.path("pool/flags")) as f:
            flags = f.read().strip()
        self.assertRegex(flags, r"^-j3 --jobserver-auth=ninja-jobserver-\d+-\d+$")
        for output in outputs.values():
            self.assertIn("ninja: Jobserver mode detected: " + flags, output)
        self.assertEqual(len(peaks), 11, peaks)
        self.assertLessEqual(max(peaks.values()), 3, peaks)
        # Without the pool each nested ninja runs its own default -j (the CPUs + 2) beside the top's.
        r, peaks, outputs = self.nested_build("alone", "-j3")
        self.assertEqual(r.returncode, 0, r)
        self.assertNotIn("Jobserver", "".join(outputs.values()))
        self.assertGreater(max(peaks.values()), 3, peaks)

    def watch(self):
        """ninja.exe --watch started in the tree (stopped at the test's end): its output's lines."""
        running = self.wine.start(self.exe, ["--watch", "-j1"], self.dir, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.addCleanup(running.stop)
        return ProcessLines(running.proc), running

    def round_after(self, lines, start):
        """The lines of the round after line `start`: from its "what changed" line to its last."""
        first = lines.wait_for(re.compile(r"^ninja: watch: "), start, GUARD)
        last = lines.wait_for(ROUND_END, first + 1, GUARD)
        with lines.cond:
            return [line.rstrip("\r") for line in lines.lines[first:last + 1]], last + 1

    def test_watch_builds_each_change_as_a_one_shot_run_would(self):
        lines, running = self.watch()
        armed = lines.wait_for(WATCHING, 0, GUARD)
        with lines.cond:
            self.assertEqual(["[1/2] CP mid", "[2/2] CP out"], [l.rstrip("\r") for l in lines.lines[:armed]])
        # A change made by a Linux process: wine's ReadDirectoryChangesW sees it as Windows would.
        with open(self.path("in"), "w") as f:
            f.write("second\n")
        round_lines, next_line = self.round_after(lines, armed + 1)
        self.assertEqual(["ninja: watch: in changed", "[1/2] CP mid", "[2/2] CP out"], round_lines)
        with open(self.path("out")) as f:
            self.assertEqual("second\n", f.read())
        # A file in a directory made after the watch began, that the manifest then names.
        os.mkdir(self.path("sub"))
        write_tree(self.dir, {"sub/extra": "x\n"})
        with open(self.path("build.ninja"), "a") as f:
            f.write("build sub/copy: cp sub/extra\n")
        reload_line = lines.wait_for(re.compile(r"^ninja: watch: build.ninja changed"), next_line, GUARD)
        armed = lines.wait_for(WATCHING, reload_line + 1, GUARD)
        with lines.cond:
            self.assertEqual(["[1/1] CP sub/copy"], [l.rstrip("\r") for l in lines.lines[reload_line + 1:armed]])
        with open(self.path("sub/extra"), "w") as f:
            f.write("y\n")
        round_lines, _ = self.round_after(lines, armed + 1)
        self.assertEqual(["ninja: watch: sub/extra changed", "[1/1] CP sub/copy"], round_lines)
        running.stop()
        # Stopped at any moment, it leaves logs a one-shot run finds complete.
        r = self.ninja()
        self.assertEqual((0, "ninja: no work to do.\n"), (r.returncode, r.stdout.replace("\r\n", "\n")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
