"""A running process's output, read line by line on a thread, and waited on for a line.

Shared by the `--watch` tests (tests/blackbox/test_watch.py) and the watch-latency bench
(watch_latency.py): both follow a long-running `ninja --watch` round by round.
"""

import threading
import time


class ProcessLines:
    """The lines `proc` writes to its stdout (a pipe), collected as they come."""

    def __init__(self, proc):
        self.proc = proc
        self.lines = []
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.proc.stdout:
            with self.cond:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def wait_for(self, pattern, start, guard_seconds):
        """Index of the first line from `start` on that matches; AssertionError when the process ends
        without one or after `guard_seconds` (only ever reached when something hangs)."""
        deadline = time.monotonic() + guard_seconds
        with self.cond:
            while True:
                for i in range(start, len(self.lines)):
                    if pattern.search(self.lines[i]):
                        return i
                if self.proc.poll() is not None and not self.reader.is_alive():
                    raise AssertionError("%s exited (%s) without %r:\n%s" % (
                        self.proc.args[0], self.proc.returncode, pattern.pattern, "\n".join(self.lines)))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("hang guard: no %r after %ds:\n%s" %
                                         (pattern.pattern, guard_seconds, "\n".join(self.lines)))
                self.cond.wait(left)
