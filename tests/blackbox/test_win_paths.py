"""Long and non-ASCII paths on Windows (issue 27 item 3), under wine: ronin's ninja.exe builds a
tree whose paths are 300+ characters of CJK and accented names, with a depfile (deps = gcc) and
/showIncludes (deps = msvc, tests/win/helpers/fakecl.c) naming such headers, no-ops after,
rebuilds what a touched header reaches and cleans. Every path goes to Windows' wide-character
API (base/wide_path.h): UTF-16, and past MAX_PATH as an absolute "\\\\?\\" path, whatever the
system's long-path setting. ninja.exe 1.13.2 refuses the same trees ("Filename longer than 260
characters", its check when the system has not enabled long paths, which wine does not):
recorded below, as the documented difference it is (doc/manual.md, "Differences from Ninja").

Wine lifts MAX_PATH for the wide API with or without the prefix, so what this shows is the wide
API and the check gone; the prefix itself is WidePathTest's (the unit tests under wine).

    NINJA_WIN=<ours.exe> [REF_NINJA_WIN=<ninja 1.13.2 .exe>] python3 -m unittest -v test_win_paths
"""

import os
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wine  # noqa: E402
from harness import write_tree  # noqa: E402

# Directories of CJK and accented names, 300+ characters (UTF-16 units, as Windows counts)
# below the tree, and more in its absolute form.
DEEP = "/".join("\u6df1\u3044\u30c7\u30a3\u30ec\u30af\u30c8\u30ea-caf\u00e9-cr\u00e8me-%02d" % i for i in range(14))
SOURCE = DEEP + "/\u6e90\u6587\u4ef6-\u00e9.c"
HEADER = DEEP + "/\u5934\u6587\u4ef6-\u00fc.h"
SYSTEM_HEADER = DEEP + "/inc/\u7cfb\u7edf-\u00f1.h"
DEP_SOURCE = DEEP + "/\u4f9d\u5b58-\u00f6.c"
DEP_HEADER = DEEP + "/\u5b50/\u30d8\u30c3\u30c0-\u00e5.h"
ORIGINAL = DEEP + "/\u539f\u4ef6-\u00ea.txt"
OBJECT = DEEP + "/obj/\u6e90\u6587\u4ef6-\u00e9.obj"
DEP_OBJECT = DEEP + "/obj/\u4f9d\u5b58-\u00f6.o"
COPY = DEEP + "/out/\u590d\u5236-\u00e0.txt"
OUTPUTS = (OBJECT, DEP_OBJECT, COPY)

MANIFEST = """\
rule cl
  command = fakecl /nologo /showIncludes /I {inc} /c $in /Fo$out
  deps = msvc
  description = CL $out
rule gcc
  command = printf '%s: %s {dep_header}\\n' $out $in > $out.d && cp $in $out
  depfile = $out.d
  deps = gcc
  description = CC $out
rule cp
  command = cp $in $out
  description = CP $out
build {object}: cl {source}
build {dep_object}: gcc {dep_source}
build {copy}: cp {original}
build all: phony {object} {dep_object} {copy}
default all
""".format(inc=(DEEP + "/inc").replace("/", "\\"), dep_header=DEP_HEADER, object=OBJECT.replace("/", "\\"),
           source=SOURCE, dep_object=DEP_OBJECT, dep_source=DEP_SOURCE, copy=COPY, original=ORIGINAL)

TREE = {
    "build.ninja": MANIFEST,
    SOURCE: '#include "\u5934\u6587\u4ef6-\u00fc.h"\n#include <\u7cfb\u7edf-\u00f1.h>\nint s;\n',
    HEADER: "int h;\n",
    SYSTEM_HEADER: "int sys;\n",
    DEP_SOURCE: "int d;\n",
    DEP_HEADER: "int dh;\n",
    ORIGINAL: "caf\u00e9 \u65e5\u672c\n",
}

# test_win_scenarios' former long_paths scenario: ASCII only, past 260 characters by depth.
ASCII_LONG = {"x.c": "x\n",
              "build.ninja": "rule cp\n  command = cp $in $out\n  description = CP $out\n"
                             "build %s.o: cp x.c\nbuild %s\\y.o: cp %s.o\n" % ("d/" * 140 + "x", "e\\" * 140 + "y",
                                                                                "d/" * 140 + "x")}

REFUSAL = "Filename longer than 260 characters"


def touch_now(root, rel):
    """Dates a file now (the real clock): newer than what the last build wrote, older than
    what the next writes."""
    now = time.time()
    os.utime(os.path.join(root, rel), (now, now))


class WinLongUtf8PathsTest(wine.wine_failures.RerunAfterWineFailure, unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.ours, cls.wine = wine.ninja_win_and_session()

    def tree(self, files):
        root = tempfile.mkdtemp(prefix="ronin-win-paths-")
        self.addCleanup(shutil.rmtree, root, True)
        write_tree(root, files)
        return root

    def ninja(self, exe, root, *args):
        r = self.wine.run(exe, list(args), root, timeout=120, roots=(root,))
        return r.returncode, r.stdout.replace("\r\n", "\n"), r.stderr.replace("\r\n", "\n")

    def ours_ok(self, root, *args):
        code, out, err = self.ninja(self.ours, root, *args)
        self.assertEqual((code, err), (0, ""), "ninja %s: %s\n%s" % (" ".join(args), out[-2000:], err[-3000:]))
        return out

    def test_the_tree_is_long_and_utf8(self):
        for rel in TREE:
            if rel != "build.ninja":
                self.assertGreater(len(rel), 300, rel)
        self.assertTrue(any(ord(c) > 0x3000 for c in DEEP) and "\u00e9" in DEEP)

    def test_builds_no_ops_rebuilds_and_cleans_long_utf8_paths(self):
        root = self.tree(TREE)
        out = self.ours_ok(root)
        self.assertIn("[3/3] ", out)
        self.assertNotIn("warning", out)
        for rel in OUTPUTS:
            self.assertTrue(os.path.isfile(os.path.join(root, rel)), rel)
        with open(os.path.join(root, COPY), encoding="utf-8") as f:
            self.assertEqual(f.read(), "caf\u00e9 \u65e5\u672c\n")
        self.assertEqual(self.ours_ok(root), "ninja: no work to do.\n")

        # The headers /showIncludes and the depfile named, as the deps log keeps them: relative
        # to the build's directory (the msvc ones made so from fakecl's absolute paths).
        deps = self.ours_ok(root, "-t", "deps")
        self.assertIn("%s: #deps 2, " % OBJECT, deps)
        self.assertIn("(VALID)\n    %s\n    %s\n\n" % (SYSTEM_HEADER, HEADER), deps)
        self.assertIn("%s: #deps 2, " % DEP_OBJECT, deps)
        self.assertIn("(VALID)\n    %s\n    %s\n\n" % (DEP_SOURCE, DEP_HEADER), deps)
        self.assertFalse(os.path.exists(os.path.join(root, DEP_OBJECT + ".d")), "deps = gcc reads and deletes it")

        # Each touched header rebuilds exactly its object, found through the long deps.
        touch_now(root, SYSTEM_HEADER)
        self.assertEqual(self.ours_ok(root), "[1/1] CL %s\n" % OBJECT.replace("/", "\\"))
        touch_now(root, DEP_HEADER)
        self.assertEqual(self.ours_ok(root), "[1/1] CC %s\n" % DEP_OBJECT)
        self.assertEqual(self.ours_ok(root), "ninja: no work to do.\n")
        self.assertEqual(self.ours_ok(root, "-t", "query", COPY).splitlines()[0], COPY + ":")

        # -t clean removes the long outputs; a build after it makes them again.
        self.assertEqual(self.ours_ok(root, "-t", "clean"), "Cleaning... 3 files.\n")
        for rel in OUTPUTS:
            self.assertFalse(os.path.exists(os.path.join(root, rel)), rel)
        self.assertIn("[3/3] ", self.ours_ok(root))
        self.assertEqual(self.ours_ok(root), "ninja: no work to do.\n")

    def test_tool_msvc_writes_a_long_depfile(self):
        # -t msvc runs the compiler (CreateProcessW), reads /showIncludes and writes OBJECT.d
        # with the headers relative to the working directory, as ninja.exe's tool does.
        root = self.tree(TREE)
        obj = DEEP + "/obj/msvc-\u00e9.obj"
        os.makedirs(os.path.join(root, DEEP, "obj"))
        out = self.ours_ok(root, "-t", "msvc", "-o", obj, "--", "fakecl", "/showIncludes", "/I", DEEP + "/inc",
                           "/c", SOURCE, "/Fo" + obj)
        self.assertTrue(out.startswith("\u6e90\u6587\u4ef6-\u00e9.c\nNote: including file: "), out)
        self.assertTrue(os.path.isfile(os.path.join(root, obj)))
        with open(os.path.join(root, obj + ".d"), encoding="utf-8", newline="") as f:
            self.assertEqual(f.read(), "%s: %s\r\n%s\r\n" % (obj, SYSTEM_HEADER, HEADER))

    def test_long_ascii_paths_by_depth(self):
        root = self.tree(ASCII_LONG)
        # (Past 64 separators the slash bits keep no '\\': ninja.exe's rule, kept as it is.)
        self.assertRegex(self.ours_ok(root), r"^\[1/2\] CP (d/){140}x\.o\n\[2/2\] CP (e\\){64}(e/){76}y/y\.o\n$")
        for rel in ("d/" * 140 + "x.o", "e/" * 140 + "y/y.o"):
            self.assertTrue(os.path.isfile(os.path.join(root, rel)), rel)
        self.assertEqual(self.ours_ok(root), "ninja: no work to do.\n")
        self.assertEqual(self.ours_ok(root, "-t", "clean"), "Cleaning... 2 files.\n")

    def test_the_reference_refuses_both_trees(self):
        # Recorded, not required: ninja.exe 1.13.2 stats a path past MAX_PATH only when the
        # system has long paths enabled, and stops the build otherwise; nothing is built.
        for files, outputs in ((TREE, OUTPUTS), (ASCII_LONG, ("d/" * 140 + "x.o",))):
            root = self.tree(files)
            code, out, err = self.ninja(wine.reference_ninja_win(), root)
            self.assertEqual((code, out), (1, ""), err)
            self.assertRegex(err, r"^ninja: error: Stat\([^\n]{260,}\): %s\n$" % REFUSAL)
            for rel in outputs:
                self.assertFalse(os.path.exists(os.path.join(root, rel)), rel)


if __name__ == "__main__":
    unittest.main(verbosity=2)
