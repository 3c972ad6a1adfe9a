"""Differential tests of incremental-build state: ours vs reference ninja 1.13.2.

Each scenario runs step by step in two identical trees, one per binary: build,
edit/touch something in both trees, rebuild, ... After every step the exit
code, stdout and stderr (with timestamps normalised), the complete file list,
the output files' contents, `.ninja_log` (paths and hashes in file order;
times and mtimes ignored) and `.ninja_deps` (records with mtimes blanked) must
be identical.

TreeHandoverTests and CrossCompatTests share one build directory between the two binaries: state
written by one must be understood by the other (`ninja: no work to do.`).

    NINJA=<ours> REF_NINJA=<ninja 1.13.2> python3 -m unittest -v test_diff_state
"""

import os
import re
import shutil
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
from harness import DYNDEP_TREE, DifferentialTestCase, bump_mtime, list_tree  # noqa: E402
from test_state import (DEPS_HEADER, deps_record, deps_structure, hash_hex, log_structure,  # noqa: E402
                        path_record, set_mtime_ago, touch_newer)

_TIMES = re.compile(r"\((-?\d+) vs (-?\d+)\)")
_DEPS_MTIME = re.compile(r"deps mtime -?\d+ ")
_STATE_FILES = (".ninja_log", ".ninja_deps")


def normalize(text, root):
    text = text.replace(root, "<DIR>")
    text = _TIMES.sub("(<T> vs <T>)", text)
    return _DEPS_MTIME.sub("deps mtime <T> ", text)


def file_contents(root):
    """{relative path: bytes} of every regular file except ninja's own state files."""
    result = {}
    for rel in list_tree(root):
        if rel.endswith("/") or os.path.basename(rel) in _STATE_FILES + (".ninja_lock",):
            continue
        with open(os.path.join(root, rel), "rb") as f:
            result[rel] = f.read()
    return result


class StateDiffTestCase(DifferentialTestCase):

    builddir = ""

    def step(self, *args, sort_log=False, expect_rc=None):
        """Runs both binaries once and compares everything observable."""
        ours, ref = self.run_both(*args)
        got = (ours.returncode, normalize(ours.stdout, self.ours_dir), normalize(ours.stderr, self.ours_dir))
        want = (ref.returncode, normalize(ref.stdout, self.ref_dir), normalize(ref.stderr, self.ref_dir))
        self.assertEqual(want, got, "ninja %s: reference (first) vs ours (second)" % " ".join(args))
        if expect_rc is not None:
            self.assertEqual(ref.returncode, expect_rc, ref)
        self.compare_trees(sort_log=sort_log)
        return ref

    def compare_trees(self, sort_log=False):
        self.assertEqual(list_tree(self.ref_dir), list_tree(self.ours_dir), "file lists differ")
        self.assertEqual(file_contents(self.ref_dir), file_contents(self.ours_dir), "file contents differ")
        log = os.path.join(self.builddir, ".ninja_log")
        if os.path.exists(os.path.join(self.ref_dir, log)):
            ref_log = log_structure(os.path.join(self.ref_dir, log))
            our_log = log_structure(os.path.join(self.ours_dir, log))
            if sort_log:
                ref_log, our_log = sorted(ref_log), sorted(our_log)
            self.assertEqual(ref_log, our_log, ".ninja_log differs (path, hash)")
            with open(os.path.join(self.ours_dir, log)) as f:
                self.assertEqual(f.readline(), "# ninja log v7\n")
        deps = os.path.join(self.builddir, ".ninja_deps")
        if os.path.exists(os.path.join(self.ref_dir, deps)):
            self.assertEqual(deps_structure(os.path.join(self.ref_dir, deps)),
                             deps_structure(os.path.join(self.ours_dir, deps)), ".ninja_deps differs")

    def touch_newer(self, rel):
        self.both(lambda root: touch_newer(root, rel))

    def bump(self, rel, seconds=2):
        self.both(lambda root: bump_mtime(os.path.join(root, rel), seconds))

    def age(self, *rels, seconds=100):
        self.both(lambda root: set_mtime_ago(root, rels, seconds))

    def remove(self, rel):
        self.both(lambda root: os.unlink(os.path.join(root, rel)))


CHAIN = ("rule cat\n  command = cat $in > $out\n  description = CAT $out\n"
         "build a: cat src1\nbuild b: cat a src2\nbuild c: cat b\nbuild d: cat src2\n")

DEPS_GCC = ("rule cc\n  command = printf '%s: %s h1.h sub/h2.h\\n' $out $in > $out.d && cat $in > $out\n"
            "  depfile = $out.d\n  deps = gcc\n  description = CC $out\n"
            "build a.o: cc a.c\nbuild b.o: cc b.c\nrule link\n  command = cat $in > $out\n"
            "build app: link a.o b.o\n")


class BuildLogScenarios(StateDiffTestCase):

    def setUp(self):
        super().setUp()
        self.write_files({"build.ninja": CHAIN, "src1": "1\n", "src2": "2\n"})

    def test_build_noop_touch_rebuild(self):
        self.step("-j1")
        self.step("-j1")
        self.touch_newer("src1")
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_touch_shared_input(self):
        self.step("-j1")
        self.touch_newer("src2")
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_command_change(self):
        self.step("-j1")
        self.write("build.ninja", CHAIN.replace("cat $in > $out", "cat $in >$out"))
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_description_change_is_no_work(self):
        self.step("-j1")
        self.write("build.ninja", CHAIN.replace("CAT $out", "COPY $out"))
        self.step("-j1", "-d", "explain")

    def test_deleted_log_rebuilds_all(self):
        self.step("-j1")
        self.remove(".ninja_log")
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_deleted_intermediate_output(self):
        self.step("-j1")
        self.remove("b")
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_single_target_then_rest(self):
        self.step("-j1", "b")
        self.step("-j1", "-d", "explain")
        self.step("-j1", "c")

    def test_dry_run_writes_nothing(self):
        self.step("-n", "-j1")
        self.step("-j1", "a")
        self.touch_newer("src1")
        self.step("-n", "-j1", "-d", "explain")

    def test_failure_then_fix(self):
        self.write("build.ninja", CHAIN.replace("build c: cat b", "build c: cat b missing_ok\n"
                                                "build missing_ok: cat nope_src"))
        self.step("-j1", "-k", "0")
        self.write("nope_src", "n\n")
        self.step("-j1")
        self.step("-j1")

    def test_write_then_fail_is_rerun(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out && touch -r $in $out && grep -q ok $in\n"
                                  "build out: r in\n")
        self.write("in", "ok\n")
        self.step()
        self.write("in", "no\n")
        self.bump("in")
        self.step()
        self.both(lambda root: harness.write_tree(root, {"in": "ok\n"}))
        self.both(lambda root: os.utime(os.path.join(root, "in"),
                                        ns=(os.stat(os.path.join(root, "out")).st_mtime_ns,) * 2))
        self.step("-d", "explain")

    def test_multiple_and_implicit_outputs(self):
        self.write("build.ninja", "rule r\n  command = touch $out extra && echo $out\nbuild x y | extra: r in\n"
                                  "build z: r x\n")
        self.write("in", "")
        self.step("-j1")
        self.remove("extra")
        self.step("-j1", "-d", "explain")

    def test_rspfile_content_change(self):
        self.write("build.ninja", "rule r\n  command = cp $rspfile $out\n  rspfile = $out.rsp\n"
                                  "  rspfile_content = $in $extra\nbuild out: r src1 src2\n  extra = one\n")
        self.step()
        self.write("build.ninja", "rule r\n  command = cp $rspfile $out\n  rspfile = $out.rsp\n"
                                  "  rspfile_content = $in $extra\nbuild out: r src1 src2\n  extra = two\n")
        self.step("-d", "explain")
        self.step("-d", "keeprsp")

    def test_builddir(self):
        self.builddir = "out/logs"
        self.write("build.ninja", "builddir = out/logs\n" + CHAIN)
        self.step("-j1")
        self.touch_newer("src2")
        self.step("-j1")
        self.step("-j1")

    def test_log_recompaction_on_load(self):
        self.step("-j1")

        def inflate(root):
            path = os.path.join(root, ".ninja_log")
            with open(path) as f:
                lines = f.read().splitlines()
            with open(path, "w") as f:
                f.write(lines[0] + "\n" + "\n".join(lines[1:] * 40) + "\n")
        self.both(inflate)
        self.step("-j1", sort_log=True)
        self.step("-j1", "-t", "recompact", sort_log=True)

    def test_newer_log_version(self):
        self.step("-j1")

        def v8(root):
            path = os.path.join(root, ".ninja_log")
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(text.replace("# ninja log v7", "# ninja log v8"))
        self.both(v8)
        self.step("-j1")


class DepsScenarios(StateDiffTestCase):

    def setUp(self):
        super().setUp()
        self.write_files({"build.ninja": DEPS_GCC, "a.c": "a\n", "b.c": "b\n", "h1.h": "1\n", "sub/h2.h": "2\n"})

    def test_touch_header_known_from_deps_log(self):
        self.step("-j1")
        self.touch_newer("sub/h2.h")
        self.step("-j1", "-d", "explain")
        self.step("-j1")
        self.step("-t", "deps")

    def test_deleted_header(self):
        self.step("-j1")
        self.remove("h1.h")
        self.step("-j1", "-d", "explain")
        self.step("-j1", "-d", "explain")

    def test_deps_change_appends_records(self):
        self.step("-j1")
        self.write("build.ninja", DEPS_GCC.replace(" h1.h sub/h2.h", " sub/h2.h new.h"))
        self.write("new.h", "")
        self.step("-j1", "-d", "explain")
        self.step("-j1")
        self.step("-t", "deps", "a.o", "app")

    def test_deleted_deps_log(self):
        self.step("-j1")
        self.remove(".ninja_deps")
        self.step("-j1", "-d", "explain")

    def test_stale_deps_record(self):
        self.step("-j1")
        self.bump("a.o")
        self.step("-j1", "-d", "explain")

    def test_keepdepfile(self):
        self.step("-j1", "-d", "keepdepfile")
        self.touch_newer("h1.h")
        self.step("-j1")

    def test_truncated_deps_log(self):
        self.step("-j1")

        def chop(root):
            path = os.path.join(root, ".ninja_deps")
            with open(path, "rb") as f:
                data = f.read()
            with open(path, "wb") as f:
                f.write(data[:-5])
        self.both(chop)
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_bad_deps_signature(self):
        self.step("-j1")
        self.write(".ninja_deps", b"# ninjadeps\n" + struct.pack("<i", 3))
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_deps_recompaction(self):
        self.step("-j1")

        def inflate(root):
            m = os.stat(os.path.join(root, "a.o")).st_mtime_ns
            data = (DEPS_HEADER + struct.pack("<i", 4) + path_record("a.o", 0) + path_record("a.c", 1)
                    + path_record("h1.h", 2) + path_record("sub/h2.h", 3) + deps_record(0, m, [1, 2, 3]) * 1200)
            with open(os.path.join(root, ".ninja_deps"), "wb") as f:
                f.write(data)
        self.both(inflate)
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_tool_recompact_after_rule_change(self):
        self.step("-j1")
        self.write("build.ninja", DEPS_GCC.replace("build a.o: cc a.c", "build a.o: link a.c"))
        self.step("-t", "recompact")
        self.step("-j1", "-d", "explain")
        self.step("-t", "deps")

    def test_multiple_outputs_with_deps(self):
        self.write("build.ninja", "rule cc\n  command = printf 'x y: h1.h a.c\\n' > dep.d && cat a.c > x"
                                  " && cat a.c > y && cat a.c > z\n  depfile = dep.d\n  deps = gcc\n"
                                  "build x y | z: cc a.c\n")
        self.step()
        self.touch_newer("h1.h")
        self.step("-d", "explain")
        self.step("-t", "deps")

    def test_msvc_deps(self):
        self.write("build.ninja", "rule cl\n  command = printf 'a.c\\nNote: including file: h1.h\\nwarn\\n"
                                  "Note: including file:   sub/h2.h\\n' && cat $in > $out\n  deps = msvc\n"
                                  "build a.o: cl a.c\nrule cl2\n  command = printf 'INC: h1.h\\n' && cat $in > $out\n"
                                  "  deps = msvc\n  msvc_deps_prefix = INC:\nbuild b.o: cl2 b.c\n")
        self.step("-j1")
        self.touch_newer("sub/h2.h")
        self.step("-j1", "-d", "explain")
        self.step("-t", "deps")


@unittest.skipUnless(shutil.which("gcc"), "gcc not installed")
class GccScenarios(StateDiffTestCase):

    def test_real_compiler(self):
        self.write_files({
            "build.ninja": "rule cc\n  command = gcc -MD -MF $out.d -c $in -o $out\n  depfile = $out.d\n"
                           "  deps = gcc\nrule link\n  command = gcc $in -o $out\n"
                           "build a.o: cc a.c\nbuild m.o: cc m.c\nbuild app: link a.o m.o\n",
            "a.c": '#include "h.h"\nint f(void) { return H; }\n',
            "m.c": "int f(void);\nint main(void) { return f() - 1; }\n",
            "h.h": "#define H 1\n"})
        self.step("-j1")
        self.touch_newer("h.h")
        self.step("-j1")
        self.step("-j1")


class DepfileScenarios(StateDiffTestCase):

    def setUp(self):
        super().setUp()
        self.write_files({"build.ninja": "rule cc\n  command = cat $in > $out\n  depfile = $out.d\n"
                                         "build a.o: cc a.c\n", "a.c": "a\n", "h.h": ""})

    def test_depfile_at_scan_time(self):
        self.step()
        self.step("-d", "explain")
        self.write("a.o.d", "a.o: a.c \\\n h.h\nh.h:\n")
        self.step()
        self.touch_newer("h.h")
        self.step("-d", "explain")
        self.step()

    def test_depfile_escapes(self):
        self.step()
        self.write("a.o.d", b"a.o: a.c my\\ file.h d$$.h x\\#.h \\\r\n  crlf.h\r\n")
        self.step("-d", "explain")
        # Each strictly newer than the last, so "most recent input" names
        # crlf.h in both trees whatever the filesystem clock's granularity.
        for name in ("my file.h", "d$.h", "x#.h", "crlf.h"):
            self.touch_newer(name)
        self.step("-d", "explain")
        self.step()

    def test_depfile_errors(self):
        self.step()
        for content in ("foo\n", "  \n", "a.o b.o: a.c\n", "a.o: h.h\nh.h: x\n", "b.o: a.c\n"):
            with self.subTest(content=content):
                self.write("a.o.d", content)
                self.step("-d", "explain")


class RestatGeneratorScenarios(StateDiffTestCase):

    def test_restat_chain(self):
        self.write_files({"build.ninja": "rule cp\n  command = cmp -s $in $out || cp $in $out\n  restat = 1\n"
                                         "  description = CP $out\nrule cat\n  command = cat $in > $out\n"
                                         "build mid: cp src\nbuild o1: cat mid\nbuild o2: cat o1 other\n"
                                         "build o3: cat other\n",
                          "src": "1\n", "other": "o\n"})
        self.step("-j1")
        self.touch_newer("src")
        self.step("-j1", "-d", "explain")
        self.step("-j1")
        self.write("src", "2\n")
        self.touch_newer("src")
        self.step("-j1")

    def test_generator(self):
        self.write_files({"build.ninja": "rule gen\n  command = cat $in > $out\n  generator = 1\n"
                                         "build g: gen in\n", "in": "1\n"})
        self.step()
        self.write("build.ninja", "rule gen\n  command = cat $in  > $out\n  generator = 1\nbuild g: gen in\n")
        self.step("-d", "explain")
        self.remove(".ninja_log")
        self.step("-d", "explain")
        self.touch_newer("in")
        self.step("-d", "explain")

    def test_phony_force_and_order_only(self):
        self.write_files({"build.ninja": "rule r\n  command = cat $in > $out\nbuild FORCE: phony\n"
                                         "build stamp: r in | FORCE\nbuild o: r in || oo\nbuild oo: phony\n",
                          "in": "x\n"})
        self.step("-j1", "-d", "explain")
        self.step("-j1", "-d", "explain")


# A generator that remakes build.ninja from `ver`, whose number ends up in the cat rule's
# command (so a new version reruns its edges). It is plain cat so that the same scenarios run
# with ninja.exe under wine (test_win_diff.py), where a command cannot start Linux's Python.
GEN_HEAD = """rule regen
  command = cat gen.head ver gen.tail > build.ninja
  generator = 1
  description = REGEN
build build.ninja: regen gen.head ver gen.tail
rule cat
  command = cat $in > $out # v"""
GEN_TAIL = """  description = CAT $out
build a: cat in
build b: cat a
"""


def write_generator(root, version="1\n"):
    """The generator's inputs, and the build.ninja it makes of them."""
    harness.write_tree(root, {"gen.head": GEN_HEAD, "gen.tail": GEN_TAIL, "ver": version, "in": "x\n",
                              "build.ninja": GEN_HEAD + version + GEN_TAIL})


class RegenerationScenarios(StateDiffTestCase):

    def setUp(self):
        super().setUp()
        self.both(write_generator)
        self.age("gen.head", "gen.tail", "ver", seconds=100)
        self.age("build.ninja", "in", seconds=50)

    def test_regeneration(self):
        self.step("-j1")
        self.write("ver", "2\n")
        self.touch_newer("ver")
        self.step("-j1", "-d", "explain")
        self.step("-j1")

    def test_regeneration_dry_run(self):
        self.step("-j1")
        self.write("ver", "2\n")
        self.touch_newer("ver")
        self.step("-n", "-j1")
        self.step("-j1")

    def test_regeneration_loop(self):
        self.write("build.ninja", "rule regen\n  command = touch build.ninja\n  generator = 1\n"
                                  "build build.ninja: regen | FORCE\nbuild FORCE: phony\n")
        self.step()


class DyndepValidationScenarios(StateDiffTestCase):

    def test_dyndep(self):
        self.write_files(DYNDEP_TREE)
        self.step("-j1", "-d", "explain")
        self.step("-j1")
        self.touch_newer("extra.h")
        self.step("-j1", "-d", "explain")
        self.remove("out.imp")
        self.step("-j1")
        self.step("-t", "query", "out")

    def test_dyndep_restat_and_errors(self):
        self.write_files({
            "build.ninja": "rule mkdd\n  command = cp $in $out\nrule cp\n  command = cmp -s src mid || cp src mid\n"
                           "rule cat\n  command = cat $in > $out\nbuild dd: mkdd dd.in\n"
                           "build mid: cp src || dd\n  dyndep = dd\nbuild top: cat mid\n",
            "dd.in": "ninja_dyndep_version = 1\nbuild mid: dyndep\n  restat = 1\n", "src": "1\n"})
        self.step("-j1")
        self.touch_newer("src")
        self.step("-j1")
        self.write("dd.in", "ninja_dyndep_version = 1\nbuild mid: dyndep in\n")
        self.touch_newer("dd.in")
        self.step("-j1")

    def test_validations(self):
        self.write_files({"build.ninja": "rule r\n  command = cat $in > $out\nbuild out: r in |@ check\n"
                                         "build check: r out in2\nbuild other: r in\n",
                          "in": "1\n", "in2": "2\n"})
        self.step("-j1", "out")
        self.touch_newer("in2")
        self.step("-j1", "-d", "explain", "out")
        self.step("-j1")


# ==========================================================================
# Cross-compatibility: one build directory, two binaries.
# ==========================================================================

NO_WORK = "ninja: no work to do.\n"

CROSS_TREES = {
    "chain": {"build.ninja": CHAIN, "src1": "1\n", "src2": "2\n"},
    "deps": {"build.ninja": DEPS_GCC, "a.c": "a\n", "b.c": "b\n", "h1.h": "1\n", "sub/h2.h": "2\n"},
    "depfile": {"build.ninja": "rule cc\n  command = printf '$out: $in h1.h\\n' > $out.d && cat $in > $out\n"
                               "  depfile = $out.d\nbuild a.o: cc a.c\n", "a.c": "a\n", "h1.h": ""},
    "msvc": {"build.ninja": "rule cl\n  command = printf 'Note: including file: h1.h\\n' && cat $in > $out\n"
                            "  deps = msvc\nbuild a.o: cl a.c\n", "a.c": "a\n", "h1.h": ""},
    "restat": {"build.ninja": "rule cp\n  command = cmp -s $in $out || cp $in $out\n  restat = 1\n"
                              "rule cat\n  command = cat $in > $out\nbuild mid: cp src\nbuild o: cat mid\n",
               "src": "s\n"},
    "rspfile": {"build.ninja": "rule r\n  command = cp $rspfile $out\n  rspfile = $out.rsp\n"
                               "  rspfile_content = $in\nbuild out: r src\n", "src": ""},
    "builddir": {"build.ninja": "builddir = bd\n" + DEPS_GCC, "a.c": "a\n", "b.c": "b\n", "h1.h": "1\n",
                 "sub/h2.h": "2\n"},
    "generator": {"build.ninja": "rule gen\n  command = cat $in > $out\n  generator = 1\nbuild g: gen in\n"
                                 "rule cat\n  command = cat $in > $out\nbuild h: cat g\n", "in": "i\n"},
    "dyndep": {"build.ninja": "rule cp\n  command = cp $in $out\nrule r\n  command = cat $in > $out && "
                              "touch out.imp\nbuild dd: cp dd.in\nbuild out: r in || dd\n  dyndep = dd\n",
               "dd.in": "ninja_dyndep_version = 1\nbuild out | out.imp: dyndep | extra.h\n",
               "in": "x\n", "extra.h": ""},
    "multiout": {"build.ninja": "rule r\n  command = touch $out imp\nbuild x y | imp: r in\n", "in": ""},
}


class TreeHandoverTests(DifferentialTestCase):
    """The reference builds each tree of TREES in ref_dir and ours continues there; ours builds
    in ours_dir and the reference continues there."""

    TREES = CROSS_TREES

    def handover(self, tree, first, second, root):
        harness.write_tree(root, tree)
        r = self.run_in(first, root, "-j1")
        self.assertEqual(r.returncode, 0, r)
        r = self.run_in(second, root, "-j1")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, NO_WORK, ""), "after handover")
        r = self.run_in(first, root, "-j1")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, NO_WORK, ""), "handed back")

    def test_reference_then_ours_no_work(self):
        for name, tree in sorted(self.TREES.items()):
            with self.subTest(tree=name):
                root = os.path.join(self.ref_dir, name)
                os.makedirs(root)
                self.handover(tree, self.REF, self.OURS, root)

    def test_ours_then_reference_no_work(self):
        for name, tree in sorted(self.TREES.items()):
            with self.subTest(tree=name):
                root = os.path.join(self.ours_dir, name)
                os.makedirs(root)
                self.handover(tree, self.OURS, self.REF, root)


class CrossCompatTests(DifferentialTestCase):
    """One build directory, two binaries: builds and rebuilds by one, then the other."""

    def test_generated_manifest_handover(self):
        for first, second, base in ((self.REF, self.OURS, self.ref_dir),
                                    (self.OURS, self.REF, self.ours_dir)):
            write_generator(base)
            set_mtime_ago(base, ["gen.head", "gen.tail", "ver"], 100)
            set_mtime_ago(base, ["build.ninja", "in"], 50)
            self.assertEqual(self.run_in(first, base, "-j1").returncode, 0)
            with open(os.path.join(base, "ver"), "w") as f:
                f.write("2\n")
            touch_newer(base, "ver")
            r = self.run_in(first, base, "-j1")
            self.assertEqual(r.stdout, "[1/1] REGEN\n[1/3] CAT a\n[2/3] CAT b\n")
            r = self.run_in(second, base, "-j1")
            self.assertEqual((r.returncode, r.stdout, r.stderr), (0, NO_WORK, ""))

    def _header_touch(self, builder, rebuilder, root):
        harness.write_tree(root, CROSS_TREES["deps"])
        harness.write_tree(root, {"c.c": "c\n"})
        with open(os.path.join(root, "build.ninja"), "a") as f:
            f.write("rule cc2\n  command = printf '%s: %s\\n' $out $in > $out.d && cat $in > $out\n"
                    "  depfile = $out.d\n  deps = gcc\n  description = CC $out\nbuild c.o: cc2 c.c\n")
        r = self.run_in(builder, root, "-j1")
        self.assertEqual(r.returncode, 0, r)
        touch_newer(root, "sub/h2.h")
        r = self.run_in(rebuilder, root, "-j1")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "[1/3] CC a.o\n[2/3] CC b.o\n[3/3] cat a.o b.o > app\n", ""))
        r = self.run_in(builder, root, "-j1")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, NO_WORK, ""))

    def test_header_from_reference_deps_log_rebuilds_with_ours(self):
        self._header_touch(self.REF, self.OURS, self.ref_dir)

    def test_header_from_our_deps_log_rebuilds_with_reference(self):
        self._header_touch(self.OURS, self.REF, self.ours_dir)

    def test_header_touch_same_with_either_binary(self):
        # ref_dir: reference builds, reference rebuilds; ours_dir: reference
        # builds, ours rebuilds. Same commands, same resulting state.
        results = []
        for root, rebuilder in ((self.ref_dir, self.REF), (self.ours_dir, self.OURS)):
            harness.write_tree(root, CROSS_TREES["deps"])
            self.assertEqual(self.run_in(self.REF, root, "-j1").returncode, 0)
            touch_newer(root, "h1.h")
            r = self.run_in(rebuilder, root, "-j1", "-d", "explain")
            results.append((r.returncode, r.stdout, normalize(r.stderr, root),
                            log_structure(os.path.join(root, ".ninja_log")),
                            deps_structure(os.path.join(root, ".ninja_deps"))))
        self.assertEqual(results[0], results[1])

    def test_command_change_detected_across_binaries(self):
        for first, second, root in ((self.REF, self.OURS, self.ref_dir),
                                    (self.OURS, self.REF, self.ours_dir)):
            harness.write_tree(root, CROSS_TREES["chain"])
            self.assertEqual(self.run_in(first, root, "-j1").returncode, 0)
            harness.write_tree(root, {"build.ninja": "rule cat2\n  command = cat $in $in > $out\n"
                                      + CHAIN.replace("build d: cat src2", "build d: cat2 src2\nbuild e: cat src1")})
            r = self.run_in(second, root, "-j1", "-d", "explain")
            self.assertEqual((r.returncode, r.stdout),
                             (0, "[1/2] cat src2 src2 > d\n[2/2] CAT e\n"))
            self.assertEqual(r.stderr, "ninja explain: command line changed for d\n"
                                       "ninja explain: output e doesn't exist\n")
            self.assertEqual([(p, h) for p, h in log_structure(os.path.join(root, ".ninja_log"))][-2:],
                             [("d", hash_hex("cat src2 src2 > d")), ("e", hash_hex("cat src1 > e"))])


if __name__ == "__main__":
    harness.main()
