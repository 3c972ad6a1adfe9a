"""ronin's own options on Windows: the Linux suites of each option run again with ronin's
ninja.exe under wine (wine.WineNinjaTestCase: the same test bodies, self.ninja() running
ninja.exe and self.reference() ninja.exe 1.13.2). A test the Windows run leaves out is
named in LEFT_OUT with the reason; the rest must pass as on Linux.

    NINJA_WIN=<ours.exe> python3 -m unittest -v test_win_option_suites
"""

import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import nginx_cache  # noqa: E402
import test_cache  # noqa: E402
import test_cache_nginx  # noqa: E402
import test_cache_reporting  # noqa: E402
import test_content_hash  # noqa: E402
import test_http_cache_dns  # noqa: E402
import test_reliability  # noqa: E402
import test_sched  # noqa: E402
import test_trace_report  # noqa: E402
import wine  # noqa: E402
from wine import WineNinjaTestCase  # noqa: E402

# Tests of the Linux classes that do not run under wine, each with its reason.
LEFT_OUT = {
    "TestLiveView": {
        "test_interrupt_leaves_a_clean_terminal": "Ctrl-C does nothing under wine (GenerateConsoleCtrlEvent)",
    },
    "TestLiveViewOutput": {
        "test_a_terminal_that_reports_no_size": "runs on a pseudo-terminal of 0x0, which wine's console is not",
        "test_failure_recap": "runs on a pseudo-terminal, which is no Windows console under wine",
    },
    "CacheReportingTest": {
        "test_live_view_shows_the_counts": "runs the live view on a pseudo-terminal, which is no Windows console "
                                           "under wine (doc/manual.md, 'Windows: tested under wine')",
    },
}


def left_out(cls):
    """cls with the tests LEFT_OUT names for its Linux base skipped, each saying why (when a
    class is run by name; a run of the module leaves them out: load_tests)."""
    for base in cls.__mro__:
        for name, reason in LEFT_OUT.get(base.__name__, {}).items():
            setattr(cls, name, unittest.skip(reason)(getattr(cls, name)))
    return cls


def _is_left_out(test):
    return any(test._testMethodName in LEFT_OUT.get(base.__name__, {}) for base in type(test).__mro__)


def load_tests(loader, standard_tests, pattern):
    """The module's tests minus LEFT_OUT (a skip would fail under CI, and these are known not to
    run under wine); a name in LEFT_OUT that matches no test is an error, so none goes stale."""
    tests = list(wine.flatten(standard_tests))
    names = {(base.__name__, t._testMethodName) for t in tests for base in type(t).__mro__}
    stale = sorted("%s.%s" % (cls, name) for cls, names_left in LEFT_OUT.items() for name in names_left
                   if (cls, name) not in names)
    if stale:
        raise AssertionError("LEFT_OUT names tests that do not exist: %s" % ", ".join(stale))
    return unittest.TestSuite(t for t in tests if not _is_left_out(t))


@left_out
class WinContentHashTest(WineNinjaTestCase, test_content_hash.ContentHashTest):
    pass


@left_out
class WinContentHashReferenceTest(WineNinjaTestCase, test_content_hash.ReferenceNinjaOnTheSameDirTest):
    pass


@left_out
class WinContentHashSettledTest(WineNinjaTestCase, test_content_hash.SkipsSettledForNinjaTest):
    pass


@left_out
class WinBuildLockTest(WineNinjaTestCase, test_reliability.OneWriterTests):
    SLOW = "touch started && waitfile release && touch $out"


@left_out
class WinKillTest(WineNinjaTestCase, test_reliability.KillTests):
    """ninja.exe killed (SIGKILL to its wine process, which Windows sees as TerminateProcess)
    before and during its build: under wine it starts building after ~0.6 s and has made
    about a quarter of the outputs after 2 s on the loaded machine."""
    KILL_DELAYS = (0.5, 1.0, 1.5, 2.5, 4.0)


@left_out
class WinCacheReportingTest(WineNinjaTestCase, test_cache_reporting.CacheReportingTest):
    pass


@left_out
class WinHttpCacheReportingTest(WinCacheReportingTest):
    """The same with --cache=http://127.0.0.1:PORT/cache: nginx on the Linux side, ninja.exe's
    Winsock client under wine."""

    def cache_spec(self):
        if not nginx_cache.find_nginx():
            self.skipTest("nginx not installed (apt-get install nginx)")
        server = nginx_cache.Nginx(self.path("nginx"))
        server.start()
        self.addCleanup(server.stop)
        return server.url


class WithGcc:
    """For --cache's compiler scenarios (test_cache.CacheScenarios): the compiler is
    Debian's gcc, which ninja.exe starts through a Windows shim (wine.unix_shims: gcc.exe,
    on wine's PATH here, and the tree's tools/mycc.exe, a copy the test changes)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        gcc = shutil.which("gcc")
        if not gcc:
            raise unittest.SkipTest("gcc not installed (apt-get install gcc)")
        cls.shims = wine.unix_shims({"gcc": gcc})

    def run_exe(self, exe, args, cwd, env, timeout):
        path = "%s;%s" % (self.wine.env["WINEPATH"], wine.windows_path(self.shims))
        return super().run_exe(exe, args, cwd, dict(env or {}, WINEPATH=path), timeout)

    def install_compiler(self, rel):
        shutil.copy(os.path.join(self.shims, "gcc.exe"), self.path(rel + ".exe"))

    def change_compiler(self, rel):
        with open(self.path(rel + ".exe"), "ab") as f:
            f.write(b"v2")  # bytes past the image: it runs as before


@left_out
class WinDirectoryCacheTest(WithGcc, WineNinjaTestCase, test_cache.DirectoryCacheTest):
    pass


@left_out
class WinHttpCacheScenariosTest(WithGcc, WineNinjaTestCase, test_cache_nginx.NginxCacheScenariosTest):
    """The same with --cache=http://127.0.0.1:PORT/cache: nginx on the Linux side."""

    @classmethod
    def setUpClass(cls):
        if not nginx_cache.find_nginx():
            raise unittest.SkipTest("nginx not installed (apt-get install nginx)")
        super().setUpClass()


@left_out
class WinDnsNameTest(WineNinjaTestCase, test_http_cache_dns.DnsNameTest):
    """A cache server known only to DNS: RONIN_RESOLV_CONF has ninja.exe ask the test's
    nameserver itself, over Winsock (without it, the system's resolver, which under wine
    is the Linux host's)."""


@left_out
class WinTraceTest(WineNinjaTestCase, test_trace_report.TraceTest):
    pass


@left_out
class WinRecordedDetailTest(WineNinjaTestCase, test_trace_report.RecordedDetailTest):
    pass


@left_out
class WinDamagedLogTest(WineNinjaTestCase, test_trace_report.DamagedLogTest):
    pass


@left_out
class WinReportTest(WineNinjaTestCase, test_trace_report.ReportTest):
    pass


@left_out
class WinMemoryAdmissionTest(WineNinjaTestCase, test_sched.TestMemoryAdmission):
    """Its jobs are memhog.exe (tests/win/helpers/memhog.c), started by wsh: what
    ninja.exe learns of each is the peak of the command's tree. Each holds its memory
    longer than on Linux: under wine on a loaded machine the five starts of the
    unbudgeted run spread over a second or more, and half-second holds overlapped only
    two at a time."""
    HOG = "wsh memhog"
    HOLD_SECONDS = 1.5


@left_out
class WinLiveViewTest(WineNinjaTestCase, test_sched.TestLiveView):
    """--progress=live in wine's console, on tmux's terminal."""
    GATED = ("rule r\n  command = touch started_$out && waitfile go_$out && echo output of $out && touch $out\n"
             "  description = BUILD $out\nbuild a: r\nbuild b: r\nbuild c: r\n")
    WAIT_FOR_GO = "waitfile go_$out"


@left_out
class WinLiveViewOutputTest(WineNinjaTestCase, test_sched.TestLiveViewOutput):
    pass


if __name__ == "__main__":
    unittest.main(verbosity=2)
