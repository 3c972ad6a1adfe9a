#!/usr/bin/env python3
"""The unit tests as a Windows program: cross-built with mingw-w64 and run under wine.

  misc/wine-unit-tests.py SOURCE_DIR BUILD_WIN_DIR WINE_PREFIX

Configures BUILD_WIN_DIR with cmake/mingw-w64.cmake if it is not yet, builds
ronin_unit_tests.exe there and runs it under wine in WINE_PREFIX (booted here
unless RONIN_WINE_SHARED says someone else did and will stop it). The tests
listed in POSIX_EXPECTATIONS are left out, each with the reason.

Without mingw-w64 or wine it says SKIPPED and exits 77 (ctest's skip); with CI
set (not "false" or 0) it fails instead: in CI every tool is installed.
"""

import os
import shutil
import subprocess
import sys

SKIP = 77
MINGW_CXX = "x86_64-w64-mingw32-g++-posix"
TIMEOUT_SECONDS = 1800

# Tests whose expectation is POSIX's own, and why Windows differs (the
# Windows behaviour is compared with ninja.exe 1.13.2 by the differential
# run under wine, tests/blackbox/test_win_*.py), or that need what wine
# does not give.
POSIX_EXPECTATIONS = {
    "CanonicalizePathTest.MatchesNinja": "a leading '//' is a UNC prefix on Windows, kept as ninja.exe keeps it",
    "CanonicalizePathTest.CanonicalisingTwiceChangesNothing": "the same: '//' stays at the front",
    "RealCommandRunnerTest.*": "a command line CreateProcess refuses stops the build with ninja.exe's hint, as "
                               "ninja.exe does (test_win_scenarios command_line_too_long), not a failed edge",
    "ParseNumberTest.AgreesWithLibc": "compares with atoi, whose overflow differs in Windows' C library",
    "StatusTest.EmptyNinjaStatusMeansNoPrefix": "Windows' C library cannot hold an empty variable: "
                                                "NINJA_STATUS= unsets it, and ninja.exe shows its default",
    "ExplainTest.ALineFollowsWhatStdoutHeld": "stderr is a text stream on Windows: lines end in CRLF, as ninja.exe's",
    "ExplainTest.LongMessagesArePrintedWhole": "the same",
    "EdgeEnvTest.InAndOutAreExplicitAndShellQuoted": "$in and $out are quoted for CreateProcess, not for /bin/sh",
    "EdgeEnvTest.UnescapedPathBindings": "the same",
    "BuilderTest.AJobserversSlotsBoundTheBuildInsteadOfDashJ": "the pipe form of the jobserver is POSIX's; "
                                                              "Windows has the semaphore form",
    "BuilderTest.AGeneratorMayRewriteTheBuildLogWhileItRuns": "renames over the open build log, which Windows' "
                                                              "sharing rules refuse",
    "BuilderTest.TheBuildCacheWrapsAnInjectedRunner": "looks a node up by a path spelled with backslashes",
    "BuildHistoryTest.ErrorsUseTheBuildLogsWords": "the words are Windows' own (FormatMessage), as ninja.exe's",
    "DirectoryCacheStoreTest.ConcurrentWritersLoseNothing": "open: concurrent renames into the store fail "
                                                            "under Windows' sharing rules",
}


def under_ci():
    return os.environ.get("CI", "") not in ("", "0", "false")


def skip(reason):
    print("== SKIPPED: the unit tests under wine: " + reason, flush=True)
    if under_ci():
        print("== FAILED: CI=%s, where nothing may skip" % os.environ["CI"])
        sys.exit(1)
    sys.exit(SKIP)


def missing_tools():
    if not shutil.which("wine") or not shutil.which("wineserver"):
        return "wine not installed (apt-get install wine wine64)"
    if not shutil.which(MINGW_CXX):
        return "%s not installed (apt-get install g++-mingw-w64-x86-64)" % MINGW_CXX
    if not os.path.isfile("/usr/src/googletest/CMakeLists.txt"):
        return "/usr/src/googletest not found (apt-get install googletest)"
    return None


def cross_build(source, build):
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        configure = ["cmake", "-S", source, "-B", build, "-G", "Ninja",
                     "-DCMAKE_TOOLCHAIN_FILE=" + os.path.join(source, "cmake", "mingw-w64.cmake"),
                     "-DCMAKE_BUILD_TYPE=Release"]
        linux_ninja = os.environ.get("NINJA")
        if linux_ninja and os.path.isfile(linux_ninja):
            configure.append("-DCMAKE_MAKE_PROGRAM=" + linux_ninja)  # ronin builds its Windows self
        if shutil.which("ccache"):
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target", "ronin_unit_tests", "--parallel", "2"], check=True)
    return os.path.join(build, "ronin_unit_tests.exe")


def wine_environment(prefix):
    env = dict(os.environ)
    env.update(WINEPREFIX=prefix, WINEDEBUG="-all",
               # Nothing that opens a window or waits for a user: the Mono and
               # Gecko installers, the menu builder, the crash debugger.
               WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d;winedbg.exe=d")
    return env


def boot(env):
    """A persistent wineserver and a booted prefix, every stream on /dev/null:
    else wine's background processes hold the test's pipes open."""
    quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    subprocess.run(["wineserver", "-p"], timeout=60, **quiet)
    subprocess.run(["wineboot", "-i"], timeout=300, **quiet)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    source, build, prefix = (os.path.abspath(a) for a in argv[1:])
    missing = missing_tools()
    if missing:
        skip(missing)
    exe = cross_build(source, build)
    env = wine_environment(prefix)
    shared = os.environ.get("RONIN_WINE_SHARED")
    if not shared:
        boot(env)
    try:
        for name, reason in sorted(POSIX_EXPECTATIONS.items()):
            print("== left out: %s: %s" % (name, reason))
        command = ["wine", exe, "--gtest_brief=1", "--gtest_filter=-" + ":".join(sorted(POSIX_EXPECTATIONS))]
        result = subprocess.run(command, stdin=subprocess.DEVNULL, env=env, timeout=TIMEOUT_SECONDS)
        sys.exit(result.returncode)
    finally:
        if not shared:
            subprocess.run(["wineserver", "-k"], env=env, stdin=subprocess.DEVNULL, timeout=60)


if __name__ == "__main__":
    main(sys.argv)
