"""The user documents read as finished documents: doc/manual.md carries no
authoring notes and one section per subject, and the README's build recipes
say what they build and how long the quick start shows progress."""

import os
import re
import unittest

import harness


def read(rel):
    with open(os.path.join(harness.REPO, rel), encoding="utf-8") as f:
        return f.read()


class ManualTest(unittest.TestCase):
    def setUp(self):
        self.manual = read("doc/manual.md")
        self.headings = re.findall(r"^#+ (.*)$", self.manual, re.M)

    def test_no_authoring_notes(self):
        self.assertIsNone(re.search(r"<!--", self.manual), "an HTML comment: a note to authors")
        self.assertIsNone(re.search(r"\b(TODO|FIXME|XXX)\b", self.manual))

    def test_one_section_per_subject(self):
        self.assertEqual(len(self.headings), len(set(self.headings)), self.headings)
        self.assertEqual([h for h in self.headings if "HTTP cache" in h],
                         ["An HTTP cache: `--cache=http://HOST:PORT/PREFIX`"])
        # The differences from Ninja: one bullet per subject.
        differences = self.manual.split("## Differences from Ninja", 1)[1].split("\n## ", 1)[0]
        titles = re.findall(r"^- \*\*(.+?)\*\*", differences, re.M)
        self.assertEqual(len(titles), len(set(titles)), titles)
        for subject in ("Work on", "graph image"):
            self.assertEqual(1, len([t for t in titles if subject in t]), (subject, titles))

    def test_the_nginx_block_is_the_one_the_tests_run(self):
        block = re.search(r"```nginx\n(.*?)```", self.manual, re.S).group(1)
        tested = read("tests/blackbox/nginx_cache.py")
        for directive in re.findall(r"^\s*((?:dav_methods|create_full_put_path|dav_access)[^;]*;)", block, re.M):
            self.assertIn(directive, tested)


class ReadmeTest(unittest.TestCase):
    def test_the_install_recipe_says_it_builds_the_tests_and_how_not_to(self):
        readme = read("README.md")
        installing = readme.split("## Installing", 1)[1].split("\n## ", 1)[0]
        self.assertIn("also builds the unit tests", installing)
        self.assertIn("-DRONIN_BUILD_TESTS=OFF", installing)
        self.assertIn("share/doc/ronin/", installing)

    def test_the_quick_start_says_what_it_shows(self):
        quick = read("README.md").split("## Quick start", 1)[1].split("\n## ", 1)[0]
        self.assertRegex(quick, r"\[\d+/\d+\] CXX src/")


if __name__ == "__main__":
    unittest.main()
