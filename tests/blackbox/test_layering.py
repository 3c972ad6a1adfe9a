"""The source tree's layering rule (doc/design.md, "The map").

src/ holds one folder per concern, and a folder may include only the
folders the rule lists for it. The rule lives in doc/design.md, between the
`layers:begin` and `layers:end` markers, as lines `folder: folders it may
include`; this test reads it from there, so the documented rule and the
checked one cannot drift apart. It checks that:
  - the rule has no cycle, and names every folder of src/ (and no other);
  - nothing but main.cc and the build's own files sits directly in src/;
  - every project #include is qualified by its folder and names a header
    that exists;
  - every #include in src/ respects the rule.
The checker itself is tested on a small made-up tree with a back-edge.
"""

import os
import re
import shutil
import tempfile
import unittest

import harness

DESIGN = os.path.join(harness.REPO, "doc", "design.md")
SRC = os.path.join(harness.REPO, "src")
# Files that may sit directly in src/: the entry point and the build's list.
TOP_LEVEL_FILES = {"main.cc", "sources.txt"}
PROJECT_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_rule(design_text):
    """{folder: set of folders it may include}, from the design note."""
    match = re.search(r"layers:begin[^\n]*\n(.*?)\n[^\n]*layers:end", design_text, re.S)
    if not match:
        raise AssertionError("doc/design.md has no layers:begin ... layers:end block")
    rule = {}
    for line in match.group(1).splitlines():
        line = line.strip()
        if not line or line.startswith("```"):
            continue
        folder, _, allowed = line.partition(":")
        rule[folder.strip()] = set(allowed.split())
    return rule


def cycle_in(rule):
    """A list of folders forming a cycle, or None."""
    state = {}
    for start in rule:
        if state.get(start):
            continue
        stack = [(start, iter(sorted(rule[start])))]
        path = [start]
        state[start] = "open"
        while stack:
            folder, below = stack[-1]
            nxt = next(below, None)
            if nxt is None:
                state[folder] = "done"
                stack.pop()
                path.pop()
            elif state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            elif not state.get(nxt):
                state[nxt] = "open"
                stack.append((nxt, iter(sorted(rule.get(nxt, ())))))
                path.append(nxt)
    return None


def violations(src, rule):
    """Every include in `src` that breaks the rule, as readable lines."""
    found = []
    for folder in sorted(os.listdir(src)):
        folder_path = os.path.join(src, folder)
        if not os.path.isdir(folder_path):
            continue
        for root, _, names in os.walk(folder_path):
            for name in sorted(names):
                if name.endswith((".h", ".cc")):
                    found += file_violations(src, os.path.join(root, name), folder, rule)
    main = os.path.join(src, "main.cc")
    if os.path.exists(main):
        found += file_violations(src, main, None, rule)
    return found


def file_violations(src, path, folder, rule):
    found = []
    where = os.path.relpath(path, os.path.dirname(src))
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for match in PROJECT_INCLUDE.finditer(text):
        header = match.group(1)
        target, sep, _ = header.partition("/")
        if not sep:
            found.append("%s: #include \"%s\" is not qualified by its folder" % (where, header))
        elif not os.path.exists(os.path.join(src, header)):
            found.append("%s: #include \"%s\" names no header in src/" % (where, header))
        elif folder is not None and target != folder and target not in rule.get(folder, ()):
            found.append("%s: %s/ may not include %s/ (#include \"%s\")" % (where, folder, target, header))
    return found


class LayeringTest(unittest.TestCase):

    def setUp(self):
        with open(DESIGN, encoding="utf-8") as f:
            self.rule = read_rule(f.read())

    def test_rule_is_acyclic(self):
        self.assertIsNone(cycle_in(self.rule))

    def test_rule_names_every_folder(self):
        folders = {name for name in os.listdir(SRC) if os.path.isdir(os.path.join(SRC, name))}
        self.assertGreater(len(folders), 5, "src/ has no folders: is this the right tree?")
        self.assertEqual(folders, set(self.rule), "the folders of src/ and the rule's")
        for folder, allowed in self.rule.items():
            self.assertLessEqual(allowed, set(self.rule), "%s may include unknown folders" % folder)

    def test_only_main_and_build_files_at_the_top(self):
        files = {name for name in os.listdir(SRC) if os.path.isfile(os.path.join(SRC, name))}
        self.assertEqual(files - TOP_LEVEL_FILES, set())

    def test_every_include_respects_the_rule(self):
        self.assertEqual(violations(SRC, self.rule), [])


class CheckerTest(unittest.TestCase):
    """The checker finds what it is for, on a tree made up for it."""

    RULE = "layers:begin\n```\nbase:\ngraph: base\n```\nlayers:end\n"

    def make_tree(self, files):
        top = tempfile.mkdtemp(prefix="ronin_layering_")
        self.addCleanup(lambda: shutil.rmtree(top))
        root = os.path.join(top, "src")
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        return root

    def test_a_back_edge_is_found(self):
        rule = read_rule(self.RULE)
        src = self.make_tree({"base/a.h": '#include "graph/b.h"\n', "graph/b.h": '#include "base/a.h"\n'})
        self.assertEqual(violations(src, rule),
                         ['src/base/a.h: base/ may not include graph/ (#include "graph/b.h")'])

    def test_unqualified_and_missing_headers_are_found(self):
        rule = read_rule(self.RULE)
        src = self.make_tree({"graph/b.cc": '#include "b.h"\n#include "base/gone.h"\n', "graph/b.h": ""})
        self.assertEqual(violations(src, rule), [
            'src/graph/b.cc: #include "b.h" is not qualified by its folder',
            'src/graph/b.cc: #include "base/gone.h" names no header in src/',
        ])

    def test_a_cycle_in_the_rule_is_found(self):
        self.assertEqual(cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}), ["a", "b", "c", "a"])
        self.assertIsNone(cycle_in({"a": {"b"}, "b": set(), "c": {"a", "b"}}))

    def test_the_real_tree_with_an_injected_back_edge_fails(self):
        with open(DESIGN, encoding="utf-8") as f:
            rule = read_rule(f.read())
        copy = os.path.join(tempfile.mkdtemp(prefix="ronin_layering_"), "src")
        self.addCleanup(lambda: shutil.rmtree(os.path.dirname(copy)))
        shutil.copytree(SRC, copy)
        self.assertEqual(violations(copy, rule), [])
        with open(os.path.join(copy, "base", "util.h"), "a", encoding="utf-8") as f:
            f.write('#include "sched/builder.h"\n')
        self.assertEqual(violations(copy, rule),
                         ['src/base/util.h: base/ may not include sched/ (#include "sched/builder.h")'])

if __name__ == "__main__":
    unittest.main()
