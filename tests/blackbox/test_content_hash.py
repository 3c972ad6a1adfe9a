"""--content-hash (src/scan/content_hash_store.cc, src/log/state_file.cc).

An input whose mtime changed but whose content did not rebuilds nothing;
an output rewritten with identical content stops the rebuild (early
cutoff); a content change rebuilds exactly what Ninja would. Content is
kept in .ronin_state, which ronin touches only with the option, and which
survives SIGKILL and a full disk. Ninja 1.13.2 keeps working on the same
build directory.

Knobs: CONTENT_HASH_FILES (sources in the CMake/git project, default 300),
CONTENT_HASH_KILLS (SIGKILL rounds, default 12), CONTENT_HASH_STEPS (edit
steps of the differential test, default 8).
"""

import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

import fmt_source
import harness
from harness import NINJA, REF_NINJA, NinjaTestCase, run

STATE = ".ronin_state"

# Each command says what it builds (its output line), so the commands that
# ran can be read from stdout whatever the status format.
MANIFEST = """\
rule cp
  command = cat $in > $out && echo RUN $out
rule gen
  command = grep -v '^#' $in > $out && echo RUN $out
build gen.h: gen gen.in
build a.o: cp a.c common.h gen.h
build b.o: cp b.c common.h
build c.o: cp c.c || gen.h
build app: cp a.o b.o c.o
default app
"""

SOURCES = {"a.c": "a\n", "b.c": "b\n", "c.c": "c\n", "common.h": "common\n", "gen.in": "g\n"}


def ran(result):
    return sorted(re.findall(r"^RUN (\S+)$", result.stdout, re.M))


def rewrite(root, rel, content=None):
    """Rewrites a file (with its own content by default) after a pause, so
    that it is newer than anything built before (never in the future, which
    would make outputs built later older than it)."""
    path = os.path.join(root, rel)
    if content is None:
        with open(path) as f:
            content = f.read()
    time.sleep(0.02)
    with open(path, "w") as f:
        f.write(content)


class ContentHashTest(NinjaTestCase):
    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)
        for rel, content in SOURCES.items():
            self.write(rel, content)

    def build(self, *args, env=None):
        r = self.ninja(*args, env=env)
        self.assertEqual(r.returncode, 0, r)
        return r

    def test_identical_rewrite_is_no_work_with_the_option(self):
        self.assertEqual(ran(self.build("--content-hash")), ["a.o", "app", "b.o", "c.o", "gen.h"])
        for rel in SOURCES:
            rewrite(self.dir, rel)
        r = self.build("--content-hash")
        self.assertEqual(r.stdout, "ninja: no work to do.\n")
        # Nothing was rebuilt, so nothing is newer than before: still no work.
        self.assertEqual(self.build("--content-hash").stdout, "ninja: no work to do.\n")

    def test_through_ronin_flags(self):
        env = {"RONIN_FLAGS": "--content-hash"}
        self.build(env=env)
        rewrite(self.dir, "a.c")
        rewrite(self.dir, "common.h")
        self.assertEqual(self.build(env=env).stdout, "ninja: no work to do.\n")

    def test_listed_by_help(self):
        r = self.ninja("-h")
        self.assertRegex(r.stderr, r"\n  --content-hash +skip commands whose inputs changed mtime but not content\n")

    def test_without_the_option_it_rebuilds_as_ninja(self):
        self.build("--content-hash")
        rewrite(self.dir, "a.c")
        self.assertEqual(ran(self.build()), ["a.o", "app"])

    def test_explain_names_the_inputs_checked(self):
        self.build("--content-hash")
        rewrite(self.dir, "common.h")
        r = self.build("--content-hash", "-d", "explain")
        self.assertEqual(r.stdout, "ninja: no work to do.\n")
        for output in ("a.o", "b.o"):
            self.assertRegex(r.stderr, r"ninja explain: common\.h is newer than %s \(\d+ vs \d+\) "
                             r"but its content is unchanged since %s was built\n" % (output, output))
        self.assertNotIn("c.o", r.stderr)

    def test_content_change_rebuilds_what_ninja_would(self):
        self.build("--content-hash")
        rewrite(self.dir, "common.h", "common 2\n")
        self.assertEqual(ran(self.build("--content-hash")), ["a.o", "app", "b.o"])
        rewrite(self.dir, "b.c", "b 2\n")
        rewrite(self.dir, "a.c")  # touched only
        self.assertEqual(ran(self.build("--content-hash")), ["app", "b.o"])
        self.assertEqual(self.read("app"), "a\ncommon 2\ng\nb 2\ncommon 2\nc\n")

    def test_identical_regenerated_header_stops_at_the_generator(self):
        self.build("--content-hash")
        rewrite(self.dir, "gen.in", "# a comment the generator drops\ng\n")
        r = self.build("--content-hash")
        self.assertEqual(ran(r), ["gen.h"])
        self.assertEqual(self.build("--content-hash").stdout, "ninja: no work to do.\n")
        # The edges cut off were left as a run leaves them: clean without the option too.
        self.assertEqual(self.build().stdout, "ninja: no work to do.\n")
        # A real change goes through.
        rewrite(self.dir, "gen.in", "g 2\n")
        self.assertEqual(ran(self.build("--content-hash")), ["a.o", "app", "gen.h"])

    def test_new_input_missing_output_and_changed_command_rebuild(self):
        self.build("--content-hash")
        os.unlink(self.path("b.o"))
        self.assertEqual(ran(self.build("--content-hash")), ["app", "b.o"])
        # b.o comes out identical: app is cut off early.
        self.write("build.ninja", MANIFEST.replace("build b.o: cp b.c common.h", "build b.o: cp b.c common.h | extra.h"))
        rewrite(self.dir, "extra.h", "x\n")
        self.assertEqual(ran(self.build("--content-hash")), ["b.o"])
        self.write("build.ninja", self.read("build.ninja").replace("echo RUN $out", "echo RUN $out;"))
        self.assertEqual(ran(self.build("--content-hash")), ["a.o", "app", "b.o", "c.o", "gen.h"])

    def test_output_rewritten_outside_the_build_is_rebuilt(self):
        # A command that failed after writing its output (or ninja without the
        # option) leaves outputs that the recorded run did not write.
        self.build("--content-hash")
        rewrite(self.dir, "a.c")
        self.write("a.o", "garbage\n")
        self.assertEqual(ran(self.build("--content-hash")), ["a.o", "app"])
        self.assertEqual(self.read("a.o"), "a\ncommon\ng\n")

    def test_failed_run_without_the_option_then_revert(self):
        # a.c changes and a run without the option fails after writing a.o;
        # a.c goes back to the content of the last good run: a.o must rebuild.
        self.build("--content-hash")
        self.write("build.ninja", "rule bad\n  command = cat $in > $out && false\n"
                   + MANIFEST.replace("build a.o: cp a.c", "build a.o: bad a.c"))
        rewrite(self.dir, "a.c", "a 2\n")
        self.assertEqual(self.ninja().returncode, 1)
        self.write("build.ninja", MANIFEST)
        rewrite(self.dir, "a.c", "a\n")
        self.assertEqual(ran(self.build("--content-hash")), ["a.o", "app"])
        self.assertEqual(self.read("a.o"), "a\ncommon\ng\n")

    def test_without_the_option_the_state_file_is_neither_read_nor_written(self):
        self.build()
        self.assertFalse(self.exists(STATE))
        self.write(STATE, "not a state file")
        rewrite(self.dir, "a.c")
        r = self.build()
        self.assertEqual((ran(r), r.stderr), (["a.o", "app"], ""))
        self.assertEqual(self.read(STATE), "not a state file")

    def test_a_bad_state_file_starts_over_with_a_warning(self):
        self.write(STATE, "not a state file")
        r = self.build("--content-hash")
        self.assertIn("ninja: warning: .ronin_state: bad signature or version; starting over\n", r.stderr)
        rewrite(self.dir, "a.c")
        self.assertEqual(self.build("--content-hash").stdout, "ninja: no work to do.\n")

    def test_dry_run_writes_no_state(self):
        r = self.build("--content-hash", "-n")
        self.assertEqual(ran(r), [])
        self.assertFalse(self.exists(STATE))

    def test_builddir_holds_the_state_file(self):
        self.write("build.ninja", "builddir = out\n" + MANIFEST)
        self.build("--content-hash")
        self.assertTrue(self.exists("out/" + STATE))
        self.assertFalse(self.exists(STATE))

    def test_deps_gcc_discovered_headers_are_hashed(self):
        self.write("build.ninja", """\
rule cc
  command = printf '%s: %s dep.h\\n' $out $in > $out.d && cat $in dep.h > $out && echo RUN $out
  depfile = $out.d
  deps = gcc
build x.o: cc x.c
""")
        self.write("x.c", "x\n")
        self.write("dep.h", "d\n")
        self.assertEqual(ran(self.build("--content-hash")), ["x.o"])
        rewrite(self.dir, "dep.h")
        self.assertEqual(self.build("--content-hash").stdout, "ninja: no work to do.\n")
        rewrite(self.dir, "dep.h", "d 2\n")
        self.assertEqual(ran(self.build("--content-hash")), ["x.o"])


@unittest.skipUnless(REF_NINJA, harness.SKIP_NO_REF)
class ReferenceNinjaOnTheSameDirTest(NinjaTestCase):
    """ninja 1.13.2 after ronin --content-hash, and the other way round."""

    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)
        for rel, content in SOURCES.items():
            self.write(rel, content)

    def ref(self, *args):
        r = self.reference(*args)
        self.assertEqual(r.returncode, 0, r)
        return r

    def ours(self, *args):
        r = self.ninja("--content-hash", *args)
        self.assertEqual(r.returncode, 0, r)
        return r

    def test_reference_rebuilds_by_its_mtime_rules_then_is_clean(self):
        self.ours()
        rewrite(self.dir, "a.c", "a 2\n")
        # Ninja sees a.c newer than a.o: it rebuilds what its rules say.
        self.assertEqual(ran(self.ref()), ["a.o", "app"])
        self.assertEqual(self.ref().stdout, "ninja: no work to do.\n")
        self.assertEqual(self.ours().stdout, "ninja: no work to do.\n")
        self.assertEqual(self.ref("-t", "recompact").returncode, 0)

    def test_skipped_edges_are_clean_for_ninja(self):
        self.ours()
        rewrite(self.dir, "a.c")
        self.assertEqual(self.ours().stdout, "ninja: no work to do.\n")
        self.assertEqual(self.ref("-d", "explain").stdout, "ninja: no work to do.\n")
        self.assertEqual(self.ref("-t", "recompact").returncode, 0)
        self.assertEqual(self.ours().stdout, "ninja: no work to do.\n")

    def test_ours_learns_hashes_on_a_dir_ninja_built(self):
        self.ref()
        rewrite(self.dir, "a.c")
        # No record yet: mtimes decide, and the run records content.
        self.assertEqual(ran(self.ours()), ["a.o", "app"])
        rewrite(self.dir, "a.c")
        self.assertEqual(self.ours().stdout, "ninja: no work to do.\n")


# Every kind of edge a skip must leave clean for Ninja: a generator of the
# manifest itself, a restat rule, a deps = gcc rule, a phony alias read by
# a later edge, order-only inputs, and a chain downstream of all of them.
SETTLE_MANIFEST = """\
rule cp
  command = cat $in > $out && echo RUN $out
rule gen
  command = grep -v '^#' $in > $out && echo RUN $out
rule regen
  command = cp $in $out && echo RUN $out
  generator = 1
rule rs
  command = cmp -s $in $out || cp $in $out && echo RUN $out
  restat = 1
rule cc
  command = printf '%s: %s dep.h\\n' $out $in > $out.d && cat $in dep.h > $out && echo RUN $out
  depfile = $out.d
  deps = gcc
build build.ninja: regen build.in
build gen.h: gen gen.in
build a.o: cp a.c common.h gen.h
build r.h: rs r.in
build b.o: cp b.c | r.h
build d.o: cc d.c
build objs: phony a.o b.o
build app: cp d.o | objs
build c.o: cp c.c || gen.h
build lib: cp app c.o
default lib
"""

SETTLE_SOURCES = ["a.c", "b.c", "c.c", "d.c", "common.h", "dep.h", "gen.in", "r.in", "build.in"]


@unittest.skipUnless(REF_NINJA, harness.SKIP_NO_REF)
class SkipsSettledForNinjaTest(NinjaTestCase):
    """After --content-hash skipped edges, ninja 1.13.2 and ronin without the
    option find the directory up to date, downstream edges included."""

    def setUp(self):
        super().setUp()
        self.write("build.ninja", SETTLE_MANIFEST)
        for rel in SETTLE_SOURCES[:-1]:
            self.write(rel, rel + "\n")
        rewrite(self.dir, "build.in", SETTLE_MANIFEST)  # the first build regenerates too
        self.assertEqual(len(ran(self.ours())), 9)

    def ours(self, *args):
        r = self.ninja("--content-hash", *args)
        self.assertEqual(r.returncode, 0, r)
        return r

    def assertCleanForAll(self):
        ref = self.reference("-d", "explain")
        self.assertEqual((ref.returncode, ref.stdout, ref.stderr), (0, "ninja: no work to do.\n", ""))
        plain = self.ninja("-d", "explain")
        self.assertEqual((plain.stdout, plain.stderr), ("ninja: no work to do.\n", ""))
        self.assertEqual(self.ours().stdout, "ninja: no work to do.\n")

    def test_every_source_touched(self):
        for rel in SETTLE_SOURCES:
            rewrite(self.dir, rel)
        self.assertEqual(self.ours().stdout, "ninja: no work to do.\n")
        self.assertCleanForAll()

    def test_outputs_cut_off_early(self):
        rewrite(self.dir, "gen.in", "# dropped by the generator\ngen.in\n")
        rewrite(self.dir, "r.in")
        self.assertEqual(ran(self.ours()), ["gen.h"])
        self.assertCleanForAll()

    def test_a_change_among_touches(self):
        for rel in SETTLE_SOURCES:
            rewrite(self.dir, rel)
        rewrite(self.dir, "d.c", "d 2\n")
        self.assertEqual(ran(self.ours()), ["app", "d.o", "lib"])
        self.assertCleanForAll()
        self.assertEqual(self.read("lib"), "d 2\ndep.h\nc.c\n")

    def test_one_target_leaves_the_rest_to_its_rules(self):
        # Only what was asked for is settled: lib, not asked for, is older
        # than the a.o settled now, as after a run of a.o alone.
        rewrite(self.dir, "a.c")
        self.assertEqual(self.ours("a.o").stdout, "ninja: no work to do.\n")
        self.assertEqual(self.reference("a.o").stdout, "ninja: no work to do.\n")
        self.assertEqual(ran(self.reference()), ["app", "lib"])

    def test_logs_stay_ninjas(self):
        for rel in SETTLE_SOURCES:
            rewrite(self.dir, rel)
        self.ours()
        self.assertEqual(self.reference("-t", "recompact").returncode, 0)
        deps = self.reference("-t", "deps", "d.o")
        self.assertIn("d.o: #deps 2, deps mtime", deps.stdout)
        self.assertIn("(VALID)", deps.stdout)
        self.assertCleanForAll()

    def test_random_touches_and_edits(self):
        rng = random.Random(int(os.environ.get("CONTENT_HASH_SEED", "10")))
        for step in range(int(os.environ.get("CONTENT_HASH_STEPS", "8"))):
            for rel in rng.sample(SETTLE_SOURCES[:-1], rng.randint(1, 4)):
                edit = rng.random() < 0.3
                rewrite(self.dir, rel, "%s %d\n" % (rel, step) if edit else None)
            self.ours()
            self.assertCleanForAll()


class DifferentialContentTest(unittest.TestCase):
    """The same sequence of content edits runs the same commands with and
    without --content-hash, and as reference ninja 1.13.2."""

    def make_tree(self, root):
        harness.write_tree(root, {"build.ninja": MANIFEST + """\
rule cc
  command = printf '%s: %s dep.h\\n' $out $in > $out.d && cat $in dep.h > $out && echo RUN $out
  depfile = $out.d
  deps = gcc
build d.o: cc d.c
build lib: cp d.o app
default lib
"""})
        harness.write_tree(root, dict(SOURCES, **{"d.c": "d\n", "dep.h": "h\n"}))

    def test_same_commands_for_content_changes(self):
        variants = {"with": (NINJA, ["--content-hash"]), "without": (NINJA, [])}
        if REF_NINJA:
            variants["ref"] = (REF_NINJA, [])
        roots = {}
        for name in variants:
            roots[name] = tempfile.mkdtemp(prefix="ronin-content-%s-" % name)
            self.addCleanup(shutil.rmtree, roots[name], True)
            self.make_tree(roots[name])
        rng = random.Random(int(os.environ.get("CONTENT_HASH_SEED", "10")))
        files = sorted(list(SOURCES) + ["d.c", "dep.h"])
        steps = int(os.environ.get("CONTENT_HASH_STEPS", "8"))
        for step in range(steps + 1):
            commands = {}
            for name, (binary, args) in variants.items():
                r = run(binary, args + ["-j1"], roots[name])
                self.assertEqual(r.returncode, 0, r)
                commands[name] = ran(r)
            self.assertEqual(commands["with"], commands["without"], "step %d" % step)
            if "ref" in commands:
                self.assertEqual(commands["ref"], commands["without"], "step %d" % step)
            # Content changes the generator does not drop (no '#').
            edits = rng.sample(files, rng.randint(1, 3))
            for rel in edits:
                content = "%s %d\n" % (rel, step)
                for root in roots.values():
                    rewrite(root, rel, content)
        outputs = {}
        for name, root in roots.items():
            with open(os.path.join(root, "lib")) as f:
                outputs[name] = f.read()
        for name in roots:
            self.assertEqual(outputs[name], outputs["without"], name)


# --------------------------------------------------------------------------
# A real git repository and CMake project
# --------------------------------------------------------------------------

def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=a"] + list(args),
                   cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@unittest.skipUnless(shutil.which("git") and shutil.which("cmake") and shutil.which("cc"),
                     "SKIPPED: git, cmake or cc not installed (apt-get install git cmake gcc)")
class GitBranchSwitchTest(unittest.TestCase):
    """Two branches that differ in 30 % of the sources and in one header;
    switching away and back rebuilds nothing, and building the other branch
    rebuilds only what its changes need."""

    def setUp(self):
        self.count = int(os.environ.get("CONTENT_HASH_FILES", "300"))
        self.src = tempfile.mkdtemp(prefix="ronin-git-")
        self.addCleanup(shutil.rmtree, self.src, True)
        self.build_dir = os.path.join(self.src, "build")
        self.changed = set(range(0, self.count, 10)) | set(range(3, self.count, 10)) | set(range(7, self.count, 10))
        self.special_users = set(range(5, self.count, 30))  # include the header that differs

    def source(self, i, branch):
        value = i if branch == "a" or i not in self.changed else i + 1000
        include = '#include "special.h"\n' if i in self.special_users else ""
        return '#include "common.h"\n%sint f%d(void) { return %d; }\n' % (include, i, value)

    def write_branch(self, branch):
        files = {"src/f%03d.c" % i: self.source(i, branch) for i in range(self.count)}
        files["include/common.h"] = "#define COMMON 1\n"
        files["include/special.h"] = "#define SPECIAL %d\n" % (1 if branch == "a" else 2)
        calls = "".join("int f%d(void);\n" % i for i in range(self.count))
        files["main.c"] = calls + "int main(void) { return f0() & 0; }\n"
        files["CMakeLists.txt"] = ("cmake_minimum_required(VERSION 3.16)\nproject(p C)\n"
                                   "file(GLOB SRC src/*.c)\ninclude_directories(include)\n"
                                   "add_library(lib STATIC ${SRC})\nadd_executable(app main.c)\n"
                                   "target_link_libraries(app lib)\n")
        harness.write_tree(self.src, files)

    def ninja(self, *args):
        env = harness.base_env({"RONIN_FLAGS": "--content-hash"})
        r = subprocess.run([NINJA, "-C", self.build_dir, "-j2"] + list(args), env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
        return r.stdout

    def compiled(self, out):
        return sorted(int(n) for n in re.findall(r"Building C object \S+/f(\d+)\.c\.o", out))

    def test_switch_away_and_back_rebuilds_nothing(self):
        self.write_branch("a")
        git(self.src, "init", "-q")
        with open(os.path.join(self.src, ".gitignore"), "w") as f:
            f.write("build/\n")
        git(self.src, "add", "-A")
        git(self.src, "commit", "-qm", "a")
        git(self.src, "checkout", "-qb", "b")
        self.write_branch("b")
        git(self.src, "commit", "-qam", "b")
        git(self.src, "checkout", "-q", "a")
        subprocess.run(["cmake", "-S", self.src, "-B", self.build_dir, "-G", "Ninja",
                        "-DCMAKE_MAKE_PROGRAM=" + NINJA], check=True, stdout=subprocess.DEVNULL)
        first = self.ninja()
        self.assertEqual(len(self.compiled(first)), self.count)

        time.sleep(0.05)
        git(self.src, "checkout", "-q", "b")
        git(self.src, "checkout", "-q", "a")
        self.assertEqual(self.ninja(), "ninja: Entering directory `%s'\nninja: no work to do.\n" % self.build_dir)

        git(self.src, "checkout", "-q", "b")
        on_b = self.ninja()
        self.assertEqual(self.compiled(on_b), sorted(self.changed | self.special_users))
        self.assertIn("Linking C executable app", on_b)
        self.assertTrue(self.ninja().endswith("ninja: no work to do.\n"))


@unittest.skipUnless(shutil.which("cmake") and shutil.which("c++"),
                     "SKIPPED: cmake or c++ not installed (apt-get install cmake g++)")
class CMakeRegenerationTest(unittest.TestCase):
    """After a touch of CMake's inputs, its re-run edge runs once (ronin has
    not seen it run yet), then is skipped; and each time, ninja 1.13.2 finds
    the directory up to date."""

    def configure(self, src):
        self.build_dir = os.path.join(os.path.dirname(src), "build")
        subprocess.run(["cmake", "-S", src, "-B", self.build_dir, "-G", "Ninja", "-DCMAKE_MAKE_PROGRAM=" + NINJA,
                        "-DFMT_DOC=OFF"], check=True, stdout=subprocess.DEVNULL, timeout=600)

    def ninja(self, *args):
        r = subprocess.run([NINJA, "-C", self.build_dir, "--content-hash"] + list(args), env=harness.base_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=1200)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
        return r.stdout

    def assertNinjaFindsNoWork(self, *targets):
        if not REF_NINJA:
            return
        r = run(REF_NINJA, ["-C", self.build_dir] + list(targets), self.build_dir)
        self.assertEqual(r.stdout.splitlines()[-1:], ["ninja: no work to do."], r)

    def regeneration_runs(self, touched, target):
        runs = []
        for _ in range(3):
            time.sleep(0.02)
            for path in touched:
                os.utime(path)
            runs.append(self.ninja(target).count("Re-running CMake..."))
            self.assertNinjaFindsNoWork(target)
        return runs

    def test_one_file_project(self):
        root = tempfile.mkdtemp(prefix="ronin-regen-")
        self.addCleanup(shutil.rmtree, root, True)
        src = os.path.join(root, "src")
        harness.write_tree(src, {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(one CXX)\n"
                                                   "add_executable(hello hello.cc)\n",
                                 "hello.cc": "int main() { return 0; }\n"})
        self.configure(src)
        self.ninja()
        touched = [os.path.join(src, name) for name in ("CMakeLists.txt", "hello.cc")]
        self.assertEqual(self.regeneration_runs(touched, "all"), [1, 0, 0])

    def test_fmt(self):
        root = tempfile.mkdtemp(prefix="ronin-regen-fmt-")
        self.addCleanup(shutil.rmtree, root, True)
        src = fmt_source.copy_fmt_source(os.path.join(root, "src"))
        self.configure(src)
        self.ninja("fmt")
        touched = [os.path.join(src, "CMakeLists.txt"), os.path.join(src, "test", "CMakeLists.txt")]
        self.assertEqual(self.regeneration_runs(touched, "build.ninja"), [1, 0, 0])
        # Every source touched: the library's compiles are skipped, and left
        # clean for Ninja.
        for folder, _, files in os.walk(src):
            for name in files:
                os.utime(os.path.join(folder, name))
        self.assertTrue(self.ninja("fmt").endswith("ninja: no work to do.\n"))
        self.assertNinjaFindsNoWork("fmt")


# --------------------------------------------------------------------------
# Faults: SIGKILL at random points, a full disk
# --------------------------------------------------------------------------

def chain_tree(sources=10):
    """m_i = s_i + s_(i+1); top = all m_i. A command first writes a partial
    output, then the real one: a kill can leave either."""
    lines = ["builddir = t\n",
             "rule cat\n  command = printf partial > $out; sleep 0.01; cat $in > $out\n"]
    mids = []
    for i in range(sources - 1):
        lines.append("build m%d: cat s%d s%d\n" % (i, i, i + 1))
        mids.append("m%d" % i)
    lines.append("build top: cat %s\n" % " ".join(mids))
    files = {"build.ninja": "".join(lines)}
    files.update({"s%d" % i: "s%d v0\n" % i for i in range(sources)})
    return files


def expected_top(root, sources=10):
    text = []
    for i in range(sources - 1):
        for j in (i, i + 1):
            with open(os.path.join(root, "s%d" % j)) as f:
                text.append(f.read())
    return "".join(text)


class StateFileFaultTest(NinjaTestCase):
    def build(self, *args):
        r = self.ninja("--content-hash", *args)
        self.assertEqual(r.returncode, 0, r)
        return r

    def assertCorrect(self):
        with open(self.path("top")) as f:
            self.assertEqual(f.read(), expected_top(self.dir))
        self.assertEqual(self.build().stdout, "ninja: no work to do.\n")

    def test_sigkill_at_random_points(self):
        harness.write_tree(self.dir, chain_tree())
        self.build()
        rng = random.Random(int(os.environ.get("CONTENT_HASH_SEED", "11")))
        for round_ in range(int(os.environ.get("CONTENT_HASH_KILLS", "12"))):
            for i in rng.sample(range(10), 4):
                same = rng.random() < 0.5
                rewrite(self.dir, "s%d" % i, None if same else "s%d v%d\n" % (i, round_ + 1))
            proc = subprocess.Popen([NINJA, "--content-hash", "-j2"], cwd=self.dir, env=harness.base_env(),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            time.sleep(rng.uniform(0.0, 0.15))
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            r = self.build()
            self.assertNotIn("error", r.stderr)
            self.assertCorrect()

    @unittest.skipUnless(os.geteuid() == 0, "SKIPPED: needs root to mount a tmpfs")
    def test_full_disk_then_recovery(self):
        harness.write_tree(self.dir, chain_tree(40))
        t = self.path("t")
        os.makedirs(t)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", t],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            self.skipTest("SKIPPED: cannot mount a tmpfs: %s" % r.stdout.decode().strip())
        self.addCleanup(subprocess.run, ["umount", "-l", t], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        from test_faults import fill_disk
        fill_disk(t, leave=3000)
        first = self.ninja("--content-hash", "-j1")
        self.assertIn(first.returncode, (0, 1), first)
        self.assertTrue(first.returncode or first.stderr, "the disk was never full: %r" % first)
        for line in first.stderr.splitlines():
            self.assertRegex(line, r"^ninja: warning: writing t/\.ronin_state: No space left on device; "
                                   r"the build goes on( without recording content digests|"
                                   r", but -t trace will lack its details)$")
        if first.returncode:
            self.assertIn("ninja: build stopped: Error writing to build log: No space left on device.", first.stdout)
        os.unlink(os.path.join(t, "fill"))
        second = self.build("-j1")
        self.assertEqual(second.stderr, "")
        with open(self.path("top")) as f:
            self.assertEqual(f.read(), expected_top(self.dir, 40))
        self.assertEqual(self.build().stdout, "ninja: no work to do.\n")
        for i in range(40):
            rewrite(self.dir, "s%d" % i)
        self.assertEqual(self.build().stdout, "ninja: no work to do.\n")
