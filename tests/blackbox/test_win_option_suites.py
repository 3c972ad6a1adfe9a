"""ronin's own options on Windows: the Linux suites of each option run again with ronin's
ninja.exe under wine (wine.WineNinjaTestCase: the same test bodies, self.ninja() running
ninja.exe and self.reference() ninja.exe 1.13.2). A test the Windows run leaves out is
named in LEFT_OUT with the reason; the rest must pass as on Linux.

    NINJA_WIN=<ours.exe> python3 -m unittest -v test_win_option_suites
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import test_content_hash  # noqa: E402
import wine  # noqa: E402
from wine import WineNinjaTestCase  # noqa: E402

# Tests of the Linux classes that do not run under wine, each with its reason.
LEFT_OUT = {
}


def left_out(cls):
    """cls with the tests LEFT_OUT names for its Linux base skipped, each saying why."""
    for base in cls.__mro__:
        for name, reason in LEFT_OUT.get(base.__name__, {}).items():
            setattr(cls, name, unittest.skip(reason)(getattr(cls, name)))
    return cls


@left_out
class WinContentHashTest(WineNinjaTestCase, test_content_hash.ContentHashTest):
    pass


@left_out
class WinContentHashReferenceTest(WineNinjaTestCase, test_content_hash.ReferenceNinjaOnTheSameDirTest):
    pass


@left_out
class WinContentHashSettledTest(WineNinjaTestCase, test_content_hash.SkipsSettledForNinjaTest):
    pass


if __name__ == "__main__":
    unittest.main(verbosity=2)
