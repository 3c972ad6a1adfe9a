"""A command inherits only what it needs (issue 27 item 4, exec/subprocess_win.cc), under wine.

Each command is tests/win/helpers/handles.c, which writes down every inheritable handle it holds
beyond its standard ones. Built by ronin's ninja.exe at -j16 (so that most commands start on
spawner threads while others are starting and running), every command holds none: not ninja's
own standard handles, not its build log or deps log, not another command's pipe. ninja.exe 1.13.2
lets a command inherit every inheritable handle it has: its own standard handles show up in each
of its commands (recorded below). Nothing that reaches a command through its standard handles
changes: test_win_scenarios and test_win_diff compare that with ninja.exe.

    NINJA_WIN=<ours.exe> [REF_NINJA_WIN=<ninja 1.13.2 .exe>] python3 -m unittest -v test_win_handles
"""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wine  # noqa: E402
from harness import write_tree  # noqa: E402

COMMANDS = 16


def manifest():
    lines = ["rule handles", "  command = handles $out", ""]
    # A first wave, then a second one after it, so that the build log is open and written to.
    lines += ["build wave1/%d: handles" % i for i in range(COMMANDS)]
    lines += ["build wave2/%d: handles | %s" % (i, " ".join("wave1/%d" % j for j in range(COMMANDS)))
              for i in range(COMMANDS)]
    return "\n".join(lines) + "\n"


class WinHandlesTest(wine.wine_failures.RerunAfterWineFailure, unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.ours, cls.wine = wine.ninja_win_and_session()

    def build(self, binary):
        root = tempfile.mkdtemp(prefix="ronin-win-handles-")
        self.addCleanup(shutil.rmtree, root, True)
        write_tree(root, {"build.ninja": manifest()})
        r = self.wine.run(binary, ["-j16"], root, timeout=300, roots=(root,))
        self.assertEqual(r.returncode, 0, r)
        seen = {}
        for wave in ("wave1", "wave2"):
            for i in range(COMMANDS):
                with open(os.path.join(root, wave, str(i))) as f:
                    seen["%s/%d" % (wave, i)] = f.read().split("\n")[:-1]
        return seen

    def test_a_command_inherits_nothing_beyond_its_standard_handles(self):
        seen = self.build(self.ours)
        self.assertEqual({out: lines for out, lines in seen.items() if lines != ["none"]}, {})

    def test_ninja_1_13_2_lets_its_commands_inherit_its_own_handles(self):
        # Recorded: each command of ninja.exe 1.13.2 holds ninja.exe's standard handles (here a
        # console or device, and the pipes or files the harness gave it); never a log: it makes
        # them not inheritable, as ronin does.
        seen = self.build(wine.reference_ninja_win())
        for out, lines in seen.items():
            self.assertNotEqual(lines, ["none"], out)
            self.assertFalse([line for line in lines if line.startswith("file .ninja")], (out, lines))


if __name__ == "__main__":
    unittest.main()
