"""--shuffle[=SEED]: ready edges start in a seeded random order, within the
graph's and the pools' rules. A manifest missing an order-only dependency
fails under some seed, and that seed fails again every time; a correct
manifest builds under 20 seeds with exactly the outputs of a plain build.
"""

import os
import re
import unittest

from harness import NinjaTestCase, list_tree

# gen.h is made by one edge and read by another that does not say so: a
# plain build happens to order them right (manifest order breaks the tie).
MISSING_ORDER = """\
rule gen
  command = printf '#define X 1\\n' > $out
rule use
  command = cat gen.h > $out
build gen.h: gen
build use: use
"""

# Chains, a fan-in, order-only inputs, implicit outputs, a pool of depth 1
# whose commands check that none of them overlap, a phony. Each output's
# content is fixed by its inputs' contents.
CORRECT = """\
pool one
  depth = 1
rule cat
  command = cat $in > $out && echo $out >> $out
rule pair
  command = cat $in > $out && echo $out > $out.side
rule alone
  command = mkdir lock.d && cat $in > $out && sleep 0.01 && rmdir lock.d
  pool = one
rule stamp
  command = cat $in > $out
build a1: cat src1
build a2: cat a1
build a3: cat a2
build b1 | b1.side: pair src2
build b2: cat b1 || a1
build c1: alone src1
build c2: alone src2
build c3: alone a1
build d: cat a3 b2 c1 c2 c3 || b1.side
build e: stamp d
build all: phony e c3
"""


def seed_of(stdout):
    match = re.search(r"^ninja: shuffle seed (\d+) \(--shuffle=(\d+) repeats this order\)$", stdout, re.M)
    return int(match.group(1)) if match and match.group(1) == match.group(2) else None


def started(stdout):
    """The commands in the order they started (at -j1, the order they ran)."""
    return [line.split("] ", 1)[1] for line in stdout.splitlines() if re.match(r"^\[\d+/\d+\] ", line)]


class ShuffleTest(NinjaTestCase):

    def clean(self):
        for name in os.listdir(self.dir):
            if name not in ("build.ninja", "src1", "src2"):
                path = self.path(name)
                if os.path.isdir(path):
                    os.rmdir(path)
                else:
                    os.remove(path)

    def test_a_missing_order_only_dependency_fails_under_some_seed_every_time(self):
        self.write("build.ninja", MISSING_ORDER)
        plain = self.ninja("-j1")
        self.assertEqual(plain.returncode, 0, plain)
        failing = None
        for seed in range(64):
            self.clean()
            result = self.ninja("-j1", "--shuffle=%d" % seed)
            self.assertEqual(seed_of(result.stdout), seed, result)
            if result.returncode != 0:
                failing = seed
                self.assertIn("cat: gen.h: No such file or directory", result.stdout)
                self.assertIn("ninja: this build ran in shuffled order: --shuffle=%d repeats it" % seed,
                              result.stdout)
                break
        self.assertIsNotNone(failing, "no seed in 0..63 ran `use` before `gen.h`")
        for _ in range(5):
            self.clean()
            result = self.ninja("-j1", "--shuffle=%d" % failing)
            self.assertEqual(result.returncode, 1, result)
            self.assertEqual(["cat gen.h > use"], started(result.stdout))

    def test_a_correct_manifest_builds_alike_under_20_seeds(self):
        self.write("build.ninja", CORRECT)
        self.write("src1", "one\n")
        self.write("src2", "two\n")
        plain = self.ninja("-j4")
        self.assertEqual(plain.returncode, 0, plain)
        expected = self.outputs()
        orders = set()
        for seed in range(20):
            self.clean()
            jobs = "-j1" if seed % 2 else "-j4"
            result = self.ninja(jobs, "--shuffle=%d" % seed)
            self.assertEqual(result.returncode, 0, result)
            self.assertEqual(expected, self.outputs(), "seed %d" % seed)
            if jobs == "-j1":
                orders.add(tuple(started(result.stdout)))
            self.assertIn("ninja: no work to do.", self.ninja("--shuffle=%d" % seed).stdout)
        self.assertGreater(len(orders), 5, "the seeds hardly change the order")

    def outputs(self):
        files = {}
        for rel in list_tree(self.dir, (".ninja_log", ".ninja_deps", ".ronin")):
            if not rel.endswith("/"):
                files[rel] = self.read(rel)
        return files

    def test_the_same_seed_the_same_order_and_a_seed_of_its_own_without_one(self):
        self.write("build.ninja", CORRECT)
        self.write("src1", "one\n")
        self.write("src2", "two\n")
        first = self.ninja("-j1", "--shuffle")
        seed = seed_of(first.stdout)
        self.assertIsNotNone(seed, first.stdout)
        self.clean()
        again = self.ninja("-j1", "--shuffle=%d" % seed)
        self.assertEqual(started(first.stdout), started(again.stdout))
        # A no-op has nothing to order and says nothing of a seed.
        self.assertEqual("ninja: no work to do.\n", self.ninja("--shuffle=%d" % seed).stdout)

    def test_bad_seed(self):
        self.write("build.ninja", CORRECT)
        result = self.ninja("--shuffle=many")
        self.assertEqual(result.returncode, 1)
        self.assertIn("ninja: error: --shuffle=many: invalid seed 'many' (a number from 0 to 4294967295)",
                      result.stderr)


if __name__ == "__main__":
    unittest.main()
