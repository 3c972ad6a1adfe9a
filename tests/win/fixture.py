#!/usr/bin/env python3
"""ctest's `windows` fixture for the Windows tests (tests/blackbox/test_win_*.py).

  fixture.py setup SOURCE_DIR BUILD_WIN_DIR PREFIX   cross-builds ninja.exe into BUILD_WIN_DIR
      (cmake/mingw-w64.cmake; driven by $NINJA, the Linux build's, when set), makes the
      reference ninja.exe, the helper programs and the wine prefix PREFIX, and leaves its
      wineserver running for the tests;
  fixture.py cleanup PREFIX                           stops that wineserver.

Without mingw-w64 or wine, or before the port's toolchain file exists, setup says
SKIPPED and exits 77 (ctest's skip); with CI set (not "false" or 0) it fails instead.
"""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blackbox"))

import wine  # noqa: E402

SKIP = 77


def under_ci():
    return os.environ.get("CI", "") not in ("", "0", "false")


def skip(reason):
    print("== SKIPPED: the Windows tests: " + reason)
    if under_ci():
        print("== FAILED: CI=%s, where nothing may skip" % os.environ["CI"])
        sys.exit(1)
    sys.exit(SKIP)


def cross_build(source, build):
    toolchain = os.path.join(source, "cmake", "mingw-w64.cmake")
    if not os.path.isfile(toolchain):
        skip("%s not found: the Windows port (issue 26) has not landed" % toolchain)
    configure = ["cmake", "-S", source, "-B", build, "-DCMAKE_TOOLCHAIN_FILE=" + toolchain,
                 "-DCMAKE_BUILD_TYPE=Release"]
    linux_ninja = os.environ.get("NINJA")
    if linux_ninja and os.path.isfile(linux_ninja) and not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        configure += ["-G", "Ninja", "-DCMAKE_MAKE_PROGRAM=" + linux_ninja]  # ronin builds its Windows self
    if os.environ.get("CMAKE_CXX_COMPILER_LAUNCHER"):
        configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=" + os.environ["CMAKE_CXX_COMPILER_LAUNCHER"])
    subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target", "ninja", "--parallel", "2"], check=True)
    exe = os.path.join(build, "ninja.exe")
    if not os.path.isfile(exe):
        sys.exit("== the cross build made no %s" % exe)
    return exe


def setup(source, build, prefix):
    os.environ["RONIN_WINE_PREFIX"] = prefix
    missing = wine.missing_tools()
    if missing:
        skip(missing)
    try:
        reference = wine.reference_ninja_win()
    except unittest.SkipTest as reason:
        skip(str(reason))
    session = wine.Session(os.path.abspath(prefix), wine.build_helpers(), owns_server=False)
    with wine.locked("prefix"):
        session.boot()
    print("== reference ninja.exe: %s" % reference)
    print("== wine prefix: %s, helpers: %s" % (session.prefix, session.helpers))
    # Last, so that without the port the helpers' own tests still run in the booted prefix.
    exe = cross_build(source, build)
    version = session.run(exe, ["--version"], build)
    print("== ninja.exe under test: %s, --version: %s" % (exe, version.stdout.strip()))


def cleanup(prefix):
    if not wine.missing_tools():
        os.environ["RONIN_WINE_PREFIX"] = prefix
        wine.Session(prefix, None, owns_server=True).stop()


def main(argv):
    if len(argv) == 5 and argv[1] == "setup":
        setup(*argv[2:])
    elif len(argv) == 3 and argv[1] == "cleanup":
        cleanup(argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
