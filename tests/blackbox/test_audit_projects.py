"""--audit on clean real projects finds nothing: fmt 9.1.0 (CMake, with
test programs and the GoogleTest they build), a Meson project, Debian's
GoogleTest sources and the GN tree of the suite. Every command is watched
and compared; a finding here would be a false one (or a real missing
dependency of that project, which the test would then name).

Kept small for CI: fmt's library and two of its tests, GoogleTest with one
sample. Skipped, visibly, when cmake, meson, gn or fmt's source are missing.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

import fmt_source
import harness
import test_projects
from test_audit import ON_LINUX, findings_of

CMAKE = shutil.which("cmake")
MESON = shutil.which("meson")
GN = shutil.which("gn")


@unittest.skipUnless(ON_LINUX, "SKIPPED: --audit needs Linux")
class CleanProjectsTest(unittest.TestCase):

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="ronin-audit-project-")
        self.addCleanup(shutil.rmtree, self.root, True)

    def run_checked(self, args, cwd, timeout=600):
        result = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        self.assertEqual(result.returncode, 0, result.stdout.decode()[-3000:])

    def assert_audited_clean(self, build, *targets, commands=None):
        """Builds with --audit -j2: every command audited, no finding."""
        result = harness.run(harness.NINJA, ["--audit", "-j2"] + list(targets), build, timeout=1800)
        self.assertEqual(result.returncode, 0, result.stdout[-3000:] + result.stderr)
        self.assertEqual([], findings_of(result.stdout), result.stdout[-3000:])
        summary = [line for line in result.stdout.splitlines() if "commands audited" in line]
        self.assertEqual(1, len(summary), result.stdout[-2000:])
        self.assertTrue(summary[0].endswith("no findings"), summary)
        if commands is not None:
            self.assertEqual("ninja: audit: %d commands audited, no findings" % commands, summary[0])
        # And the next run has nothing to do.
        self.assertIn("ninja: no work to do.", harness.run(harness.NINJA, ["--audit"] + list(targets), build).stdout)
        return result

    def cmake(self, src, build, *defines):
        if not CMAKE:
            self.skipTest("SKIPPED: cmake not installed (apt-get install cmake)")
        self.run_checked([CMAKE, "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_MAKE_PROGRAM=" + harness.NINJA,
                          "-DCMAKE_BUILD_TYPE=Release"] + list(defines), self.root)

    def test_fmt_with_tests(self):
        src = fmt_source.copy_fmt_source(os.path.join(self.root, "fmt"))
        build = os.path.join(self.root, "build")
        self.cmake(src, build)
        # The library, GoogleTest and fmt's test main, and two test programs.
        self.assert_audited_clean(build, "fmt", "bin/assert-test", "bin/args-test")

    def test_meson_project(self):
        if not MESON:
            self.skipTest("SKIPPED: meson not installed (apt-get install meson)")
        src, build = os.path.join(self.root, "src"), os.path.join(self.root, "build")
        harness.write_tree(src, test_projects.MESON_PROJECT)
        self.run_checked([MESON, "setup", build, src], self.root)
        self.assert_audited_clean(build)

    def test_googletest(self):
        gtest = test_projects.GOOGLETEST_SRC
        if not os.path.isfile(os.path.join(gtest, "CMakeLists.txt")):
            self.skipTest("SKIPPED: /usr/src/googletest not installed (apt-get install googletest)")
        # A copy: sources under /usr count as the system's, not the
        # project's (project_dirs.h), unless the build is there too.
        src = os.path.join(self.root, "googletest")
        shutil.copytree(gtest, src)
        build = os.path.join(self.root, "build")
        self.cmake(src, build, "-Dgtest_build_samples=ON")
        self.assert_audited_clean(build, "gtest", "gmock", "googletest/sample1_unittest")

    def test_gn_tree(self):
        if not GN:
            self.skipTest("SKIPPED: gn not installed (apt-get install generate-ninja)")
        src = os.path.join(self.root, "tree")
        shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gn_tree"), src)
        self.run_checked([GN, "gen", "out"], src)
        self.assert_audited_clean(os.path.join(src, "out"))


if __name__ == "__main__":
    unittest.main()
