"""Randomised differential tests: generated manifests, ours vs reference ninja 1.13.2.

Each seed builds a small random manifest (valid or slightly broken: odd
escapes, unknown rules and pools, duplicate outputs, cycles, CRLF, a cut-off
last line, includes and subninjas, depfiles with `deps = gcc`, restat) and a
random set of existing files, then runs the same sequence of invocations in
two identical trees: dry runs, real builds (twice, so the logs are read back),
`-d explain`, `-k 0`, and the read-only tools. Exit code, stdout, stderr and
the resulting file list must match after every step. Only what cannot be
equal is normalised: the tree's path, graphviz node addresses and the
nanosecond mtimes `-d explain` prints.

Seeds are fixed so that a failure reproduces; RONIN_RANDOM_SEEDS=FIRST:COUNT
runs others (`RONIN_RANDOM_SEEDS=1000:2000` for a long session).

    NINJA=<ours> REF_NINJA=<ninja 1.13.2> python3 -m unittest -v test_diff_random
"""

import os
import random
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import DifferentialTestCase, list_tree, name_pointers, write_tree  # noqa: E402

NAMES = ["a", "b", "c", "out/x.o", "d/e", "f g", "h$i", "j:k", "sub/../l", "./m", "n.h", "o//p", "q", "r.txt"]
VARIABLES = ["x", "y", "z", "cflags", "in", "out", "depfile", "pool", "description", "restat", "generator"]
RULE_KEYS = ["description", "depfile", "restat", "generator", "pool", "rspfile", "rspfile_content", "deps",
             "bogus", "msvc_deps_prefix", "dyndep"]
COMMANDS = ["touch $out", "echo $in > $out", "touch $out # $x", "false", "exit 3",
            "printf '$out: $in n.h\\n' > $out.d && touch $out", "echo [$in_newline] && touch $out",
            "cp $rspfile $out", "touch $out && echo warning >&2"]
BROKEN_LINES = ["  x = 1", "build", "rule", "default", "pool", "include nope.ninja", "subninja $x", "x", "x =",
                "$x = 1", "ninja_required_version = 1.15", "ninja_required_version = 1.3", "builddir = bd",
                "\tbuild a: phony", "build a: phony b\nbuild a: phony c", "rule r0\n  command = x",
                "build q: phony q", "build b: phony c\nbuild c: phony b"]

_EXPLAIN_TIMES = re.compile(r"\(-?\d+ vs -?\d+\)")


def escape(name):
    return name.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def random_value(rng):
    parts = []
    for _ in range(rng.randint(0, 4)):
        k = rng.random()
        if k < 0.4:
            parts.append(rng.choice(["foo", "bar baz", "-O2", "1", "", "\"q\""]))
        elif k < 0.7:
            parts.append("$" + rng.choice(VARIABLES))
        elif k < 0.8:
            parts.append("${" + rng.choice(VARIABLES) + "}")
        elif k < 0.85:
            parts.append("$$")
        elif k < 0.9:
            parts.append("$ ")
        elif k < 0.93:
            parts.append("$\n    ")
        elif k < 0.95:
            parts.append("$")
        else:
            parts.append(rng.choice(["$in_newline", "$:", "$!", "${", "}"]))
    return "".join(parts)


def random_paths(rng, low, high):
    return [escape(rng.choice(NAMES)) for _ in range(rng.randint(low, high))]


def random_rule(rng, name, pools):
    lines = ["rule " + name]
    if rng.random() < 0.95:
        lines.append("  command = " + (rng.choice(COMMANDS) if rng.random() < 0.85 else random_value(rng) or "true"))
    for _ in range(rng.randint(0, 3)):
        key = rng.choice(RULE_KEYS)
        value = random_value(rng)
        if key == "pool":
            value = rng.choice(pools + ["console", "nope", ""])
        elif key == "deps":
            value = rng.choice(["gcc", "gcc", "msvc", "x", ""])
        elif key == "depfile" and rng.random() < 0.6:
            value = "$out.d"
        elif key in ("restat", "generator") and rng.random() < 0.6:
            value = "1"
        elif key == "rspfile" and rng.random() < 0.6:
            value = "$out.rsp"
        lines.append("  %s = %s" % (key, value))
    return "\n".join(lines)


def random_edge(rng, rules):
    outputs = random_paths(rng, 0 if rng.random() < 0.05 else 1, 2)
    text = "build " + " ".join(outputs)
    implicit_outputs = random_paths(rng, 0, 1)
    if implicit_outputs:
        text += " | " + " ".join(implicit_outputs)
    rule = rng.choice(rules + ["phony", "phony", "unknown"] if rng.random() < 0.1 else rules + ["phony"])
    text += ": " + rule
    for separator, low, high in (("", 0, 3), (" |", 0, 2), (" ||", 0, 2), (" |@", 0, 1)):
        paths = random_paths(rng, low, high)
        if paths:
            text += separator + " " + " ".join(paths)
    for _ in range(rng.randint(0, 2)):
        text += "\n  %s = %s" % (rng.choice(VARIABLES), random_value(rng))
    return text


def random_manifest(rng):
    """Returns {path: text} for build.ninja and any file it includes."""
    lines, pools, rules = [], [], []
    for _ in range(rng.randint(0, 3)):
        lines.append("%s = %s" % (rng.choice(VARIABLES), random_value(rng)))
    if rng.random() < 0.3:
        pool = "p%d" % rng.randint(0, 2)
        lines.append("pool %s\n  depth = %s" % (pool, rng.choice(["1", "2", "0", "-1", "x", "$x"])))
        pools.append(pool)
    for i in range(rng.randint(1, 3)):
        rules.append("r%d" % i)
        lines.append(random_rule(rng, rules[-1], pools))
    for _ in range(rng.randint(1, 8)):
        lines.append(random_edge(rng, rules))
    files = {}
    if rng.random() < 0.25:
        # A file of more edges, shared scope or its own.
        keyword = rng.choice(["include", "subninja"])
        child = [random_value(rng) and "x = " + random_value(rng)]
        if rng.random() < 0.5:
            child.append(random_rule(rng, rng.choice(["r0", "s0"]), pools))
        for _ in range(rng.randint(1, 3)):
            child.append(random_edge(rng, rules + ["s0"]))
        files["sub.ninja"] = "\n".join(line for line in child if line) + "\n"
        lines.insert(rng.randint(0, len(lines)), keyword + " sub.ninja")
    if rng.random() < 0.4:
        lines.append("default " + " ".join(random_paths(rng, 0, 2)))
    if rng.random() < 0.1:
        lines.insert(rng.randint(0, len(lines)), rng.choice(BROKEN_LINES))
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.05:
        text = text.replace("\n", "\r\n")
    if rng.random() < 0.05:
        text = text[:rng.randint(0, len(text))]
    files["build.ninja"] = text
    return files


def invocations(rng):
    target = rng.choice(NAMES)
    return [["-n"], ["-t", "targets", "all"], ["-t", "commands"], ["-t", "query", target], ["-j1"],
            ["-j1", "-d", "explain"], ["-t", "inputs"], ["-t", "outputs"], ["-t", "deps"], ["-t", "compdb"],
            ["-t", "missingdeps"], ["-t", "graph"], ["-t", "rules"], ["-t", "recompact"], ["-t", "cleandead"],
            ["-t", "clean"], ["-k", "0", "-j1"], ["-j1", target], ["-t", "restat"], ["-j1", "-d", "explain"]]


def seeds():
    spec = os.environ.get("RONIN_RANDOM_SEEDS", "1:60")
    first, count = (int(part) for part in spec.split(":"))
    return range(first, first + count)


class RandomManifestTest(DifferentialTestCase):

    def normalize(self, text, root):
        return name_pointers(_EXPLAIN_TIMES.sub("(<T> vs <T>)", text.replace(root, "<DIR>")))

    def run_seed(self, seed):
        rng = random.Random(seed)
        files = random_manifest(rng)
        for name in NAMES:
            if rng.random() < 0.5 and not name.startswith(("o//", "sub/")):
                files.setdefault(name, "x\n")
        for root in (self.ours_dir, self.ref_dir):
            write_tree(root, files)
        for args in invocations(rng):
            ours, ref = self.run_both(*args)
            context = "seed %d, ninja %s\n%s" % (seed, " ".join(args), files["build.ninja"])
            self.assertEqual(
                (ref.returncode, self.normalize(ref.stdout, self.ref_dir), self.normalize(ref.stderr, self.ref_dir)),
                (ours.returncode, self.normalize(ours.stdout, self.ours_dir),
                 self.normalize(ours.stderr, self.ours_dir)),
                context)
            ignored = (".ninja_log", ".ninja_deps")
            self.assertEqual(list_tree(self.ref_dir, ignored), list_tree(self.ours_dir, ignored), context)

    def seeds(self):
        return seeds()

    def test_random_manifests(self):
        for seed in self.seeds():
            with self.subTest(seed=seed):
                self.setUp()  # fresh trees per seed
                self.run_seed(seed)


if __name__ == "__main__":
    unittest.main()
