"""Stats on every core decide nothing differently (src/scan/prefetch.cc).

A randomised tree, large enough for the prefetcher's workers to start
(16k nodes), is built, then partly touched and partly deleted; the dry run's
`-d explain` output and the commands a real build runs must be the same with
the parallel stats (default), with one stat worker (RONIN_PARALLEL_STAT=0)
and with no prefetching at all (RONIN_PREFETCH=0, the scan stats everything
itself). RONIN_TEST_STAT_NODES sets the tree size; RONIN_TEST_STAT_SEED the seed.
"""

import os
import random
import shutil
import unittest

from harness import NinjaTestCase, touch

MODES = {
    "parallel": {},
    "one-worker": {"RONIN_PARALLEL_STAT": "0"},
    "single-threaded": {"RONIN_PREFETCH": "0"},
}


def write_random_tree(root, rng, node_count):
    """Sources, headers and objects with random header lists; a link on top."""
    sources = node_count // 4
    headers = node_count // 2
    os.makedirs(os.path.join(root, "src"))
    for d in range(16):
        os.makedirs(os.path.join(root, "inc", str(d)))
    lines = ["rule cc\n  command = touch $out\n",
             "rule link\n  command = touch $out\n",
             "rule stamp\n  command = touch $out\n  restat = 1\n"]
    header_paths = ["inc/%d/h%d.h" % (i % 16, i) for i in range(headers)]
    for path in header_paths:
        touch(os.path.join(root, path), 1000000)
    objects = []
    for i in range(sources):
        src = "src/s%d.c" % i
        touch(os.path.join(root, src), 1000000)
        deps = rng.sample(header_paths, rng.randint(0, 6))
        order_only = " || inc/%d" % rng.randrange(16) if rng.random() < 0.1 else ""
        lines.append("build obj/s%d.o: cc %s | %s%s\n" % (i, src, " ".join(deps), order_only))
        objects.append("obj/s%d.o" % i)
    for d in range(16):
        lines.append("build inc/%d: phony\n" % d)
    lines.append("build stamp/all: stamp %s\n" % " ".join(objects[: len(objects) // 2]))
    lines.append("build app: link %s | stamp/all\n" % " ".join(objects))
    with open(os.path.join(root, "build.ninja"), "w") as f:
        f.write("".join(lines))
    return header_paths, objects


def disturb(root, rng, header_paths, objects):
    """Touches some headers and sources, deletes some objects."""
    for path in rng.sample(header_paths, max(1, len(header_paths) // 200)):
        touch(os.path.join(root, path), 3000000)
    for i in rng.sample(range(len(objects)), max(1, len(objects) // 100)):
        os.remove(os.path.join(root, objects[i]))
    for i in rng.sample(range(len(objects)), max(1, len(objects) // 100)):
        touch(os.path.join(root, "src/s%d.c" % i), 3000000)


class ParallelStatTest(NinjaTestCase):
    def test_explain_and_commands_equal_in_every_mode(self):
        node_count = int(os.environ.get("RONIN_TEST_STAT_NODES", "17000"))
        seed = int(os.environ.get("RONIN_TEST_STAT_SEED", random.randrange(1 << 30)))
        rng = random.Random(seed)
        base = os.path.join(self.dir, "base")
        header_paths, objects = write_random_tree(base, rng, node_count)
        first = self.ninja("-C", base, "-j8", env={"RONIN_GRAPH_IMAGE": "0"}, timeout=600)
        self.assertEqual(first.returncode, 0, first.stderr + first.stdout)
        disturb(base, rng, header_paths, objects)

        runs = {}
        for mode, env in MODES.items():
            tree = os.path.join(self.dir, mode)
            shutil.copytree(base, tree, symlinks=True)
            env = dict(env, RONIN_GRAPH_IMAGE="0")
            dry = self.ninja("-n", "-d", "explain", "-j1", env=env, cwd=tree, timeout=300)
            real = self.ninja("-v", "-d", "explain", "-j1", env=env, cwd=tree, timeout=300)
            runs[mode] = [(r.returncode, r.stdout, r.stderr) for r in (dry, real)]
        msg = "seed %d" % seed
        self.assertIn("explain:", runs["single-threaded"][0][2], msg)
        self.assertIn("touch obj/", runs["single-threaded"][1][1], msg)
        self.assertEqual(runs["single-threaded"], runs["parallel"], msg)
        self.assertEqual(runs["single-threaded"], runs["one-worker"], msg)


if __name__ == "__main__":
    unittest.main()
