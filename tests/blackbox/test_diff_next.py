"""Differential tests of what Ninja 1.14 adds, against Ninja's development version (1.14.0.git).

ronin matches Ninja 1.13.2 (the other test_diff_* suites), plus two additions of the next release
that change none of 1.13.2's behaviour: the `--status FMT` flag and the `$^` escape (a newline,
allowed once the file has said `ninja_required_version = 1.14`). Here every case runs through our
ninja and the development version and must give the same exit code, stdout, stderr and files; a
manifest that has not asked for 1.14 when it uses `$^` is compared with 1.13.2 instead.

Only what cannot be equal is normalised: the version each prints (--version, the message about a
newer ninja_required_version) and the times the status can show ($elapsed, $rate, ...).

    NINJA=<ours> NEXT_NINJA=$(../shared/tools/reference-ninja-next.sh) python3 -m unittest -v test_diff_next
"""

import os
import re
import unittest

from harness import NEXT_NINJA, NINJA, REF_NINJA, SKIP_NO_NEXT, SKIP_NO_REF, DifferentialTestCase, run_in_pty

V114 = "ninja_required_version = 1.14\n"
PRINTF = "rule r\n  command = printf '%s\\n' \"$x\" > $out\n"
TWO = ("rule r\n  command = touch $out\n  description = DESC $out\n"
       "build a: r\nbuild b: r a\nbuild c: r b\n")

# (name, files, runs): files is build.ninja's text or {path: text}; runs are argument tuples run
# in order in the same tree (default: the commands, a dry run, a build, a second build).
DEFAULT_RUNS = [("-t", "commands"), ("-n", "-v", "-j1"), ("-j1",), ("-j1",)]

NEWLINE_CASES = [
    ("in_command", V114 + "rule r\n  command = echo a$^echo b > $out\nbuild o: r\n", None),
    ("in_variable", V114 + "x = one$^two$^$^three\n" + PRINTF + "build o: r\n", None),
    ("in_edge_binding", V114 + PRINTF + "build o: r\n  x = a$^b\n", None),
    ("after_continuation", V114 + "x = a$\n    $^b\n" + PRINTF + "build o: r\n", None),
    ("in_description", V114 + "rule r\n  command = touch $out\n  description = first$^second\n"
                              "build o: r\n", None),
    ("in_path", V114 + "rule r\n  command = touch '$out'\nbuild o$^x: r\nbuild all: phony o$^x\n",
     [("-t", "commands"), ("-n", "-j1"), ("-t", "targets", "all")]),
    ("in_rspfile", V114 + "rule r\n  command = cp $rspfile $out\n  rspfile = $out.rsp\n"
                          "  rspfile_content = a$^b\nbuild o: r\n", None),
    ("version_from_a_variable", "v = 1.14\nninja_required_version = $v\n" + PRINTF + "build o: r\n  x = $^\n",
     None),
    ("version_dev", "ninja_required_version = 1.14.0.git\n" + PRINTF + "build o: r\n  x = a$^b\n", None),
    ("version_newer_minor", "ninja_required_version = 1.15\n" + PRINTF + "build o: r\n", None),
    ("at_the_end_of_the_file", V114 + "x = a$^", None),
    ("include_does_not_inherit", {"build.ninja": V114 + "include sub.ninja\n", "sub.ninja": PRINTF + "build o: r\n  x = a$^b\n"},
     None),
    ("subninja_does_not_inherit", {"build.ninja": V114 + "subninja sub.ninja\n",
                                   "sub.ninja": PRINTF + "build o: r\n  x = a$^b\n"}, None),
    ("include_does_not_give", {"build.ninja": "include sub.ninja\n" + PRINTF + "build o: r\n  x = a$^b\n",
                               "sub.ninja": V114}, None),
    ("both_files_say_so", {"build.ninja": V114 + "include sub.ninja\nbuild o: r\n  x = a$^b\n",
                           "sub.ninja": V114 + PRINTF + "y = c$^d\n"}, None),
]

# A manifest that has not asked for 1.14 by the time it uses `$^` is read as 1.13.2 reads it:
# these compare with ninja 1.13.2, whose message (a bad $-escape) differs from 1.14's.
NEWLINE_OFF_CASES = [
    ("without_version", "rule r\n  command = echo a $^ b\nbuild o: r\n", None),
    ("older_version", "ninja_required_version = 1.13\n" + PRINTF + "build o: r\n  x = a$^b\n", None),
    ("version_after_use", PRINTF + "x = a$^b\n" + V114 + "build o: r\n", None),
    ("on_a_build_line", "build o$^x: phony\n", None),
    ("in_a_dyndep_file", {"build.ninja": "rule r\n  command = touch $out\nbuild o: r || dd\n  dyndep = dd\n",
                          "dd": "ninja_dyndep_version = 1\nbuild o$^x: dyndep\n"}, None),
]

# A status format's times differ from run to run: they are compared by shape.
_TIMES = [(re.compile(r"\d+\.\d{3}"), "<seconds>"), (re.compile(r"\d+:\d\d(:\d\d)?"), "<clock>"),
          (re.compile(r"\d+\.\d\b"), "<rate>")]

# (name, --status value, extra arguments): each runs a clean build of TWO on a pipe.
STATUS_CASES = [
    ("counters", "[$finished/$total] $description", ()),
    ("every_counter", "s=$started t=$total p=$progress r=$running u=$remaining f=$finished|", ()),
    ("times", "$rate|$current_rate|$elapsed_seconds|$eta_seconds|$elapsed|$eta|$predicted_progress|", ()),
    ("no_description", "[$finished/$total] ", ()),
    ("description_twice", "$description<>$description", ()),
    ("description_first", "$description [$finished]", ()),
    ("braces_and_escapes", "${finished}|$$|$ |$:|$finished.x|${total}y", ()),
    ("dollar_before_a_name", "$$description", ()),
    ("empty", "", ()),
    ("ends_at_a_newline", "[$finished]\nignored $bogus", ()),
    ("continuation", "[$finished$\n     ]", ()),
    ("colours", "\x1b[32m[$finished/$total]\x1b[0m $description", ()),
    ("verbose_shows_the_command", "<$description>", ("-v",)),
    ("quiet_shows_nothing", "<$description>", ("--quiet",)),
    ("explain", "[$finished] $description", ("-d", "explain")),
    ("unknown_variable", "x $bogus y", ()),
    ("unknown_variable_in_braces", "${out}", ()),
    ("unknown_variable_after_dot", "$fin.ished", ()),
    ("bad_escape", "a $! b", ()),
    ("bad_escape_at_the_start", "${finished", ()),
    ("dollar_at_the_end", "trail $", ()),
    ("newline_escape", "nl $^ x", ()),
    ("lone_carriage_return", "a\rb $!", ()),
    ("tab_before_an_error", "tab\t$!", ()),
]


class NextDifferentialTestCase(DifferentialTestCase):
    REF = NEXT_NINJA  # the binary compared with (DifferentialTestCase.REF)

    def normalize(self, text, root):
        return super().normalize(text, root).replace("1.14.0.git", "<version>").replace("1.13.2", "<version>")


def run_manifest_case(test, files, runs):
    test.write_files(files if isinstance(files, dict) else {"build.ninja": files})
    for args in runs or DEFAULT_RUNS:
        test.assertSameRun(*args)


@unittest.skipUnless(NEXT_NINJA, SKIP_NO_NEXT)
class TestDiffNewlineEscape(NextDifferentialTestCase):
    """`$^`: one generated test per case of NEWLINE_CASES."""

    run_case = run_manifest_case


@unittest.skipUnless(REF_NINJA, SKIP_NO_REF)
class TestDiffNewlineEscapeOff(DifferentialTestCase):
    """`$^` where the manifest has not asked for 1.14: as ninja 1.13.2 (NEWLINE_OFF_CASES)."""

    run_case = run_manifest_case


@unittest.skipUnless(NEXT_NINJA, SKIP_NO_NEXT)
class TestDiffStatusFlag(NextDifferentialTestCase):
    """`--status FMT`: one generated test per case of STATUS_CASES, and the cases around it."""

    def normalize(self, text, root):
        text = super().normalize(text, root)
        for pattern, shape in _TIMES:
            text = pattern.sub(shape, text)
        return text

    def run_case(self, fmt, extra):
        self.write("build.ninja", TWO)
        self.assertSameRun("-j1", "--status", fmt, *extra)

    def test_the_flag_beats_ninja_status(self):
        self.write("build.ninja", TWO)
        self.assertSameRun("-j1", "--status", "<$total> $description", env={"NINJA_STATUS": "%f%% "})

    def test_ninja_status_without_the_flag(self):
        self.write("build.ninja", TWO)
        self.assertSameRun("-j1", env={"NINJA_STATUS": "(%f/%t) "})

    def test_equals_form(self):
        self.write("build.ninja", TWO)
        self.assertSameRun("-j1", "--status=[$finished] $description")

    def test_a_failure_block_is_unchanged(self):
        self.write("build.ninja", "rule f\n  command = echo out; exit 3\n  description = F $out\nbuild a: f\n")
        self.assertSameRun("-j1", "--status", "{$finished} $description")

    def test_a_no_op_formats_nothing(self):
        # An unknown variable is only found when a status line is formatted.
        self.write("build.ninja", TWO)
        self.assertSameRun("-j1")
        self.assertSameRun("-j1", "--status", "$bogus")

    def test_tools_are_unaffected_but_a_bad_format_still_stops(self):
        self.write("build.ninja", TWO)
        self.assertSameRun("--status", "$bogus", "-t", "targets")
        self.assertSameRun("--status", "$!", "-t", "targets")
        self.assertSameRun("--status", "$!", "--version")

    def test_smart_terminal_elides_the_whole_line(self):
        desc = "D" * 50 + " $out " + "E" * 50
        self.write("build.ninja", "rule r\n  command = touch $out\n  description = %s\nbuild a: r\nbuild b: r a\n" % desc)
        for fmt in ("[$finished/$total] $description", "$description <$finished>", "[$total]"):
            with self.subTest(fmt=fmt):
                self.both(lambda root: [os.remove(os.path.join(root, f)) for f in ("a", "b")
                                        if os.path.exists(os.path.join(root, f))])
                ours = run_in_pty(NINJA, ["-j1", "--status", fmt], self.ours_dir, columns=60)
                ref = run_in_pty(NEXT_NINJA, ["-j1", "--status", fmt], self.ref_dir, columns=60)
                self.assertEqual((ref.returncode, ref.stdout), (ours.returncode, ours.stdout))


def _make(method, *args):
    def test(self):
        getattr(self, method)(*args)
    return test


for _name, _files, _runs in NEWLINE_CASES:
    assert not hasattr(TestDiffNewlineEscape, "test_" + _name), _name
    setattr(TestDiffNewlineEscape, "test_" + _name, _make("run_case", _files, _runs))
for _name, _files, _runs in NEWLINE_OFF_CASES:
    setattr(TestDiffNewlineEscapeOff, "test_" + _name, _make("run_case", _files, _runs))
for _name, _fmt, _extra in STATUS_CASES:
    assert not hasattr(TestDiffStatusFlag, "test_" + _name), _name
    setattr(TestDiffStatusFlag, "test_" + _name, _make("run_case", _fmt, _extra))


if __name__ == "__main__":
    unittest.main(verbosity=2)
