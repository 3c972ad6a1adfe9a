"""Windows programs under wine, for the Windows black-box tests (test_win_*.py).

The differential suites run a second time with ronin's ninja.exe against the
reference ninja.exe 1.13.2, both under the same wine: WineDifferentialTestCase
is DifferentialTestCase (harness.py) with its two binaries run through wine,
so a scenario class of test_diff_*.py becomes a Windows one by subclassing.

Their commands are Windows programs built here once per run from
tests/win/helpers/ with mingw-w64: wsh.exe, a small shell installed under the
name of each of its builtins (cat.exe, echo.exe, touch.exe, ...) so that the
Linux scenarios' commands run unchanged, and fakecl.exe, a cl.exe stand-in
for `deps = msvc`. Both binaries find them on wine's PATH (WINEPATH).

One wine prefix serves a whole run: its wineserver is started persistent and
the prefix booted with every standard stream on /dev/null before any captured
call (else wine's background processes hold the test's pipes, each call takes
seconds and a pipe can hang), and every call has a timeout.

Environment:
  NINJA_WIN          ninja.exe under test (default: <repo>/build-win/ninja.exe, the
                     cross build of cmake/mingw-w64.cmake)
  REF_NINJA_WIN      reference ninja.exe 1.13.2 (default: misc/reference-ninja-win.sh)
  RONIN_WINE_PREFIX  the wine prefix (default: <cache>/wine-prefix); made when missing
  RONIN_WINE_SHARED  set when someone else (ctest's `windows` fixture) started the prefix's
                     wineserver and will stop it: this process then leaves it running
  RONIN_WIN_CACHE    where built helpers and the prefix live (default ~/.cache/ronin-win)
  RONIN_WIN_FULL     set (not 0 or false): every shared scenario runs, not the fixed sample
                     (sample() below) that CI and ctest run by default
A missing tool or binary skips the tests, visibly; under CI the skip fails (harness.py).
"""

import atexit
import concurrent.futures
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest

import harness
import wine_failures

REPO = harness.REPO
HELPERS_SOURCE = os.path.join(REPO, "tests", "win", "helpers")
MINGW_CC = "x86_64-w64-mingw32-gcc"
WINE = shutil.which("wine")
WINESERVER = shutil.which("wineserver")
CACHE = os.environ.get("RONIN_WIN_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "ronin-win")

# Wine's own programs that would open windows or wait for a user: the Mono and Gecko
# installers at boot, the menu builder, and the crash debugger (a crashing program would
# sit in its dump writer for minutes instead of ending).
_DLL_OVERRIDES = "mscoree,mshtml=;winemenubuilder.exe=d;winedbg.exe=d"


def ninja_win():
    return os.path.abspath(os.environ.get("NINJA_WIN") or os.path.join(REPO, "build-win", "ninja.exe"))


def ninja_win_and_session():
    """The ninja.exe under test and the run's wine session, for a test of ninja.exe alone;
    raises SkipTest when either is missing."""
    ours = ninja_win()
    if not os.path.isfile(ours):
        raise unittest.SkipTest("ninja.exe under test not found at %s" % ours)
    return ours, session()


def missing_tools():
    """Why wine or mingw-w64 cannot be used, or None."""
    if not WINE or not WINESERVER:
        return "wine not installed (apt-get install wine wine64)"
    if not shutil.which(MINGW_CC):
        return "%s not installed (apt-get install g++-mingw-w64-x86-64)" % MINGW_CC
    return None


def locked(name):
    """An exclusive lock in the cache, for work that parallel test processes share."""
    os.makedirs(CACHE, exist_ok=True)
    f = open(os.path.join(CACHE, name + ".lock"), "w")
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def shared_file(rel):
    """A file of the workplace's shared/ folder beside the repository (in CI the clone's sibling,
    for a worktree under wt/ the one above; RONIN_SHARED_DIR elsewhere), or None."""
    for shared in (os.environ.get("RONIN_SHARED_DIR"), os.path.join(REPO, "..", "shared"),
                   os.path.join(REPO, "..", "..", "shared")):
        if shared and os.path.isfile(os.path.join(shared, rel)):
            return os.path.abspath(os.path.join(shared, rel))
    return None


def reference_ninja_win():
    """The reference ninja.exe, or raises SkipTest saying why there is none."""
    path = os.environ.get("REF_NINJA_WIN")
    if path:
        if not os.path.isfile(path):
            raise unittest.SkipTest("REF_NINJA_WIN=%s does not exist" % path)
        return path
    with locked("reference"):
        proc = subprocess.run([os.path.join(REPO, "misc", "reference-ninja-win.sh")], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    if proc.returncode != 0:
        raise unittest.SkipTest("reference ninja.exe 1.13.2 not available: %s"
                                % proc.stderr.decode(errors="replace").strip())
    return proc.stdout.decode().strip()


# ---- the helper programs ------------------------------------------------------------

def applet_names():
    """The builtins of wsh.c (its APPLETS table), each installed as NAME.exe."""
    with open(os.path.join(HELPERS_SOURCE, "wsh.c")) as f:
        source = f.read()
    table = source[source.index("APPLETS[] = {"):]
    return re.findall(r'\{"([a-z]+)", run_', table[:table.index("};")])


def _helper_sources():
    return sorted(f for f in os.listdir(HELPERS_SOURCE) if f.endswith(".c"))


def build_helpers():
    """Compiles tests/win/helpers/*.c once per content: returns the folder of the .exe files."""
    digest = hashlib.sha256()
    for name in _helper_sources():
        with open(os.path.join(HELPERS_SOURCE, name), "rb") as f:
            digest.update(name.encode() + b"\0" + f.read())
    folder = os.path.join(CACHE, "helpers-" + digest.hexdigest()[:16])
    with locked("helpers"):
        if os.path.isdir(folder):
            return folder
        work = tempfile.mkdtemp(prefix="helpers-", dir=CACHE)
        for name in _helper_sources():
            exe = os.path.join(work, name[:-2] + ".exe")
            subprocess.run([MINGW_CC, "-O2", "-Wall", "-Wextra", "-Werror", "-s", "-static", "-o", exe,
                            os.path.join(HELPERS_SOURCE, name)], check=True, timeout=300)
        for applet in applet_names():
            shutil.copy(os.path.join(work, "wsh.exe"), os.path.join(work, applet + ".exe"))
        os.rename(work, folder)
    return folder


def unix_shims(programs):
    """Windows programs that each run a Linux one ({name: Linux path}), built once per set
    from tests/win/cmake/unixshim.c and the workplace's unixrun.c: their folder, where NAME.exe
    runs its program (wine only: a Windows process cannot start a Linux one itself).
    Raises SkipTest without unixrun.c."""
    unixrun = shared_file("tools/windows/unixrun.c")
    if not unixrun:
        raise unittest.SkipTest("shared/tools/windows/unixrun.c not found beside the repository "
                                "(set RONIN_SHARED_DIR)")
    shim = os.path.join(REPO, "tests", "win", "cmake", "unixshim.c")
    digest = hashlib.sha256(repr(sorted(programs.items())).encode())
    for path in (unixrun, shim):
        with open(path, "rb") as f:
            digest.update(f.read())
    folder = os.path.join(CACHE, "shims-" + digest.hexdigest()[:16])
    with locked("shims"):
        if not os.path.isdir(folder):
            work = folder + ".tmp"
            shutil.rmtree(work, True)
            os.makedirs(work)
            unixrun_o = os.path.join(work, "unixrun.o")
            subprocess.run([MINGW_CC, "-O2", "-c", "-Dmain=unixrun_main", "-o", unixrun_o, unixrun],
                           check=True, timeout=300)
            for name, program in programs.items():
                subprocess.run([MINGW_CC, "-O2", "-Wall", "-Wextra", "-Werror", "-s", "-static",
                                '-DUNIX_PROGRAM="%s"' % program, "-o", os.path.join(work, name + ".exe"),
                                shim, unixrun_o], check=True, timeout=300)
            os.rename(work, folder)
    return folder


# ---- paths ---------------------------------------------------------------------------

def windows_path(path):
    """How wine names a Linux path: its Z: drive is the root."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def _root_pattern(root):
    """Every spelling of a Linux folder in Windows output: Z: or not, either separator or
    JSON's doubled backslash between components, any case."""
    parts = [re.escape(p) for p in os.path.abspath(root).split("/") if p]
    return re.compile(r"(?i)(?:z:)?[\\/]+" + r"[\\/]+".join(parts) + r"(?![^\\/\s\"'])")


def unix_roots(text, roots):
    """Text with the Windows spellings of each root written as the Linux path, so the
    suites' normalisers (which replace the tree's path with <DIR>) apply as they are.
    What follows a root is left alone: a separator printed differently still shows."""
    for root in roots:
        text = _root_pattern(root).sub(lambda _m, r=root: os.path.abspath(r), text)
    return text


# ---- the session ---------------------------------------------------------------------

class Session:
    """One wine prefix with a persistent wineserver, the helpers on its PATH."""

    def __init__(self, prefix, helpers, owns_server):
        self.prefix = prefix
        self.helpers = helpers
        self.owns_server = owns_server
        self.env = {"WINEPREFIX": prefix, "WINEDEBUG": "-all", "WINEDLLOVERRIDES": _DLL_OVERRIDES,
                    "WINEPATH": windows_path(helpers) if helpers else None,
                    # Wine converts file names and arguments with the locale's charset.
                    "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "DISPLAY": None, "WAYLAND_DISPLAY": None}

    def _quiet(self, args, timeout):
        subprocess.run(args, env=harness.base_env(self.env), stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)

    def boot(self):
        # wineserver refuses a prefix folder that does not exist yet; wineboot would then make
        # it with a server that is not persistent, and each call after an idle moment would
        # start wineserver and wine's services again.
        os.makedirs(self.prefix, exist_ok=True)
        self._quiet([WINESERVER, "-p"], 60)
        self._quiet([WINE, "wineboot", "-i"], 300)

    def stop(self):
        if self.owns_server:
            self._quiet([WINESERVER, "-k"], 60)

    def start(self, exe, args, cwd, env=None, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        """Starts a Windows program; stop() on the result kills it and all it started (wine
        starts each Windows process in a session of its own: only the environment passes down)."""
        return harness.Running([WINE, exe] + list(args), cwd, dict(self.env, **(env or {})), stdout, stderr)

    def run(self, exe, args, cwd, env=None, timeout=120, merge_stderr=False, roots=()):
        """Runs a Windows program; output decoded as UTF-8 (bytes kept as they are), the roots'
        Windows spellings written as Linux paths. Raises TimeoutError after `timeout`, having
        killed the program and everything it started."""
        running = self.start(exe, args, cwd, env, subprocess.PIPE,
                             subprocess.STDOUT if merge_stderr else subprocess.PIPE)
        try:
            out, err = running.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            running.stop()
            raise TimeoutError("%s %s timed out after %s s" % (os.path.basename(exe), " ".join(args), timeout))
        text = [unix_roots((b or b"").decode("utf-8", "surrogateescape"), roots) for b in (out, err)]
        wine_failures.note_run(exe, args, running.proc.returncode, text[0], text[1])
        return harness.Result(running.proc.returncode, text[0], text[1])


_session = None


def session():
    """The run's wine session, started on first use; raises SkipTest when wine or mingw is missing.
    Unless RONIN_WINE_SHARED is set (ctest's fixture booted the prefix and stops its wineserver),
    this process boots the prefix and stops the wineserver at exit."""
    global _session
    if _session is None:
        missing = missing_tools()
        if missing:
            raise unittest.SkipTest(missing)
        prefix = os.environ.get("RONIN_WINE_PREFIX") or os.path.join(CACHE, "wine-prefix")
        owns_server = not os.environ.get("RONIN_WINE_SHARED")
        if not owns_server and not os.path.isfile(os.path.join(prefix, "system.reg")):
            # Wine would make it on the first call, with the test's pipes held open.
            raise unittest.SkipTest("the shared wine prefix %s was not set up (ctest's windows fixture does)" % prefix)
        _session = Session(os.path.abspath(prefix), build_helpers(), owns_server)
        if owns_server:
            # Each boot of a running prefix leaves one more services.exe behind: whoever
            # shares a prefix (ctest's fixture) booted it once for all.
            with locked("prefix"):
                _session.boot()
            atexit.register(_session.stop)
    return _session


# ---- the sample -----------------------------------------------------------------------

def flatten(suite):
    """The tests of a unittest suite, nested suites opened."""
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from flatten(item)
        else:
            yield item


def full_run():
    return os.environ.get("RONIN_WIN_FULL", "") not in ("", "0", "false")


def sample(tests, every):
    """The tests that run: with RONIN_WIN_FULL all, else a fixed share of each class named in
    `every` ({class name: n}): its first test in name order and every n-th after it. Classes
    not named run whole. A scenario costs seconds under wine; the shared corpora repeat what
    the Linux run checks in full, so CI runs a part of them that stays the same from run to
    run and the Windows-only scenarios whole (doc/reliability.md, "Windows, under wine")."""
    if full_run():
        return list(tests)
    by_class = {}
    for test in tests:
        by_class.setdefault(type(test).__name__, []).append(test)
    kept = []
    for name, group in by_class.items():
        group.sort(key=lambda t: t._testMethodName)
        kept += group[::every.get(name, 1)]
    return kept


# ---- the differential test case ------------------------------------------------------

_TIMES = re.compile(r"\((-?\d+) vs (-?\d+)\)")
_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)


class WineDifferentialTestCase(wine_failures.RerunAfterWineFailure, harness.DifferentialTestCase):
    """DifferentialTestCase with ninja.exe (NINJA_WIN) against the reference ninja.exe, under wine.

    Mix it in first: class WinX(WineDifferentialTestCase, test_diff_x.X)."""

    # DifferentialTestCase skips without the Linux reference; this class has its own needs,
    # checked in setUpClass.
    __unittest_skip__ = False
    # Tree names of one length, so that no output differs by the length of its path.
    TREE_PREFIXES = ("ronin-ours-", "ronin-upst-")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.OURS = ninja_win()
        if not os.path.isfile(cls.OURS):
            raise unittest.SkipTest(
                "ninja.exe under test not found at %s (cross-build it: cmake -S . -B build-win "
                "-DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake && cmake --build build-win; or set NINJA_WIN)"
                % cls.OURS)
        cls.wine = session()
        cls.REF = reference_ninja_win()


    def at_once(self, run):
        """run(binary, root) with the reference in its tree and ours in ours, at the same time
        (much of a wine call is spent waiting on wineserver): [the reference's, ours]."""
        ours = _pool.submit(run, self.OURS, self.ours_dir)
        return [run(self.REF, self.ref_dir), ours.result()]

    def run_both(self, *args, env=None, timeout=120):
        ref, ours = self.at_once(lambda binary, root: self.run_binary(binary, args, root, env=env, timeout=timeout))
        return ours, ref

    def run_binary(self, binary, args, cwd, env=None, timeout=120, merge_stderr=False):
        harness.clamp_logged_durations(cwd)
        return self.wine.run(binary, args, cwd, env=env, timeout=timeout, merge_stderr=merge_stderr,
                             roots=(self.ours_dir, self.ref_dir))

    def normalize_bytes(self, data, root):
        text = unix_roots(data.decode("utf-8", "surrogateescape"), (root,))
        return text.encode("utf-8", "surrogateescape").replace(root.encode(), b"<DIR>")

    def start_binary(self, binary, args, cwd):
        harness.clamp_logged_durations(cwd)
        return self.wine.start(binary, args, cwd)

    def run_in(self, binary, root, *args):
        r = self.run_binary(binary, args, root)
        return harness.Result(r.returncode, r.stdout.replace("\r\n", "\n"), r.stderr.replace("\r\n", "\n"))

    def has_build_state(self):
        """Whether the reference's tree holds a .ninja_log or .ninja_deps (anywhere: builddir)."""
        return any({".ninja_log", ".ninja_deps"} & set(files) for _dir, _dirs, files in os.walk(self.ref_dir))

    def assertHandover(self, *args):
        """Each binary continues the other's tree: the reference in our tree and ours in the
        reference's give one result (a dry run by default, so that the trees stay as they are).
        Were one binary's logs read otherwise by the other, the two would differ."""
        args = args or ("-n", "-j1", "-d", "explain")
        runs = []
        ref_in_ours = _pool.submit(self.run_binary, self.REF, args, self.ours_dir)
        ours_in_ref = self.run_binary(self.OURS, args, self.ref_dir)
        for r, root in ((ref_in_ours.result(), self.ours_dir), (ours_in_ref, self.ref_dir)):
            runs.append((r.returncode, _TIMES.sub("(<T> vs <T>)", self.normalize(r.stdout, root)),
                         _TIMES.sub("(<T> vs <T>)", self.normalize(r.stderr, root))))
        self.assertEqual(runs[0], runs[1], "ninja %s: the reference in our tree (first) vs ours in the "
                                           "reference's (second)" % " ".join(args))


# ---- the black-box test case ----------------------------------------------------------

class WineNinjaTestCase(wine_failures.RerunAfterWineFailure, harness.NinjaTestCase):
    """NinjaTestCase with self.ninja() running ninja.exe (NINJA_WIN) and self.reference() the
    reference ninja.exe 1.13.2, both under wine, so a Linux test class of ronin's own options
    becomes a Windows one by subclassing (mix this in first: class WinX(WineNinjaTestCase,
    test_x.X)). Output is as the Linux tests expect it: lines end in "\\n" and the tree's
    Windows spellings are its Linux path (separators after it stay as printed)."""

    # The Linux class may skip without the Linux reference; this class has its own needs.
    __unittest_skip__ = False
    # Wine's calls are slower than Linux's: a Linux test's timeout is raised to at least this.
    MIN_TIMEOUT = 120

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.exe = ninja_win()
        if not os.path.isfile(cls.exe):
            raise unittest.SkipTest("ninja.exe under test not found at %s (cross-build it, or set NINJA_WIN)"
                                    % cls.exe)
        cls.wine = session()

    def run_exe(self, exe, args, cwd, env, timeout):
        r = self.wine.run(exe, args, cwd or self.dir, env=env, timeout=max(timeout, self.MIN_TIMEOUT),
                          roots=(self.dir,))
        return harness.Result(r.returncode, r.stdout.replace("\r\n", "\n"), r.stderr.replace("\r\n", "\n"))

    def ninja(self, *args, env=None, timeout=60, cwd=None):
        return self.run_exe(self.exe, args, cwd, env, timeout)

    def reference(self, *args, env=None, timeout=60, cwd=None):
        return self.run_exe(reference_ninja_win(), args, cwd, env, timeout)

    def start(self, *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE):
        running = self.wine.start(self.exe, args, self.dir, stdout=stdout, stderr=stderr)
        self.addCleanup(running.stop)
        return running

    def terminal_command(self, args):
        # Wine's console on a pseudo-terminal counts as a terminal (its own, not Windows').
        env = " ".join(shlex.quote("%s=%s" % (k, v)) for k, v in sorted(self.wine.env.items()) if v is not None)
        return "env %s %s %s %s" % (env, WINE, shlex.quote(self.exe), " ".join(args))

    def command_running_ninja(self):
        # CreateProcess runs no shell: wsh reads the rest of the line as the script.
        return "wsh " + windows_path(self.exe)

    def ninja_pty(self, *args, env=None, columns=80, timeout=60):
        self.skipTest("a pseudo-terminal is not a Windows console (wine's is its own)")
