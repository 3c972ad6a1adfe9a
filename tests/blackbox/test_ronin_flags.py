"""RONIN_FLAGS and ronin's own long options (src/driver/ronin_options.cc).

RONIN_FLAGS holds options read before the command line (the command line
wins); anything wrong in it is a `ninja: error: RONIN_FLAGS: ...`, exit 1.
"""

import os
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
            # (--watch stays running after a build, by design: a tool ends at once.)
            r = self.ninja("--%s" % name, *(["-t", "targets"] if name == "watch" else ["-n"]))
            self.assertNotIn("unrecognized option", r.stderr, name)

    def test_usage_help_column_fits_every_option(self):
        block = RONIN_USAGE_RE.search(self.ninja("-h").stderr).group(0)
        columns = {m.start(2) - m.start(0) for m in re.finditer(r"^(  --\S+ +)(\S)", block, re.M)}
        self.assertEqual(len(columns), 1, block)

    def test_version_and_lists_are_refused(self):
        # Each would end every build that RONIN_FLAGS reaches.
        self.assertFlagError("--version", "--version is not accepted here")
        self.assertFlagError("-d list", "-d list is not accepted here")
        self.assertFlagError("-w list", "-w list is not accepted here")

    def test_debug_and_warning_errors_name_the_variable(self):
        self.assertFlagError("-d bogus", "unknown debug setting 'bogus'")
        self.assertFlagError("-d explian", "unknown debug setting 'explian', did you mean 'explain'?")
        self.assertFlagError("-w bogus", "unknown warning flag 'bogus'")
        r = self.ninja("-d", "bogus")
        self.assertEqual((r.returncode, r.stderr), (1, "ninja: error: unknown debug setting 'bogus'\n"))


class TestRoninOptionsOnTheCommandLine(NinjaTestCase):
    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)
        self.env = {"XDG_CACHE_HOME": self.path("xdg")}

    def test_cache_takes_a_directory_after_a_space(self):
        for spec, where in ((self.path("c1"), self.path("c1")), ("./c2", self.path("c2"))):
            r = self.ninja("--cache", spec, "--cache-rules=touch", "-d", "stats", "a", env=self.env)
            self.assertEqual(r.returncode, 0, r)
            self.assertIn("build cache: 0 hits, 1 miss,", r.stdout)
            self.assertTrue(os.path.isdir(os.path.join(where, "ac")), spec)
            os.unlink(self.path("a"))
        self.assertFalse(os.path.exists(self.path("xdg")))

    def test_cache_before_a_target_keeps_its_default(self):
        r = self.ninja("--cache", "b", "--cache-rules=touch", "-d", "stats", env=self.env)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("[1/1] touch b", r.stdout)
        self.assertFalse(self.exists("a"))
        self.assertTrue(os.path.isdir(self.path("xdg/ronin/ac")))

    def test_cache_size_below_a_megabyte_is_refused(self):
        r = self.ninja("--cache-size=100K", "-n")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "ninja: error: --cache-size=100K: at least 1M (a smaller cache keeps nothing), "
                                 "or 0 for no limit\n"))
        for size in ("1M", "0"):
            self.assertEqual(self.ninja("--cache-size=" + size, "-n").returncode, 0, size)

    def test_a_misspelt_ronin_option_shows_ronin_options(self):
        r = self.ninja("--contnet-hash")
        self.assertEqual(r.returncode, 1)
        self.assertIn("unrecognized option '--contnet-hash'", r.stderr)
        self.assertTrue(r.stderr.endswith(RONIN_USAGE_RE.search(r.stderr).group(0)))
        r = self.ninja("--progress")  # a ronin option without its value
        self.assertIsNotNone(RONIN_USAGE_RE.search(r.stderr), r.stderr)
        # Anything else gets Ninja's text alone, as from Ninja.
        for flag in ("--frobnicate-everything", "-x"):
            r = self.ninja(flag)
            self.assertEqual(r.returncode, 1)
            self.assertIsNone(RONIN_USAGE_RE.search(r.stderr), flag)


if __name__ == "__main__":
    unittest.main()
