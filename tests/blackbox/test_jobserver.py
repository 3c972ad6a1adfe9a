"""GNU make jobserver: ninja as a client of make's pool, and as a pool of its own.

Client (Ninja 1.13): without -j and -n, `--jobserver-auth=fifo:PATH` in
MAKEFLAGS bounds the build: one job on the implicit slot, one token per
further job, every token written back (after success, failure and
interrupt). ronin also takes GNU make <= 4.3's pipe form `R,W`, which
Ninja ignores with a warning: each binary's own behaviour is asserted.

Pool (ronin only, --jobserver-pool): ninja creates the pool for its -j, and
nested make, our ninja and Ninja 1.13 all draw from it.

Concurrency is proved with a shared marker directory, never with timing:
every leaf job creates a marker, counts the markers (its `peak`), and
removes its marker when done; a count never exceeds the number of jobs
running at once. To prove a level of parallelism is *reached*, leaves of a
group wait (a barrier) until that many of the group run at once.
"""

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest

import harness
from harness import NinjaTestCase

MAKE = shutil.which("make")

LEAF = r'''
import json, os, sys, time
marks, log, group, name = sys.argv[1:5]
barrier = int(sys.argv[5]) if len(sys.argv) > 5 else 0
wait_file = sys.argv[6] if len(sys.argv) > 6 else ""
marker = os.path.join(marks, group + "." + name)
open(marker, "w").close()

def running(prefix=""):
    return sum(1 for m in os.listdir(marks) if m.startswith(prefix))

peak = running()
status = "ok"
deadline = time.time() + 30
if barrier:
    release = marks + ".release." + group
    while not os.path.exists(release):
        peak = max(peak, running())
        if running(group + ".") >= barrier:
            open(release, "w").close()
            break
        if time.time() > deadline:
            status = "barrier timeout"
            break
        time.sleep(0.01)
while wait_file and not os.path.exists(wait_file):
    if time.time() > deadline:
        status = "wait timeout"
        break
    time.sleep(0.01)
# Linger a moment: a job started in excess now would be counted.
time.sleep(0.05)
peak = max(peak, running())
with open(log, "a") as f:
    f.write(json.dumps({"group": group, "name": name, "peak": peak, "status": status,
                        "makeflags": os.environ.get("MAKEFLAGS")}) + "\n")
os.unlink(marker)
'''


def wait_for(predicate, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


class Fifo:
    """A jobserver FIFO owned by the test, preloaded with `tokens` bytes."""

    def __init__(self, directory, tokens, name="fifo"):
        self.path = os.path.join(directory, name)
        os.mkfifo(self.path)
        self.read_fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        self.write_fd = os.open(self.path, os.O_WRONLY)
        self.put(tokens)

    def put(self, tokens):
        if tokens:
            os.write(self.write_fd, b"+" * tokens)

    def count(self):
        """Tokens in the pool now (read and written back)."""
        try:
            data = os.read(self.read_fd, 65536)
        except BlockingIOError:
            return 0
        os.write(self.write_fd, data)
        return len(data)

    def close(self):
        os.close(self.read_fd)
        os.close(self.write_fd)


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class JobserverTestCase(NinjaTestCase):

    def setUp(self):
        super().setUp()
        self.marks = self.path("marks")
        self.log = self.path("leaves.log")
        os.mkdir(self.marks)
        self.write("leaf.py", LEAF)

    def fifo(self, tokens):
        fifo = Fifo(self.dir, tokens)
        self.addCleanup(fifo.close)
        return fifo

    def leaf(self, group, name, barrier=0, wait_file=""):
        """The command of one leaf job (shell syntax)."""
        args = [sys.executable, self.path("leaf.py"), self.marks, self.log, group, name]
        if barrier or wait_file:
            args += [str(barrier), wait_file]
        return " ".join("'%s'" % a for a in args)

    def leaves_manifest(self, count, group="top", barrier=0, wait_file="", extra=""):
        text = "rule leaf\n  command = $cmd && touch $out\n" + extra
        for i in range(count):
            text += "build out%d: leaf\n  cmd = %s\n" % (
                i, self.leaf(group, "n%d" % i, barrier, wait_file))
        return text

    def records(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def assertPeakAtMost(self, limit, expected_leaves=None):
        records = self.records()
        if expected_leaves is not None:
            self.assertEqual(len(records), expected_leaves, records)
        self.assertTrue(records)
        self.assertEqual([r for r in records if r["status"] != "ok"], [])
        self.assertLessEqual(max(r["peak"] for r in records), limit, records)

    def popen(self, args, env=None, cwd=None):
        proc = subprocess.Popen([harness.NINJA] + list(args), cwd=cwd or self.dir,
                                env=harness.base_env(env), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        return proc


class ClientTests(JobserverTestCase):

    def test_fifo_bounds_the_build(self):
        fifo = self.fifo(2)
        self.write("build.ninja", self.leaves_manifest(8, barrier=3))
        makeflags = "-j3 --jobserver-auth=fifo:" + fifo.path
        r = self.ninja(env={"MAKEFLAGS": makeflags})
        self.assertEqual(r.returncode, 0, r)
        self.assertTrue(r.stdout.startswith("ninja: Jobserver mode detected: %s\n[1/8] " % makeflags), r.stdout)
        self.assertEqual(r.stderr, "")
        # One implicit slot + two tokens: three at once, reached and never exceeded.
        self.assertPeakAtMost(3, expected_leaves=8)
        self.assertEqual(fifo.count(), 2)

    def test_no_token_means_one_job_at_a_time(self):
        fifo = self.fifo(0)
        self.write("build.ninja", self.leaves_manifest(4))
        r = self.ninja(env={"MAKEFLAGS": "--jobserver-auth=fifo:" + fifo.path})
        self.assertEqual(r.returncode, 0, r)
        self.assertPeakAtMost(1, expected_leaves=4)
        self.assertEqual(fifo.count(), 0)

    def test_parallelism_is_not_bounded_by_the_default_j(self):
        # The pool, not the CPU count, is the limit: 7 tokens, 8 jobs at once.
        fifo = self.fifo(7)
        self.write("build.ninja", self.leaves_manifest(8, barrier=8))
        r = self.ninja(env={"MAKEFLAGS": "--jobserver-auth=fifo:" + fifo.path})
        self.assertEqual(r.returncode, 0, r)
        self.assertPeakAtMost(8, expected_leaves=8)
        self.assertEqual(fifo.count(), 7)

    def test_load_limit_still_applies(self):
        fifo = self.fifo(5)
        self.write("build.ninja", self.leaves_manifest(4))
        # A load limit below any real load: one job at a time.
        r = self.ninja("-l", "0.000001", env={"MAKEFLAGS": "--jobserver-auth=fifo:" + fifo.path})
        self.assertEqual(r.returncode, 0, r)
        self.assertPeakAtMost(1, expected_leaves=4)
        self.assertEqual(fifo.count(), 5)

    def test_tokens_returned_after_failure(self):
        for keep_going in ([], ["-k", "0"]):
            with self.subTest(keep_going=keep_going):
                fifo = Fifo(tempfile.mkdtemp(dir=self.dir), 3)
                self.addCleanup(fifo.close)
                manifest = self.leaves_manifest(6) + "build fail: leaf\n  cmd = exit 3\n"
                self.write("build.ninja", manifest)
                for f in os.listdir(self.dir):
                    if f.startswith("out") or f.startswith("marks.release"):
                        os.unlink(self.path(f))
                r = self.ninja(*keep_going, env={"MAKEFLAGS": "--jobserver-auth=fifo:" + fifo.path})
                self.assertEqual(r.returncode, 3, r)
                self.assertIn("FAILED: [code=3] fail", r.stdout)
                self.assertEqual(fifo.count(), 3)

    def test_tokens_returned_after_interrupt(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(signal=sig):
                fifo = Fifo(tempfile.mkdtemp(dir=self.dir), 3)
                self.addCleanup(fifo.close)
                for f in os.listdir(self.marks):
                    os.unlink(os.path.join(self.marks, f))
                self.write("build.ninja", self.leaves_manifest(6, wait_file=self.path("never")))
                proc = self.popen([], env={"MAKEFLAGS": "--jobserver-auth=fifo:" + fifo.path})
                # Four jobs run: the pool is empty, ninja holds all three tokens.
                self.assertTrue(wait_for(lambda: len(os.listdir(self.marks)) == 4))
                self.assertEqual(fifo.count(), 0)
                proc.send_signal(sig)
                out, err = proc.communicate(timeout=20)
                self.assertEqual(proc.returncode, 130, (out, err))
                self.assertIn(b"interrupted by user", out)
                self.assertEqual(fifo.count(), 3)

    def test_wakes_up_when_a_token_comes_free(self):
        # "first" runs until "second" has run; "second" can only start on a
        # token the test adds later, while "first" still runs.
        fifo = self.fifo(0)
        self.write("build.ninja",
                   "rule leaf\n  command = $cmd\n"
                   "build first: leaf\n  cmd = touch first.started && "
                   "while [ ! -e second ]; do sleep 0.01; done && touch first\n"
                   "build second: leaf\n  cmd = touch second\n")
        proc = self.popen([], env={"MAKEFLAGS": "--jobserver-auth=fifo:" + fifo.path})
        self.assertTrue(wait_for(lambda: self.exists("first.started")))
        # Waiting for a token is a sleep, not a busy loop.
        cpu_before = cpu_seconds(proc.pid)
        time.sleep(0.5)
        self.assertLess(cpu_seconds(proc.pid) - cpu_before, 0.25)
        self.assertFalse(self.exists("second"))
        fifo.put(1)
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, (out, err))
        self.assertEqual(fifo.count(), 1)

    def test_pipe_form_from_make(self):
        # A pipe as GNU make <= 4.3 passes it: inherited descriptors.
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        os.write(write_fd, b"++")
        self.addCleanup(os.close, read_fd)
        self.addCleanup(os.close, write_fd)
        self.write("build.ninja", self.leaves_manifest(6, barrier=3))
        makeflags = " -j3 --jobserver-auth=%d,%d" % (read_fd, write_fd)
        proc = subprocess.run([harness.NINJA], cwd=self.dir, env=harness.base_env({"MAKEFLAGS": makeflags}),
                              pass_fds=(read_fd, write_fd), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=60)
        self.assertEqual(proc.returncode, 0, proc)
        self.assertTrue(proc.stdout.decode().startswith("ninja: Jobserver mode detected: %s\n" % makeflags))
        self.assertEqual(proc.stderr, b"")
        self.assertPeakAtMost(3, expected_leaves=6)
        self.assertEqual(len(os.read(read_fd, 100)), 2)

    def test_pipe_form_with_descriptors_not_passed(self):
        # make names its pipe in MAKEFLAGS even for commands it does not pass
        # it to; then the warning, as Ninja prints it, and -j's parallelism.
        self.write("build.ninja", self.leaves_manifest(2))
        for makeflags in (" -j3 --jobserver-auth=3,4", "--jobserver-fds=3,4", "--jobserver-auth=0,1"):
            r = self.ninja(env={"MAKEFLAGS": makeflags})
            self.assertEqual(r.returncode, 0, r)
            self.assertEqual(r.stderr, "ninja: warning: Ignoring jobserver: Pipe-based protocol is not "
                                       "supported! [%s]\n" % makeflags)

    @unittest.skipUnless(MAKE, "GNU make not installed")
    def test_under_gnu_make(self):
        # make -j3 runs ninja and two leaves of its own: all share three
        # slots. Only ninja's leaves wait for each other (two groups waiting
        # could each hold a token the other needs); they can be three at
        # once only with both of make's tokens, read from make's pipe once
        # make's own leaves are done.
        os.mkdir(self.path("sub"))
        self.write("sub/build.ninja", self.leaves_manifest(6, group="ninja", barrier=3))
        self.write("Makefile",
                   "all: nested m1 m2\n"
                   "nested:\n\t+%s -C sub\n"
                   "m1 m2:\n\t%s\n" % (harness.NINJA, self.leaf("make", "$@")))
        proc = subprocess.run([MAKE, "-j3"], cwd=self.dir, env=harness.base_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=120)
        out = proc.stdout.decode()
        self.assertEqual(proc.returncode, 0, out)
        self.assertIn("ninja: Jobserver mode detected: ", out)
        self.assertNotIn("warning", out)
        self.assertPeakAtMost(3, expected_leaves=8)


class PoolTests(JobserverTestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.path("tmp")
        os.mkdir(self.tmp)

    def pool_env(self, extra=None):
        env = {"TMPDIR": self.tmp}
        env.update(extra or {})
        return env

    def test_exports_makeflags_and_cleans_up(self):
        self.write("build.ninja", "rule show\n  command = echo \"[$$MAKEFLAGS]\"; ls -l /proc/self/fd/\n"
                                  "build x: show\n")
        r = self.ninja("--jobserver-pool", "-j3", env=self.pool_env({"MAKEFLAGS": "k -j9 --no-print-directory"}))
        self.assertEqual(r.returncode, 0, r)
        self.assertRegex(r.stdout, r"\[k -j3 --jobserver-auth=fifo:%s/ninja-jobserver-\d+-\d+ "
                                   r"--jobserver-aut=(\d+),(\d+) --no-print-directory\]" % re.escape(self.tmp))
        # The commands inherit both descriptors, on the FIFO.
        fifo = r.stdout.split("fifo:")[1].split()[0]
        read_fd, write_fd = r.stdout.split("--jobserver-aut=")[1].split()[0].split(",")
        self.assertRegex(r.stdout, r" %s -> %s\n" % (read_fd, re.escape(fifo)))
        self.assertRegex(r.stdout, r" %s -> %s\n" % (write_fd, re.escape(fifo)))
        self.assertEqual(os.listdir(self.tmp), [])

    def test_listed_only_among_ronin_options(self):
        # Ninja's part of -h is Ninja's text; the option is in ronin's block.
        r = self.ninja("-h")
        self.assertNotIn("jobserver", harness.strip_ronin_usage(r.stderr))
        self.assertRegex(harness.RONIN_USAGE_RE.search(r.stderr).group(0), r"\n  --jobserver-pool ")

    def test_a_pool_that_cannot_be_made_is_named_with_its_reason(self):
        self.write("build.ninja", "rule show\n  command = echo \"[$$MAKEFLAGS]\"\nbuild x: show\n")
        missing = self.path("no-such-dir")
        r = self.ninja("--jobserver-pool", "-j3", env={"TMPDIR": missing})
        self.assertEqual(r.returncode, 0, r)
        self.assertRegex(r.stderr, r"^ninja: warning: Could not create jobserver pool: mkfifo %s/ninja-jobserver-\d+-\d+: "
                                   r"No such file or directory; building with -j 3 alone\n$" % re.escape(missing))
        self.assertIn("[]", r.stdout)

    def test_no_pool_for_a_dry_run(self):
        self.write("build.ninja", "rule show\n  command = touch $out\nbuild x: show\n")
        r = self.ninja("--jobserver-pool", "-n", env=self.pool_env())
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(r.stdout, "[1/1] touch x\n")

    def test_joins_an_outer_jobserver_without_j(self):
        # Like a sub-make: without -j, the pool of the make (or ninja) above wins.
        fifo = self.fifo(1)
        self.write("build.ninja", self.leaves_manifest(4, barrier=2) +
                   "rule show\n  command = echo \"[$$MAKEFLAGS]\" > $out\nbuild flags: show\n")
        makeflags = "--jobserver-auth=fifo:" + fifo.path
        r = self.ninja("--jobserver-pool", env=self.pool_env({"MAKEFLAGS": makeflags}))
        self.assertEqual(r.returncode, 0, r)
        self.assertTrue(r.stdout.startswith("ninja: Jobserver mode detected: "), r.stdout)
        self.assertEqual(self.read("flags"), "[%s]\n" % makeflags)
        self.assertPeakAtMost(2, expected_leaves=4)
        self.assertEqual(fifo.count(), 1)
        # With -j, a pool of its own (make's "-jN forced in submake").
        os.unlink(self.path("flags"))
        r = self.ninja("--jobserver-pool", "-j2", "flags", env=self.pool_env({"MAKEFLAGS": makeflags}))
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("--jobserver-auth=fifo:%s/" % self.tmp, self.read("flags"))

    def test_own_jobs_bounded_by_the_pool(self):
        self.write("build.ninja", self.leaves_manifest(8, barrier=3))
        r = self.ninja("--jobserver-pool", "-j3", env=self.pool_env())
        self.assertEqual(r.returncode, 0, r)
        self.assertNotIn("Jobserver", r.stdout)
        self.assertPeakAtMost(3, expected_leaves=8)
        self.assertEqual(os.listdir(self.tmp), [])

    def nested_manifest(self, commands):
        """Top-level leaves plus one edge per nested command."""
        extra = "rule nested\n  command = $cmd\n"
        for i, command in enumerate(commands):
            extra += "build nested%d: nested\n  cmd = %s\n" % (i, command)
        return self.leaves_manifest(6, extra=extra)

    def nested_ninja_tree(self, name, group, barrier=2):
        os.mkdir(self.path(name))
        self.write(name + "/build.ninja", self.leaves_manifest(5, group=group, barrier=barrier))

    @unittest.skipUnless(MAKE, "GNU make not installed")
    def test_nested_make_and_ninja_share_the_limit(self):
        os.mkdir(self.path("mk"))
        names = " ".join("m%d" % i for i in range(5))
        self.write("mk/Makefile", "all: %s\n%s:\n\t%s\n" % (names, names, self.leaf("make", "$@", barrier=2)))
        self.nested_ninja_tree("sub", "ours")
        self.write("build.ninja", self.nested_manifest([
            "%s -C mk > make.out 2>&1" % MAKE,
            "%s -C sub > ours.out 2>&1" % harness.NINJA]))
        r = self.ninja("--jobserver-pool", "-j4", env=self.pool_env())
        self.assertEqual(r.returncode, 0, (r, self.read("make.out"), self.read("ours.out")))
        # Each nested tool ran two jobs at once (so took a token from the
        # pool: alone they would run one, or their own -j), and all together
        # never more than -j4.
        self.assertPeakAtMost(4, expected_leaves=16)
        self.assertNotIn("warning", self.read("make.out"))
        self.assertIn("ninja: Jobserver mode detected: -j4 --jobserver-auth=fifo:", self.read("ours.out"))
        # make read the pipe form and passed it on in its own words.
        make_flags = {r["makeflags"] for r in self.records() if r["group"] == "make"}
        self.assertEqual(len(make_flags), 1)
        self.assertRegex(make_flags.pop(), r"-j4 --jobserver-auth=\d+,\d+$")
        self.assertEqual(os.listdir(self.tmp), [])

    @unittest.skipUnless(harness.REF_NINJA, harness.SKIP_NO_REF)
    def test_nested_reference_ninja_shares_the_limit(self):
        # No barrier: Ninja 1.13 looks for a token only when one of its own
        # jobs ends, so its first job must not wait for a second one.
        self.nested_ninja_tree("ref", "ref", barrier=0)
        self.nested_ninja_tree("sub", "ours")
        self.write("build.ninja", self.nested_manifest([
            "%s -C ref > ref.out 2>&1" % harness.REF_NINJA,
            "%s -C sub > ours.out 2>&1" % harness.NINJA]))
        r = self.ninja("--jobserver-pool", "-j3", env=self.pool_env())
        self.assertEqual(r.returncode, 0, (r, self.read("ref.out"), self.read("ours.out")))
        self.assertPeakAtMost(3, expected_leaves=16)
        self.assertIn("ninja: Jobserver mode detected: -j3 --jobserver-auth=fifo:", self.read("ref.out"))
        self.assertNotIn("warning", self.read("ref.out"))
        self.assertEqual(os.listdir(self.tmp), [])

    def test_fifo_removed_after_interrupt_and_failure(self):
        self.write("build.ninja", self.leaves_manifest(4, wait_file=self.path("never")))
        proc = self.popen(["--jobserver-pool", "-j3"], env=self.pool_env())
        self.assertTrue(wait_for(lambda: len(os.listdir(self.marks)) == 3))
        fifos = os.listdir(self.tmp)
        self.assertEqual(len(fifos), 1)
        self.assertTrue(stat.S_ISFIFO(os.stat(os.path.join(self.tmp, fifos[0])).st_mode))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        self.assertEqual(proc.returncode, 130, (out, err))
        self.assertEqual(os.listdir(self.tmp), [])

        self.write("build.ninja", "rule fail\n  command = exit 2\nbuild x: fail\n")
        r = self.ninja("--jobserver-pool", "-j3", env=self.pool_env())
        self.assertEqual(r.returncode, 2, r)
        self.assertEqual(os.listdir(self.tmp), [])


@unittest.skipUnless(harness.REF_NINJA, harness.SKIP_NO_REF)
class DifferentialTests(harness.DifferentialTestCase):
    """The client's messages, against ninja 1.13.2."""

    def setUp(self):
        super().setUp()
        self.fifo_dir = tempfile.mkdtemp(prefix="ronin-fifo-")
        self.addCleanup(shutil.rmtree, self.fifo_dir, True)
        self.fifo = Fifo(self.fifo_dir, 2)
        self.addCleanup(self.fifo.close)
        # One command: the order in which parallel ones finish would differ.
        self.write("build.ninja", "rule touch\n  command = touch $out\nbuild a: touch\n")

    def test_messages(self):
        fifo = self.fifo.path
        regular = os.path.join(self.fifo_dir, "regular")
        open(regular, "w").close()
        cases = [
            "--jobserver-auth=fifo:" + fifo,
            "-j4 --jobserver-auth=fifo:" + fifo,
            "k --jobserver-auth=fifo:" + fifo + " -- FOO=n",
            "--jobserver-auth=fifo:",
            "--jobserver-auth=fifo:" + regular,
            "--jobserver-auth=fifo:" + self.fifo_dir,
            "--jobserver-auth=fifo:" + fifo + "/x",
            "--jobserver-auth=fifo:/dev/null",
            "--jobserver-auth=fifo:" + os.path.join(self.fifo_dir, "missing"),
            "--jobserver-auth=foo",
            "--jobserver-auth=",
            "--jobserver-auth=3,x",
            "--jobserver-auth=-1,-1",
            "--jobserver-fds=foo",
            "--jobserver-fds=foo --jobserver-auth=fifo:" + fifo,
            "--jobserver-auth=fifo:%s --jobserver-auth=-1,-1" % fifo,
            "--jobserver-auth=foo --jobserver-auth=fifo:" + fifo,
            # Descriptors that are not open: Ninja's warning from both.
            "--jobserver-auth=3,4",
            "--jobserver-fds=3,4",
            "n --jobserver-auth=fifo:" + fifo,
            "kn --jobserver-fds=foo",
            "",
            "--jobserver-auth=fifo:%s\t" % fifo,
        ]
        for makeflags in cases:
            for args in ([], ["--quiet"], ["-j2"], ["-n"], ["-v"]):
                with self.subTest(makeflags=makeflags, args=args):
                    self.both(lambda root: [os.unlink(os.path.join(root, f)) for f in os.listdir(root)
                                            if f in ("a", ".ninja_log")])
                    self.assertSameRun(*args, env={"MAKEFLAGS": makeflags})
        self.assertEqual(self.fifo.count(), 2)

    def test_no_work_and_unknown_target(self):
        env = {"MAKEFLAGS": "--jobserver-auth=fifo:" + self.fifo.path}
        self.assertSameRun(env=env)
        self.assertSameRun(env=env)  # ninja: no work to do.
        self.assertSameRun("nonexistent", env=env)
        self.assertSameRun("-C", ".", env=env)

    def test_pipe_form_each_binary_its_own_way(self):
        # A deliberate difference: ronin uses make <= 4.3's pipe, Ninja warns.
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        os.write(write_fd, b"+")
        self.addCleanup(os.close, read_fd)
        self.addCleanup(os.close, write_fd)
        makeflags = " -j2 --jobserver-auth=%d,%d" % (read_fd, write_fd)
        results = {}
        for name, binary, root in (("ours", harness.NINJA, self.ours_dir), ("ref", harness.REF_NINJA, self.ref_dir)):
            results[name] = subprocess.run([binary], cwd=root, env=harness.base_env({"MAKEFLAGS": makeflags}),
                                           pass_fds=(read_fd, write_fd), stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(results["ours"].returncode, 0)
        self.assertEqual(results["ours"].stdout.decode().splitlines()[0],
                         "ninja: Jobserver mode detected: " + makeflags)
        self.assertEqual(results["ours"].stderr, b"")
        self.assertEqual(results["ref"].returncode, 0)
        self.assertEqual(results["ref"].stderr.decode(),
                         "ninja: warning: Ignoring jobserver: Pipe-based protocol is not supported! [%s]\n"
                         % makeflags)
        self.assertEqual(len(os.read(read_fd, 10)), 1)


if __name__ == "__main__":
    harness.main()
