#!/usr/bin/env python3
"""wine_failures: which results count as wine failing to start a process, and the one
rerun a test gets after one (no wine needed: the calls are described, not made)."""

import unittest

import wine_failures


class NoteRunTest(unittest.TestCase):

    def noted(self, exe, returncode, stdout="", stderr=""):
        before = wine_failures.count()
        wine_failures.note_run(exe, ["-C", "x"], returncode, stdout, stderr)
        return wine_failures.count() - before

    def test_silent_exit_1_of_ninja_is_wines(self):
        self.assertEqual(self.noted("/r/build-win/ninja.exe", 1), 1)
        self.assertIn("ninja.exe -C x: exit code 1 with no output", wine_failures.last())

    def test_ninja_that_says_why_is_not(self):
        self.assertEqual(self.noted("/r/ninja.exe", 1, stderr="ninja: error: loading 'build.ninja'\n"), 0)
        self.assertEqual(self.noted("/r/ninja.exe", 1, stdout="[1/1] cc\nFAILED: a\n"), 0)
        self.assertEqual(self.noted("/r/ninja.exe", 0), 0)
        self.assertEqual(self.noted("/r/ninja.exe", 2), 0)

    def test_other_programs_may_exit_1_silently(self):
        self.assertEqual(self.noted("/r/cmake.exe", 1), 0)

    def test_create_process_internal_error_is_wines(self):
        out = "CreateProcess failed. Command attempted:\r\n\"cmd /c link\"\r\nninja: fatal: CreateProcess: Internal error.\r\n"
        self.assertEqual(self.noted("/r/ninja.exe", 1, stdout=out), 1)
        self.assertEqual(self.noted("/r/cmake.exe", 1, stderr=out), 1)

    def test_other_create_process_failures_are_not(self):
        out = "ninja: fatal: CreateProcess: Access is denied.\r\n"
        self.assertEqual(self.noted("/r/ninja.exe", 1, stdout=out), 0)


class RerunTest(unittest.TestCase):

    def run_scripted(self, script):
        """Runs a test whose attempts follow `script`: each item says whether that attempt
        meets a wine failure and whether it passes. Returns (attempts, result)."""
        attempts = []

        class Scripted(wine_failures.RerunAfterWineFailure, unittest.TestCase):
            def test_scripted(self):
                wine_sign, passes = script[len(attempts)]
                attempts.append(1)
                if wine_sign:
                    wine_failures.note_run("ninja.exe", [], 1, "", "")
                self.assertTrue(passes, "attempt %d failed" % len(attempts))

        result = unittest.TestResult()
        Scripted("test_scripted").run(result)
        return len(attempts), result

    def test_failure_after_wine_failure_runs_again(self):
        attempts, result = self.run_scripted([(True, False), (False, True)])
        self.assertEqual(attempts, 2)
        self.assertEqual(result.failures, [])
        self.assertTrue(result.wasSuccessful())

    def test_second_failure_is_reported(self):
        attempts, result = self.run_scripted([(True, False), (True, False)])
        self.assertEqual(attempts, 2)
        self.assertEqual(len(result.failures), 1)
        self.assertIn("attempt 2 failed", result.failures[0][1])

    def test_failure_without_wine_failure_is_not_rerun(self):
        attempts, result = self.run_scripted([(False, False), (False, True)])
        self.assertEqual(attempts, 1)
        self.assertEqual(len(result.failures), 1)
        self.assertIn("attempt 1 failed", result.failures[0][1])

    def test_passing_test_is_not_rerun(self):
        attempts, result = self.run_scripted([(True, True), (False, True)])
        self.assertEqual(attempts, 1)
        self.assertTrue(result.wasSuccessful())
        self.assertEqual(result.testsRun, 1)


if __name__ == "__main__":
    unittest.main()
