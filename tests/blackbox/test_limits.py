"""Resource exhaustion and expansion bombs (src/exec/spawn_retry.h, kMaxValueSize
in src/graph/eval.h): a build under a low descriptor or process limit keeps going
with one warning; a value that explodes is an error, not gigabytes; a
command too long for the system fails its edge (as -k allows), naming it
and suggesting an rspfile."""

import os
import shutil
import subprocess
import unittest

import harness
from harness import NinjaTestCase


def many_edges(count, command):
    lines = ["rule r\n  command = %s\n" % command]
    lines += ["build o%d: r\n" % i for i in range(count)]
    return "".join(lines)


def doubling_bomb(levels):
    lines = ["v0 = " + "x" * 64]
    lines += ["v%d = $v%d$v%d" % (i, i - 1, i - 1) for i in range(1, levels + 1)]
    return "\n".join(lines) + "\nrule r\n  command = echo $v%d > $out\nbuild a: r\n" % levels


class SpawnLimitTests(NinjaTestCase):

    def ninja_limited(self, limits, *args, env=None):
        """ninja under bash's `ulimit` settings (a string such as "-n 256")."""
        script = "ulimit %s && exec \"$0\" \"$@\"" % limits
        return harness.run("bash", ["-c", script, harness.NINJA] + list(args), self.dir, env=env)

    def test_few_descriptors_and_many_jobs_finish_with_one_warning(self):
        # Each job holds a pipe: 1000 jobs cannot all run under 256 descriptors.
        # A leaked descriptor per failed start would end the build with an error.
        self.write("build.ninja", many_edges(700, "echo $out > $out; exec sleep 0.1"))
        r = self.ninja_limited("-n 256", "-j1000")
        self.assertEqual(r.returncode, 0, r.stderr)
        warnings = [line for line in r.stderr.splitlines() if line.startswith("ninja: warning:")]
        self.assertEqual(len(warnings), 1, r.stderr)
        self.assertIn("Too many open files", warnings[0])
        self.assertNotIn("posix_spawn", r.stderr)
        for i in range(700):
            self.assertEqual(self.read("o%d" % i), "o%d\n" % i)
        self.assertEqual(self.ninja().stdout, "ninja: no work to do.\n")

    def test_no_descriptor_for_even_one_job_is_an_error(self):
        if harness.SANITIZED:
            self.skipTest(harness.SKIP_NO_PRIVILEGE + "not under ASan/UBSan, whose runtimes need descriptors of their own under ulimit -n 5")
        self.write("build.ninja", many_edges(2, "echo $out > $out"))
        # An image of any size, so that its writer would be there.
        r = self.ninja_limited("-n 5", "-j4", env={"RONIN_GRAPH_IMAGE": "1"})
        self.assertEqual(r.returncode, 1, r)
        # With no job to wait for, the edge fails as a failed command does.
        self.assertIn("\nninja: error: cannot start the command for 'o", r.stdout)
        self.assertIn("Too many open files", r.stdout)
        self.assertTrue(r.stdout.endswith("ninja: build stopped: subcommand failed.\n"), r.stdout[-300:])
        # The graph image's writer left the build its few descriptors.
        self.assertFalse(os.path.exists(os.path.join(self.dir, ".ronin_graph")))

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("setpriv"),
                         harness.SKIP_NO_PRIVILEGE + "root and setpriv, to run under RLIMIT_NPROC as another user")
    def test_few_processes_and_many_jobs_finish_with_one_warning(self):
        # Root ignores RLIMIT_NPROC: the build runs as nobody. The commands
        # fork nothing themselves (exec), so only ninja meets the limit.
        os.chmod(self.dir, 0o777)
        self.write("build.ninja", many_edges(200, "echo $out > $out; exec sleep 0.1"))
        script = "ulimit -u 40 && exec \"$0\" -j200"
        r = harness.run("setpriv", ["--reuid", "65534", "--regid", "65534", "--clear-groups", "bash", "-c",
                                    script, harness.NINJA], self.dir)
        if "Permission denied" in r.stderr:
            self.skipTest(harness.SKIP_NO_PRIVILEGE + "nobody cannot run the binary here: " + r.stderr)
        self.assertEqual(r.returncode, 0, r.stderr)
        warnings = [line for line in r.stderr.splitlines() if line.startswith("ninja: warning:")]
        self.assertEqual(len(warnings), 1, r.stderr)
        self.assertEqual(self.ninja().stdout, "ninja: no work to do.\n")

    def test_command_longer_than_the_system_takes_names_the_edge(self):
        self.write("build.ninja", "rule r\n  command = echo %s > $out\nbuild big: r\n" % ("x" * 300000))
        r = self.ninja()
        self.assertEqual(r.returncode, 1, r.stderr[:500])
        # A failed edge: its FAILED block carries the message.
        self.assertIn("FAILED: [code=1] big \n", r.stdout)
        self.assertRegex(r.stdout, r"\nninja: error: cannot start the command for 'big': it is \d+ bytes long, "
                                   r"more than the system takes .*; pass long argument lists in an rspfile\n")
        self.assertTrue(r.stdout.endswith("ninja: build stopped: subcommand failed.\n"), r.stdout[-300:])
        self.assertEqual(r.stderr, "")

    def test_keep_going_past_a_command_that_cannot_start(self):
        # -k 0: the over-long command fails its edge, every other edge is
        # built, what needs the failed one is not, and the exit status is 1.
        self.write("build.ninja", "rule r\n  command = echo $text > $out\n"
                                  "build big: r\n  text = %s\n"
                                  "build a: r\n  text = a\nbuild b: r\n  text = b\nbuild c: r\n  text = c\n"
                                  "build after_big: r big\n  text = after\n" % ("x" * 300000))
        r = self.ninja("-k", "0", "-j2")
        self.assertEqual(r.returncode, 1, r.stdout[-500:])
        for name in "abc":
            self.assertEqual(self.read(name), name + "\n")
        self.assertFalse(self.exists("big"))
        self.assertFalse(self.exists("after_big"))
        self.assertEqual(1, r.stdout.count("cannot start the command for 'big'"))
        self.assertTrue(r.stdout.endswith("ninja: build stopped: cannot make progress due to previous errors.\n"),
                        r.stdout[-300:])
        # The next build tries it again, and only it: the rest is up to date.
        again = self.ninja("-k", "0")
        self.assertEqual(again.returncode, 1)
        self.assertEqual(1, again.stdout.count("FAILED: "))
        self.assertNotIn("] echo a", again.stdout)


class ExpansionBombTests(NinjaTestCase):

    def test_doubling_variable_is_an_error_with_bounded_memory(self):
        # 30 doublings of 64 bytes would be 64 GiB; under a 1 GiB address
        # space only an early stop gets to print the error.
        self.write("build.ninja", doubling_bomb(30))
        # ASan reserves terabytes of shadow address space, so a sanitized
        # binary cannot run under ulimit -v; there only the error is checked.
        limit = "" if harness.SANITIZED else "ulimit -v 1048576 && "
        script = limit + "exec \"$0\" \"$@\""
        r = harness.run("bash", ["-c", script, harness.NINJA, "-n"], self.dir)
        self.assertEqual(r.returncode, 1, r)
        self.assertRegex(r.stderr, r"^ninja: error: build\.ninja:\d+: value of variable 'v21' is longer than 64 MiB")

    def test_bomb_in_an_edge_binding_names_the_variable(self):
        self.write("build.ninja", doubling_bomb(19) + "build b: r\n  w = $v19$v19$v19$v19$v19\n")
        r = self.ninja("-n")
        self.assertEqual(r.returncode, 1, r)
        self.assertIn("value of variable 'w' is longer than 64 MiB", r.stderr)

    def test_command_that_grows_at_build_time_names_the_edge(self):
        # Each value is small in the manifest; the rule's own bindings
        # multiply it only when the command is evaluated.
        self.write("build.ninja", doubling_bomb(19) +
                   "rule big\n  description = $v19$v19$v19$v19\n"
                   "  command = echo $description$description$description > $out\nbuild c: big\n")
        r = self.ninja("c")
        self.assertEqual(r.returncode, 1, r.stderr[:500])
        self.assertIn("ninja: error: the command for 'c' is longer than 64 MiB", r.stderr)


if __name__ == "__main__":
    unittest.main()
