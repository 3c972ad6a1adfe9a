"""Commands inherit no descriptor of ninja's own (src/exec/subprocess.h).

Every file ninja holds open while commands run (.ninja_log, .ninja_deps,
the build directory's lock, .ronin_state, the job reaper's socket, the
cache, the jobs' pipes) is opened close-on-exec; a command sees standard
input, output and error only. (Descriptors ninja itself was given without
close-on-exec, like GNU make's jobserver pipe, are passed on, as by Ninja:
tests/unit/subprocess_test.cc covers that.) Each command lists its own
descriptors with `ls /proc/self/fd`, which adds the one ls opens to read
the listing: 3, the lowest free one, when nothing leaked.
"""

import os
import unittest

from harness import NinjaTestCase

MANIFEST = """\
rule direct
  command = ls /proc/self/fd
rule shell
  command = ls /proc/self/fd > $out
rule console
  command = ls /proc/self/fd > $out
  pool = console
rule depfile
  command = ls /proc/self/fd > $out && echo "$out: in" > $out.d
  deps = gcc
  depfile = $out.d
build printed: direct
build through_shell: shell in
build on_console: console in
build with_deps: depfile in
build all: phony printed through_shell on_console with_deps
"""

ONLY_STANDARD = ["0", "1", "2", "3"]


@unittest.skipUnless(os.path.isdir("/proc/self/fd"), "needs /proc/self/fd (Linux)")
class CommandDescriptorTests(NinjaTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)
        self.write("in", "")

    def assert_only_standard_descriptors(self, *options):
        r = self.ninja("-j4", *options, "all")
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("\n0\n1\n2\n3\n", r.stdout)  # the printed listing
        self.assertNotIn("\n4\n", r.stdout)
        for output in ("through_shell", "on_console", "with_deps"):
            self.assertEqual(self.read(output).split(), ONLY_STANDARD, output)

    def test_a_plain_build(self):
        self.assert_only_standard_descriptors()
        # Again with .ninja_log and .ninja_deps loaded and open for appending.
        self.ninja("-t", "clean")
        self.assert_only_standard_descriptors()

    def test_with_ronins_own_files_open(self):
        self.assert_only_standard_descriptors("--content-hash", "--cache=" + self.path("cache"),
                                              "--keep-free-memory=1M", "--job-reaper=on")
        self.ninja("-t", "clean")
        self.assert_only_standard_descriptors("--content-hash", "--cache=" + self.path("cache"))


if __name__ == "__main__":
    unittest.main()
