"""The Windows tests' own programs (tests/win/helpers/), run as the scenarios run them: as the
command of an edge of the reference ninja.exe under wine (wine.py). What wsh.c's header
promises about its language and builtins, and fakecl's /showIncludes lines, must hold, or
the differential scenarios would compare two runs of a helper's bug.

    python3 -m unittest -v test_win_helpers
"""

import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wine  # noqa: E402
from harness import write_tree  # noqa: E402

_FAILED = re.compile(r"FAILED: \[code=(\d+)\] out \r?\n.*?\r?\n(.*)ninja: build stopped", re.S)


class WinHelpersTest(wine.wine_failures.RerunAfterWineFailure, unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.wine = wine.session()
        cls.ninja = wine.reference_ninja_win()

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ronin-helpers-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def command(self, script, files=None):
        """Runs script as an edge's command: (exit code, what it printed)."""
        write_tree(self.dir, dict(files or {}, **{"build.ninja": "rule r\n  command = %s\nbuild out: r\n" % script}))
        r = self.wine.run(self.ninja, ["--quiet", "-j1", "out"], self.dir, roots=(self.dir,))
        failed = _FAILED.search(r.stdout)
        if failed:
            return int(failed.group(1)), failed.group(2)
        self.assertEqual(r.returncode, 0, r)
        return 0, r.stdout

    def read(self, rel):
        with open(os.path.join(self.dir, rel), "rb") as f:
            return f.read()

    def test_echo_and_windows_quoting(self):
        self.assertEqual(self.command('echo a  "b c" \'d  e\' x\\y "q\\"uote" 2\\\\"" end'),
                         (0, 'a b c d  e x\\y q"uote 2\\ end\n'))
        self.assertEqual(self.command('echo -n ""; echo'), (0, "\n"))

    def test_lists_and_status(self):
        self.assertEqual(self.command("false && echo no || echo yes; true || echo no; echo done"),
                         (0, "yes\ndone\n"))
        self.assertEqual(self.command("echo one; exit 3; echo never"), (3, "one\n"))
        self.assertEqual(self.command("exit 300"), (300, ""))
        self.assertEqual(self.command("echo hi # a comment"), (0, "hi\n"))

    def test_redirections(self):
        self.assertEqual(self.command("echo a > f; echo b >> f; cat < f; echo err >&2; cat missing 2> e; cat e"),
                         (0, "a\nb\nerr\ncat: missing: No such file or directory\n"))
        self.assertEqual(self.read("f"), b"a\nb\n")
        self.assertEqual(self.command("echo x > nodir/f"), (2, "wsh: cannot create nodir/f: Directory nonexistent\n"))

    def test_printf_reuses_its_format(self):
        self.assertEqual(self.command("printf '%s=%d|' a 1 b 0x10 c; printf '\\101\\n%%\\t.\\n'"),
                         (0, "a=1|b=16|c=0|A\n%\t.\n"))

    def test_files(self):
        self.assertEqual(self.command("mkdir -p d/e\\f; touch d/e/f/t; cp d/e/f/t c; cmp -s in c || echo differ; "
                                      "cmp -s c d/e/f/t && echo same; grep -q needle in && echo found; rm c; cat c",
                                      {"in": "a needle\n"}),
                         (1, "differ\nsame\nfound\ncat: c: No such file or directory\n"))
        self.assertEqual(self.read("d/e/f/t"), b"")
        os.utime(os.path.join(self.dir, "in"), (1000000000, 1000000000))
        self.assertEqual(self.command("cp in c && touch -r in c && cmp in c"), (0, ""))
        self.assertEqual(os.stat(os.path.join(self.dir, "c")).st_mtime, 1000000000)

    def test_mv_replaces_its_target(self):
        self.assertEqual(self.command("echo new > a && echo old > b && mv a b && cat b && cat a"),
                         (1, "new\ncat: a: No such file or directory\n"))
        self.assertEqual(self.command("mv missing b"), (1, "mv: cannot move 'missing' to 'b'\n"))

    def test_grep_selects_lines(self):
        lines = {"in": "# a comment\nkept #1\n#\nlast without newline"}
        self.assertEqual(self.command("grep -v '^#' in > f", lines), (0, ""))
        self.assertEqual(self.read("f"), b"kept #1\nlast without newline")
        self.assertEqual(self.command("grep -v '#' in2 || echo none", {"in2": "#\na#\n"}), (0, "none\n"))
        self.assertEqual(self.command("grep -q '^kept' in && grep -q '^#1' in || echo no", lines), (0, "no\n"))
        self.assertEqual(self.command("grep -v x missing"), (2, "grep: missing: No such file or directory\n"))

    def test_leaf_waitfile_and_head(self):
        self.assertEqual(self.command("mkdir marks && touch marks/other && leaf marks a log 0.1 && cat log && "
                                      "waitfile log && head -c2 log && head -c 1 log && echo"), (0, "a 2\na a\n"))

    def test_programs_and_children(self):
        self.assertEqual(self.command("true ; no-such-program x"), (127, "wsh: no-such-program: not found\n"))
        self.assertEqual(self.command("cmd /c exit 5"), (5, ""))
        self.assertEqual(self.command("echo first; start printf 'late\\n'"), (0, "first\nlate\n"))
        self.assertEqual(self.command("printenv RONIN_NONE || echo unset"), (0, "unset\n"))

    def test_syntax_errors(self):
        self.assertEqual(self.command("echo 'open"), (2, "wsh: syntax error: unterminated quoted string\n"))
        self.assertEqual(self.command("echo a | cat"), (2, "wsh: syntax error: pipes are not supported\n"))

    def test_fakecl_show_includes(self):
        files = {"a.c": '#include "sub\\h.h"\n#include <s.h>\n#warning w\n', "sub/h.h": '#include "i.h"\n',
                 "sub/i.h": "", "sys/s.h": ""}
        code, out = self.command("fakecl /nologo /showIncludes /I sys /c a.c /Foa.obj", files)
        self.assertEqual((code, out.replace(self.dir, "<DIR>").replace("\r\n", "\n")),
                         (0, "a.c\nNote: including file: <DIR>\\sub\\h.h\n"
                             "Note: including file:  <DIR>\\sub\\i.h\n"
                             "Note: including file: <DIR>\\sys\\s.h\na.c(3): warning C4996: w\n"))
        self.assertEqual(self.read("a.obj"), b'#include "sub\\h.h"\n#include <s.h>\n#warning w\n#include "i.h"\n')
        code, out = self.command("fakecl /c b.c /Fob.obj", {"b.c": "#include <nope.h>\n"})
        self.assertEqual((code, out.replace("\r\n", "\n")),
                         (2, "b.c\nb.c(1): fatal error C1083: Cannot open include file: 'nope.h': "
                             "No such file or directory\n"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
