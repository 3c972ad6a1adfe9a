"""The graph image and the stat prefetcher on Windows (issue 27 item 1), under wine.

The Linux suites of both run again with ronin's ninja.exe (wine.WineNinjaTestCase):
test_graph_image's (an image written by one run is used by the next, any change to what it
was made from makes the next run parse, a damaged image is never used) and test_parallel_stat's
(the prefetcher's threads, which list directories on Windows, decide nothing differently from
the scan alone). What only Windows has: a node's slash bits, which the image must carry, so
that a run from the image spells paths as the manifest did. WinImageScenarios runs
test_win_scenarios' scenarios of backslashed and mixed paths against ninja.exe 1.13.2 with
ours reading and writing the image at every run (RONIN_GRAPH_IMAGE=1), and ends each with a
no-op, -d explain and tools from the image.

    NINJA_WIN=<ours.exe> python3 -m unittest -v test_win_image
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import test_diff_build  # noqa: E402
import test_graph_image  # noqa: E402
import test_parallel_stat  # noqa: E402
import test_win_scenarios  # noqa: E402
import wine  # noqa: E402
from wine import WineDifferentialTestCase, WineNinjaTestCase  # noqa: E402

IMAGE_USED = "graph image load"  # -d stats' row when the image was loaded


class WinGraphImageTest(WineNinjaTestCase, test_graph_image.GraphImageTest):
    def ninja(self, *args, env=None, **kwargs):
        # WineNinjaTestCase.ninja comes first and runs ninja.exe: the Linux class's own
        # ninja(), which adds RONIN_GRAPH_IMAGE=1 (its manifests are small), is not reached.
        return super().ninja(*args, env=dict(test_graph_image.ALWAYS, **(env or {})), **kwargs)


class WinSizeRuleTest(WineNinjaTestCase, test_graph_image.SizeRuleTest):
    pass


class WinParallelStatTest(WineNinjaTestCase, test_parallel_stat.ParallelStatTest):
    """Only with RONIN_WIN_FULL (load_tests): its first build runs 4,250 commands, about 7
    minutes under wine. CI runs the Linux class, and the Windows listing's PrefetchTest in
    the unit tests' .exe."""


# test_win_scenarios' scenarios whose manifests spell paths with backslashes (and mixed ones).
SLASH_SCENARIOS = ("backslash_paths", "mixed_separators", "slashes_in_in_and_out", "dot_segments_with_backslashes",
                   "drive_letter_paths", "unc_paths", "spaces_and_specials_in_paths", "utf8_names",
                   "builddir_with_backslashes", "msvc_deps", "restat_with_backslashes", "dyndep_with_backslashes",
                   "output_is_directory_on_windows")


class WinImageScenarios(test_win_scenarios.WinScenarios):
    """SLASH_SCENARIOS with ours always on the image: every build that parses writes one, and
    every later run (builds, dry runs, tools) loads it while the manifests are unchanged."""

    def run_binary(self, binary, args, cwd, env=None, **kwargs):
        if binary == self.OURS:
            env = dict(env or {}, RONIN_GRAPH_IMAGE="1")
        return super().run_binary(binary, args, cwd, env=env, **kwargs)

    def run_scenario(self, files, steps):
        super().run_scenario(files, steps)
        # Both build what the scenario left (ours writes an image if its run parsed), then
        # ours shows that it loads that image, and the runs from it match the reference's.
        self.assertSameRun("-j1")
        stats = self.run_binary(self.OURS, ("-n", "-d", "stats"), self.ours_dir)
        self.assertIn(IMAGE_USED, stats.stdout, "ours did not load the image it wrote")
        for args in (("-j1", "-d", "explain"), ("-t", "commands"), ("-t", "targets", "all"), ("-t", "inputs")):
            self.assertSameRun(*args)


for _name in dir(WinImageScenarios):
    if _name.startswith("test_") and _name[len("test_"):] not in SLASH_SCENARIOS:
        setattr(WinImageScenarios, _name, None)  # not a test here (unittest runs callables only)


class WinImageSpellingTest(WineDifferentialTestCase):
    """A manifest of backslashed and mixed paths: ours, from its image, prints every path as
    ninja.exe 1.13.2 does from its parse (commands, explanations, errors, tools)."""

    MANIFEST = ("rule cp\n  command = cp $in $out\n  description = CP $in -> $out\n"
                "build out\\a.o: cp src\\a.c\n"
                "build out/mixed\\b.o: cp src/sub\\b.c | out\\a.o\n"
                "build out\\sub/c.o: cp src\\sub/c.c || out/mixed\\b.o\n"
                "build all: phony out\\a.o out/mixed\\b.o out\\sub/c.o\n"
                "build broken\\x.o: cp src\\missing\\x.c\n"
                "default all\n")

    def run_binary(self, binary, args, cwd, env=None, **kwargs):
        if binary == self.OURS:
            env = dict(env or {}, RONIN_GRAPH_IMAGE="1")
        return super().run_binary(binary, args, cwd, env=env, **kwargs)

    def normalize(self, text, root):
        return test_win_scenarios._TIMES.sub("(<T> vs <T>)", super().normalize(text, root))

    def image_used(self):
        return IMAGE_USED in self.run_binary(self.OURS, ("-n", "-d", "stats"), self.ours_dir).stdout

    def test_runs_from_the_image_spell_paths_as_written(self):
        self.write_files({"build.ninja": self.MANIFEST, "src/a.c": "a\n", "src/sub/b.c": "b\n",
                          "src/sub/c.c": "c\n"})
        self.assertFalse(self.image_used())
        self.assertSameRun("-j1", "-v")  # ours parses and writes the image
        self.assertTrue(self.image_used(), "the image written by the build is used by the next run")
        self.assertSameRun("-j1")  # the no-op, from the image
        self.both(lambda root: test_diff_build.bump_mtime(os.path.join(root, "src", "sub", "b.c")))
        for args in (("-n", "-j1", "-d", "explain"), ("-j1", "-v", "-d", "explain"), ("-j1", "broken\\x.o"),
                     ("-j1", "broken/x.o"), ("-t", "commands"), ("-t", "query", "out/mixed/b.o"),
                     ("-t", "targets", "all"), ("-t", "inputs", "all"), ("-t", "compdb")):
            self.assertSameRun(*args)
            self.assertTrue(self.image_used(), "ninja %s: the image stays in use" % " ".join(args))


def load_tests(loader, standard_tests, pattern):
    """Without RONIN_WIN_FULL: no WinParallelStatTest, and every other slash scenario (the
    spelling test and the unit tests cover the slash bits whole)."""
    tests = list(wine.flatten(standard_tests))
    if not wine.full_run():
        tests = [t for t in tests if not isinstance(t, WinParallelStatTest)]
    return unittest.TestSuite(wine.sample(tests, {"WinImageScenarios": 2}))


if __name__ == "__main__":
    unittest.main(verbosity=2)
