"""Differential build tests: each scenario runs the same tree through our ninja
and reference ninja 1.13.2 and compares exit code, stdout, stderr and the
files left behind after every step (plus, where asked, file contents).

Runs use -j1 unless a scenario passes its own -j, so that output order is
deterministic.  All files are given an old mtime before the first step;
`touch` steps age every file again and then move the named inputs 2 s forward
with harness.bump_mtime, so "newer input" never means "in the future".

Run: NINJA=... REF_NINJA=... python3 -m unittest -v test_diff_build
"""

import os
import time
import unittest

from harness import DYNDEP_TREE, NINJA, REF_NINJA, DifferentialTestCase, bump_mtime, list_tree, run_in_pty
from test_state import touch_newer

T0 = int(time.time()) - 100000

RULES = """\
rule touch
  command = echo $out >> ran.log; touch $out
  description = T $out
rule cp
  command = echo $out >> ran.log; cp $in $out
  description = CP $out
rule cmd
  command = $cmd
  description = $desc
rule vcmd
  command = $cmd
"""


def manifest(text):
    return {"build.ninja": RULES + text}


def src(files, text):
    d = manifest(text)
    d.update(files)
    return d


# Steps -------------------------------------------------------------------

def run(*args, env=None):
    return ("run", args, env)


def touch(*paths):
    """Age every file, then make `paths` newer than everything else."""
    return ("touch", paths)


def newer(*paths):
    """Make `paths` newer than every other file, by the real clock (what the build log
    recorded included; `touch` ages files instead, which a restat edge's log entry outlives)."""
    return ("newer", paths)


def rm(*paths):
    return ("rm", paths)


def write(path, text):
    return ("write", path, text)


def same(*paths):
    """Compare the contents of files between the two trees."""
    return ("same", paths)


def interrupt(marker, *args):
    """Start a build in each tree, and kill it and all it started once `marker` exists."""
    return ("interrupt", marker, args)


def age_tree(root):
    for dirpath, dirnames, filenames in os.walk(root):
        for f in filenames:
            if f in (".ninja_log", ".ninja_deps"):
                continue
            os.utime(os.path.join(dirpath, f), (T0, T0))


SCENARIOS = [
    # --- basic dirty scanning -------------------------------------------
    ("simple_then_noop",
     src({"in": "x\n"}, "build mid: cp in\nbuild out: cp mid\n"),
     [run(), run(), same("ran.log", "out")]),

    ("touch_source_rebuilds_chain",
     src({"in": "x\n", "other": "y\n"}, "build mid: cp in\nbuild out: cp mid\nbuild o2: cp other\n"),
     [run(), touch("in"), run(), run(), same("ran.log")]),

    ("touch_unrelated_source",
     src({"in": "x\n", "other": "y\n"}, "build mid: cp in\nbuild o2: cp other\n"),
     [run(), touch("other"), run(), same("ran.log")]),

    ("touch_implicit_input",
     src({"in": "x\n", "hdr": "h\n"}, "build out: cp in | hdr\n"),
     [run(), touch("hdr"), run(), run()]),

    ("touch_order_only_input",
     src({"in": "x\n", "oo": "o\n"}, "build out: cp in || oo\n"),
     [run(), touch("oo"), run()]),

    ("order_only_generated_first",
     src({"in": "x\n"}, "build out: cp in || gen\nbuild gen: touch\n"),
     [run(), rm("gen"), run(), same("ran.log")]),

    ("delete_intermediate_output",
     manifest("build a: touch\nbuild b: cp a\nbuild c: cp b\n"),
     [run(), rm("b"), run("c"), same("ran.log")]),

    ("delete_implicit_output",
     manifest("build o | imp: cmd\n  cmd = touch o imp\n"),
     [run(), rm("imp"), run(), run()]),

    ("delete_one_of_multiple_outputs",
     manifest("build o1 o2: cmd\n  cmd = touch o1 o2\n  desc = MULTI\n"),
     [run(), rm("o2"), run(), run()]),

    ("command_change_rebuilds",
     manifest("build a: vcmd\n  cmd = touch a\n"),
     [run(), write("build.ninja", RULES + "build a: vcmd\n  cmd = touch a; true\n"), run(), run()]),

    ("deleted_log_rebuilds_all",
     manifest("build a: touch\nbuild b: touch\n"),
     [run(), rm(".ninja_log"), run(), same("ran.log")]),

    ("up_to_date_phony_only",
     src({"in": "x\n"}, "build all: phony in\n"),
     [run(), run("all")]),

    # --- phony ------------------------------------------------------------
    ("phony_alias",
     manifest("build a: touch\nbuild b: touch\nbuild all: phony a b\nbuild top: phony all\n"),
     [run("top"), run("top"), run("all")]),

    ("phony_with_inputs_touch",
     src({"in": "x\n"}, "build p: phony in\nbuild q: touch p\n"),
     [run(), run(), touch("in"), run(), same("ran.log")]),

    ("phony_force_idiom",
     manifest("build FORCE: phony\nbuild out: touch | FORCE\nbuild stable: touch\n"),
     [run(), run(), run(), same("ran.log")]),

    ("phony_force_file_exists",
     src({"FORCE": ""}, "build FORCE: phony\nbuild out: touch | FORCE\n"),
     [run(), run(), touch("FORCE"), run()]),

    ("phony_no_inputs_as_target",
     manifest("build FORCE: phony\n"),
     [run("FORCE")]),

    # --- missing files, targets ----------------------------------------------
    ("missing_source",
     manifest("build out: cp in\nbuild ok: touch\n"),
     [run(), run("in"), run("ok")]),

    ("missing_source_deep",
     manifest("build x: cp missing\nbuild y: cp x\n"),
     [run("y")]),

    ("missing_implicit_and_order_only",
     manifest("build i: touch | imp\nbuild o: touch || oo\n"),
     [run("i"), run("o")]),

    ("unknown_targets",
     manifest("build out: touch\nbuild other: touch\n"),
     [run("ou"), run("zzzzzzzzz"), run(""), run("out/")]),

    ("default_statements",
     manifest("build a: touch\nbuild b: touch\nbuild c: touch\ndefault b\ndefault a\n"),
     [run(), run("c"), run()]),

    ("target_spellings",
     src({"src.c": "x\n"}, "build a: touch src.c\nbuild d/e: touch\n"),
     [run("./a", "d//e"), rm("a"), run("d/../a"), rm("a"), run("src.c^"), run("a^")]),

    # --- failures and -k -------------------------------------------------------
    ("failure_simple",
     manifest("build a: touch\nbuild b: cmd a\n  cmd = echo oops; exit 3\n  desc = B\n"),
     [run(), run()]),

    ("failure_exit_codes",
     manifest("build e42: vcmd\n  cmd = exit 42\nbuild e255: vcmd\n  cmd = exit 255\n"
              "build e1: vcmd\n  cmd = false\n"),
     [run("e42"), run("e255"), run("e1")]),

    ("failure_multiple_outputs",
     manifest("build o1 o2 | o3: cmd\n  cmd = echo bad >&2; exit 1\n  desc = DESC\n"),
     [run()]),

    ("failure_output_without_newline",
     manifest("build a: cmd\n  cmd = printf 'no-newline'; touch a\n  desc = A\n"
              "build b: cmd a\n  cmd = printf 'fail-out'; exit 2\n  desc = B\n"),
     [run(), run()]),

    ("failure_then_fixed",
     manifest("build a: vcmd\n  cmd = exit 1\nbuild b: touch a\n"),
     [run(), write("build.ninja", RULES + "build a: vcmd\n  cmd = touch a\nbuild b: touch a\n"),
      run(), run()]),

    ("failure_leaves_output",
     manifest("build a: vcmd\n  cmd = touch a; exit 1\n"),
     [run(), run()]),

    ("keep_going_0",
     manifest("build f1: cmd\n  cmd = echo f1; exit 3\n  desc = f1\n"
              "build f2: cmd\n  cmd = exit 4\n  desc = f2\n"
              "build ok: touch\nbuild dep: touch f1\n"),
     [run("-k", "0"), run("-k", "0"), same("ran.log")]),

    ("keep_going_2",
     manifest("build f1: vcmd\n  cmd = exit 3\nbuild f2: vcmd\n  cmd = exit 4\n"
              "build f3: vcmd\n  cmd = exit 5\nbuild ok: touch\n"),
     [run("-k2"), run("-k", "3"), run("-k", "1")]),

    ("keep_going_last_exit_code",
     manifest("build hi: vcmd\n  cmd = exit 9\nbuild lo: vcmd\n  cmd = exit 2\n"),
     [run("-k0", "lo", "hi")]),

    # A build killed while a command runs: the output that command made first has no log
    # entry, the one it did not make yet is missing; the next build reruns both. The command
    # sleeps only while `mode` says slow.
    ("killed_build_then_continued",
     src({"mode": "slow\n"}, "build a: touch\nbuild b: cmd a\n"
         "  cmd = touch b; touch started; grep -q fast mode || sleep 30; touch c\n  desc = B\n"
         "build c: phony b\n"),
     [run("a"), interrupt("started", "c"), write("mode", "fast\n"), run("-d", "explain", "c"), run("c")]),

    # --- signals -------------------------------------------------------------
    ("command_signals",
     manifest("build k9: vcmd\n  cmd = echo before; kill -9 $$$$\n"
              "build segv: vcmd\n  cmd = kill -SEGV $$$$\n"
              "build int: vcmd\n  cmd = echo before; touch int; kill -INT $$$$\n"
              "build term: vcmd\n  cmd = kill -TERM $$$$\n"
              "build e130: vcmd\n  cmd = exit 130\nbuild ok: touch\n"),
     [run("k9"), run("segv"), run("int"), run("term"), run("e130"), run("-k0", "ok", "int")]),

    # --- dry run, verbosity -------------------------------------------------
    ("dry_run",
     manifest("build x/y/a: touch\nbuild b: cmd x/y/a\n  cmd = exit 1\n  desc = B\n"
              "build c: touch\n  depfile = deps/c.d\n"),
     [run("-n"), run("-n"), run("-n", "-v"), run("-n", "--quiet")]),

    ("dry_run_after_build",
     manifest("build a: touch\nbuild b: touch a\n"),
     [run(), run("-n"), rm("b"), run("-n"), run()]),

    ("verbose_and_quiet",
     manifest("build a: cmd\n  cmd = echo aout; touch a\n  desc = A\n"
              "build bad: cmd\n  cmd = echo badout; exit 3\n  desc = BAD\n"),
     [run("-v", "a"), run("-v", "a"), rm("a"), run("--quiet", "a"), run("--quiet", "a"),
      run("--quiet", "bad"), run("-v", "bad"), run("--verbose", "--quiet", "bad")]),

    # --- status line --------------------------------------------------------
    ("status_deterministic_placeholders",
     manifest("build a: touch\nbuild b: touch a\nbuild c: touch b\nbuild d: touch\n"),
     [run(env={"NINJA_STATUS": "[%s/%t r%r u%u f%f %p %%] "})]),

    ("status_empty_and_plain",
     manifest("build a: touch\nbuild b: touch a\n"),
     [run(env={"NINJA_STATUS": ""}), rm("a", "b"), run(env={"NINJA_STATUS": "building: "})]),

    ("status_unknown_placeholder",
     manifest("build a: touch\nbuild b: touch a\n"),
     [run("-n", env={"NINJA_STATUS": "%Z "}), run(env={"NINJA_STATUS": "%Z "}),
      run("--quiet", env={"NINJA_STATUS": "%Z "}), run(env={"NINJA_STATUS": "%Z "})]),

    ("status_description_vs_command",
     manifest("build a: vcmd\n  cmd = touch a\nbuild b: cmd\n  cmd = touch b\n  desc =\n"
              "build c: cmd\n  cmd = touch c\n  desc = making c\n"),
     [run(), rm("a", "b", "c"), run("-v")]),

    ("status_with_console_pool",
     manifest("build c: cmd\n  pool = console\n  cmd = echo console; touch c\n  desc = CONSOLE\n"
              "build d: cmd c\n  cmd = echo d-out; touch d\n  desc = D\n"),
     [run(env={"NINJA_STATUS": "[%s/%t/%r/%f/%u] "}), rm("c", "d"), run()]),

    # --- command output ----------------------------------------------------
    ("output_buffering_and_merge",
     manifest("build a: cmd\n  cmd = echo 1; echo 2 >&2; echo 3; touch a\n  desc = A\n"
              "build b: cmd\n  cmd = printf 'no-newline'; touch b\n  desc = B\n"
              "build c: cmd\n  cmd = touch c\n  desc = C\n"
              "build d: cmd\n  cmd = printf 'last'; touch d\n  desc = D\n"),
     [run(), rm("d"), run(), rm("b", "c", "d"), run("--quiet")]),

    ("output_ansi",
     manifest("build a: cmd\n  cmd = printf 'A\\033[2KB\\033[1;31mC\\033[mD\\033]0;t\\007E\\n'\n"
              "  desc = A\n"),
     [run(), run(env={"CLICOLOR_FORCE": "1"}), run(env={"CLICOLOR_FORCE": "0"}),
      run("--quiet")]),

    ("failed_block_colour",
     manifest("build e: cmd\n  cmd = printf '\\033[31mred\\033[0m\\n'; exit 4\n  desc = E\n"),
     [run(), run(env={"CLICOLOR_FORCE": "1"})]),

    # --- scheduling --------------------------------------------------------
    ("critical_path_order",
     manifest("build s1: touch\nbuild l1: touch\nbuild l2: touch l1\nbuild l3: touch l2\n"
              "build t1: touch\nbuild t2: touch t1\nbuild all: phony s1 l3 t2\n"),
     [run("all"), same("ran.log"), rm("l1", "s1", "t2"), run("t2", "s1", "l3")]),

    ("ties_manifest_order",
     manifest("".join("build n%02d: touch\n" % i for i in (7, 3, 9, 1, 5, 2, 8)) +
              "build all: phony n01 n02 n03 n05 n07 n08 n09\n"),
     [run("n09", "n01", "n05"), run("all"), same("ran.log")]),

    ("phony_weight",
     manifest("build y1: touch\nbuild y2: touch y1\nbuild x1: touch\nbuild px: phony x1\n"
              "build x2: touch px\nbuild x3: touch x2\nbuild all: phony y2 x3\n"),
     [run("y2", "x2"), run("all")]),

    ("pool_serial_order",
     manifest("pool p\n  depth = 1\nbuild a: touch\n  pool = p\nbuild b: touch a\n  pool = p\n"
              "build c: touch\n  pool = p\nbuild d: touch\n"),
     [run("-j1"), same("ran.log")]),

    # --- directories, files ------------------------------------------------
    ("output_dirs",
     manifest("build x/one y/two | z/three: cmd\n  cmd = touch x/one y/two z/three\n  desc = M\n"
              "build d/e/f: touch\n"),
     [run(), run()]),

    ("depfile_dir",
     src({"a.c": "x\n"}, "rule cc\n  command = echo \"$out: $in\" > $depfile; cp $in $out\n"
         "  depfile = deps/x/$out.d\nbuild out/a.o: cc a.c\n"),
     [run(), run(), same("deps/x/out/a.o.d"), touch("a.c"), run()]),

    ("rspfiles",
     src({"in": "x"}, "rule r\n  command = cat $out.rsp > $out.seen; touch $out\n"
         "  rspfile = $out.rsp\n  rspfile_content = hello $in\n"
         "rule f\n  command = cat $out.rsp; exit 1\n"
         "  rspfile = $out.rsp\n  rspfile_content = fail $in\n"
         "build out: r in\nbuild bad: f in\n"),
     [run("out"), same("out.seen"), run("bad"), same("bad.rsp"), rm("out"),
      run("-d", "keeprsp", "out"), same("out.rsp"), run("-n", "bad")]),

    ("rspfile_dir_missing",
     manifest("rule r\n  command = touch $out\n  rspfile = r/$out.rsp\n  rspfile_content = x\n"
              "build o/out: r\n"),
     [run(), run("-n")]),

    # --- flags, -C, -f ---------------------------------------------------------
    ("dash_C",
     {"sub/build.ninja": "rule r\n  command = touch $out\nbuild o: r\n",
      "other.ninja": "rule r\n  command = touch $out\nbuild o: r\n"},
     [run("-C", "sub"), run("-C", "sub"), run("-C", "sub", "--quiet"), run("-C", "nonexist"),
      run("-C", "sub", "-f", "../other.ninja"), run("-C", "sub", "-C", ".")]),

    ("dash_f",
     {"other.ninja": "rule r\n  command = touch $out\nbuild o: r\n"},
     [run(), run("-f", "other.ninja"), run("-f", "other.ninja"), run("-f", "missing.ninja")]),

    ("flag_errors",
     manifest("build a: touch\n"),
     [run("--version"), run("-h"), run("--help"), run("-d", "list"), run("-w", "list"),
      run("-j", "x"), run("-j", "-1"), run("-k", "x"), run("-l", "x"), run("-d", "explian"),
      run("-d", "foo"), run("-w", "foo"), run("-w", "phonycycl=err"),
      run("-w", "dupbuild=err", "-n"), run("-w", "depfilemulti=warn", "-n")]),

    ("validations",
     manifest("build v: touch |@ check\nbuild check: touch\nbuild w: touch |@ missing_val\n"),
     [run("v"), run("v"), run("w")]),
]


class ScenarioTestCase(DifferentialTestCase):
    """Runs scenarios made of the steps above; add_scenario_tests makes one test of each."""

    def step_run(self, args, env):
        args = list(args)
        if not any(a.startswith("-j") for a in args):
            args = ["-j1"] + args
        self.assertSameRun(*args, env=env)

    def step_touch(self, paths):
        self.both(age_tree)
        for p in paths:
            self.both(lambda root, p=p: bump_mtime(os.path.join(root, p)))

    def step_newer(self, paths):
        for p in paths:
            self.both(lambda root, p=p: touch_newer(root, p))

    def step_rm(self, paths):
        for p in paths:
            self.both(lambda root, p=p: os.unlink(os.path.join(root, p)))

    def step_write(self, path, text):
        self.write(path, text)

    def step_same(self, paths):
        for p in paths:
            contents = []
            for root in (self.ref_dir, self.ours_dir):
                path = os.path.join(root, p)
                if os.path.exists(path):
                    with open(path, "rb") as f:
                        contents.append(self.normalize_bytes(f.read(), root))
                else:
                    contents.append(None)
            self.assertEqual(contents[0], contents[1], "contents of %s differ" % p)

    def step_interrupt(self, marker, args):
        for binary, root in ((self.REF, self.ref_dir), (self.OURS, self.ours_dir)):
            running = self.start_binary(binary, ["-j1"] + list(args), root)
            try:
                deadline = time.time() + 60
                while not os.path.exists(os.path.join(root, marker)) and time.time() < deadline:
                    time.sleep(0.05)
            finally:
                running.stop()
            self.assertTrue(os.path.exists(os.path.join(root, marker)), "%s never started its command" % binary)
        self.assertEqual(list_tree(self.ref_dir, (".ninja_log", ".ninja_deps")),
                         list_tree(self.ours_dir, (".ninja_log", ".ninja_deps")))

    def run_scenario(self, files, steps):
        self.write_files(files)
        self.both(age_tree)
        for step in steps:
            getattr(self, "step_" + step[0])(*step[1:])


def _scenario_test(files, steps):
    def test(self):
        self.run_scenario(files, steps)
    return test


def add_scenario_tests(cls, scenarios):
    """One test method test_NAME per scenario (name, files, steps) of the list."""
    for name, files, steps in scenarios:
        assert not hasattr(cls, "test_" + name), name
        setattr(cls, "test_" + name, _scenario_test(files, steps))


class TestDiffBuild(ScenarioTestCase):
    """One test method per scenario in SCENARIOS (added below)."""


add_scenario_tests(TestDiffBuild, SCENARIOS)


class ExplainTimingTest(DifferentialTestCase):
    """-d explain reasons come with each status line printed for an edge: on
    a pipe when the edge finishes (so a slow edge's reasons come after a
    quick one's), on a smart terminal at the start and again at the end,
    each time on a line of their own."""

    MANIFEST = ("rule r\n  command = sleep $t; touch $out\n"
                "build slow: r\n  t = 0.6\nbuild quick: r\n  t = 0\nbuild top: r slow quick\n  t = 0\n")

    def merged(self, binary, root, args):
        r = self.run_binary(binary, args, root, merge_stderr=True)
        return r.returncode, r.stdout

    def test_pipe_prints_reasons_when_edges_finish(self):
        self.write_files({"build.ninja": self.MANIFEST})
        for args in (["-j2", "-d", "explain"], ["-j2", "-d", "explain", "--quiet"], ["-j2", "-d", "explain", "-v"]):
            with self.subTest(args=args):
                self.both(lambda root: [os.unlink(os.path.join(root, f)) for f in ("slow", "quick", "top")
                                        if os.path.exists(os.path.join(root, f))])
                want = self.merged(self.REF, self.ref_dir, args)
                got = self.merged(self.OURS, self.ours_dir, args)
                self.assertEqual(want, got)
                self.assertLess(got[1].index("output quick"), got[1].index("output slow"))

    def test_smart_terminal_prints_reasons_at_start_and_end(self):
        self.write_files({"build.ninja": self.MANIFEST})
        ours = run_in_pty(NINJA, ["-j2", "-d", "explain"], self.ours_dir)
        ref = run_in_pty(REF_NINJA, ["-j2", "-d", "explain"], self.ref_dir)
        self.assertEqual((ref.returncode, ref.stdout), (ours.returncode, ours.stdout))
        self.assertEqual(2, ours.stdout.count("ninja explain: output slow doesn't exist\n"))

    def test_dyndep_rescan_repeats_reasons_like_ninja(self):
        # Loading a dyndep file rescans its users, which records their
        # reasons again: Ninja prints them twice (ninja issue #2759); so do we.
        self.write_files(DYNDEP_TREE)
        ours = run_in_pty(NINJA, ["-j2", "-d", "explain"], self.ours_dir)
        ref = run_in_pty(REF_NINJA, ["-j2", "-d", "explain"], self.ref_dir)
        self.assertEqual((ref.returncode, ref.stdout), (ours.returncode, ours.stdout))

    def test_unknown_deps_type_is_fatal_before_any_reason(self):
        self.write_files({"build.ninja": "rule r\n  command = touch $out\n  deps = x\nbuild o: r\n"})
        self.assertSameRun("-j1", "-d", "explain")


if __name__ == "__main__":
    unittest.main(verbosity=2)
