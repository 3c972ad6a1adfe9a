"""test_diff_manifest's corpus again, with ronin's ninja.exe against the reference ninja.exe
1.13.2 under the same wine (wine.py), every case unchanged (see test_win_diff.py); after each
case that leaves a build log, each binary must continue the other's tree as the other would.

    NINJA_WIN=<ours.exe> [REF_NINJA_WIN=<ninja 1.13.2 .exe>] python3 -m unittest -v test_win_manifest
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import test_diff_manifest  # noqa: E402
import test_win_diff  # noqa: E402
import wine  # noqa: E402
from wine import WineDifferentialTestCase  # noqa: E402


class WinDiffManifest(WineDifferentialTestCase, test_diff_manifest.TestDiffManifest):

    def run_case(self, files, runs):
        super().run_case(files, runs)
        if self.has_build_state():
            self.assertHandover()


def load_tests(loader, standard_tests, pattern):
    """A fixed part of the corpus unless RONIN_WIN_FULL is set (test_win_diff.SAMPLE_EVERY)."""
    return unittest.TestSuite(wine.sample(list(test_win_diff.flatten(standard_tests)), test_win_diff.SAMPLE_EVERY))


if __name__ == "__main__":
    unittest.main(verbosity=2)
