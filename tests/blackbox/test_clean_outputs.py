"""`-t clean` and outputs that are directories or implicit (src/tool_clean.cc).

Ninja 1.13.2 fails on a directory output with `remove(outdir): Directory
not empty` and `-t clean TARGET` leaves the edge's other outputs behind;
ronin removes both, never following a symbolic link out of the tree. For
plain file outputs the messages stay Ninja's (test_diff_tools)."""

import os
import shutil
import tempfile
import unittest

import harness
from harness import NinjaTestCase

MANIFEST = """rule mkd
  command = mkdir -p $out/sub/deeper && echo x > $out/sub/deeper/f && ln -s {outside} $out/link && echo y > $out/g
rule two
  command = touch $out imp
build outdir: mkd
build a b | imp: two
build c: two a
"""


class CleanOutputsTests(NinjaTestCase):

    def setUp(self):
        super().setUp()
        self.outside = tempfile.mkdtemp(prefix="ronin-outside-")
        self.addCleanup(shutil.rmtree, self.outside, True)
        with open(os.path.join(self.outside, "precious"), "w") as f:
            f.write("keep\n")
        self.write("build.ninja", MANIFEST.format(outside=self.outside))
        r = self.ninja()
        self.assertEqual(r.returncode, 0, r)

    def test_directory_output_is_removed_with_its_contents(self):
        r = self.ninja("-t", "clean")
        self.assertEqual((r.returncode, r.stderr), (0, ""), r)
        self.assertEqual(r.stdout, "Cleaning... 5 files.\n")
        self.assertFalse(self.exists("outdir"))
        # The link inside pointed out of the tree: removed as a link only.
        self.assertEqual(os.listdir(self.outside), ["precious"])
        self.assertEqual([n for n in os.listdir(self.dir) if not n.startswith(".")], ["build.ninja"])

    def test_directory_output_as_a_target(self):
        r = self.ninja("-t", "clean", "outdir")
        self.assertEqual((r.returncode, r.stdout), (0, "Cleaning... 1 files.\n"), r)
        self.assertFalse(self.exists("outdir"))
        self.assertTrue(os.path.exists(os.path.join(self.outside, "precious")))

    def test_target_takes_every_output_of_its_edge(self):
        r = self.ninja("-t", "clean", "a")
        self.assertEqual((r.returncode, r.stdout), (0, "Cleaning... 3 files.\n"), r)
        for name in ("a", "b", "imp"):
            self.assertFalse(self.exists(name), name)
        self.assertTrue(self.exists("c"))

    def test_dry_run_lists_directory_and_removes_nothing(self):
        r = self.ninja("-n", "-t", "clean", "outdir")
        self.assertIn("Remove outdir\n", r.stdout)
        self.assertTrue(self.exists("outdir/sub/deeper/f"))


if __name__ == "__main__":
    unittest.main()
