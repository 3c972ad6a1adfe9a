"""`-t clean` and outputs that are directories or implicit (src/tools/tool_clean.cc).

Ninja 1.13.2 fails on a directory output that is not empty with
`ninja: error: remove(DIR): Directory not empty`; ronin removes it with
everything in it, counted as one file, removing symbolic links inside as
links, never following them. `-t clean TARGET` leaves the other outputs of
the target's edge (implicit ones too) as Ninja 1.13.2 does, unless
`--clean-edge-outputs` is given. Where Ninja 1.13.2 succeeds the output is
its own (test_diff_tools: clean_directories, clean_target_leaves_other_outputs,
multiple_outputs)."""

import os
import shutil
import tempfile
import unittest

import harness
from harness import NinjaTestCase

MANIFEST = """rule mkd
  command = mkdir -p $out/sub/deeper && echo x > $out/sub/deeper/f && ln -s {outside} $out/sub/link && ln -s {outside}/precious $out/flink && echo y > $out/g
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

    def assertOutsideIntact(self):
        self.assertEqual(os.listdir(self.outside), ["precious"])
        with open(os.path.join(self.outside, "precious")) as f:
            self.assertEqual(f.read(), "keep\n")

    def left(self):
        return sorted(n for n in os.listdir(self.dir) if not n.startswith("."))

    def test_directory_output_is_removed_with_its_contents(self):
        r = self.ninja("-t", "clean")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "Cleaning... 5 files.\n", ""), r)
        self.assertEqual(self.left(), ["build.ninja"])
        # The links inside pointed out of the tree: removed as links only.
        self.assertOutsideIntact()

    def test_directory_output_as_a_target(self):
        r = self.ninja("-v", "-t", "clean", "outdir")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "Cleaning...\nTarget outdir\nRemove outdir\n1 files.\n", ""), r)
        self.assertFalse(self.exists("outdir"))
        self.assertOutsideIntact()

    def test_link_to_a_directory_is_removed_as_a_link(self):
        shutil.rmtree(self.path("outdir"))
        os.symlink(self.outside, self.path("outdir"))
        r = self.ninja("-t", "clean", "outdir")
        self.assertEqual((r.returncode, r.stdout), (0, "Cleaning... 1 files.\n"), r)
        self.assertFalse(os.path.lexists(self.path("outdir")))
        self.assertOutsideIntact()

    def test_dry_run_lists_the_directory_and_removes_nothing(self):
        r = self.ninja("-n", "-t", "clean", "outdir")
        self.assertEqual(r.stdout, "Cleaning...\nTarget outdir\nRemove outdir\n1 files.\n")
        self.assertTrue(self.exists("outdir/sub/deeper/f"))

    def test_ninja_fails_on_the_full_directory(self):
        # What the difference replaces (skipped without the reference).
        if not harness.REF_NINJA:
            self.skipTest(harness.SKIP_NO_REF)
        ref = harness.run(harness.REF_NINJA, ["-t", "clean", "outdir"], self.dir)
        self.assertEqual(ref.returncode, 1, ref)
        self.assertIn("remove(outdir): Directory not empty", ref.stderr)

    def test_target_keeps_its_edges_other_outputs_by_default(self):
        r = self.ninja("-t", "clean", "a")
        self.assertEqual((r.returncode, r.stdout), (0, "Cleaning... 1 files.\n"), r)
        self.assertEqual(self.left(), ["b", "build.ninja", "c", "imp", "outdir"])

    def test_clean_edge_outputs_takes_every_output_of_the_edge(self):
        r = self.ninja("--clean-edge-outputs", "-v", "-t", "clean", "c")
        self.assertEqual((r.returncode, r.stderr), (0, ""), r)
        # c's edge has c alone; a's edge has a, b and the implicit imp.
        self.assertEqual(r.stdout, "Cleaning...\nTarget c\nRemove c\nRemove a\nRemove b\nRemove imp\n4 files.\n")
        self.assertEqual(self.left(), ["build.ninja", "outdir"])

    def test_clean_edge_outputs_through_ronin_flags(self):
        r = self.ninja("-t", "clean", "b", env={"RONIN_FLAGS": "--clean-edge-outputs"})
        self.assertEqual((r.returncode, r.stdout), (0, "Cleaning... 3 files.\n"), r)
        self.assertEqual(self.left(), ["build.ninja", "c", "outdir"])


if __name__ == "__main__":
    unittest.main()
