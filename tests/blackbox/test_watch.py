"""`--watch` on real trees with the real inotify: after the first build, each change is a round
that prints what changed and then exactly what a one-shot ninja prints for the same change.

Every test runs a watching ninja and a twin tree: each change is made in both, the twin is built
by a one-shot ninja, and the round's output must equal the one-shot's. Nothing is timed: a test
waits for a line, with a generous timeout only as a guard against a hang.

    NINJA=<ours> python3 -m unittest -v test_watch
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import harness
from harness import NINJA, base_env, bump_mtime, run, write_tree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc", "bench"))
from process_lines import ProcessLines  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc"))
from events_schema import check_stream, log_entries  # noqa: E402
import test_events  # noqa: E402  (its read_log; as a module, so that its tests do not run here)

HANG_GUARD = 60  # seconds: only ever reached when something hangs

# The last line of a one-shot run: nothing to do, the last status line ([t/t]), or a stop.
ROUND_END = re.compile(r"^(ninja: no work to do\.|ninja: build stopped: .*|ninja: error: .*|\[(\d+)/\2\] .*)$")
CHANGED = re.compile(r"^ninja: watch: ")
WATCHING = re.compile(r"^ninja: watching for changes \(\d+ directories; Ctrl-C to stop\)$")

CC = ("rule cc\n  command = cp $in $out.tmp && cat $$(sed -n 's/^#include //p' $in) /dev/null >> $out.tmp"
      " && mv $out.tmp $out && printf '%s: %s' $out \"$$(sed -n 's/^#include //p' $in)\" > $out.d\n"
      "  depfile = $out.d\n  deps = gcc\n  description = CC $out\n"
      "rule link\n  command = cat $in > $out\n  description = LINK $out\n")
TREE = {
    "build.ninja": CC + "build obj/a.o: cc src/a.c\nbuild obj/b.o: cc src/b.c\nbuild obj/c.o: cc src/c.c\n"
                        "build app: link obj/a.o obj/b.o obj/c.o\n",
    "src/a.c": "#include src/common.h\na\n", "src/b.c": "#include src/common.h\nb\n", "src/c.c": "c\n",
    "src/common.h": "common\n",
}


class Watcher:
    """A `ninja --watch` running in a tree, its output collected line by line."""

    def __init__(self, root, args=(), env=None):
        self.proc = subprocess.Popen([NINJA, "--watch", "-j1"] + list(args), cwd=root, env=base_env(env),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.output = ProcessLines(self.proc)
        self.lines, self.cond, self.reader = self.output.lines, self.output.cond, self.output.reader

    def wait_for(self, pattern, start=0):
        """Index of the first line from `start` on that matches; fails after HANG_GUARD seconds."""
        return self.output.wait_for(pattern, start, HANG_GUARD)

    def round(self, start):
        """The output of the round that starts at or after line `start`: (what-changed line, its lines)."""
        first = self.wait_for(CHANGED, start)
        last = self.wait_for(ROUND_END, first + 1)
        with self.cond:
            return self.lines[first], self.lines[first + 1:last + 1], last + 1

    def count(self, pattern, start=0, end=None):
        with self.cond:
            return sum(1 for line in self.lines[start:end] if pattern.search(line))

    def stop(self, sig=signal.SIGINT):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(HANG_GUARD)
        finally:
            self.reader.join(HANG_GUARD)
            self.proc.stdout.close()
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(HANG_GUARD)
        self.proc.stdout.close()


class WatchTestCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="ronin-watch-")
        self.twin = tempfile.mkdtemp(prefix="ronin-watch-twin-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.addCleanup(shutil.rmtree, self.twin, True)
        self.watcher = None

    def tearDown(self):
        if self.watcher:
            self.watcher.kill()

    def start(self, files, args=(), env=None):
        """Writes `files` in both trees, starts the watch and checks its first build against a one-shot's."""
        write_tree(self.root, files)
        write_tree(self.twin, files)
        self.args, self.env = list(args), env
        self.watcher = Watcher(self.root, args, env)
        armed = self.watcher.wait_for(WATCHING)
        with self.watcher.cond:
            # (Warnings about watches are the watch's own.)
            first = [line for line in self.watcher.lines[:armed] if not line.startswith("ninja: warning: --watch:")]
        self.assertSameAsOneShot(first)
        self.next_line = armed + 1

    def one_shot(self):
        result = run(NINJA, ["-j1"] + self.args, self.twin, env=self.env)
        return (result.stdout + result.stderr).splitlines()

    def assertSameAsOneShot(self, lines):
        """`lines` print what the twin's one-shot prints: the same lines, the same counts; commands that
        could run in either order may come in another (each tree's measured durations order them)."""
        expected = self.one_shot()
        status = re.compile(r"^\[\d+/\d+\] ")
        def shape(output):
            return ([m.group(0) for m in map(status.match, output) if m],
                    sorted(status.sub("", line) for line in output))
        self.assertEqual(shape(expected), shape(lines), "one-shot:\n%s\nround:\n%s" %
                         ("\n".join(expected), "\n".join(lines)))

    def change(self, fn):
        """Applies fn(root) to both trees."""
        fn(self.twin)
        fn(self.root)

    def reload_round(self, changed):
        """A round that loads the manifest again: its lines up to the fresh run's "watching" line."""
        first = self.watcher.wait_for(re.compile("^ninja: watch: " + re.escape(changed) + "$"), self.next_line)
        armed = self.watcher.wait_for(WATCHING, first + 1)
        self.next_line = armed + 1
        with self.watcher.cond:
            return self.watcher.lines[first + 1:armed]

    def expect_round(self, changed):
        """The next round names `changed` and prints what a one-shot prints in the twin; its lines."""
        line, lines, self.next_line = self.watcher.round(self.next_line)
        self.assertEqual("ninja: watch: " + changed, line)
        self.assertSameAsOneShot(lines)
        return lines


def descriptions(lines):
    """The status lines' descriptions, sorted: which commands ran, whatever their order."""
    return sorted(re.sub(r"^\[\d+/\d+\] ", "", line) for line in lines)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def append(rel, text):
    def fn(root):
        with open(os.path.join(root, rel), "a") as f:
            f.write(text)
    return fn


def sleeps_in_ppoll(pid, without_timeout=False):
    """Whether process `pid` comes to sleep in ppoll (its idle wait), as /proc shows its system call;
    `without_timeout`: with no timeout, the wait of a watch with nothing left to do before the next
    change (it waits with one while memory is still to be given back)."""
    ppoll = 271  # x86_64's number; other machines are not tested here
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/syscall" % pid) as f:
                fields = f.read().split()
            if fields[0] == str(ppoll) and (not without_timeout or fields[3] == "0x0"):
                return True
        except (OSError, IndexError):
            pass
        time.sleep(0.01)
    return False


def processes_left_in(root):
    """The processes still running in `root` (a command, the job reaper): none, once they had time to end."""
    deadline = time.monotonic() + HANG_GUARD
    while True:
        left = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if os.readlink("/proc/%s/cwd" % pid).startswith(os.path.realpath(root)):
                    with open("/proc/%s/cmdline" % pid, "rb") as f:
                        left.append(f.read().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                pass
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


class WatchRounds(WatchTestCase):

    def test_a_source_rebuilds_exactly_its_dependents_once(self):
        self.start(TREE)
        self.change(append("src/c.c", "more\n"))
        lines = self.expect_round("src/c.c changed")
        self.assertEqual(["[1/2] CC obj/c.o", "[2/2] LINK app"], lines)
        self.change(append("src/a.c", "more\n"))
        self.assertEqual(["[1/2] CC obj/a.o", "[2/2] LINK app"], self.expect_round("src/a.c changed"))
        self.assertEqual(1, self.watcher.count(re.compile(r"CC obj/c\.o"), self.next_line - 5))

    def test_a_header_rebuilds_what_a_one_shot_rebuilds(self):
        self.start(TREE)
        self.change(append("src/common.h", "more\n"))
        lines = self.expect_round("src/common.h changed")
        self.assertEqual(["CC obj/a.o", "CC obj/b.o", "LINK app"], descriptions(lines))
        # Deps discovered by the round itself count in the next one.
        self.change(lambda root: write(os.path.join(root, "src/other.h"), "other\n"))
        self.change(lambda root: write(os.path.join(root, "src/c.c"), "#include src/other.h\nc\n"))
        self.expect_round("src/c.c changed")  # other.h is no file of the graph yet
        self.change(append("src/other.h", "again\n"))
        self.assertEqual(["[1/2] CC obj/c.o", "[2/2] LINK app"], self.expect_round("src/other.h changed"))

    def test_the_same_content_under_content_hash_builds_nothing(self):
        self.start(TREE, ["--content-hash"])
        self.change(lambda root: bump_mtime(os.path.join(root, "src/a.c")))
        self.assertEqual(["ninja: no work to do."], self.expect_round("src/a.c changed"))

    def test_the_same_content_twice_leaves_what_ninja_finds_up_to_date(self):
        # Each round settles its skip: the second too, though the first
        # already settled the same edge (the outputs would be older than
        # the source for Ninja).
        self.start(TREE, ["--content-hash"])
        for _ in range(2):
            self.change(lambda root: write(os.path.join(root, "src/a.c"), TREE["src/a.c"]))
            self.assertEqual(["ninja: no work to do."], self.expect_round("src/a.c changed"))
        self.assertEqual(130, self.watcher.stop())
        plain = run(NINJA, ["-j1"], self.root)
        self.assertEqual((0, "ninja: no work to do.\n"), (plain.returncode, plain.stdout))

    def test_delete_and_recreate_a_source(self):
        self.start(TREE)
        self.change(lambda root: os.remove(os.path.join(root, "src/c.c")))
        lines = self.expect_round("src/c.c changed")
        self.assertEqual(["ninja: error: 'src/c.c', needed by 'obj/c.o', missing and no known rule to make it"],
                         lines)
        self.change(lambda root: write(os.path.join(root, "src/c.c"), "back\n"))
        self.assertEqual(["[1/2] CC obj/c.o", "[2/2] LINK app"], self.expect_round("src/c.c changed"))

    def test_a_failed_round_waits_for_the_next_change(self):
        self.start(TREE)
        self.change(lambda root: write(os.path.join(root, "src/c.c"), "#include src/missing.h\n"))
        lines = self.expect_round("src/c.c changed")
        self.assertEqual("ninja: build stopped: subcommand failed.", lines[-1])
        self.change(lambda root: write(os.path.join(root, "src/c.c"), "mended\n"))
        self.assertEqual(["[1/2] CC obj/c.o", "[2/2] LINK app"], self.expect_round("src/c.c changed"))

    def test_a_burst_of_writes_is_one_or_two_rounds(self):
        files = dict(TREE)
        manifest = CC + "rule copy\n  command = cp $in $out\n  description = CC $out\n"
        for i in range(100):
            files["burst/f%d.c" % i] = "%d\n" % i
            manifest += "build obj/f%d.o: copy burst/f%d.c\n" % (i, i)
        files["build.ninja"] = manifest
        self.start(files)
        # However long the writes take on a loaded machine, they queue up
        # while ninja is not looking (stopped): a burst it then finds whole.
        self.watcher.proc.send_signal(signal.SIGSTOP)
        try:
            for i in range(100):
                write(os.path.join(self.root, "burst/f%d.c" % i), "changed %d\n" % i)
        finally:
            self.watcher.proc.send_signal(signal.SIGCONT)
        # Every one is rebuilt; then no event is left to start another round.
        done = set()
        start = self.next_line
        while len(done) < 100:
            i = self.watcher.wait_for(re.compile(r"CC obj/f\d+\.o$"), start)
            done.add(self.watcher.lines[i])
            start = i + 1
        last = self.watcher.wait_for(ROUND_END, start - 1)
        rounds = self.watcher.count(CHANGED, self.next_line, last + 1)
        self.assertIn(rounds, (1, 2), "\n".join(self.watcher.lines[self.next_line:last + 1]))

    def test_a_change_during_a_build_is_picked_up_by_the_next_round(self):
        files = dict(TREE)
        # c.o's command waits for a gate the test opens once it has changed a.c.
        files["build.ninja"] = TREE["build.ninja"].replace(
            "build obj/c.o: cc src/c.c\n",
            "rule gated\n  command = while [ ! -e gate ]; do sleep 0.01; done; cp $in $out\n"
            "  description = GATED $out\nbuild obj/c.o: gated src/c.c\n")
        files["gate"] = ""
        self.start(files)
        self.change(lambda root: os.remove(os.path.join(root, "gate")))
        self.change(append("src/c.c", "more\n"))
        started = self.watcher.wait_for(re.compile(r"^ninja: watch: src/c\.c changed$"), self.next_line)
        self.change(append("src/a.c", "during\n"))  # c.o's command is waiting: the round is running
        self.change(lambda root: write(os.path.join(root, "gate"), ""))
        first_end = self.watcher.wait_for(ROUND_END, started + 1)
        self.assertEqual(["[1/2] GATED obj/c.o", "[2/2] LINK app"], self.watcher.lines[started + 1:first_end + 1])
        self.next_line = first_end + 1
        line, lines, self.next_line = self.watcher.round(self.next_line)
        self.assertEqual("ninja: watch: src/a.c changed", line)
        self.assertEqual(["[1/2] CC obj/a.o", "[2/2] LINK app"], lines)


class WatchManifest(WatchTestCase):
    # The manifest is generated from sources.txt, which lists the sources (no globbing).
    GEN = ("rule gen\n  command = python3 gen.py\n  generator = 1\n  description = GEN\n"
           "build build.ninja: gen sources.txt gen.py\n")
    GEN_PY = ("srcs = open('sources.txt').read().split()\n"
              "text = open('rules.ninja').read()\n"
              "for s in srcs:\n    text += 'build obj/%s.o: cc src/%s\\n' % (s, s)\n"
              "text += 'build app: link ' + ' '.join('obj/%s.o' % s for s in srcs) + '\\n'\n"
              "open('build.ninja', 'w').write(text)\n")

    def generated_tree(self):
        files = dict(TREE)
        files["rules.ninja"] = CC + self.GEN
        files["gen.py"] = self.GEN_PY
        files["sources.txt"] = "a.c b.c\n"
        for root in (self.root, self.twin):
            write_tree(root, files)
            subprocess.run([sys.executable, "gen.py"], cwd=root, check=True)  # newer than its inputs
        with open(os.path.join(self.root, "build.ninja")) as f:
            files["build.ninja"] = f.read()
        return files

    def test_a_regenerated_manifest_is_loaded_again(self):
        self.start(self.generated_tree())
        self.change(lambda root: write(os.path.join(root, "src/d.c"), "d\n"))  # a new file, listed next
        self.change(append("sources.txt", "d.c\n"))
        lines = self.reload_round("sources.txt changed")
        self.assertSameAsOneShot(lines)
        self.assertEqual(["[1/1] GEN", "[1/3] CC obj/d.c.o", "[2/3] LINK app"], lines)  # counts go on
        # The reloaded graph is watched: the new file's changes count.
        self.change(append("src/d.c", "more\n"))
        self.assertEqual(["[1/2] CC obj/d.c.o", "[2/2] LINK app"], self.expect_round("src/d.c changed"))

    def test_an_edited_manifest_is_loaded_again(self):
        self.start(TREE)
        self.change(append("build.ninja", "build obj/c2.o: cc src/c.c\ndefault app obj/c2.o\n"))
        lines = self.reload_round("build.ninja changed")
        self.assertSameAsOneShot(lines)
        self.assertEqual(["[1/1] CC obj/c2.o"], lines)

    def test_a_manifest_that_never_loaded_is_an_error_at_once(self):
        r = run(NINJA, ["--watch", "-f", "nope.ninja"], self.root)
        self.assertEqual((1, "", "ninja: error: loading 'nope.ninja': No such file or directory\n"),
                         (r.returncode, r.stdout, r.stderr))

    def test_a_broken_manifest_waits_to_be_mended(self):
        self.start(TREE)
        self.change(append("build.ninja", "build nope\n"))
        first = self.watcher.wait_for(re.compile(r"^ninja: watch: build.ninja changed$"), self.next_line)
        error = self.watcher.wait_for(re.compile(r"^ninja: error: build.ninja:\d+: "), first)
        self.next_line = self.watcher.wait_for(re.compile(r"^ninja: watching the manifest for changes"), error) + 1
        self.change(lambda root: write(os.path.join(root, "build.ninja"), TREE["build.ninja"] +
                                       "build obj/c2.o: cc src/c.c\n"))
        self.assertSameAsOneShot(self.reload_round("build.ninja changed"))


class WatchEnds(WatchTestCase):

    def test_ctrl_c_when_idle_ends_cleanly(self):
        self.start(TREE)
        self.assertEqual(130, self.watcher.stop())
        self.assertFalse(os.path.exists(os.path.join(self.root, ".ninja_lock")))
        again = run(NINJA, ["-j1"], self.root)  # logs whole, lock free: a one-shot has nothing to do
        self.assertEqual((0, "ninja: no work to do.\n"), (again.returncode, again.stdout))

    def test_ctrl_c_between_rounds_ends_cleanly(self):
        # After a round, once the watch sleeps again (in ppoll, as /proc shows), a Ctrl-C.
        write_tree(self.root, TREE)
        events_dir = tempfile.mkdtemp(prefix="ronin-watch-events-")
        self.addCleanup(shutil.rmtree, events_dir, True)
        events_path = os.path.join(events_dir, "events.json")
        self.watcher = Watcher(self.root, ["--events=" + events_path])
        armed = self.watcher.wait_for(WATCHING)
        append("src/c.c", "more\n")(self.root)
        _, lines, _ = self.watcher.round(armed + 1)
        self.assertEqual(["[1/2] CC obj/c.o", "[2/2] LINK app"], lines)
        self.assertTrue(sleeps_in_ppoll(self.watcher.proc.pid), "the watch never went back to sleep")
        self.assertEqual(130, self.watcher.stop())
        # The lock is released, no command or helper of it is left, and the logs are whole.
        self.assertFalse(os.path.exists(os.path.join(self.root, ".ninja_lock")))
        self.assertEqual([], processes_left_in(self.root))
        again = run(NINJA, ["-j1"], self.root)
        self.assertEqual((0, "ninja: no work to do.\n"), (again.returncode, again.stdout))
        # The stream is complete: every build ended, then the stream, with Ninja's interrupt status.
        with open(events_path, encoding="utf-8") as f:
            text = f.read()
        problems, events = check_stream(text)
        self.assertEqual([], problems, text)
        kinds = [e["event"] for e in events]
        self.assertEqual(kinds.count("build_start"), kinds.count("build_end"))
        self.assertEqual(["build_end", "stream_end"], kinds[-2:])
        self.assertEqual(130, events[-1]["exit_code"])
        # (.ninja_log, rebuilt from the stream, is the one on disk: the interrupt lost no entry.)
        self.assertEqual(test_events.read_log(os.path.join(self.root, ".ninja_log")), log_entries(events))

    def test_ctrl_c_during_a_round_stops_its_command(self):
        files = dict(TREE)
        # c.o's command is slow once the file `slow` exists: 100 s of short
        # sleeps, not one long one. The shell catches a SIGINT that comes
        # between `touch` and the start of the next command and acts on it
        # only when that command ends: a `sleep 100` started just after the
        # Ctrl-C would run its whole 100 s (1 run in 24 under load).
        files["build.ninja"] = TREE["build.ninja"].replace(
            "build obj/c.o: cc src/c.c\n",
            "rule slow\n  command = if [ -e slow ]; then touch started; "
            "i=0; while [ $$i -lt 1000 ]; do sleep 0.1; i=$$((i+1)); done; fi; cp $in $out\n"
            "  description = SLOW $out\nbuild obj/c.o: slow src/c.c\n")
        write_tree(self.root, files)
        self.watcher = Watcher(self.root)
        self.watcher.wait_for(WATCHING)
        write(os.path.join(self.root, "slow"), "")
        append("src/c.c", "more\n")(self.root)
        self.watcher.wait_for(re.compile(r"^ninja: watch: src/c\.c changed$"))
        deadline = time.monotonic() + HANG_GUARD
        while not os.path.exists(os.path.join(self.root, "started")):
            self.assertLess(time.monotonic(), deadline, "the slow command never started")
            time.sleep(0.01)
        self.assertEqual(130, self.watcher.stop())
        self.assertIn("ninja: build stopped: interrupted by user.", self.watcher.lines)
        self.assertFalse(os.path.exists(os.path.join(self.root, ".ninja_lock")))
        dry = run(NINJA, ["-n", "-j1"], self.root)  # the logs load; c.o is still to build
        self.assertEqual((0, ["[1/2] SLOW obj/c.o", "[2/2] LINK app"]), (dry.returncode, dry.stdout.splitlines()))


def resident_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"^VmRSS:\s+(\d+) kB", f.read(), re.M).group(1))


def memory_tree(modules=200, files=200):
    """A graph of 40,000 edges over sources in 200 directories (phony: a one-shot has nothing to
    do), and one real command whose output lands in a watched directory."""
    lines = ["rule cp\n  command = cp $in $out\n  description = CP $out\n"]
    tree = {}
    for m in range(modules):
        for f in range(files):
            source = "src/module_%03d/a_longer_source_name_%03d.c" % (m, f)
            tree[source] = ""
            lines.append("build obj/module_%03d/a_longer_source_name_%03d.o: phony %s\n" % (m, f, source))
    lines.append("build obj/real.o: cp src/module_007/a_longer_source_name_003.c\n")
    lines.append("build all: phony obj/real.o " +
                 " ".join("obj/module_%03d/a_longer_source_name_000.o" % m for m in range(modules)) + "\n")
    tree["build.ninja"] = "".join(lines)
    return tree


class WatchMemory(WatchTestCase):

    def test_an_idle_watch_holds_no_more_than_a_one_shot_no_op(self):
        if harness.SANITIZED:
            self.skipTest(harness.SKIP_NO_PRIVILEGE + "not under ASan/UBSan, whose runtimes hold memory of their own")
        gnu_time = shutil.which("time", path="/usr/bin:/bin")
        if not gnu_time:
            self.skipTest("GNU time not installed (apt-get install time): it measures the one-shot's peak")
        self.start(memory_tree())
        self.change(append("src/module_007/a_longer_source_name_003.c", "edit\n"))
        self.expect_round("src/module_007/a_longer_source_name_003.c changed")
        self.assertTrue(sleeps_in_ppoll(self.watcher.proc.pid, without_timeout=True), "the watch never went idle")
        idle = resident_kb(self.watcher.proc.pid)
        self.assertEqual(130, self.watcher.stop())
        # The one-shot no-op in the same tree; GNU time reports the peak of ninja alone (a child
        # of this Python would carry this Python's own size in its ru_maxrss).
        peaks = []
        for _ in range(3):
            r = subprocess.run([gnu_time, "-f", "%M", NINJA, "-j1"], cwd=self.root, env=base_env(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=HANG_GUARD)
            self.assertEqual("ninja: no work to do.\n", r.stdout)
            peaks.append(int(r.stderr.split()[-1]))
        self.assertLessEqual(idle, sorted(peaks)[1], "idle --watch VmRSS vs one-shot no-op peaks (kB): %s" % peaks)


class WatchLimits(WatchTestCase):

    def test_an_overflowing_queue_means_everything_is_stat_ed_again(self):
        self.start(TREE)
        with open("/proc/sys/fs/inotify/max_queued_events") as f:
            queue = int(f.read())
        if queue > 100000:
            self.skipTest("fs.inotify.max_queued_events = %d: too many files to fill the queue" % queue)
        self.watcher.proc.send_signal(signal.SIGSTOP)
        try:
            # Two events a file fill the queue; c.c's change comes after, its event is dropped.
            for i in range(queue // 2 + 100):
                write(os.path.join(self.root, "src/junk%d" % i), "")
            self.change(append("src/c.c", "more\n"))
        finally:
            self.watcher.proc.send_signal(signal.SIGCONT)
        self.assertEqual(["[1/2] CC obj/c.o", "[2/2] LINK app"], self.expect_round("src/c.c changed"))

    def test_out_of_watches_falls_back_to_checking_and_stays_correct(self):
        # No watch at all: every change must be found by checking.
        self.start(TREE, env={"RONIN_WATCH_LIMIT": "0"})
        with self.watcher.cond:
            text = "\n".join(self.watcher.lines)
        self.assertRegex(text, r"ninja: warning: --watch: out of file watches \(RONIN_WATCH_LIMIT = 0\) with 0 "
                               r"directories watched: the files of 2 more are checked every second instead "
                               r"\(raise the limit to watch them all\)")
        self.change(append("src/c.c", "more\n"))
        self.assertEqual(["[1/2] CC obj/c.o", "[2/2] LINK app"], self.expect_round("src/c.c changed"))
        self.change(lambda root: write(os.path.join(root, "src/common.h"), "new\n"))
        self.assertEqual(["CC obj/a.o", "CC obj/b.o", "LINK app"], descriptions(self.expect_round("src/common.h changed")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
