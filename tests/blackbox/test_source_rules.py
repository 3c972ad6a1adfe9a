"""Rules of the source tree that no single behaviour test can hold for every
place at once.

Helper threads start through StartBackgroundThread (src/base/background_thread.h),
which blocks the signals the build loop waits for: a thread started any other
way can take a Ctrl-C meant for the build loop, which then sleeps until its
commands end by themselves (tests/unit/background_thread_test.cc shows the
failure). A new `std::thread` elsewhere in src/ fails here.
"""

import glob
import os
import re
import unittest

import harness

SRC = os.path.join(harness.REPO, "src")

# A thread constructed: std::thread(...), std::thread name(...) or {...}, or
# emplace_back/emplace into a container of threads (recognised by a member
# function pointer argument, the way this code base starts workers).
CONSTRUCTION = re.compile(r"std::thread\s*[({]|std::thread\s+\w+\s*[({]|\bemplace(?:_back)?\(\s*&\w+::\w+")


def source_files():
    """Every .cc and .h under src/, in its folders; fails loudly if none."""
    paths = sorted(glob.glob(os.path.join(SRC, "**", "*.cc"), recursive=True) +
                   glob.glob(os.path.join(SRC, "**", "*.h"), recursive=True))
    if len(paths) < 50:
        raise AssertionError("found only %d sources under %s" % (len(paths), SRC))
    return paths


def thread_constructions(text):
    return [m.group(0) for m in CONSTRUCTION.finditer(text)]


class HelperThreadsTest(unittest.TestCase):

    def test_pattern_finds_the_ways_threads_are_started(self):
        for text in ("t = std::thread(&W::Run, this);", "std::thread t(work);", "std::thread t{work};",
                     "threads_.emplace_back(&Pool::Loop, this);"):
            self.assertTrue(thread_constructions(text), text)
        for text in ("std::vector<std::thread> threads_;", "std::thread thread_;",
                     "for (std::thread& t : pool) t.join();", "std::thread::hardware_concurrency()",
                     "pool.push_back(StartBackgroundThread(work));"):
            self.assertFalse(thread_constructions(text), text)

    def test_only_background_thread_h_starts_threads(self):
        offenders = []
        paths = source_files()
        for path in paths:
            if os.path.basename(path) == "background_thread.h":
                continue
            with open(path, encoding="utf-8") as f:
                for lineno, line in enumerate(f, 1):
                    if thread_constructions(line):
                        offenders.append("%s:%d: %s" % (os.path.relpath(path, harness.REPO), lineno, line.strip()))
        self.assertEqual(offenders, [], "start helper threads with StartBackgroundThread")


if __name__ == "__main__":
    unittest.main()
