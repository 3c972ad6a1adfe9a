"""`--question`: exit 0 when the targets are up to date, 1 when a build would run something, 2 on
errors; nothing printed (but -d explain's reasons and error messages), nothing written.

The answer must be the one a build acts on: over every scenario of the differential generator
(test_diff_random's manifests and invocation sequences) it is checked against `-n` on the same
tree before each step, and against the real build that follows.

    NINJA=<ours> python3 -m unittest -v test_question
"""

import os
import random
import re
import shutil
import tempfile
import unittest

from harness import NinjaTestCase, bump_mtime, list_tree, run, write_tree, NINJA
import test_diff_random

RULES = "rule cc\n  command = cp $in $out\nrule link\n  command = cat $in > $out\n"
TREE = RULES + "build a.o: cc a.c\nbuild b.o: cc b.c\nbuild app: link a.o b.o\n"


class QuestionTest(NinjaTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", TREE)
        self.write("a.c", "a\n")
        self.write("b.c", "b\n")

    def question(self, *args, env=None):
        return self.ninja("--question", *args, env=env)

    def assertAnswer(self, result, code, stderr=""):
        self.assertEqual((code, "", stderr), (result.returncode, result.stdout, result.stderr), result)

    def test_never_built_then_built_then_touched(self):
        self.assertAnswer(self.question(), 1)
        self.assertEqual(0, self.ninja().returncode)
        self.assertAnswer(self.question(), 0)
        bump_mtime(self.path("b.c"))
        self.assertAnswer(self.question(), 1)
        self.assertAnswer(self.question("a.o"), 0)  # only what is asked for counts
        self.assertAnswer(self.question("b.o"), 1)

    def test_nothing_is_run_or_written(self):
        self.write("build.ninja", "builddir = out\n" + TREE)
        before = list_tree(self.dir)
        self.assertAnswer(self.question(), 1)
        self.assertEqual(before, list_tree(self.dir))  # no outputs, no logs, no lock, no builddir
        self.assertEqual(0, self.ninja().returncode)
        log = self.read("out/.ninja_log")
        bump_mtime(self.path("a.c"))
        self.assertAnswer(self.question(), 1)
        self.assertEqual(log, self.read("out/.ninja_log"))
        self.assertFalse(self.exists("out/.ninja_lock"))

    def test_errors_are_2_with_their_message(self):
        self.assertAnswer(self.question("zzzzzzzz"), 2, "ninja: error: unknown target 'zzzzzzzz'\n")
        os.remove(self.path("b.c"))
        self.assertAnswer(self.question(), 2,
                          "ninja: error: 'b.c', needed by 'b.o', missing and no known rule to make it\n")
        self.write("build.ninja", RULES + "build x: cc y\nbuild y: cc x\n")
        self.assertAnswer(self.question("x"), 2, "ninja: error: dependency cycle: x -> y -> x\n")
        self.write("build.ninja", "rule\n")
        res = self.question()
        self.assertEqual((2, ""), (res.returncode, res.stdout))
        self.assertTrue(res.stderr.startswith("ninja: error: build.ninja:1: expected rule name"), res.stderr)

    def test_fatal_errors_are_2_as_well(self):
        self.write("build.ninja", "ninja_required_version = 9\n" + TREE)
        res = self.question()
        self.assertEqual(2, res.returncode)
        self.assertIn("ninja: fatal: ninja version (1.13.2) incompatible", res.stderr)
        self.write("build.ninja", TREE)
        self.assertEqual(2, self.question("--status", "$!").returncode)

    def test_explain_says_why_on_stderr(self):
        self.assertEqual(0, self.ninja().returncode)
        bump_mtime(self.path("b.c"))
        res = self.question("-d", "explain")
        self.assertEqual((1, ""), (res.returncode, res.stdout))
        lines = res.stderr.splitlines()
        self.assertTrue(lines, res)
        self.assertTrue(all(line.startswith("ninja explain: ") for line in lines), res.stderr)
        self.assertTrue(any(re.search(r"output b\.o older than most recent input b\.c", line) for line in lines),
                        res.stderr)
        self.assertFalse(any("a.o" in line and "older" in line for line in lines), res.stderr)

    def test_a_manifest_to_regenerate_is_work(self):
        self.write("gen.in", "x\n")
        self.write("build.ninja", TREE + "rule gen\n  command = cp build.ninja build.ninja.tmp && "
                                         "mv build.ninja.tmp build.ninja && touch $out\n  generator = 1\n"
                                         "build build.ninja: gen gen.in\n")
        self.assertEqual(0, self.ninja().returncode)
        self.assertAnswer(self.question(), 0)
        bump_mtime(self.path("gen.in"))
        self.assertAnswer(self.question("a.o"), 1)  # whatever the targets: the build regenerates first

    def test_content_hash_counts_content(self):
        self.assertEqual(0, self.ninja("--content-hash").returncode)
        bump_mtime(self.path("a.c"))  # same content, newer mtime
        self.assertAnswer(self.question("--content-hash"), 0)
        self.assertAnswer(self.question(), 1)  # by mtime alone it is out of date
        self.write("a.c", "changed\n")
        bump_mtime(self.path("a.c"), 4)
        self.assertAnswer(self.question("--content-hash"), 1)

    def test_no_entering_directory_line_and_environment_flags(self):
        sub = os.path.join(self.dir, "sub")
        os.makedirs(sub)
        write_tree(sub, {"build.ninja": TREE, "a.c": "a", "b.c": "b"})
        self.assertAnswer(self.question("-C", "sub"), 1)
        self.assertAnswer(self.ninja("-C", "sub", env={"RONIN_FLAGS": "--question"}), 1)

    def test_not_with_a_tool(self):
        self.assertAnswer(self.question("-t", "targets"), 2,
                          "ninja: error: --question builds nothing and runs no tool: not with -t targets\n")


def _status_lines(text):
    return [line for line in text.splitlines() if line.startswith("[")]


class QuestionAgreesWithBuilds(unittest.TestCase):
    """Before each step of each generated scenario: --question against -n, then against the step."""

    maxDiff = None

    def answer_of_dry_run(self, dry):
        if "ninja: no work to do." in dry.stdout and dry.returncode == 0:
            return 0
        if _status_lines(dry.stdout):
            return 1  # commands would run (a failure after them is the build's)
        return 2 if dry.returncode != 0 else 0

    def check_seed(self, seed, root):
        rng = random.Random(seed)
        files = test_diff_random.random_manifest(rng)
        for name in test_diff_random.NAMES:
            if rng.random() < 0.5 and not name.startswith(("o//", "sub/")):
                files.setdefault(name, "x\n")
        write_tree(root, files)
        for args in test_diff_random.invocations(rng):
            if "-t" not in args:
                targets = [a for a in args if not a.startswith("-") and a not in ("0", "explain")]
                question = run(NINJA, ["--question"] + targets, root)
                dry = run(NINJA, ["-n"] + targets, root)
                context = "seed %d before ninja %s\n%s\n-n said: %r\n--question said: %r" % (
                    seed, " ".join(args), files["build.ninja"], dry, question)
                self.assertEqual("", question.stdout, context)
                self.assertEqual(self.answer_of_dry_run(dry), question.returncode, context)
                if args[0] != "-n":
                    built = run(NINJA, args, root)
                    did_nothing = "ninja: no work to do." in built.stdout
                    self.assertEqual(question.returncode == 0, did_nothing and built.returncode == 0,
                                     context + "\nthe build said: %r" % built)
                    continue
            run(NINJA, args, root)

    def test_every_scenario_of_the_differential_generator(self):
        for seed in test_diff_random.seeds():
            with self.subTest(seed=seed):
                root = tempfile.mkdtemp(prefix="ronin-question-")
                try:
                    self.check_seed(seed, root)
                finally:
                    shutil.rmtree(root, True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
