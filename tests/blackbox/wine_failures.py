"""Wine's own failures to start a Windows process, told apart from ninja's, and the one
rerun a test gets when it met one.

Under load, wine 8 now and then fails to start a process: about twice in a CI run of the
Windows suites (thousands of wine processes), never in a stress of 600 calls of each binary,
two at a time, with 2,400 `cmd /c` children. Seen two ways, both in calls no Windows program makes fail so:
- a `wine ninja.exe ...` call ends with exit code 1 and not one byte of output: ninja
  (either, ours or the reference) never fails without saying why;
- inside a build, ninja.exe's CreateProcess of a command fails with ERROR_INTERNAL_ERROR
  ("CreateProcess: Internal error."): wine's NtCreateUserProcess reports a child that died
  during wine's start-up so; Windows itself never answers CreateProcess with it.
A test that failed after one of these runs once more (fresh trees, as any test starts),
announced on stderr; a test that fails again, or failed without such a sign, fails. A
real fault of ours that looked like this every time would still fail the rerun.
"""

import os
import sys
import threading

_seen = []
_lock = threading.Lock()

CREATE_PROCESS_INTERNAL_ERROR = "CreateProcess: Internal error."


def note_run(exe, args, returncode, stdout, stderr):
    """Records the call if its result carries a sign of wine failing to start a process."""
    sign = None
    if os.path.basename(exe).lower() == "ninja.exe" and returncode == 1 and not stdout and not stderr:
        sign = "exit code 1 with no output"
    elif CREATE_PROCESS_INTERNAL_ERROR in stdout or CREATE_PROCESS_INTERNAL_ERROR in stderr:
        sign = "a command's CreateProcess failed with ERROR_INTERNAL_ERROR"
    if sign:
        with _lock:
            _seen.append("%s %s: %s" % (os.path.basename(exe), " ".join(args), sign))


def count():
    with _lock:
        return len(_seen)


def last():
    with _lock:
        return _seen[-1]


class _HeldFailures:
    """A unittest result that holds a test's failures back until told what to do with them."""

    def __init__(self, result):
        self._result = result
        self._held = []

    def __getattr__(self, name):
        return getattr(self._result, name)

    def addFailure(self, test, err):
        self._held.append(("addFailure", (test, err)))

    def addError(self, test, err):
        self._held.append(("addError", (test, err)))

    def addSubTest(self, test, subtest, err):
        if err is None:
            self._result.addSubTest(test, subtest, err)
        else:
            self._held.append(("addSubTest", (test, subtest, err)))

    def failed(self):
        return bool(self._held)

    def release(self):
        for name, args in self._held:
            getattr(self._result, name)(*args)


class RerunAfterWineFailure:
    """Mixin for a TestCase whose calls go through wine.Session.run: see the module's note."""

    def run(self, result=None):
        if result is None:
            return super().run(result)
        before = count()
        held = _HeldFailures(result)
        super().run(held)
        if held.failed() and count() > before:
            sys.stderr.write("\n== WINE FAILED TO START A PROCESS in %s (%s): the test runs once more\n"
                             % (self.id(), last()))
            return super().run(result)
        held.release()
        return result
