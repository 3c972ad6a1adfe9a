"""The `watch-latency` scenario of run.py: from a leaf source's write to its compile command's start.

Three ways of building after the write, side by side in one run: ours with `--watch` (running all
along, the graph in memory), ours started after the write, and the reference started after the
write. The compile command marks its start: the tree's fake compiler creates the file named by
RONIN_BENCH_MARK (a shell builtin, no process started) when the variable is set, and the bench
waits for that file with inotify. Each write appends a line to the same source, so every run
rebuilds that one object and what links it.

The watch runs in the tree of "ours"; the one-shot runs share the tree of "ref" (they leave it
built for each other, as ronin and Ninja 1.13 read each other's logs). After the timed runs, the
idle watch is observed for IDLE_SECONDS: its CPU time and context switches (wake-ups) must not
move, and its resident memory is compared with the peak of a one-shot no-op in the same tree,
once the watch has ended.
"""

import ctypes
import os
import re
import select
import subprocess
import time

from process_lines import ProcessLines

IDLE_SECONDS = 5
NOOP_RUNS = 5
GUARD_SECONDS = 300  # only reached when something hangs
MARK = "compile-started.mark"
MARK_LINE = '[ -n "$RONIN_BENCH_MARK" ] && : > "$RONIN_BENCH_MARK"\n'
ROUND_END = re.compile(r"^(ninja: no work to do\.|ninja: build stopped: .*|ninja: error: .*|\[(\d+)/\2\] .*)$")

IN_CREATE = 0x100
_libc = ctypes.CDLL(None, use_errno=True)


class MarkWaiter:
    """Waits, without spinning, for MARK to be created in a directory (inotify); removes it again."""

    def __init__(self, directory):
        self.directory = directory
        self.fd = _libc.inotify_init1(os.O_CLOEXEC)
        if self.fd < 0 or _libc.inotify_add_watch(self.fd, directory.encode(), IN_CREATE) < 0:
            raise OSError(ctypes.get_errno(), "inotify on " + directory)

    def wait(self):
        """perf_counter_ns() when MARK appeared; MARK is then removed, for the next run."""
        try:
            return self._wait()
        finally:
            os.unlink(os.path.join(self.directory, MARK))

    def _wait(self):
        deadline = time.monotonic() + GUARD_SECONDS
        while True:
            if not select.select([self.fd], [], [], max(0, deadline - time.monotonic()))[0]:
                raise RuntimeError("the compile command never started")
            data = os.read(self.fd, 65536)
            now = time.perf_counter_ns()
            offset = 0
            while offset < len(data):
                length = int.from_bytes(data[offset + 12:offset + 16], "little")
                name = data[offset + 16:offset + 16 + length].rstrip(b"\0").decode()
                offset += 16 + length
                if name == MARK:
                    return now

    def forget(self):
        """Forgets a mark made before now (a start-up build that compiled the leaf): else
        the next wait would take its event for the next compile's, and every run after
        would time the compile before it."""
        try:
            os.unlink(os.path.join(self.directory, MARK))
        except FileNotFoundError:
            pass
        while select.select([self.fd], [], [], 0)[0]:
            os.read(self.fd, 65536)

    def close(self):
        os.close(self.fd)


def find_leaf(bdir):
    """(source, object) of the first compile edge of the first subninja, paths as in the manifest."""
    ninjas = []
    for root, _, names in os.walk(os.path.join(bdir, "obj")):
        ninjas += [os.path.join(root, n) for n in names if n.endswith(".ninja")]
    for path in sorted(ninjas):
        with open(path) as f:
            for line in f:
                m = re.match(r"build (\S+\.o): cxx? (\S+)", line)
                if m:
                    return m.group(2), m.group(1)
    raise RuntimeError("no compile edge in " + bdir)


def install_mark(tree):
    """Makes the tree's fake compiler mark its start; returns its original text."""
    path = os.path.join(tree["root"], "build", "toolchain", "fake_cc")
    with open(path) as f:
        original = f.read()
    if MARK_LINE not in original:
        first, rest = original.split("\n", 1)
        with open(path, "w") as f:
            f.write(first + "\n" + MARK_LINE + rest)
    return path, original


def touch_leaf(bdir, source):
    """Appends to the source (a new mtime and content); perf_counter_ns() before the write."""
    t0 = time.perf_counter_ns()
    with open(os.path.join(bdir, source), "a") as f:
        f.write("// edit\n")
    return t0


class WatchProcess:
    """Our ninja --watch in a tree, its output read line by line."""

    def __init__(self, binary, bdir, env):
        self.proc = subprocess.Popen([binary, "--watch", "-j2"], cwd=bdir, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.output = ProcessLines(self.proc)

    def wait_line(self, pattern, start):
        return self.output.wait_for(pattern, start, GUARD_SECONDS)

    def proc_status(self):
        """(user+sys clock ticks, context switches, VmRSS kB, VmHWM kB) from /proc."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        status = {}
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                key, _, value = line.partition(":")
                status[key] = value.split()[0] if value.split() else ""
        switches = int(status["voluntary_ctxt_switches"]) + int(status["nonvoluntary_ctxt_switches"])
        return ticks, switches, int(status["VmRSS"]), int(status["VmHWM"])

    def stop(self):
        self.proc.send_signal(2)
        try:
            self.proc.wait(GUARD_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.returncode


def one_shot(binary, bdir, env, waiter, source):
    """Latency of a one-shot build started right after the write (ns), and its exit status."""
    t0 = touch_leaf(bdir, source)
    proc = subprocess.Popen([binary, "-j2"], cwd=bdir, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t1 = waiter.wait()
    rc = proc.wait(GUARD_SECONDS)
    return t1 - t0, rc


def bench(trees, bins, runs, run_measured, log):
    """Returns ({"watch"|"ours"|"ref": {"latency_ms": [...], "problems": [...]}}, idle facts)."""
    watch_tree, shot_tree = trees["ours"], trees["ref"]
    source, obj = find_leaf(watch_tree["bdir"])
    marks = [install_mark(t) for t in (watch_tree, shot_tree)]
    results = {k: {"latency_ms": [], "problems": []} for k in ("watch", "ours", "ref")}
    idle = {}
    waiters = {}
    watch = None
    try:
        for key, tree in (("watch", watch_tree), ("shot", shot_tree)):
            env = dict(os.environ, RONIN_BENCH_MARK=os.path.join(tree["bdir"], MARK))
            env.pop("NINJA_STATUS", None)
            waiters[key] = (MarkWaiter(tree["bdir"]), env)
        watch_waiter, watch_env = waiters["watch"]
        shot_waiter, shot_env = waiters["shot"]
        watch = WatchProcess(bins["ours"], watch_tree["bdir"], watch_env)
        line = watch.wait_line(re.compile(r"^ninja: watching for changes"), 0) + 1
        watch_waiter.forget()
        shot_waiter.forget()
        for rnd in range(runs + 1):  # round 0: warm-up, not recorded
            t0 = touch_leaf(watch_tree["bdir"], source)
            latency = watch_waiter.wait() - t0
            first = watch.wait_line(re.compile(r"^ninja: watch: "), line)
            line = watch.wait_line(ROUND_END, first + 1) + 1
            samples = [("watch", latency, 0)]
            for key in ("ours", "ref"):
                ns, rc = one_shot(bins[key], shot_tree["bdir"], shot_env, shot_waiter, source)
                samples.append((key, ns, rc))
            for key, ns, rc in samples:
                if rc != 0:
                    results[key]["problems"].append("exit %d" % rc)
                if rnd > 0:
                    results[key]["latency_ms"].append(ns / 1e6)
            log("  watch-latency %s: %s" % ("warm-up" if rnd == 0 else "run %d" % rnd,
                                            ", ".join("%s %.1f ms" % (k, ns / 1e6) for k, ns, _ in samples)))
        # The idle watch: nothing may move while nothing changes.
        ticks0, switches0, _, _ = watch.proc_status()
        time.sleep(IDLE_SECONDS)
        ticks1, switches1, rss, hwm = watch.proc_status()
        idle = {"seconds": IDLE_SECONDS, "cpu_ticks": ticks1 - ticks0, "wakeups": switches1 - switches0,
                "rss_kb": rss, "peak_rss_kb": hwm}
        if watch.stop() != 130:
            results["watch"]["problems"].append("did not end with 130 on SIGINT")
        # A one-shot no-op's peak in the same tree, as the watch left it (the
        # median of a few: it varies by a few MB from run to run).
        peaks = sorted(run_measured([bins["ours"]], watch_tree["bdir"], os.devnull)[3] for _ in range(NOOP_RUNS))
        idle["one_shot_noop_rss_kb"] = peaks[len(peaks) // 2]
    finally:
        if watch and watch.proc.poll() is None:
            watch.proc.kill()
        for waiter, _ in waiters.values():
            waiter.close()
        for path, original in marks:
            with open(path, "w") as f:
                f.write(original)
        for tree in (watch_tree, shot_tree):
            try:
                os.unlink(os.path.join(tree["bdir"], MARK))
            except FileNotFoundError:
                pass
    results["leaf"] = {"source": source, "object": obj}
    return results, idle
