"""The test suite's own set-up: the package list that misc/test.sh and
.ci/run share (misc/packages.txt, read by misc/deps.sh), and the rule that
under CI a skipped test fails (harness.py)."""

import glob
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

import harness

PACKAGES = os.path.join(harness.REPO, "misc", "packages.txt")
BLACKBOX = os.path.dirname(os.path.abspath(__file__))


def listed_packages():
    with open(PACKAGES) as f:
        entries = re.sub(r"#.*", "", f.read()).split()
    return [entry.split(":", 1)[0] for entry in entries]


class PackageListTest(unittest.TestCase):

    def deps_missing(self, listing):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "misc"))
            with open(os.path.join(tmp, "misc", "packages.txt"), "w") as f:
                f.write(listing)
            out = subprocess.run(["sh", "-c", '. "$1"; deps_missing', "sh",
                                  os.path.join(harness.REPO, "misc", "deps.sh")],
                                 cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((out.returncode, out.stderr.decode()), (0, ""))
        return out.stdout.decode().split()

    def test_missing_packages_are_those_not_installed_and_without_their_command(self):
        listing = ("# a comment line\n"
                   "dpkg\n"                          # installed on any Debian
                   "ronin-no-such-package   # the rest is a comment\n"
                   "ronin-no-such-tool:sh\n"         # not installed, but sh is on PATH
                   "ronin-absent:ronin-no-such-command ronin-also-absent\n")
        self.assertEqual(self.deps_missing(listing),
                         ["ronin-no-such-package", "ronin-absent", "ronin-also-absent"])

    def test_entries_are_package_names(self):
        with open(PACKAGES) as f:
            entries = re.sub(r"#.*", "", f.read()).split()
        self.assertGreater(len(entries), 10)
        for entry in entries:
            self.assertRegex(entry, r"^[a-z0-9][a-z0-9.+-]+(:[A-Za-z0-9._+-]+)?$")

    def test_every_package_a_skip_asks_for_is_listed(self):
        """A test that skips for lack of a tool names its Debian package
        ("apt-get install X"); CI installs the list, so X must be on it."""
        asked = set()
        sources = [p for p in glob.glob(os.path.join(BLACKBOX, "*.py"))
                   if os.path.basename(p) != "test_suite_setup.py"]  # its examples are made up
        for path in sources + [
                os.path.join(harness.REPO, "misc", "test.sh"),
                os.path.join(harness.REPO, "CMakeLists.txt")]:
            with open(path) as f:
                for words in re.findall(r"apt-get install((?: [a-z0-9][a-z0-9.+-]*)+)", f.read()):
                    asked.update(words.split())
        self.assertIn("generate-ninja", asked)
        self.assertEqual(sorted(asked - set(listed_packages())), [])


SKIPPING_MODULE = textwrap.dedent('''
    import unittest
    import harness

    class T(unittest.TestCase):
        def test_missing_tool(self):
            self.skipTest("SKIPPED: frob not installed (apt-get install frob)")

        @unittest.skipUnless(False, "decorated skip")
        def test_decorated(self):
            pass

        def test_no_privilege(self):
            self.skipTest(harness.SKIP_NO_PRIVILEGE + "root")

        def test_passes(self):
            pass
    ''')


class SkipsUnderCiTest(unittest.TestCase):

    def run_module(self, ci):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "skipping_module.py"), "w") as f:
                f.write(SKIPPING_MODULE)
            env = {k: v for k, v in os.environ.items() if k != "CI"}
            if ci is not None:
                env["CI"] = ci
            env["PYTHONPATH"] = BLACKBOX
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            out = subprocess.run([sys.executable, "-m", "unittest", "skipping_module"], cwd=tmp,
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return out.returncode, out.stdout.decode()

    def test_skips_are_visible_outside_ci(self):
        for ci in (None, "", "false", "0"):
            code, out = self.run_module(ci)
            self.assertEqual(code, 0, out)
            self.assertIn("OK (skipped=3)", out)

    def test_skips_fail_under_ci_except_for_missing_privileges(self):
        code, out = self.run_module("true")
        self.assertEqual(code, 1, out)
        self.assertIn("FAILED (failures=2, skipped=1)", out)
        self.assertIn("skipped under CI=true, where nothing may skip: SKIPPED: frob not installed "
                      "(apt-get install frob)", out)
        self.assertIn("where nothing may skip: decorated skip", out)


if __name__ == "__main__":
    unittest.main()
