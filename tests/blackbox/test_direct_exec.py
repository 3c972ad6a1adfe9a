"""Skipping the shell (beyond ninja): commands without shell syntax are
spawned directly instead of through /bin/sh -c. The results must be
indistinguishable from the shell's: same output, exit codes, "not found"
messages, signals. Only the process tree differs (ninja is the parent)."""

import os
import unittest

import harness
from harness import DifferentialTestCase, NinjaTestCase

SHOW_PARENT = "#!/bin/sh\ncat /proc/$PPID/comm > $1\n"


class DirectExecTests(NinjaTestCase):

    def setUp(self):
        super().setUp()
        self.write("showparent", SHOW_PARENT)
        os.chmod(self.path("showparent"), 0o755)
        self.write("build.ninja", "rule r\n  command = ./showparent $out\nbuild parent: r\n")

    def test_simple_command_runs_without_a_shell(self):
        r = self.ninja()
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(self.read("parent"), "ninja\n")

    def test_switched_off_with_environment_variable(self):
        r = self.ninja(env={"RONIN_SKIP_SHELL": "0"})
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(self.read("parent"), "sh\n")

    def test_shell_syntax_still_uses_the_shell(self):
        self.write("build.ninja", "rule r\n  command = ./showparent $out; true\nbuild parent: r\n")
        self.assertEqual(self.ninja().returncode, 0)
        self.assertEqual(self.read("parent"), "sh\n")


# Each command runs in both binaries; everything observable must match.
COMMANDS = [
    "touch $out",
    "cp src $out",
    "nosuchprogram arg",
    "./notexecutable",
    "./adir",
    "./script_with_shebang $out",
    "./script_without_shebang",
    "/nonexistent/tool",
    "sh -c 'exit 7'",
    "sh -c 'kill -9 $$$$'",
    "sh -c 'kill -TERM $$$$'",
    "false",
    "echo -e 'a\\tb'",
    "printf '%s\\n' x > $out",
    "env X=1 sh -c 'echo $$X' > $out",
    "ls -d s*",
    "cat src src",
    "cat nosuchfile",
    "LC_ALL=C printf hi",
    "test -f src",
    "expr 1 + 1",
]


class DirectExecDifferentialTests(DifferentialTestCase):

    def setUp(self):
        super().setUp()
        files = {
            "src": "data\n",
            "notexecutable": "#!/bin/sh\necho x\n",
            "script_with_shebang": "#!/bin/sh\necho shebang > $1\n",
            "script_without_shebang": "echo no shebang\n",
            "adir/keep": "",
        }
        self.write_files(files)
        for root in (self.ours_dir, self.ref_dir):
            os.chmod(os.path.join(root, "script_with_shebang"), 0o755)
            os.chmod(os.path.join(root, "script_without_shebang"), 0o755)

    def test_commands_behave_as_under_the_shell(self):
        for i, command in enumerate(COMMANDS):
            with self.subTest(command=command):
                self.write("build.ninja", "rule r\n  command = %s\nbuild out%d: r\n" % (command, i))
                self.assertSameRun("-j1")


if __name__ == "__main__":
    unittest.main()
