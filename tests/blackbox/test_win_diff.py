"""The differential suites again, with ronin's ninja.exe against the reference ninja.exe
1.13.2, both under the same wine (wine.py).

Every scenario of test_diff_build, test_diff_tools, test_diff_state and test_diff_random
(test_diff_manifest's are in test_win_manifest.py, a ctest entry of its own) whose
commands can be Windows programs runs here unchanged: their commands (echo, cat, touch,
cp, printf, ...) are tests/win/helpers/wsh.exe under those names. After each scenario of
the build and tool corpora that leaves a build log, each binary must continue the other's
tree as the other would (assertHandover); the state suite's TreeHandover and CrossCompat
tests hand build directories over in both directions as on Linux. EXCLUDED lists what
cannot run on Windows, with the reason; test_win_scenarios.py has the Windows-only
scenarios.

    NINJA_WIN=<ours.exe> [REF_NINJA_WIN=<ninja 1.13.2 .exe>] python3 -m unittest -v test_win_diff
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import test_diff_build  # noqa: E402
import test_diff_random  # noqa: E402
import test_diff_state  # noqa: E402
import test_diff_tools  # noqa: E402
import wine  # noqa: E402
from wine import WineDifferentialTestCase  # noqa: E402

# Test ids (Class.test_name) that do not run here, and why.
EXCLUDED = {
    "WinDiffBuild.test_command_signals": "POSIX signals (kill -9 $$): Windows has none",
    "WinExplainTiming.test_smart_terminal_prints_reasons_at_start_and_end":
        "a pseudo-terminal is a wine console, not a terminal in Ninja's POSIX sense",
    "WinExplainTiming.test_dyndep_rescan_repeats_reasons_like_ninja":
        "a pseudo-terminal is a wine console, not a terminal in Ninja's POSIX sense",
}

# What runs unless RONIN_WIN_FULL is set (wine.sample): every n-th test of these classes in
# name order; the other classes run whole. Chosen to keep CI's Windows run within its time
# (doc/reliability.md) while every category the Linux corpora have still runs under wine.
SAMPLE_EVERY = {"WinDiffBuild": 3, "WinToolCorpus": 3, "WinDiffManifest": 6}

# Random manifests: fewer seeds than on Linux (each run costs a wine process), fewer still
# in the sample.
RANDOM_SEEDS = os.environ.get("RONIN_WIN_RANDOM_SEEDS") or ("1:12" if wine.full_run() else "1:4")


class WinDiffBuild(WineDifferentialTestCase, test_diff_build.TestDiffBuild):

    def run_scenario(self, files, steps):
        super().run_scenario(files, steps)
        if self.has_build_state():
            self.assertHandover()


class WinExplainTiming(WineDifferentialTestCase, test_diff_build.ExplainTimingTest):
    pass


class WinToolCorpus(WineDifferentialTestCase, test_diff_tools.ToolCorpusTest):

    def run_scenario(self, scenario):
        super().run_scenario(scenario)
        if self.has_build_state():
            self.assertHandover()


class WinMergedOutputOrder(WineDifferentialTestCase, test_diff_tools.MergedOutputOrderTest):
    pass


class WinBuildLog(WineDifferentialTestCase, test_diff_state.BuildLogScenarios):
    pass


class WinDeps(WineDifferentialTestCase, test_diff_state.DepsScenarios):
    pass


class WinDepfile(WineDifferentialTestCase, test_diff_state.DepfileScenarios):
    pass


class WinRestatGenerator(WineDifferentialTestCase, test_diff_state.RestatGeneratorScenarios):
    pass


class WinRegeneration(WineDifferentialTestCase, test_diff_state.RegenerationScenarios):
    pass


class WinDyndepValidation(WineDifferentialTestCase, test_diff_state.DyndepValidationScenarios):
    pass


class WinTreeHandover(WineDifferentialTestCase, test_diff_state.TreeHandoverTests):
    pass


class WinCrossCompat(WineDifferentialTestCase, test_diff_state.CrossCompatTests):
    pass


class WinRandomManifest(WineDifferentialTestCase, test_diff_random.RandomManifestTest):

    def seeds(self):
        first, count = (int(part) for part in RANDOM_SEEDS.split(":"))
        return range(first, first + count)


def shared_tests(module):
    """Every Windows test of a module's classes, minus EXCLUDED: the full run's."""
    classes = [c for c in vars(module).values()
               if isinstance(c, type) and issubclass(c, WineDifferentialTestCase) and c.__module__ == module.__name__]
    return [t for c in classes for t in unittest.defaultTestLoader.loadTestsFromTestCase(c)
            if _test_id(t) not in EXCLUDED]


def _test_id(test):
    return "%s.%s" % (type(test).__name__, test._testMethodName)


flatten = wine.flatten


def load_tests(loader, standard_tests, pattern):
    """The module's tests minus EXCLUDED, sampled; an exclusion that names no test is an error."""
    tests = list(flatten(standard_tests))
    names = {_test_id(t) for t in tests}
    stale = sorted(set(EXCLUDED) - names)
    assert not stale, "EXCLUDED names tests that do not exist: %s" % stale
    return unittest.TestSuite(wine.sample([t for t in tests if _test_id(t) not in EXCLUDED], SAMPLE_EVERY))


if __name__ == "__main__":
    unittest.main(verbosity=2)
