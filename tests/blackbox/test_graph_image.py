"""The graph image (src/image/graph_image.h) reproduces a fresh parse.

Each step changes something the image depends on (an included file edited,
added or removed, -f, -w phonycycle, the image truncated, corrupted or
forged) and checks that (1) whether the image was used is right and (2)
every observable (tools' output, a dry run's -d explain) equals a run with
RONIN_GRAPH_IMAGE=0, which always parses.
"""

import os
import shutil
import struct
import subprocess
import sys
import unittest

from harness import NinjaTestCase, name_pointers

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc", "bench"))
from ninja_formats import rapidhash  # noqa: E402

IMAGE = ".ronin_graph"
HEADER_SIZE = 40
OFF = {"RONIN_GRAPH_IMAGE": "0"}
# These manifests are small: below the size where an image pays, which
# RONIN_GRAPH_IMAGE=1 overrides (the size rule: SizeRuleTest).
ALWAYS = {"RONIN_GRAPH_IMAGE": "1"}

MAIN = """\
cflags = -O2
pool one
  depth = 1
rule cc
  command = touch $out && echo $cflags > /dev/null
  description = CC $out
rule link
  command = cat $in > $out
  rspfile = $out.rsp
  rspfile_content = $in
  pool = one
build a.o: cc a.c | a.h || gen
  cflags = -O0
build gen: phony
build app: link a.o b.o |@ check
build check: phony app
include inc.ninja
subninja sub/sub.ninja
default app
"""
INC = "build b.o: cc b.c\n"
SUB = "cflags = sub\nrule cc\n  command = touch $out $cflags\nbuild sub/x.o: cc sub/x.c\n"

TOOLS = [
    ("-t", "targets", "all"),
    ("-t", "commands"),
    ("-t", "query", "app", "a.o"),
    ("-t", "inputs", "app"),
    ("-t", "rules", "-d"),
    ("-t", "graph"),
    ("-t", "compdb"),
    ("-t", "targets", "depth", "3"),
]


class GraphImageTest(NinjaTestCase):
    def ninja(self, *args, env=None, **kwargs):
        return super().ninja(*args, env=dict(ALWAYS, **(env or {})), **kwargs)

    def setUp(self):
        super().setUp()
        self.write("build.ninja", MAIN)
        self.write("inc.ninja", INC)
        self.write("sub/sub.ninja", SUB)
        for name in ("a.c", "a.h", "b.c", "sub/x.c"):
            self.write(name, "")

    def observe(self, flags, env=None):
        """Everything a parse determines, as the tools and a dry run show it."""
        seen = []
        for args in [("-n", "-v", "-d", "explain")] + TOOLS:
            r = self.ninja(*(flags + args), env=env)
            # (-t graph names nodes by address)
            seen.append((args, r.returncode, name_pointers(r.stdout), r.stderr))
        return seen

    def image_used(self, flags):
        r = self.ninja(*(flags + ("-n", "-d", "stats")))
        return "graph image load" in r.stdout

    def check(self, flags=(), hit=True, step=""):
        """A build (writes the image if it parsed), then the comparison."""
        flags = tuple(flags)
        with_image = self.observe(flags)
        without = self.observe(flags, env=OFF)
        self.assertEqual(without, with_image, step)
        build = self.ninja(*flags)
        self.assertEqual(build.returncode, 0, step + build.stdout + build.stderr)
        self.assertTrue(self.exists(IMAGE), step)
        self.assertTrue(self.image_used(flags), step + ": image written by the build is used next")
        self.assertEqual(self.observe(flags, env=OFF), self.observe(flags), step + " (after the build)")

    def first_run_parses(self, flags=(), step=""):
        self.assertFalse(self.image_used(tuple(flags)), step + ": stale image must not be used")

    def body_hash_fix(self, data):
        """Recomputes the last block's hash after an edit (a forged, 'valid' image)."""
        key_size = struct.unpack_from("<I", data, 12)[0]
        at = HEADER_SIZE + key_size
        at += 4 + struct.unpack_from("<I", data, at)[0]  # the strings
        while at < len(data):  # blocks: [u32 size][u64 hash][bytes]
            size = struct.unpack_from("<I", data, at)[0]
            if at + 12 + size == len(data):
                struct.pack_into("<Q", data, at + 4, rapidhash(bytes(data[at + 12:])))
            at += 12 + size

    def test_every_change_gives_the_fresh_parse(self):
        self.check(step="first build")
        self.assertTrue(self.image_used(()))

        self.write("inc.ninja", INC + "build c.o: cc b.c\n")
        self.first_run_parses(step="edited include")
        self.check(step="edited include")

        self.write("more.ninja", "build d.o: cc a.c\n  cflags = -Dmore\n")
        self.write("build.ninja", MAIN + "include more.ninja\n")
        self.first_run_parses(step="added include")
        self.check(step="added include")

        self.write("more.ninja", "build d.o: cc a.c\n  cflags = -Dless\n")  # same size
        self.first_run_parses(step="same-size edit")
        self.check(step="same-size edit")

        os.remove(self.path("more.ninja"))
        self.write("build.ninja", MAIN)
        self.first_run_parses(step="removed include")
        self.check(step="removed include")

        self.write("other.ninja", "rule r\n  command = touch $out\nbuild o: r\n")
        self.first_run_parses(("-f", "other.ninja"), step="-f")
        self.check(("-f", "other.ninja"), step="-f other.ninja")
        self.first_run_parses(step="back to build.ninja")
        self.check(step="back to build.ninja")

        # A self-referencing phony: with -w phonycycle=err the parse keeps
        # the input silently (imaged); by default it warns (never imaged).
        self.write("build.ninja", MAIN + "build self: phony self a.o\n")
        self.first_run_parses(("-w", "phonycycle=err"), step="phonycycle=err")
        self.check(("-w", "phonycycle=err"), step="phonycycle=err")
        self.assertEqual(self.observe(("-w", "phonycycle=err"), env=OFF),
                         self.observe(("-w", "phonycycle=err")), "phonycycle=err")
        self.first_run_parses(step="phonycycle=warn")
        for _ in range(2):
            r = self.ninja()
            self.assertIn("names itself as an input", r.stderr)
        self.first_run_parses(step="phonycycle=warn")

    def test_damaged_images_are_never_used(self):
        self.check(step="first build")
        with open(self.path(IMAGE), "rb") as f:
            good = bytearray(f.read())
        damages = {
            "empty": b"",
            "truncated header": good[:20],
            "truncated body": good[: len(good) // 2],
            "one byte short": good[:-1],
            "flipped byte": good[:-30] + bytes([good[-30] ^ 0x40]) + good[-29:],
            "bad magic": b"X" + good[1:],
            "trailing garbage": good + b"\0\0\0\0",
        }
        forged = bytearray(good)
        forged[-12] = 7  # the last command hash's "known" flag must be 0 or 1
        self.body_hash_fix(forged)
        damages["forged (valid hash, bad content)"] = forged
        for name, data in damages.items():
            with open(self.path(IMAGE), "wb") as f:
                f.write(data)
            if name != "forged (valid hash, bad content)":
                self.first_run_parses(step=name)
            without = self.observe((), env=OFF)
            with open(self.path(IMAGE), "wb") as f:
                f.write(data)
            self.assertEqual(without, self.observe(()), name)
            self.check(step=name)

    def test_large_damaged_or_stale_image_gives_way_to_a_fresh_parse(self):
        """A large image starts the stat workers from its header, before its
        key and body are checked (NodeObserver::NodesExpected). A damaged or
        stale one then gives way to a parse while those workers run: the
        result must still be a fresh parse's, in every stat mode."""
        lines = ["rule cc\n  command = touch $out\n"]
        edges = 40000  # an image of several MB: well past the early start's threshold
        for i in range(edges):
            lines.append("build obj/some/longer/directory/name/target_%d.o: cc "
                         "src/some/longer/directory/name/source_%d.c\n" % (i, i))
            lines.append("build src/some/longer/directory/name/source_%d.c: phony\n" % i)
        self.write("build.ninja", "".join(lines))
        first = "obj/some/longer/directory/name/target_0.o"
        self.assertEqual(self.ninja(first).returncode, 0)  # a build writes the image
        self.assertGreater(os.path.getsize(self.path(IMAGE)), 16384 * 200)
        modes = [{}, {"RONIN_PARALLEL_STAT": "0"}, {"RONIN_PREFETCH": "0"}]

        def dry_runs():
            return [self.ninja("-n", "-d", "explain", env=mode, timeout=120) for mode in modes]

        def same_as_fresh_parse(step):
            fresh = self.ninja("-n", "-d", "explain", env=dict(OFF), timeout=120)
            self.assertEqual(fresh.returncode, 0, step)
            for mode, r in zip(modes, dry_runs()):
                self.assertEqual((r.returncode, r.stdout, r.stderr),
                                 (fresh.returncode, fresh.stdout, fresh.stderr), "%s %s" % (step, mode))

        self.assertTrue(self.image_used(()))
        same_as_fresh_parse("image used")
        with open(self.path(IMAGE), "rb") as f:
            good = bytearray(f.read())
        damaged = bytearray(good)
        damaged[len(damaged) // 2] ^= 0x10
        with open(self.path(IMAGE), "wb") as f:
            f.write(damaged)
        self.assertFalse(self.image_used(()))
        with open(self.path(IMAGE), "wb") as f:
            f.write(damaged)
        same_as_fresh_parse("damaged")
        with open(self.path(IMAGE), "wb") as f:
            f.write(good)
        with open(self.path("build.ninja"), "a") as f:
            f.write("build extra.o: cc src/some/longer/directory/name/source_7.c\n")
        self.assertFalse(self.image_used(()))
        with open(self.path(IMAGE), "wb") as f:
            f.write(good)
        same_as_fresh_parse("stale")

    def test_disabled_image_is_neither_read_nor_written(self):
        r = self.ninja(env=OFF)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(self.exists(IMAGE))

    def test_warning_parse_is_not_imaged(self):
        self.write("build.ninja", "ninja_required_version = 0.1\n" + MAIN)
        for _ in range(2):
            r = self.ninja()
            self.assertIn("ninja: warning: ninja executable version", r.stderr)
        self.assertFalse(self.exists(IMAGE))

    def test_tools_and_dry_runs_write_no_image(self):
        self.ninja("-t", "targets")
        self.ninja("-n")
        self.assertFalse(self.exists(IMAGE))


# doc/performance.md, "When the graph image pays": 64 KiB of manifest text.
WORTH_BYTES = 64 << 10


def big_manifest(edges):
    return "rule cc\n  command = touch $out\n" + "".join(
        "build obj/directory/target_%d.o: cc src/directory/source_%d.c\n" % (i, i) for i in range(edges))


class SizeRuleTest(NinjaTestCase):
    """Without RONIN_GRAPH_IMAGE, the image is written only for manifests
    large enough for loading it to pay."""

    def image_used(self):
        return "graph image load" in self.ninja("-n", "-d", "stats").stdout

    def ronin_files(self):
        return sorted(name for name in os.listdir(self.dir) if name.startswith(".ronin"))

    def test_a_small_manifest_in_a_git_tree_leaves_no_file_of_ronins(self):
        if not shutil.which("git"):
            self.skipTest("SKIPPED: git not installed (apt-get install git)")
        subprocess.run(["git", "init", "-q", self.dir], check=True)
        self.write(".gitignore", "out\n.ninja_*\n")
        self.write("build.ninja", "rule cp\n  command = mkdir -p out && cp $in $out\nbuild out/a: cp a\n")
        self.write("a", "a\n")
        subprocess.run(["git", "-C", self.dir, "add", "-A"], check=True)
        for _ in range(2):
            self.assertEqual(self.ninja().returncode, 0)
        self.assertEqual(self.ronin_files(), [])
        status = subprocess.run(["git", "-C", self.dir, "status", "--porcelain", "--untracked-files=all"],
                                stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        self.assertEqual([line for line in status.splitlines() if line.startswith("??")], [])

    def test_from_the_size_where_it_pays(self):
        edges = 1
        while len(big_manifest(edges)) < WORTH_BYTES - 100:
            edges += 1
        self.write("build.ninja", big_manifest(edges))  # just under: no image
        self.ninja("obj/directory/target_0.o")
        self.assertEqual(self.ronin_files(), [])
        self.write("build.ninja", big_manifest(edges + 3))  # at least 64 KiB
        self.assertGreaterEqual(len(big_manifest(edges + 3)), WORTH_BYTES)
        self.ninja("obj/directory/target_0.o")
        self.assertEqual(self.ronin_files(), [IMAGE])
        self.assertTrue(self.image_used())
        # Cut down below the size again: the stale image goes.
        self.write("build.ninja", big_manifest(10))
        self.ninja("obj/directory/target_0.o")
        self.assertEqual(self.ronin_files(), [])

    def test_the_bench_trees_shape_gets_its_image(self):
        # A GN-shaped tree of 300 edges (~120 KB of manifests in 3 files).
        bench = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc", "bench", "gen_tree.py")
        root = os.path.join(self.dir, "tree")
        subprocess.run([sys.executable, bench, root, "--plain", "--edges", "300", "--files", "600",
                        "--subninjas", "3"], check=True, stdout=subprocess.DEVNULL)
        build_dir = os.path.join(root, "out", "Default")
        self.assertEqual(self.ninja(cwd=build_dir).stdout, "ninja: no work to do.\n")
        self.assertTrue(os.path.exists(os.path.join(build_dir, IMAGE)))
        self.assertIn("graph image load", self.ninja("-d", "stats", cwd=build_dir).stdout)


if __name__ == "__main__":
    unittest.main()
