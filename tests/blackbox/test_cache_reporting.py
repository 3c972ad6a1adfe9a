"""What --cache tells about itself (src/status/cache_counts.h, src/status/status.cc's %C,
src/status/live_status.cc's cache row, -d stats, -t trace and -t report's marks), and
that none of it shows, or changes Ninja's behaviour, without --cache.

The commands are shell one-liners that write a depfile, so they are
cacheable by default without a compiler."""

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time
import unittest

from harness import NINJA, NinjaTestCase, REF_NINJA, base_env, run

# Two cacheable commands; `slow` waits for a file named `go` (the live
# view's test creates it once it has seen the block), others run at once.
# (`wait` is `true &&` unless an edge sets it: a command line must not start with a blank,
# which CreateProcess would refuse on Windows.)
BUILD = """wait = true &&
rule w
  command = $wait cp $in $out && echo "$out: $in" > $out.d
  depfile = $out.d
  deps = gcc
build a: w a.in
build b: w b.in
"""


def prefixes(result):
    """The status part of each status line."""
    return [line[:line.index("]") + 1] for line in result.stdout.splitlines() if line.startswith("[")]


class CacheReportingTest(NinjaTestCase):
    def setUp(self):
        super().setUp()
        self.write("build.ninja", BUILD)
        self.write("a.in", "a\n")
        self.write("b.in", "b\n")
        self.cache = "--cache=" + self.cache_spec()

    def cache_spec(self):
        """What --cache names: a directory here (a subclass may serve the cache over HTTP)."""
        return self.path("cache")

    def clean(self):
        for name in ("a", "b", ".ninja_log", ".ninja_deps"):
            if self.exists(name):
                os.remove(self.path(name))

    def build(self, *args, env=None):
        result = self.ninja(*args, env=env)
        self.assertEqual(result.returncode, 0, result)
        return result

    def test_status_placeholder_counts_hits_of_lookups(self):
        status = {"NINJA_STATUS": "[%C %f] "}
        first = self.build(self.cache, "-j1", env=status)
        self.assertEqual(["[0/1 1]", "[0/2 2]"], prefixes(first))
        self.clean()
        second = self.build(self.cache, "-j1", env=status)
        # Hits take no slot: both may be restored before the first line.
        self.assertEqual("[2/2 2]", prefixes(second)[-1])
        for prefix in prefixes(second):
            self.assertRegex(prefix, r"^\[(\d)/\1 \d\]$")
        # -n opens no cache, but the placeholder is still known.
        self.clean()
        dry = self.build(self.cache, "-n", "-j1", env=status)
        self.assertIn("[0/0 1] ", dry.stdout)

    def test_status_placeholder_without_cache_is_ninjas_unknown_one(self):
        status = {"NINJA_STATUS": "[%C %f] "}
        result = self.ninja("-j1", env=status)
        self.assertEqual(1, result.returncode, result)
        self.assertIn("ninja: fatal: unknown placeholder '%C' in $NINJA_STATUS", result.stderr)
        if REF_NINJA:
            self.clean()
            for name in ("a.d", "b.d"):
                if self.exists(name):
                    os.remove(self.path(name))
            reference = self.reference("-j1", env=status)
            self.assertEqual((reference.returncode, reference.stdout, reference.stderr),
                             (result.returncode, result.stdout, result.stderr))

    def test_stats_line(self):
        first = self.build(self.cache, "-d", "stats")
        self.assertIn("build cache: 0 hits, 2 misses, 0 bytes restored, 4 bytes stored", first.stdout)
        self.clean()
        second = self.build(self.cache, "-d", "stats")
        self.assertIn("build cache: 2 hits, 0 misses, 4 bytes restored, 0 bytes stored", second.stdout)

    def test_trace_and_report_mark_restored_commands(self):
        self.build(self.cache)
        self.clean()
        self.build(self.cache, "-d", "stats")
        trace = self.ninja("-t", "trace").stdout
        self.assertEqual(2, trace.count('"cached":true'), trace)
        self.assertEqual(0, self.ninja("-t", "report", "-o", "r.html").returncode)
        report = self.read("r.html")
        self.assertIn("<dt>Restored from the build cache</dt><dd>2 commands</dd>", report)
        for name in ("a", "b"):
            self.assertIn('<td class="path">%s<span class="cached"' % name, report)

    def test_mark_does_not_outlive_the_restore(self):
        # Restored, then run by a build without --cache: the log line is the
        # later run's, and nothing says it came from the cache any more.
        self.build(self.cache)
        self.clean()
        self.build(self.cache)
        self.clean()
        # (Commands that take a while: the plain runs' log times cannot be
        # the restores'.)
        self.write("build.ninja", BUILD.replace("$wait", "sleep 0.1;"))
        self.build()
        self.assertNotIn('"cached"', self.ninja("-t", "trace").stdout)
        self.assertEqual(0, self.ninja("-t", "report", "-o", "r.html").returncode)
        report = self.read("r.html")
        self.assertNotIn('<span class="cached"', report)
        self.assertNotIn("Restored from the build cache", report)
        # A --cache build that runs it (a miss) clears it too.
        self.build(self.cache)
        self.write("a.in", "a2\n")
        self.build(self.cache)
        self.assertNotIn('"cached"', self.ninja("-t", "trace").stdout)

    def test_live_view_shows_the_counts(self):
        # a is restored, b (changed input: a miss) waits for `go` while the
        # test watches the block below the status line.
        self.build(self.cache)
        self.clean()
        self.write("b.in", "b2\n")
        self.write("build.ninja", BUILD.replace("build b: w b.in", "build b: w b.in\n  wait = "
                                                "while [ ! -e go ]; do sleep 0.02; done;"))
        screen = self.run_live_until("build cache: 1 hit, 1 miss", then=lambda: self.write("go", ""))
        self.assertIn("build cache: 1 hit, 1 miss", screen)
        self.assertTrue(self.exists("b"))

    def run_live_until(self, text, then, timeout=60):
        """Runs a --progress=live build on a pty; once `text` is on it, calls `then`."""
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        proc = subprocess.Popen([NINJA, self.cache, "-j2", "--progress=live"], cwd=self.dir,
                                env=base_env({"TERM": "xterm"}), stdin=subprocess.DEVNULL,
                                stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        seen, called = b"", False
        deadline = time.time() + timeout
        try:
            while time.time() < deadline:
                ready, _, _ = select.select([master], [], [], 0.1)
                if ready:
                    try:
                        data = os.read(master, 65536)
                    except OSError:
                        data = b""
                    if not data:
                        break
                    seen += data
                if not called and text.encode() in seen:
                    then()
                    called = True
        finally:
            if proc.poll() is None and not called:
                proc.kill()
            proc.wait(timeout=timeout)
            os.close(master)
        self.assertEqual(0, proc.returncode, seen)
        return seen.decode("utf-8", "replace")


if __name__ == "__main__":
    unittest.main(verbosity=2)
