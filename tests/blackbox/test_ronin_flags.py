"""RONIN_FLAGS and ronin's own long options (src/driver/ronin_options.cc).

RONIN_FLAGS holds options read before the command line (the command line
wins); anything wrong in it is a `ninja: error: RONIN_FLAGS: ...`, exit 1.
"""

import re
import unittest

from harness import NinjaTestCase, RONIN_USAGE_RE

MANIFEST = "rule touch\n  command = touch $out\nbuild a: touch\nbuild b: touch\n"


class TestRoninFlags(NinjaTestCase):
    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)

    def with_flags(self, flags, *args):
        return self.ninja(*args, env={"RONIN_FLAGS": flags})

    def assertFlagError(self, flags, message):
        r = self.with_flags(flags)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "ninja: error: RONIN_FLAGS: %s\n" % message))
        self.assertFalse(self.exists("a"), "nothing may be built after a bad RONIN_FLAGS")

    def test_empty_or_blank_changes_nothing(self):
        for flags in ("", "  \t\n "):
            r = self.with_flags(flags, "-n")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("[2/2] touch", r.stdout)

    def test_ninja_flags_are_read(self):
        r = self.with_flags("-n  -v")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("touch a", r.stdout)
        self.assertFalse(self.exists("a"), "-n from RONIN_FLAGS is a dry run")

    def test_command_line_wins(self):
        # -j1 from the environment, -d explain from the command line, then
        # the command line's own -j: the later value of each option holds.
        r = self.ninja("-j", "2", "-d", "stats", env={"RONIN_FLAGS": "-j 1 -k 0"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(self.exists("a") and self.exists("b"))

    def test_ronin_option_through_environment(self):
        r = self.with_flags("--jobserver-pool", "-j2")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_unknown_option(self):
        self.assertFlagError("--bogus", "unknown option '--bogus'")
        self.assertFlagError("-x", "unknown option '-x'")

    def test_bad_ninja_value(self):
        self.assertFlagError("-j x", "invalid -j parameter")
        self.assertFlagError("-k x", "-k parameter not numeric; did you mean -k 0?")

    def test_missing_value(self):
        self.assertFlagError("-j", "missing value for '-j'")

    def test_targets_and_directory_flags_are_refused(self):
        self.assertFlagError("a", "unexpected argument 'a' (options only)")
        self.assertFlagError("-C sub", "-C is not accepted here")
        self.assertFlagError("-f other.ninja", "-f is not accepted here")
        self.assertFlagError("-t clean", "-t is not accepted here")
        self.assertFlagError("-h", "-h is not accepted here")

    def test_usage_lists_ronin_options(self):
        r = self.ninja("-h")
        block = RONIN_USAGE_RE.search(r.stderr)
        self.assertIsNotNone(block)
        self.assertTrue(r.stderr.endswith(block.group(0)), "the ronin block comes last")
        names = re.findall(r"^  --([a-z-]+)", block.group(0), re.M)
        self.assertIn("jobserver-pool", names)
        for name in names:
            r = self.ninja("--%s" % name, "-n")
            self.assertNotIn("unrecognized option", r.stderr, name)


if __name__ == "__main__":
    unittest.main()
