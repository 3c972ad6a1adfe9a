"""--cache: the shared build cache (src/build_cache.*, cache_key.*,
cache_policy.*, discovered_deps_manifest.*, program_identity.*).

The scenarios are written once (CacheScenarios) and run per backend: a
backend says which --cache value to pass and how to damage what it stores.
The directory backend runs here; test_cache_nginx.py runs the same
scenarios with nginx (WebDAV) as the backend.

Compiles are counted by a launcher that logs each one, so "0 compiles"
means no compiler ran, not just that ronin said so.
"""

import glob
import os
import re
import shutil
import subprocess
import threading
import unittest

from harness import NINJA, NinjaTestCase, REF_NINJA, run

LOGGING_LAUNCHER = """#!/bin/sh
echo "$*" >> "$COMPILE_LOG"
exec "$@"
"""


class DirectoryBackend:
    """--cache=DIR."""

    def __init__(self, root):
        self.dir = os.path.join(root, "cache")

    def spec(self):
        return self.dir

    def blob_files(self):
        return glob.glob(os.path.join(self.dir, "cas", "*", "*"))

    def corrupt_blobs(self):
        """Flips the last byte of every stored blob (the object files and the printed outputs)."""
        for path in self.blob_files():
            with open(path, "r+b") as f:
                data = f.read()
                f.seek(0)
                f.write(data[:-1] + bytes([(data[-1] ^ 0xFF) if data else 0x41]))

    def stop(self):
        pass


def stats_line(stdout):
    for line in stdout.splitlines():
        if line.startswith("build cache: "):
            return line
    raise AssertionError("no build cache line in -d stats output:\n" + stdout)


def hits_and_misses(stdout):
    words = stats_line(stdout).split()
    return int(words[2]), int(words[4])


# A hand-written tree with gcc: a compiler copy we may change, a warning,
# a header the depfile reports.
SMALL_BUILD = """rule cc
  command = $cc -MD -MF $out.d $flags -c $in -o $out
  deps = gcc
  depfile = $out.d
cc = tools/mycc
flags = -Wall
build x.o: cc x.c
build y.o: cc y.c
"""


@unittest.skipUnless(shutil.which("gcc"), "SKIPPED: gcc not installed (apt-get install gcc)")
class CacheScenarios:
    Backend = DirectoryBackend

    def setUp(self):
        super().setUp()
        self.backend = self.Backend(self.dir)
        self.addCleanup(self.backend.stop)

    def cached(self, *args, cwd=None, base=None):
        flags = ["--cache=" + self.backend.spec(), "-d", "stats"]
        if base:
            flags.append("--cache-base-dir=" + base)
        result = self.ninja(*(flags + list(args)), cwd=cwd, env={"COMPILE_LOG": self.path("compiles.log")})
        self.assertEqual(result.returncode, 0, result)
        return result

    def read_bytes(self, rel):
        with open(self.path(rel), "rb") as f:
            return f.read()

    def install_compiler(self, rel):
        """The compiler at `rel`, a copy the test may change. Here a wrapper script (a copied
        gcc would not find cc1): changing it is changing the compiler the command runs."""
        self.write(rel, "#!/bin/sh\nexec gcc \"$@\"\n")
        os.chmod(self.path(rel), 0o755)

    def change_compiler(self, rel):
        self.write(rel, self.read(rel) + "# v2\n")

    def make_small(self, where):
        os.makedirs(self.path(where + "/tools"), exist_ok=True)
        self.install_compiler(where + "/tools/mycc")
        self.write(where + "/build.ninja", SMALL_BUILD)
        self.write(where + "/x.c", '#include "h.h"\nint x(void) { int unused; return H; }\n')
        self.write(where + "/y.c", "int y(void) { return 2; }\n")
        self.write(where + "/h.h", "#define H 1\n")

    def clean(self, where):
        for name in ("x.o", "y.o", ".ninja_log", ".ninja_deps"):
            if os.path.exists(self.path(where + "/" + name)):
                os.remove(self.path(where + "/" + name))

    def test_hit_is_a_run(self):
        self.make_small("a")
        first = self.cached("-j1", cwd=self.path("a"))
        self.assertEqual(hits_and_misses(first.stdout), (0, 2))
        self.assertIn("unused variable", first.stdout)
        objects = {name: self.read_bytes("a/" + name) for name in ("x.o", "y.o")}
        self.clean("a")
        second = self.cached("-j1", cwd=self.path("a"))
        self.assertEqual(hits_and_misses(second.stdout), (2, 0))
        # Printed exactly as the run printed it (the stats table aside).
        strip = lambda out: out.split("build cache: ")[0]
        self.assertEqual(strip(first.stdout), strip(second.stdout))
        for name, data in objects.items():
            self.assertEqual(self.read_bytes("a/" + name), data)
        # .ninja_deps holds the header, and the next build no-ops for both.
        # -t trace marks the restored commands.
        trace = self.ninja("-t", "trace", cwd=self.path("a")).stdout
        self.assertIn('"name":"x.o","cat":"cc"', trace)
        self.assertEqual(trace.count('"cached":true'), 2)
        deps = self.ninja("-t", "deps", "x.o", cwd=self.path("a"))
        self.assertIn("h.h", deps.stdout)
        self.assertIn("no work to do", self.ninja(cwd=self.path("a")).stdout)
        if REF_NINJA:
            self.assertIn("no work to do", self.reference(cwd=self.path("a")).stdout)
        os.utime(self.path("a/h.h"))
        again = self.cached(cwd=self.path("a"))
        self.assertIn("[1/1]", again.stdout)  # the header's one user only

    def test_restored_depfile_kept_with_keepdepfile(self):
        # A hit hands a gcc depfile to the builder without writing it; with
        # -d keepdepfile it is written as the compiler would have left it.
        self.make_small("a")
        self.cached("-d", "keepdepfile", cwd=self.path("a"))
        with open(self.path("a/x.o.d")) as f:
            ran = f.read()
        self.assertIn("h.h", ran)
        self.clean("a")
        os.remove(self.path("a/x.o.d"))
        os.remove(self.path("a/y.o.d"))
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("a")).stdout), (2, 0))
        self.assertFalse(os.path.exists(self.path("a/x.o.d")))
        self.assertIn("h.h", self.ninja("-t", "deps", "x.o", cwd=self.path("a")).stdout)
        self.clean("a")
        self.assertEqual(hits_and_misses(self.cached("-d", "keepdepfile", cwd=self.path("a")).stdout), (2, 0))
        with open(self.path("a/x.o.d")) as f:
            restored = f.read()
        self.assertEqual(restored.split(), ran.replace("\\\n", " ").split())
        self.assertIn("no work to do", self.ninja(cwd=self.path("a")).stdout)

    def test_each_part_of_the_key_misses(self):
        self.make_small("a")
        self.cached(cwd=self.path("a"))
        changes = [
            ("a changed compiler binary", lambda: self.change_compiler("a/tools/mycc")),
            ("a changed flag", lambda: self.write("a/build.ninja", SMALL_BUILD.replace("-Wall", "-Wall -O1"))),
            ("a changed discovered header", lambda: self.write("a/h.h", "#define H 2\n")),
        ]
        for what, change in changes:
            change()
            self.clean("a")
            result = self.cached(cwd=self.path("a"))
            hits, misses = hits_and_misses(result.stdout)
            self.assertGreaterEqual(misses, 1, what)
            self.assertIn("x.c -o x.o", result.stdout, what)
        # Back to an earlier header: its entry is still there (a second run
        # listed in the first-level entry).
        self.write("a/h.h", "#define H 1\n")
        self.clean("a")
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("a")).stdout), (2, 0))

    def test_corrupt_blob_is_rebuilt(self):
        self.make_small("a")
        self.cached(cwd=self.path("a"))
        good = self.read_bytes("a/x.o")
        self.backend.corrupt_blobs()
        self.clean("a")
        result = self.cached(cwd=self.path("a"))
        self.assertEqual(hits_and_misses(result.stdout), (0, 2))
        self.assertEqual(self.read_bytes("a/x.o"), good)
        self.clean("a")
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("a")).stdout), (2, 0))
        self.assertEqual(self.read_bytes("a/x.o"), good)

    def test_never_cached(self):
        marks = self.path("ran")
        self.write("n/build.ninja", (
            "rule gen\n  command = echo gen >> {m}; echo x > $out; echo '$out:' > $out.d\n"
            "  depfile = $out.d\n  generator = 1\n"
            "rule rs\n  command = echo rs >> {m}; echo x > $out; echo '$out:' > $out.d\n"
            "  depfile = $out.d\n  restat = 1\n"
            "rule con\n  command = echo con >> {m}; echo x > $out; echo '$out:' > $out.d\n"
            "  depfile = $out.d\n  pool = console\n"
            "rule plain\n  command = echo plain >> {m}; echo x > $out\n"
            "build g: gen\nbuild r: rs\nbuild c: con\nbuild p: plain\nbuild all: phony g r c p\n").format(m=marks))
        for _ in range(2):
            for name in ("g", "r", "c", "p", ".ninja_log", ".ninja_deps"):
                if os.path.exists(self.path("n/" + name)):
                    os.remove(self.path("n/" + name))
            result = self.cached(cwd=self.path("n"))
            self.assertEqual(hits_and_misses(result.stdout), (0, 0))
        with open(marks) as f:
            self.assertEqual(sorted(f.read().split()), sorted(["gen", "rs", "con", "plain"] * 2))
        # A rule the user names is cached.
        os.remove(self.path("n/p"))
        os.remove(self.path("n/.ninja_log"))
        self.cached("--cache-rules=plain", "p", cwd=self.path("n"))
        os.remove(self.path("n/p"))
        os.remove(self.path("n/.ninja_log"))
        result = self.cached("--cache-rules=plain", "p", cwd=self.path("n"))
        self.assertEqual(hits_and_misses(result.stdout), (1, 0))
        with open(marks) as f:
            self.assertEqual(f.read().split().count("plain"), 3)

    def test_file_written_while_running_is_not_stored(self):
        # The command rewrites (with the same content) a header it reports:
        # its result may belong to another version, so it is not stored,
        # though a later build sees the same content everywhere.
        self.write("e/build.ninja", "rule r\n  command = cp $in $out && echo '$out: $in h' > $out.d "
                   "&& cp h h.tmp && mv h.tmp h\n  depfile = $out.d\nbuild o: r i\n")
        self.write("e/i", "one\n")
        self.write("e/h", "h\n")
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("e")).stdout), (0, 1))
        os.remove(self.path("e/o"))
        os.remove(self.path("e/.ninja_log"))
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("e")).stdout), (0, 1))

    def test_msvc_deps_restored(self):
        self.write("m/build.ninja", "rule cl\n  command = echo 'Note: including file: inc.h' && "
                   "echo 'warn: something' && cat $in inc.h > $out\n  deps = msvc\n  description = CL $out\n"
                   "build o: cl i\n")
        self.write("m/i", "i\n")
        self.write("m/inc.h", "h\n")
        first = self.cached(cwd=self.path("m"))
        for name in ("o", ".ninja_log", ".ninja_deps"):
            os.remove(self.path("m/" + name))
        second = self.cached(cwd=self.path("m"))
        self.assertEqual(hits_and_misses(second.stdout), (1, 0))
        self.assertEqual(first.stdout.split("build cache")[0], second.stdout.split("build cache")[0])
        self.assertNotIn("including file", second.stdout)
        self.assertIn("inc.h", self.ninja("-t", "deps", cwd=self.path("m")).stdout)
        self.assertIn("no work to do", self.ninja(cwd=self.path("m")).stdout)

    def test_concurrent_builds_lose_nothing(self):
        count = 40
        for where in ("a", "b", "c"):
            lines = ["rule cc\n  command = gcc -MD -MF $out.d -c $in -o $out\n  deps = gcc\n  depfile = $out.d\n"]
            for i in range(count):
                self.write("%s/f%d.c" % (where, i), "int f%d(void) { return %d; }\n" % (i, i))
                lines.append("build f%d.o: cc f%d.c\n" % (i, i))
            self.write(where + "/build.ninja", "".join(lines))
        results = {}

        def build(where):
            results[where] = self.cached("-j2", cwd=self.path(where), base=self.path(where))

        threads = [threading.Thread(target=build, args=(w,)) for w in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for where in ("a", "b"):
            self.assertEqual(sum(hits_and_misses(results[where].stdout)), count, results[where])
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("c"), base=self.path("c")).stdout), (count, 0))


class DirectoryCacheTest(CacheScenarios, NinjaTestCase):
    def test_a_stored_run_is_one_entry_and_the_empty_blob_no_file(self):
        # One entry per command (its discovered files and outputs together),
        # one blob per non-empty output: x.o, y.o and x.c's warning. y.c's
        # empty printed output and the empty stamp are not written as files,
        # yet restore.
        self.make_small("a")
        self.write("a/build.ninja", SMALL_BUILD + "rule stamp\n  command = touch $out && echo '$out: x.c' > $out.d\n"
                   "  depfile = $out.d\nbuild s.stamp: stamp\n")
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("a")).stdout), (0, 3))
        self.assertEqual(len(glob.glob(os.path.join(self.backend.dir, "ac", "*", "*"))), 3)
        self.assertEqual(len(self.backend.blob_files()), 3)
        self.clean("a")
        os.remove(self.path("a/s.stamp"))
        self.assertEqual(hits_and_misses(self.cached(cwd=self.path("a")).stdout), (3, 0))
        self.assertEqual(self.read_bytes("a/s.stamp"), b"")
        self.assertIn("no work to do", self.ninja(cwd=self.path("a")).stdout)


class UnwritableCacheTest(NinjaTestCase):
    """A cache that cannot be written costs one warning naming what could not
    be stored, the file, the system's reason and what happens next."""

    def test_the_warning_says_what_where_and_why(self):
        cache = self.path("cache")
        os.makedirs(cache)
        self.write("cache/tmp", "a file where the cache keeps its directory of temporary files\n")
        self.write("build.ninja", "rule cp\n  command = cp $in $out\nbuild a.o: cp a.c\nbuild b.o: cp b.c\n")
        self.write("a.c", "a\n")
        self.write("b.c", "b\n")
        result = self.ninja("--cache=" + cache, "--cache-rules=cp", "-j1")
        self.assertEqual(result.returncode, 0, result)
        self.assertRegex(result.stderr, r"^ninja: warning: build cache: cannot store the output a\.o: creating "
                         + re.escape(cache) + r"/tmp/\d+\.\d+: Not a directory; "
                         r"building without the cache from here on\n$")
        self.assertNotIn("manifest", result.stderr)


# The 300-file CMake tree: checkout A fills the cache, checkout B at another
# path builds from clean with no compile at all.
FILES = 300
HEADERS = 10


@unittest.skipUnless(shutil.which("cmake") and shutil.which("cc"),
                     "SKIPPED: cmake or cc not installed (apt-get install cmake gcc)")
class CMakeCheckoutsTest(NinjaTestCase):
    Backend = DirectoryBackend

    def setUp(self):
        super().setUp()
        self.backend = self.Backend(self.dir)
        self.addCleanup(self.backend.stop)
        self.write("tools/launch", LOGGING_LAUNCHER)
        os.chmod(self.path("tools/launch"), 0o755)
        files = {"src/CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(p C)\n"
                 "file(GLOB S ${CMAKE_SOURCE_DIR}/*.c)\nadd_library(l STATIC ${S})\n"}
        for h in range(HEADERS):
            files["src/h%d.h" % h] = "#define H%d %d\n" % (h, h)
        for i in range(FILES):
            files["src/f%d.c" % i] = '#include "h%d.h"\nint f%d(void) { return H%d + %d; }\n' % (
                i % HEADERS, i, i % HEADERS, i)
        for checkout in ("A", "B"):
            for rel, text in files.items():
                self.write(checkout + "/" + rel, text)

    def compiles(self):
        log = self.path("compiles.log")
        if not os.path.exists(log):
            return []
        with open(log) as f:
            lines = f.read().splitlines()
        os.remove(log)
        return lines

    def build(self, checkout, *args):
        root = self.path(checkout)
        result = self.ninja("--cache=" + self.backend.spec(), "--cache-base-dir=" + root, "-d", "stats",
                            *args, cwd=root + "/b", env={"COMPILE_LOG": self.path("compiles.log")},
                            timeout=600)
        self.assertEqual(result.returncode, 0, result)
        return result

    def configure(self, checkout):
        root = self.path(checkout)
        subprocess.run(["cmake", "-S", root + "/src", "-B", root + "/b", "-G", "Ninja",
                        "-DCMAKE_MAKE_PROGRAM=" + NINJA,
                        "-DCMAKE_C_COMPILER_LAUNCHER=" + self.path("tools/launch")],
                       check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, COMPILE_LOG="/dev/null"))

    def objects(self, checkout):
        found = {}
        for path in glob.glob(self.path(checkout + "/b/CMakeFiles/l.dir/*.o")):
            with open(path, "rb") as f:
                found[os.path.basename(path)] = f.read()
        return found

    def test_second_checkout_compiles_nothing(self):
        self.configure("A")
        self.build("A")
        self.assertEqual(len(self.compiles()), FILES)
        self.configure("B")
        result = self.build("B")
        self.assertEqual(self.compiles(), [])
        self.assertEqual(hits_and_misses(result.stdout), (FILES, 0))
        self.assertEqual(self.objects("A"), self.objects("B"))
        self.assertEqual(len(self.objects("B")), FILES)
        self.assertIn("no work to do", self.ninja(cwd=self.path("B/b")).stdout)
        if REF_NINJA:
            self.assertIn("no work to do", run(REF_NINJA, [], self.path("B/b")).stdout)
        # One header changed in B: exactly its users compile.
        with open(self.path("B/src/h3.h"), "a") as f:
            f.write("/* changed */\n")
        self.build("B")
        users = sorted(line.split(" -c ")[-1].strip() for line in self.compiles())
        self.assertEqual(users, sorted(self.path("B/src/f%d.c" % i) for i in range(3, FILES, HEADERS)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
