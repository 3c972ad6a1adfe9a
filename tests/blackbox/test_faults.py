"""Fault injection: ninja under hostile conditions.

Each scenario breaks something on purpose and checks that ninja reacts the
way Ninja 1.13.2 does (same messages, same exit codes: the reference binary
runs the same scenario wherever it behaves sensibly) and that the next run,
once the fault is gone, loads its logs and finishes the build.

- SIGKILL of ninja at random points of a 200-edge build, 50 times over.
- A full disk (a small tmpfs) and a file size limit (RLIMIT_FSIZE) while
  `.ninja_log` / `.ninja_deps` grow, or while they are recompacted.
- Commands that print megabytes, never exit, close their output early,
  leave background children holding the pipe, or die by each signal.
- Manifests with 100k-deep chains, 100k-input fan-in, 10k-long variable
  chains, 4 KiB paths, odd names and CRLF line endings (ours runs with an
  8 MB stack; the reference overflows it on the deepest chain).
- A read-only build directory (as user nobody), odd PATH entries, a
  depfile that cannot be read, -C / -f naming the wrong thing.

Needs root for the tmpfs and the switch to nobody; those parts skip
visibly otherwise. Environment knobs: FAULT_SEED (random seed of the kill
loop), FAULT_KILL_ROUNDS (default 50).

Run: NINJA=... REF_NINJA=... python3 -m unittest -v test_faults
"""

import errno
import os
import random
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import harness
from harness import NinjaTestCase, base_env, list_tree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_state import deps_entries, deps_record, hash_hex, path_record, read_log  # noqa: E402

STACK = 8 * 1024 * 1024
RSS_LIMIT_KB = 500 * 1024
NOBODY = 65534


# --------------------------------------------------------------------------
# Running a binary with limits, measuring peak RSS
# --------------------------------------------------------------------------

class Run:
    def __init__(self, status, out, err, rss_kb, elapsed):
        self.returncode = os.waitstatus_to_exitcode(status)
        self.out, self.err = out, err
        self.stdout = out.decode("utf-8", "replace")
        self.stderr = err.decode("utf-8", "replace")
        self.rss_kb = rss_kb
        self.elapsed = elapsed

    def view(self, root=None):
        """(exit code, stdout, stderr) with the tree's path and the mtimes
        of `-t deps` replaced, for comparisons."""
        out, err = self.stdout, self.stderr
        if root:
            out, err = out.replace(root, "<DIR>"), err.replace(root, "<DIR>")
        out = re.sub(r"deps mtime \d+ ", "deps mtime <T> ", out)
        out, err = (re.sub(r"\(\d+ vs \d+\)", "(<T> vs <T>)", text) for text in (out, err))
        return self.returncode, out, err

    def __repr__(self):
        return "Run(rc=%r, stdout=%r, stderr=%r)" % (self.returncode, self.stdout[-2000:], self.stderr[-2000:])


def limits(fsize=None, user=None):
    """A preexec_fn: 8 MB stack, no core files, optionally a file size limit
    (SIGXFSZ ignored, so writes fail with EFBIG) and another user."""
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        _, hard = resource.getrlimit(resource.RLIMIT_STACK)
        resource.setrlimit(resource.RLIMIT_STACK,
                           (STACK if hard == resource.RLIM_INFINITY else min(STACK, hard), hard))
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, resource.RLIM_INFINITY))
        if user is not None:
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
    return apply


def _drain(pipe, chunks):
    for chunk in iter(lambda: pipe.read(65536), b""):
        chunks.append(chunk)
    pipe.close()


def execute(binary, args, cwd, env=None, timeout=60, preexec=None, stdin=subprocess.DEVNULL):
    """Runs binary to completion; returns a Run with its own peak RSS (wait4).
    Output goes through pipes (a file would fall under RLIMIT_FSIZE too)."""
    start = time.monotonic()
    proc = subprocess.Popen([binary] + list(args), cwd=cwd, env=base_env(env), stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec or limits())
    out, err = [], []
    readers = [threading.Thread(target=_drain, args=(proc.stdout, out), daemon=True),
               threading.Thread(target=_drain, args=(proc.stderr, err), daemon=True)]
    for reader in readers:
        reader.start()
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            proc.returncode = -9
            raise AssertionError("%s %s did not finish within %d s" % (binary, " ".join(args), timeout))
        time.sleep(0.002)
    elapsed = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # already reaped
    for reader in readers:
        reader.join(10)  # a leftover child may hold the pipes longer
    return Run(status, b"".join(out), b"".join(err), usage.ru_maxrss, elapsed)


def processes_in(root):
    """Pids of processes whose working directory is `root` (orphaned commands)."""
    root = os.path.realpath(root)
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/cwd" % name) == root:
                found.append(int(name))
        except OSError:
            pass
    return found


def wait_until(predicate, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


def newest_mtime(root):
    newest = 0
    for dirpath, _, files in os.walk(root):
        for f in files:
            try:
                newest = max(newest, os.lstat(os.path.join(dirpath, f)).st_mtime_ns)
            except FileNotFoundError:
                pass
    return newest


def write_newer(root, rel, content):
    """Writes root/rel so that its mtime (from the filesystem clock, like an
    editor's save) is strictly newer than every file in the tree."""
    path = os.path.join(root, rel)
    limit = newest_mtime(root)
    deadline = time.time() + 5
    while True:
        with open(path, "w") as f:
            f.write(content)
        if os.stat(path).st_mtime_ns > limit:
            return
        if time.time() > deadline:
            raise AssertionError("filesystem clock did not move past %d" % limit)
        time.sleep(0.001)


def lenient_log(path):
    """{output: (mtime, hash)} from a `.ninja_log` that may end in a partial line."""
    entries = {}
    if not os.path.exists(path):
        return entries
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", "replace")
    for line in data.split("\n")[1:-1]:  # the last piece has no newline yet
        fields = line.split("\t")
        if len(fields) == 5:
            entries[fields[3]] = (int(fields[2]), fields[4])
    return entries


def lenient_deps(path):
    """{output: (mtime, [deps])} from a `.ninja_deps`, ignoring a truncated tail."""
    result = {}
    if not os.path.exists(path):
        return result
    with open(path, "rb") as f:
        data = f.read()
    if data[:12] != b"# ninjadeps\n":
        return result
    pos, names = 16, []
    while pos + 4 <= len(data):
        head = struct.unpack("<I", data[pos:pos + 4])[0]
        size = head & 0x7FFFFFFF
        payload = data[pos + 4:pos + 4 + size]
        if len(payload) < size:
            break
        if head & 0x80000000:
            out_id, mtime = struct.unpack("<iq", payload[:12])
            ids = struct.unpack("<%di" % ((size - 12) // 4), payload[12:])
            if out_id < len(names) and all(i < len(names) for i in ids):
                result[names[out_id]] = (mtime, [names[i] for i in ids])
        else:
            names.append(payload[:-4].rstrip(b"\0").decode("utf-8", "replace"))
        pos += 4 + size
    return result


def shm_dir(prefix):
    """A scratch directory on a tmpfs when there is one (100k files are made
    ten times faster there than on an overlay filesystem)."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    return tempfile.mkdtemp(prefix=prefix, dir=base)


_BINARY_DIR = None


def world_executable(binary):
    """A copy of `binary` that user nobody may run (the reference lives under /root)."""
    global _BINARY_DIR
    if _BINARY_DIR is None:
        _BINARY_DIR = tempfile.mkdtemp(prefix="ronin-faults-bin-")
        os.chmod(_BINARY_DIR, 0o755)
    target = os.path.join(_BINARY_DIR, "ref" if binary == harness.REF_NINJA else "ours")
    if not os.path.exists(target):
        shutil.copy(binary, target)
        os.chmod(target, 0o755)
    return target


def tearDownModule():
    if _BINARY_DIR:
        shutil.rmtree(_BINARY_DIR, True)


class FaultCase(unittest.TestCase):
    """One tree per binary ("ours", and "ref" when the reference is installed)."""

    maxDiff = None
    ON_TMPFS = False  # trees of thousands of files are made faster in /dev/shm

    def setUp(self):
        self.roots = {}
        self.binaries = {"ours": harness.NINJA}
        if harness.REF_NINJA:
            self.binaries["ref"] = harness.REF_NINJA
        for name in self.binaries:
            prefix = "ronin-faults-%s-" % name
            root = shm_dir(prefix) if self.ON_TMPFS else tempfile.mkdtemp(prefix=prefix)
            self.addCleanup(shutil.rmtree, root, True)
            self.roots[name] = root

    def need_ref(self):
        if not harness.REF_NINJA:
            self.skipTest(harness.SKIP_NO_REF)

    def write(self, rel, content, which=None):
        for name in ([which] if which else self.roots):
            harness.write_tree(self.roots[name], {rel: content})

    def run_one(self, name, *args, **kw):
        return execute(self.binaries[name], args, self.roots[name], **kw)

    def run_all(self, *args, **kw):
        return {name: self.run_one(name, *args, **kw) for name in self.roots}

    def assertSame(self, runs, what=""):
        """Equal exit code, stdout and stderr for every binary that ran."""
        self.assertGreaterEqual(runs["ours"].returncode, 0, "ours crashed: %r" % runs["ours"])
        if "ref" in runs:
            self.assertEqual(runs["ref"].view(self.roots["ref"]), runs["ours"].view(self.roots["ours"]),
                             "%s: reference (first) vs ours (second)" % what)

    def assertSameFiles(self, ignore=(".ninja_log", ".ninja_deps", ".ninja_lock")):
        if "ref" in self.roots:
            self.assertEqual(list_tree(self.roots["ref"], ignore), list_tree(self.roots["ours"], ignore))

    def mount_tmpfs(self, path, size):
        os.makedirs(path, exist_ok=True)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s" % size, "tmpfs", path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            self.skipTest(harness.SKIP_NO_PRIVILEGE + "cannot mount a tmpfs (%s): %s"
                          % (size, r.stdout.decode().strip()))
        self.addCleanup(subprocess.run, ["umount", "-l", path], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)


# --------------------------------------------------------------------------
# SIGKILL at random points
# --------------------------------------------------------------------------

class SigkillLoopTests(NinjaTestCase):
    """ninja is killed with SIGKILL at random moments of a 200-edge build
    (plain, depfile and deps=gcc edges in chains), 50 times. After every kill
    the next run must load both logs without a word, redo only what had not
    been recorded as done, and leave a complete and correct build."""

    EDGES = 200
    SOURCES = 20
    HEADERS = 10
    KINDS = ("plain", "dep", "gcc")

    def setUp(self):
        super().setUp()
        self.dir = os.path.realpath(self.dir)
        self.version = {}
        lines = ["rule plain\n  command = { echo $out; cat $in; } > $out\n  description = B $out\n"]
        for kind, extra in (("dep", ""), ("gcc", "  deps = gcc\n")):
            lines.append("rule %s\n  command = { echo $out; cat $in $hdr; } > $out && echo \"$out: $hdr\" > $out.d\n"
                         "  depfile = $out.d\n%s  description = B $out\n" % (kind, extra))
        self.inputs, self.kind, self.header = {}, {}, {}
        for i in range(self.EDGES):
            out = "o%d" % i
            self.inputs[out] = ["s%d" % (i % self.SOURCES)] + (["o%d" % (i - 1)] if i % 8 else [])
            self.kind[out] = self.KINDS[i % 3]
            lines.append("build %s: %s %s\n" % (out, self.kind[out], " ".join(self.inputs[out])))
            if self.kind[out] != "plain":
                self.header[out] = "h%d" % (i % self.HEADERS)
                lines.append("  hdr = %s\n" % self.header[out])
        self.write("build.ninja", "".join(lines))
        for name in ["s%d" % k for k in range(self.SOURCES)] + ["h%d" % k for k in range(self.HEADERS)]:
            self.set_input(name, 0)

    def set_input(self, name, version):
        self.version[name] = version
        write_newer(self.dir, name, "%s v%d\n" % (name, version))

    def expected(self, out, cache):
        if out not in cache:
            text = out + "\n"
            for i in self.inputs[out]:
                text += self.expected(i, cache) if i.startswith("o") else "%s v%d\n" % (i, self.version[i])
            if out in self.header:
                h = self.header[out]
                text += "%s v%d\n" % (h, self.version[h])
            cache[out] = text
        return cache[out]

    def mtime(self, rel):
        try:
            return os.stat(self.path(rel)).st_mtime_ns
        except FileNotFoundError:
            return None

    def recorded_done(self, log, deps):
        """Outputs that Ninja's rules say are up to date, judging by each edge
        alone (its inputs may still be rebuilt): the output exists and is not
        older than its inputs, the log has its line with a recorded mtime not
        older than them, and its depfile or deps record is there and current."""
        done = set()
        for out in self.inputs:
            mtime = self.mtime(out)
            ins = self.inputs[out] + ([self.header[out]] if out in self.header else [])
            in_mtimes = [self.mtime(i) for i in ins]
            if mtime is None or None in in_mtimes or out not in log:
                continue
            newest = max(in_mtimes)
            if mtime < newest or log[out][0] < newest:
                continue
            if self.kind[out] == "dep":
                try:
                    depfile = self.read(out + ".d")
                except FileNotFoundError:
                    continue
                if depfile != "%s: %s\n" % (out, self.header[out]):
                    continue
            if self.kind[out] == "gcc" and (out not in deps or deps[out][0] < mtime):
                continue
            done.add(out)
        return done

    def check_complete(self, context):
        cache = {}
        for out in self.inputs:
            self.assertEqual(self.read(out), self.expected(out, cache), "%s: content of %s" % (context, out))
        _, entries = read_log(self.path(".ninja_log"))  # strict: whole lines only
        self.assertEqual({e.path for e in entries}, set(self.inputs), context)
        deps = deps_entries(self.path(".ninja_deps"))  # strict: whole records only
        for out, kind in self.kind.items():
            if kind == "gcc":
                self.assertEqual(deps[out][1], [self.header[out]], "%s: deps of %s" % (context, out))
                self.assertFalse(self.exists(out + ".d"), "%s: %s.d was not consumed" % (context, out))

    def test_sigkill_at_random_points_of_a_200_edge_build(self):
        seed = int(os.environ.get("FAULT_SEED", "20251120"))
        rounds = int(os.environ.get("FAULT_KILL_ROUNDS", "50"))
        rng = random.Random(seed)
        kills_mid_build = 0
        for round_ in range(rounds):
            context = "seed %d, round %d" % (seed, round_)
            # Change a few inputs; now and then lose some outputs too.
            for name in rng.sample(sorted(self.version), rng.randint(1, 4)):
                self.set_input(name, round_ + 1)
            if round_ % 7 == 3:
                for out in rng.sample(sorted(self.inputs), 40):
                    for rel in (out, out + ".d"):
                        if self.exists(rel):
                            os.unlink(self.path(rel))

            jobs = rng.choice((1, 2, 4, 8))
            delay = rng.uniform(0, 0.01) if rng.random() < 0.2 else rng.uniform(0, 0.15)
            proc = subprocess.Popen([harness.NINJA, "-j%d" % jobs], cwd=self.dir, env=base_env(),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    preexec_fn=limits())
            time.sleep(delay)
            if proc.poll() is None:
                kills_mid_build += 1
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            # The killed ninja's reaper ends its commands, then itself (its cwd is here too).
            self.assertTrue(wait_until(lambda: not processes_in(self.dir)),
                            "%s: commands still running: %r" % (context, processes_in(self.dir)))

            log_before = lenient_log(self.path(".ninja_log"))
            deps_before = lenient_deps(self.path(".ninja_deps"))
            done = self.recorded_done(log_before, deps_before)

            r = execute(harness.NINJA, ["-j4", "-d", "explain"], self.dir)
            self.assertEqual(r.returncode, 0, "%s: %r" % (context, r))
            explain = [l for l in (r.stdout + r.stderr).splitlines() if l.startswith("ninja explain: ")]
            others = [l for l in r.stderr.splitlines() if not l.startswith("ninja explain: ")]
            self.assertEqual(others, [], "%s: the logs did not load silently" % context)
            rebuilt = re.findall(r"^\[\d+/\d+\] B (\S+)$", r.stdout, re.M)
            self.assertEqual(len(rebuilt), len(set(rebuilt)), context)
            for line in explain:
                self.assertNotIn("command line changed", line, context)
                m = re.match(r"ninja explain: command line not found in log for (\S+)$", line)
                if m:
                    self.assertNotIn(m.group(1), log_before,
                                     "%s: %s has a log line but was rebuilt for lack of one" % (context, m.group(1)))
                m = re.match(r"ninja explain: deps for '(\S+)' are missing$", line)
                if m:
                    self.assertNotIn(m.group(1), deps_before,
                                     "%s: %s has deps but was rebuilt for lack of them" % (context, m.group(1)))
            rebuilt_set = set(rebuilt)
            for out in rebuilt:
                if out in done:
                    self.assertTrue(any(i in rebuilt_set for i in self.inputs[out]),
                                    "%s: %s was done and recorded, none of its inputs was rebuilt, "
                                    "but it was rebuilt:\n%s" % (context, out, "\n".join(explain)))
            self.check_complete(context)
            for out, entry in log_before.items():
                if out not in rebuilt_set:
                    self.assertEqual(lenient_log(self.path(".ninja_log")).get(out), entry,
                                     "%s: log line of %s lost or changed" % (context, out))
            noop = execute(harness.NINJA, [], self.dir)
            self.assertEqual((noop.returncode, noop.stdout, noop.stderr), (0, "ninja: no work to do.\n", ""),
                             context)
        self.assertGreater(kills_mid_build, rounds // 2, "most kills should land during a build")


class SigkillDuringRecompactionTests(NinjaTestCase):
    """Both logs hold every record four times, so ninja rewrites them at
    startup; SIGKILL lands somewhere in that. The next run must still find
    everything up to date and say nothing else."""

    EDGES = 3000

    def setUp(self):
        super().setUp()
        self.dir = shm_dir("ronin-faults-recompact-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        lines = ["rule t\n  command = touch $out\n",
                 "rule g\n  command = touch $out\n  depfile = $out.d\n  deps = gcc\n"]
        lines += ["build o%d: %s\n" % (i, "g" if i % 2 else "t") for i in range(self.EDGES)]
        self.write("build.ninja", "".join(lines))
        self.write("hdr", "")
        for i in range(self.EDGES):
            self.write("o%d" % i, "")
        mtimes = [os.stat(self.path("o%d" % i)).st_mtime_ns for i in range(self.EDGES)]
        log = ["0\t1\t%d\to%d\t%s\n" % (mtimes[i], i, hash_hex("touch o%d" % i)) for i in range(self.EDGES)]
        self.log = ("# ninja log v7\n" + "".join(log * 4)).encode()
        paths = [path_record("hdr", 0)]
        records = []
        for i in range(1, self.EDGES, 2):
            paths.append(path_record("o%d" % i, len(paths)))
            records.append(deps_record(len(paths) - 1, mtimes[i], [0]))
        self.deps = b"# ninjadeps\n" + struct.pack("<i", 4) + b"".join(paths) + b"".join(records * 4)

    def restore_logs(self):
        with open(self.path(".ninja_log"), "wb") as f:
            f.write(self.log)
        with open(self.path(".ninja_deps"), "wb") as f:
            f.write(self.deps)

    def test_sigkill_while_recompacting(self):
        self.restore_logs()
        r = execute(harness.NINJA, [], self.dir)
        self.assertEqual(r.view(), (0, "ninja: no work to do.\n", ""))
        # Recompacted: one line, one record per output.
        self.assertEqual(len(read_log(self.path(".ninja_log"))[1]), self.EDGES)
        self.assertEqual(len(deps_entries(self.path(".ninja_deps"))), self.EDGES // 2)
        self.assertLess(os.path.getsize(self.path(".ninja_deps")), len(self.deps) // 2)
        rng = random.Random(int(os.environ.get("FAULT_SEED", "20251120")))
        for round_ in range(25):
            self.restore_logs()
            proc = subprocess.Popen([harness.NINJA], cwd=self.dir, env=base_env(), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, preexec_fn=limits())
            time.sleep(rng.uniform(0, r.elapsed * 1.2))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            after = execute(harness.NINJA, ["-d", "explain"], self.dir)
            self.assertEqual(after.view(), (0, "ninja: no work to do.\n", ""), "round %d" % round_)
            self.assertEqual(len(lenient_log(self.path(".ninja_log"))), self.EDGES)
            self.assertEqual(len(lenient_deps(self.path(".ninja_deps"))), self.EDGES // 2)


class LogReaderTests(FaultCase):
    """`-n` and the tools that only read the logs take no lock (they write
    nothing), so they may run while a build appends to `.ninja_log`. A line
    the build is writing at that moment may be seen half written; the
    reader must leave it alone, or the build's line is lost."""

    def test_readers_leave_a_half_written_log_line_alone(self):
        self.write("build.ninja", "rule t\n  command = touch $out\nbuild a: t\nbuild b: t\n")
        for reader in (("-n",), ("-t", "deps"), ("-t", "missingdeps"), ("-n", "-t", "clean")):
            with self.subTest(reader=" ".join(reader)):
                self.check_reader(reader)

    def check_reader(self, reader):
        halves = {}
        for name, root in self.roots.items():
            for rel in ("a", "b", ".ninja_log", ".ninja_deps"):
                if os.path.exists(os.path.join(root, rel)):
                    os.unlink(os.path.join(root, rel))
            self.assertEqual(self.run_one(name, "-j1").returncode, 0)
            log = os.path.join(root, ".ninja_log")
            with open(log) as f:
                lines = f.readlines()
            # The build is half-way through writing its last line.
            with open(log, "w") as f:
                f.write("".join(lines[:-1]) + lines[-1][:12])
            halves[name] = lines[-1][12:]
        readers = self.run_all(*reader)
        self.assertSame(readers, "ninja %s" % " ".join(reader))
        for name, root in self.roots.items():
            with open(os.path.join(root, ".ninja_log"), "a") as f:
                f.write(halves[name])  # ... and finishes it
        after = self.run_all("-d", "explain")
        self.assertEqual(after["ours"].view(), (0, "ninja: no work to do.\n", ""),
                         "after ninja %s: the build's log line was cut" % " ".join(reader))
        self.assertSame(after, "after ninja %s" % " ".join(reader))


# --------------------------------------------------------------------------
# Full disk, file size limit
# --------------------------------------------------------------------------

HEADER_DIR = "include/some/rather/long/header/path"


def log_filling_manifest(edges, headers):
    """Plain and deps=gcc edges; with many headers per depfile the deps log
    grows faster than the build log. Logs go to builddir t/."""
    names = " ".join("%s/number_%04d.h" % (HEADER_DIR, j) for j in range(headers))
    files = {"src": "s\n"}
    for j in range(headers):
        files["%s/number_%04d.h" % (HEADER_DIR, j)] = ""
    lines = ["builddir = t\n",
             "rule w\n  command = echo $out > $out\n",
             "rule d\n  command = printf '%%s: src %s\\n' $out > $out.d; echo $out > $out\n"
             "  depfile = $out.d\n  deps = gcc\n" % names]
    for i in range(edges):
        lines.append("build out_with_a_long_name_%03d: %s src\n" % (i, "d" if i % 2 else "w"))
    files["build.ninja"] = "".join(lines)
    return files


def fill_disk(directory, leave=0):
    """Fills the filesystem of `directory` with t/fill, then frees `leave` bytes."""
    path = os.path.join(directory, "fill")
    chunk = b"\0" * 4096
    with open(path, "wb", buffering=0) as f:
        try:
            while True:
                f.write(chunk)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
    size = os.path.getsize(path)
    os.truncate(path, max(0, size - leave))


class DiskFullTests(FaultCase):
    """Logs that cannot grow: ninja stops with Ninja's message
    (`ninja: build stopped: Error writing to build log: ...`), exit 1, and
    the next run with room to spare recovers."""

    def logs_on_tmpfs(self, edges, headers, size="64k", leave=8192):
        for name, root in self.roots.items():
            harness.write_tree(root, log_filling_manifest(edges, headers))
            self.mount_tmpfs(os.path.join(root, "t"), size)
            if leave is not None:
                fill_disk(os.path.join(root, "t"), leave)

    def free_disk(self):
        for root in self.roots.values():
            os.unlink(os.path.join(root, "t", "fill"))

    def assertStoppedLikeReference(self, runs, message):
        """Where the log fills up depends on the times written into it, so the
        two runs stop after a different number of edges; what they print
        around that must be the same."""
        ours = runs["ours"]
        self.assertGreaterEqual(ours.returncode, 0, ours)
        self.assertEqual((ours.returncode, ours.stdout.splitlines()[-1], ours.stderr),
                         (1, "ninja: build stopped: %s." % message, ""), ours)
        for line in ours.stdout.splitlines()[:-1]:
            self.assertRegex(line, r"^\[\d+/\d+\] ", ours)
        if "ref" in runs:
            ref = runs["ref"]
            self.assertEqual((ref.returncode, ref.stdout.splitlines()[-1], ref.stderr),
                             (ours.returncode, ours.stdout.splitlines()[-1], ours.stderr))

    def assertRecovers(self, compare_noop=True):
        """With space again: the build completes, redoing exactly what had no
        complete log line (or deps record) yet, then is a no-op."""
        t = os.path.join(self.roots["ours"], "t")
        log, deps = lenient_log(os.path.join(t, ".ninja_log")), lenient_deps(os.path.join(t, ".ninja_deps"))
        with open(os.path.join(self.roots["ours"], "build.ninja")) as f:
            edges = re.findall(r"^build (\S+): (\w+)", f.read(), re.M)
        expected = sorted(out for out, rule in edges if out not in log or (rule == "d" and out not in deps))
        second = self.run_all("-j1")
        ours = second["ours"]
        self.assertEqual(ours.returncode, 0, ours)
        built = sorted(re.findall(r"> (out_with_a_long_name_\d+)$", ours.stdout, re.M))
        self.assertEqual(built, expected, "rebuilt vs not recorded as done")
        if "ref" in second:
            self.assertEqual(second["ref"].returncode, 0, second["ref"])
            self.assertEqual(second["ref"].stderr, ours.stderr)
        read_log(os.path.join(t, ".ninja_log"))  # whole lines only
        deps_entries(os.path.join(t, ".ninja_deps"))  # whole records only
        third = self.run_all("-j1")
        self.assertEqual(third["ours"].view(), (0, "ninja: no work to do.\n", ""))
        if compare_noop:
            self.assertSame(third, "no-op after recovery")
        self.assertSameFiles(ignore=(".ninja_log", ".ninja_deps", ".ninja_lock", "t/"))
        return second

    def test_build_log_runs_out_of_space(self):
        self.logs_on_tmpfs(300, 1)
        first = self.run_all("-j1")
        self.assertStoppedLikeReference(first, "Error writing to build log: No space left on device")
        self.free_disk()
        # Ninja appends the next line to the cut one and loses it (and so
        # rebuilds that output a third time); ronin cuts the partial line
        # first (doc/manual.md, "Differences from Ninja").
        self.assertRecovers(compare_noop=False)

    def test_deps_log_runs_out_of_space(self):
        self.logs_on_tmpfs(300, 40)
        first = self.run_all("-j1")
        self.assertStoppedLikeReference(first, "Error writing to deps log: No space left on device")
        self.free_disk()
        second = self.assertRecovers()
        # The record cut by the full disk is dropped, as Ninja does.
        self.assertEqual(second["ours"].stderr, "ninja: warning: premature end of file; recovering\n")

    def test_no_space_for_a_new_log(self):
        self.logs_on_tmpfs(50, 1, leave=0)
        first = self.run_all("-j1")
        self.assertSame(first, "build with no space at all")
        self.assertEqual(first["ours"].returncode, 1)
        self.assertIn("Error writing to build log: No space left on device.", first["ours"].stdout)
        self.free_disk()
        self.assertRecovers()

    def test_build_log_over_the_file_size_limit(self):
        for root in self.roots.values():
            harness.write_tree(root, log_filling_manifest(300, 1))
        first = self.run_all("-j1", preexec=limits(fsize=3000))
        self.assertStoppedLikeReference(first, "Error writing to build log: File too large")
        self.assertRecovers(compare_noop=False)  # see test_build_log_runs_out_of_space

    def test_deps_log_over_the_file_size_limit(self):
        for root in self.roots.values():
            harness.write_tree(root, log_filling_manifest(300, 40))
        first = self.run_all("-j1", preexec=limits(fsize=3000))
        self.assertStoppedLikeReference(first, "Error writing to deps log: File too large")
        self.assertRecovers()

    def build_then_duplicate(self, edges, log=True, deps=False):
        """Builds, then repeats every record 4 times so that the next run
        recompacts the log(s) before building."""
        for root in self.roots.values():
            harness.write_tree(root, log_filling_manifest(edges, 1))
        self.assertSame(self.run_all("-j1"), "first build")
        for root in self.roots.values():
            t = os.path.join(root, "t")
            if log:
                with open(os.path.join(t, ".ninja_log")) as f:
                    lines = f.readlines()
                with open(os.path.join(t, ".ninja_log"), "w") as f:
                    f.write(lines[0] + "".join(lines[1:] * 4))
            if deps:
                with open(os.path.join(t, ".ninja_deps"), "rb") as f:
                    data = f.read()
                records, pos = [], 16
                while pos < len(data):
                    size = struct.unpack("<I", data[pos:pos + 4])[0] & 0x7FFFFFFF
                    if data[pos + 3] & 0x80:
                        records.append(data[pos:pos + 4 + size])
                    pos += 4 + size
                with open(os.path.join(t, ".ninja_deps"), "ab") as f:
                    f.write(b"".join(records) * 4)

    def move_logs_to_a_full_tmpfs(self, size):
        for root in self.roots.values():
            t = os.path.join(root, "t")
            shutil.move(t, t + ".saved")
            self.mount_tmpfs(t, size)
            for name in os.listdir(t + ".saved"):
                shutil.copy(os.path.join(t + ".saved", name), t)
            shutil.rmtree(t + ".saved")
            fill_disk(t)

    def test_build_log_recompaction_on_a_full_disk(self):
        # 200 lines for 50 outputs: the next build recompacts the log first.
        self.build_then_duplicate(50)
        self.move_logs_to_a_full_tmpfs("128k")
        for root in self.roots.values():
            harness.touch(os.path.join(root, "src"))
        first = self.run_all("-j1")
        # Ninja 1.13.2 removes the old log before renaming the (cut) new one
        # over it, which frees the space the build then appends to: it
        # succeeds. The log must not be lost either way.
        self.assertSame(first, "build that recompacts on a full disk")
        for name in self.roots:
            self.assertFalse(os.path.exists(os.path.join(self.roots[name], "t", ".ninja_log.recompact")),
                             "%s left its temporary file behind" % name)
        self.free_disk()
        self.assertRecovers()

    def test_deps_log_recompaction_on_a_full_disk(self):
        # 1200+ deps records for 300 outputs: the next build recompacts.
        self.build_then_duplicate(600, log=False, deps=True)
        self.move_logs_to_a_full_tmpfs("256k")
        runs = self.run_all("-j1")
        ours = runs["ours"]
        # Ninja 1.13.2 says "ninja: error: opening deps log: " without a
        # reason (Recompact() drops it); ronin gives the reason.
        self.assertEqual(ours.view(), (1, "", "ninja: error: opening deps log: No space left on device\n"))
        if "ref" in runs:
            self.assertEqual(runs["ref"].view(), (1, "", "ninja: error: opening deps log: \n"))
        self.free_disk()
        self.assertRecovers()

    def test_recompact_tool_on_a_full_disk_compacts_in_place(self):
        # Ninja 1.13.2 ignores the failed writes, replaces the log with the
        # cut copy and exits 0; the lost lines rebuild later. ronin, finding
        # no room for a temporary copy, rewrites the log in place (it only
        # needs the room it frees) and keeps every live line.
        self.build_then_duplicate(50)
        self.move_logs_to_a_full_tmpfs("128k")
        log = os.path.join(self.roots["ours"], "t", ".ninja_log")
        r = self.run_one("ours", "-t", "recompact")
        self.assertEqual(r.view(), (0, "", ""))
        with open(log) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "# ninja log v7")
        self.assertEqual(len(lines) - 1, len({line.split("\t")[3] for line in lines[1:]}), "one line per output")
        self.assertEqual(len(lines) - 1, 50)
        self.assertFalse(os.path.exists(log + ".recompact"), "temporary file left behind")
        os.unlink(os.path.join(self.roots["ours"], "t", "fill"))
        r = self.run_one("ours")
        self.assertEqual(r.view(), (0, "ninja: no work to do.\n", ""))


# --------------------------------------------------------------------------
# Misbehaving commands
# --------------------------------------------------------------------------

SIGNALS = ["HUP", "INT", "QUIT", "ILL", "ABRT", "FPE", "KILL", "SEGV", "PIPE", "ALRM", "TERM", "USR1", "USR2"]
INTERRUPTS = ("HUP", "INT", "TERM")  # Ninja: "interrupted by user", exit 130


class CommandFaultTests(FaultCase):

    def test_megabytes_of_output_come_through_exactly(self):
        text = "".join("line %d of a long output\n" % i for i in range(300000)).encode()  # 7.5 MB
        rng = random.Random(5)
        noise = bytes(rng.getrandbits(8) for _ in range(1 << 21))  # escape sequences, invalid UTF-8
        self.write("text.txt", text)
        self.write("noise.bin", noise)
        self.write("build.ninja", "rule r\n  command = $cmd\n  description = $desc\n"
                                  "build text: r\n  cmd = cat text.txt; printf no-newline\n  desc = TEXT\n"
                                  "build noise: r\n  cmd = cat noise.bin\n  desc = NOISE\n"
                                  "build both: r\n  cmd = cat text.txt; cat noise.bin >&2; cat text.txt\n"
                                  "  desc = BOTH\n")
        for target in ("text", "noise", "both"):
            runs = self.run_all(target, timeout=120)
            ours = runs["ours"]
            self.assertEqual((ours.returncode, ours.err), (0, b""))
            if target == "text":
                # Every byte, and the newline Ninja adds after output without one.
                self.assertEqual(ours.out, b"[1/1] TEXT\n" + text + b"no-newline\n")
            if "ref" in runs:
                ref = runs["ref"]
                self.assertEqual((ref.returncode, len(ref.out), ref.err), (ours.returncode, len(ours.out), ours.err))
                self.assertTrue(ref.out == ours.out, "%s: output differs from the reference" % target)
            self.assertLess(ours.rss_kb, RSS_LIMIT_KB)

    def test_interrupting_commands_that_never_exit(self):
        self.write("build.ninja",
                   "rule r\n  command = $cmd\n"
                   "build forever: r\n  cmd = echo x > forever; touch started1; exec sleep 1000\n"
                   "build loop: r\n  cmd = echo y > loop; touch started2; while :; do sleep 0.05; done\n"
                   "  depfile = loop.d\n"
                   "build quick: r\n  cmd = echo quick > quick\n"
                   "build direct: r\n  cmd = sleep 1000\n"
                   "build all: phony forever loop quick direct\n")
        for sig in INTERRUPTS:
            results = {}
            for name, root in self.roots.items():
                for rel in ("started1", "started2", "quick"):
                    if os.path.exists(os.path.join(root, rel)):
                        os.unlink(os.path.join(root, rel))
                proc = subprocess.Popen([self.binaries[name], "-j3", "all"], cwd=root, env=base_env(),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limits())
                self.addCleanup(proc.kill)
                started = wait_until(lambda: all(os.path.exists(os.path.join(root, rel))
                                                 for rel in ("started1", "started2", "quick")))
                self.assertTrue(started, "%s: commands did not start" % name)
                time.sleep(0.1)
                proc.send_signal(getattr(signal, "SIG" + sig))
                try:
                    out, err = proc.communicate(timeout=10)
                except subprocess.TimeoutExpired:
                    self.fail("%s: SIG%s did not stop the build" % (name, sig))
                self.assertTrue(wait_until(lambda: not processes_in(root), 5),
                                "%s: SIG%s left commands running" % (name, sig))
                results[name] = (proc.returncode, out.decode(), err.decode())
            self.assertEqual(results["ours"][0], 130, results["ours"])
            self.assertIn("ninja: build stopped: interrupted by user.\n", results["ours"][1])
            if "ref" in results:
                self.assertEqual(results["ref"], results["ours"], "SIG%s: reference vs ours" % sig)
            # Outputs of the interrupted commands are gone, the finished one stays.
            self.assertSameFiles()
            for rel in ("forever", "loop"):
                self.assertFalse(os.path.exists(os.path.join(self.roots["ours"], rel)))
            self.assertTrue(os.path.exists(os.path.join(self.roots["ours"], "quick")))

    def test_commands_closing_or_keeping_their_output(self):
        self.write("build.ninja",
                   "rule r\n  command = $cmd\n"
                   "build closed: r\n  cmd = echo start; exec >&- 2>&-; sleep 0.3; echo x > closed\n"
                   "build closed_stdout: r\n  cmd = exec 1>&-; echo to-stderr >&2; echo x > closed_stdout\n"
                   "build bg: r\n  cmd = echo start; (sleep 0.5; echo late) & echo x > bg\n"
                   "build bg_stderr: r\n  cmd = echo start; (sleep 0.5; echo late >&2) >/dev/null & echo x > bg_stderr\n"
                   "build bg_quiet: r\n  cmd = echo start; (sleep 2; echo late) >/dev/null 2>&1 & echo x > bg_quiet\n")
        for target, minimum, maximum in (("closed", 0.3, None), ("closed_stdout", 0, None),
                                         ("bg", 0.5, None), ("bg_stderr", 0.5, None), ("bg_quiet", 0, 1.5)):
            runs = self.run_all(target)
            ours = runs["ours"]
            self.assertEqual(ours.returncode, 0, ours)
            self.assertSame(runs, target)
            for name, run in runs.items():
                # Ninja waits for the end of the output, not just for the process.
                self.assertGreaterEqual(run.elapsed, minimum - 0.05, "%s %s" % (name, target))
                if maximum:
                    self.assertLess(run.elapsed, maximum, "%s %s waited for a detached child" % (name, target))
            self.assertIn("late" if target.startswith("bg") and target != "bg_quiet" else "", ours.stdout)
        self.assertSameFiles()

    def test_command_killed_by_each_signal(self):
        self.write("selfkill", "#!/bin/sh\necho before\nkill -$1 $$\necho after\n")
        for root in self.roots.values():
            os.chmod(os.path.join(root, "selfkill"), 0o755)
        lines = ["rule r\n  command = $cmd\n"]
        for sig in SIGNALS:
            # Through the shell, and a command ronin spawns without one.
            lines.append("build sh_%s: r\n  cmd = echo before; kill -%s $$$$; echo after\n" % (sig, sig))
            lines.append("build direct_%s: r\n  cmd = ./selfkill %s\n" % (sig, sig))
        lines.append("build ok: r\n  cmd = touch ok\n")
        self.write("build.ninja", "".join(lines))
        for sig in SIGNALS:
            for form in ("sh", "direct"):
                target = "%s_%s" % (form, sig)
                with self.subTest(target=target):
                    self.check_signal_run(sig, target)
        # And ninja is still fine afterwards.
        self.assertSame(self.run_all("ok"), "after the signals")
        self.assertSameFiles()

    def check_signal_run(self, sig, target):
        runs = self.run_all("-j1", target)
        ours = runs["ours"]
        number = getattr(signal, "SIG" + sig)
        # A shell killed by SIGHUP/SIGINT/SIGTERM means "interrupted by user".
        # A program the shell ran is reported by the shell instead: exit code
        # 128+N (130 for SIGINT, which again counts as an interruption) and,
        # but for SIGINT and SIGPIPE, the signal's name on stderr.
        if sig == "INT" or (sig in INTERRUPTS and target.startswith("sh_")):
            self.assertEqual(ours.view(), (130, "ninja: build stopped: interrupted by user.\n", ""), target)
        else:
            self.assertEqual(ours.returncode, 128 + number, ours)
            self.assertIn("FAILED: [code=%d] %s \n" % (128 + number, target), ours.stdout)
        self.assertSame(runs, target)


# --------------------------------------------------------------------------
# Huge and odd manifests
# --------------------------------------------------------------------------

def chain_manifest(n, top=True):
    """n real edges in a chain (for -n), and n phony edges in a chain under
    one real edge (for a real build)."""
    lines = ["rule r\n  command = touch $out\n", "build n0: r src\n"]
    lines += ["build n%d: r n%d\n" % (i, i - 1) for i in range(1, n)]
    chain = "".join(lines)
    lines = ["rule r\n  command = touch $out\n", "build p0: phony src\n"]
    lines += ["build p%d: phony p%d\n" % (i, i - 1) for i in range(1, n)]
    if top:
        lines.append("build top: r p%d\ndefault top\n" % (n - 1))
    return chain, "".join(lines)


class ManifestFaultTests(FaultCase):

    ON_TMPFS = True

    def test_100k_deep_chain_with_an_8mb_stack(self):
        n = 100000
        chain, phony = chain_manifest(n)
        self.write("chain.ninja", chain, "ours")
        self.write("build.ninja", phony, "ours")
        self.write("src", "", "ours")
        checks = [
            (("-f", "chain.ninja", "-n"), lambda r: r.stdout.endswith("[%d/%d] touch n%d\n" % (n, n, n - 1))),
            (("-f", "chain.ninja", "-t", "commands", "n%d" % (n - 1)), lambda r: r.stdout.count("\n") == n),
            (("-f", "chain.ninja", "-t", "inputs", "n%d" % (n - 1)), lambda r: r.stdout.count("\n") == n),
            (("-f", "chain.ninja", "-t", "query", "n50000"), lambda r: "  input: r\n    n49999\n" in r.stdout),
            (("-f", "chain.ninja", "-t", "targets", "all"), lambda r: r.stdout.count("\n") == n),
            (("-f", "chain.ninja", "-t", "clean"), lambda r: r.stdout == "Cleaning... 0 files.\n"),
            (("-f", "chain.ninja", "-t", "missingdeps"), lambda r: "No missing dependencies" in r.stdout),
            ((), lambda r: r.stdout == "[1/1] touch top\n"),
            ((), lambda r: r.stdout == "ninja: no work to do.\n"),
            (("-d", "explain"), lambda r: r.stdout == "ninja: no work to do.\n"),
        ]
        for args, check in checks:
            r = self.run_one("ours", *args)
            what = "ninja %s" % " ".join(args)
            self.assertEqual((r.returncode, r.stderr), (0, ""), "%s: %r" % (what, r))
            self.assertTrue(check(r), "%s: %r" % (what, r))
            self.assertLess(r.rss_kb, RSS_LIMIT_KB, "%s: peak RSS %d KB" % (what, r.rss_kb))

    def test_deep_chain_like_the_reference(self):
        # 20k is as deep as the reference gets with an 8 MB stack.
        n = 20000
        chain, phony = chain_manifest(n)
        self.write("chain.ninja", chain)
        self.write("build.ninja", phony)
        self.write("src", "")
        for args in (("-f", "chain.ninja", "-n"), ("-f", "chain.ninja", "-t", "commands", "n%d" % (n - 1)),
                     ("-f", "chain.ninja", "-t", "inputs", "n%d" % (n - 1)),
                     ("-f", "chain.ninja", "-t", "query", "n777"), (), (), ("-t", "clean")):
            self.assertSame(self.run_all(*args), " ".join(args))
        self.assertSameFiles()

    def test_100k_input_fan_in(self):
        n = 100000
        root = shm_dir("ronin-faults-fanin-")
        self.addCleanup(shutil.rmtree, root, True)
        os.mkdir(os.path.join(root, "in"))
        for i in range(n):
            os.close(os.open(os.path.join(root, "in", "f%d" % i), os.O_CREAT | os.O_WRONLY, 0o644))
        ins = " ".join("in/f%d" % i for i in range(n))
        harness.write_tree(root, {"build.ninja":
                                  "rule rsp\n  command = wc -w < $out.rsp > $out\n  rspfile = $out.rsp\n"
                                  "  rspfile_content = $in_newline\n"
                                  "rule direct\n  command = echo $in > $out\n"
                                  "build counted: rsp %s\nbuild direct: direct %s\n" % (ins, ins)})
        results = {}
        for name, binary in self.binaries.items():
            for rel in (".ninja_log", ".ninja_deps", "counted", "direct"):
                if os.path.exists(os.path.join(root, rel)):
                    os.unlink(os.path.join(root, rel))
            runs = []
            for args in (("counted",), ("counted",), ("-t", "inputs", "counted"), ("direct",)):
                r = execute(binary, args, root, timeout=120)
                self.assertGreaterEqual(r.returncode, 0, r)
                self.assertLess(r.rss_kb, RSS_LIMIT_KB, "%s: peak RSS %d KB" % (name, r.rss_kb))
                runs.append(r.view() if args[0] != "-t" else (r.returncode, len(r.stdout), r.stderr))
            with open(os.path.join(root, "counted")) as f:
                runs.append(f.read())
            results[name] = runs
        ours = results["ours"]
        self.assertEqual(ours[0], (0, "[1/1] wc -w < counted.rsp > counted\n", ""))
        self.assertEqual(ours[1], (0, "ninja: no work to do.\n", ""))
        self.assertEqual(ours[4].strip(), str(n))
        # 700 KB of arguments in one command: more than one argument may hold.
        # Ninja: `ninja: fatal: posix_spawn: Argument list too long`. Here
        # the edge fails as a failed command does (its FAILED block).
        self.assertEqual(ours[3][0], 1)
        self.assertIn("ninja: error: cannot start the command for 'direct'", ours[3][1])
        self.assertIn("rspfile", ours[3][1])
        if "ref" in results:
            # The same but for the too-long command's message (above).
            self.assertEqual(results["ref"][:3] + results["ref"][4:], ours[:3] + ours[4:])

    def test_10k_variable_chains(self):
        n = 10000
        lines = ["v0 = x\n"]
        lines += ["v%d = $v%d\n" % (i, i - 1) for i in range(1, n)]
        # Defined before what they refer to: empty, as in Ninja.
        lines += ["a%d = $a%d\n" % (i, i + 1) for i in range(n - 1)]
        lines.append("a%d = end\n" % (n - 1))
        lines.append("g0 = y\n")
        lines += ["g%d = ${g%d}y\n" % (i, i - 1) for i in range(1, n)]  # 10k-long value at the end
        lines.append("rule r\n  command = echo $v%d [$a0] $gl > $out\n  description = R $out\n" % (n - 1))
        lines.append("build out: r\n  gl = ${g%d}\n" % (n - 1))
        # Edge bindings see the file scope only, not each other.
        lines.append("build out2: r\n  gl = $e%d\n" % (n - 1))
        lines += ["  e%d = ${e%d}z\n" % (i, i - 1) if i else "  e0 = q\n" for i in range(n)]
        self.write("build.ninja", "".join(lines))
        self.assertSame(self.run_all("-j1"), "build")
        self.assertSame(self.run_all("-j1"), "no-op")
        self.assertEqual(self.run_one("ours", "-t", "commands", "out").stdout,
                         "echo x [] %s > out\n" % ("y" * n))
        for rel in ("out", "out2"):
            contents = {}
            for name, root in self.roots.items():
                with open(os.path.join(root, rel)) as f:
                    contents[name] = f.read()
            self.assertEqual(contents.get("ref", contents["ours"]), contents["ours"])

    def test_many_bindings_on_one_edge_parse_in_linear_time(self):
        n = 50000
        lines = ["rule r\n  command = echo $gl > $out\n", "build out: r\n  gl = x\n"]
        lines += ["  e%d = q\n" % i for i in range(n)]
        self.write("build.ninja", "".join(lines))
        runs = self.run_all("-n")
        self.assertSame(runs, "-n")
        # The reference takes a few hundredths of a second.
        limit = max(1.5, 20 * runs["ref"].elapsed) if "ref" in runs else 1.5
        self.assertLess(runs["ours"].elapsed, limit, "50000 bindings on one edge: %.2f s" % runs["ours"].elapsed)

    def test_nested_includes(self):
        n = 5000
        for kind in ("include", "subninja"):
            for i in range(n):
                self.write("%s%d.ninja" % (kind, i), "%s %s%d.ninja\n" % (kind, kind, i + 1) if i + 1 < n else
                           "rule r\n  command = touch $out\nbuild x: r\n")
            self.write("build.ninja", "%s %s0.ninja\n" % (kind, kind))
            self.assertSame(self.run_all("-n"), kind)

    def test_4k_paths(self):
        component = "d" * 250
        fits = "/".join([component] * 16) + "/out"    # 4019 bytes
        too_long = "/".join([component] * 17) + "/out"  # over PATH_MAX
        name_too_long = "e" * 256                       # over NAME_MAX
        self.write("build.ninja",
                   "rule cp\n  command = cat $in > $out && echo $out >> $out\n  description = CP $out\n"
                   "build %s: cp src\nbuild fits: phony %s\n"
                   "build %s: cp src\nbuild too_long: phony %s\n"
                   "build %s: cp src\n" % (fits, fits, too_long, too_long, name_too_long))
        self.write("src", "s\n")
        for args in (("fits",), ("fits",), ("too_long",), (name_too_long,), ("-t", "clean", "fits"), ("fits",),
                     ("-t", "query", "fits"), ("-t", "targets", "all")):
            runs = self.run_all(*args)
            self.assertSame(runs, " ".join(args)[:40])
        self.assertEqual(len(fits), 4019)
        with open(os.path.join(self.roots["ours"], fits)) as f:
            self.assertEqual(f.read(), "s\n%s\n" % fits)
        self.assertSameFiles()

    def test_odd_names_and_crlf_line_endings(self):
        manifest = ("rule cp\n  command = cat $in > $out\n  description = CP $out\n"
                    "rule cpd\n  command = cat $in > $out; printf '%s: %s\\n' 'out$$ 4' 'dep\\ with\\ space' > $out.d\n"
                    "  depfile = $out.d\n  deps = gcc\n  description = CPD $out\n"
                    "build out$ 1: cp in$ put\n"
                    "build out$$2: cp out$ 1\n"
                    "build out$:3: cp out$$2\n"
                    "build \u00fcn\u00ef\u20ac\u00f8d\u00e9_\U0001f642: cp out$:3\n"
                    "build out$$$ 4: cpd \u00fcn\u00ef\u20ac\u00f8d\u00e9_\U0001f642\n"
                    "default out$$$ 4\n")
        self.write("in put", "hi\n")
        self.write("dep with space", "d\n")
        for ending, name in (("\n", "lf.ninja"), ("\r\n", "crlf.ninja")):
            self.write(name, manifest.replace("\n", ending).encode())
            for args in ((), (), ("-t", "deps"), ("-t", "query", "out$ 4"), ("-t", "targets", "all"), ("touch",),
                         ("-d", "explain"), (), ("-t", "clean"), ("-t", "recompact")):
                if args == ("touch",):
                    for root in self.roots.values():
                        write_newer(root, "dep with space", "d2\n")
                    continue
                runs = self.run_all("-f", name, *args)
                self.assertSame(runs, "%s %s" % (name, " ".join(args)))
                self.assertEqual(runs["ours"].returncode, 0, runs["ours"])
            self.assertSameFiles()


# --------------------------------------------------------------------------
# Hostile environment
# --------------------------------------------------------------------------

class EnvironmentFaultTests(FaultCase):

    def as_nobody(self):
        """Binaries nobody can run, and trees nobody can enter; skips unless root."""
        if os.geteuid() != 0:
            self.skipTest(harness.SKIP_NO_PRIVILEGE + "root, to run ninja as user nobody")
        for name in self.binaries:
            self.binaries[name] = world_executable(self.binaries[name])
        return limits(user=NOBODY)

    def test_read_only_build_directory(self):
        nobody = self.as_nobody()
        self.write("build.ninja",
                   "rule r\n  command = echo hi > $out\n"
                   "rule d\n  command = echo \"$out: src\" > $out.d; echo hi > $out\n  depfile = $out.d\n  deps = gcc\n"
                   "build a: r src\nbuild b: d src\nbuild sub/c: r src\n"
                   "build out/x: r src\nbuild out/y: d src\n")
        self.write("src", "")
        self.write("unreadable.ninja", "")
        for root in self.roots.values():
            os.chmod(os.path.join(root, "unreadable.ninja"), 0)
            os.chmod(root, 0o555)
            self.addCleanup(os.chmod, root, 0o755)
        # Nothing can be written: not the outputs, not the lock file, not the logs.
        for args in ((), ("a",), ("-k0",), ("-n",), ("-t", "clean"), ("-t", "recompact"), ("-t", "restat"),
                     ("-t", "cleandead"), ("-f", "unreadable.ninja")):
            self.assertSame(self.run_all(*args, preexec=nobody), "read-only: ninja %s" % " ".join(args))
        # Outputs in a writable directory, logs (from an earlier build) read-only.
        for root in self.roots.values():
            os.chmod(root, 0o755)
            os.mkdir(os.path.join(root, "out"))
        self.assertSame(self.run_all("-j1", "out/x", "out/y"), "first build, as root")
        for root in self.roots.values():
            os.chmod(os.path.join(root, "out"), 0o777)
            for rel in ("out/x", "out/y"):
                os.chmod(os.path.join(root, rel), 0o666)
            write_newer(root, "src", "changed\n")
            os.chmod(root, 0o555)
        for args in (("-j1", "out/x", "out/y"), ("-t", "recompact"), ("-t", "restat"), ("-j1", "out/x", "out/y")):
            runs = self.run_all(*args, preexec=nobody)
            self.assertSame(runs, "read-only logs: ninja %s" % " ".join(args))
            self.assertEqual(runs["ours"].returncode, 1, runs["ours"])
        for root in self.roots.values():
            os.chmod(root, 0o755)
        runs = self.run_all("-j1", "out/x", "out/y")
        self.assertSame(runs, "writable again")
        self.assertEqual(runs["ours"].returncode, 0)

    def test_path_with_missing_and_non_directory_entries(self):
        files = {"fake/mytool/keep": "",                       # a directory named like the program
                 "noexec/touch": "echo fake-touch\n",          # not executable: skipped
                 "noexec/mytool": "#!/bin/sh\necho wrong\n",
                 "noexec/onlynoexec": "echo x\n",
                 "real/mytool": "#!/bin/sh\necho real-tool \"$@\"\n",
                 "scripts/scripty": "echo no-shebang \"$@\"\n",
                 "localtool": "#!/bin/sh\necho local \"$@\"\n"}
        for rel, content in files.items():
            self.write(rel, content)
        for root in self.roots.values():
            for rel in ("real/mytool", "scripts/scripty", "localtool"):
                os.chmod(os.path.join(root, rel), 0o755)
            for rel in ("noexec/touch", "noexec/mytool", "noexec/onlynoexec"):
                os.chmod(os.path.join(root, rel), 0o644)
        self.write("build.ninja",
                   "rule r\n  command = $cmd\n"
                   "build a: r\n  cmd = touch a\n"
                   "build b: r\n  cmd = mytool b\n"
                   "build c: r\n  cmd = scripty c\n"
                   "build d: r\n  cmd = nosuchtool d\n"
                   "build e: r\n  cmd = touch e; mytool e\n"
                   "build f: r\n  cmd = onlynoexec f\n"
                   "build g: r\n  cmd = localtool g\n")
        paths = ["/nonexistent:/etc/passwd:{root}/fake:{root}/noexec::relative/dir:{root}/real:{root}/scripts:"
                 "/bin:/usr/bin",
                 "{root}/noexec:/bin", "", "::", "{root}/noexec:", None]
        for path in paths:
            for root in self.roots.values():
                for rel in ("a", "e", ".ninja_log"):
                    if os.path.exists(os.path.join(root, rel)):
                        os.unlink(os.path.join(root, rel))
            runs = {}
            for name, root in self.roots.items():
                env = {"PATH": path.format(root=root) if path is not None else None}
                runs[name] = self.run_one(name, "-k0", "-j1", env=env)
            self.assertSame(runs, "PATH=%r" % path)
        self.assertSameFiles()

    def test_unreadable_depfile(self):
        self.write("build.ninja",
                   "rule d\n  command = echo hi > $out\n  depfile = $out.d\n"
                   "rule g\n  command = echo hi > $out\n  depfile = $out.d\n  deps = gcc\n"
                   "rule m\n  command = mkdir -p $out.d; echo hi > $out\n  depfile = $out.d\n  deps = gcc\n"
                   "rule l\n  command = ln -sf $out.d $out.d; echo hi > $out\n  depfile = $out.d\n  deps = gcc\n"
                   "build a: d\nbuild b: g src\nbuild c: m\nbuild e: l\nbuild f: d\n")
        self.write("src", "")
        steps = [("a",), ("b",), ("c",), ("e",), ("f",), "mkdir", ("a",), ("-d", "explain", "b"), ("b",), ("c",),
                 ("f",), ("-t", "deps"), ("-t", "clean"), ("-t", "clean", "b")]
        for step in steps:
            if step == "mkdir":
                for root in self.roots.values():
                    os.mkdir(os.path.join(root, "a.d"))        # loaded before building: error
                    os.mkdir(os.path.join(root, "b.d"))        # deps=gcc reads it after the command
                    os.symlink("f.d", os.path.join(root, "f.d.tmp"))
                    os.replace(os.path.join(root, "f.d.tmp"), os.path.join(root, "f.d"))  # a loop
                    write_newer(root, "src", "changed\n")
                continue
            self.assertSame(self.run_all(*step), "ninja %s" % " ".join(step))
        self.assertSameFiles()

    def test_wrong_directory_or_manifest(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.write("adir/keep", "")
        self.write("includes_dir.ninja", "include adir\n")
        self.write("includes_missing.ninja", "rule r\n  command = true\nsubninja missing.ninja\n")
        cases = [("-C", "nosuch"), ("-C", "build.ninja"), ("-C", "adir"), ("-C", "nosuch", "-f", "adir"),
                 ("-f", "adir"), ("-f", "nosuch.ninja"), ("-f", "adir", "-t", "targets"),
                 ("-f", "nosuch.ninja", "-t", "clean"), ("-f", "includes_dir.ninja"),
                 ("-f", "includes_missing.ninja"), ("-f", "/dev/null"), ("-f", "")]
        for args in cases:
            runs = self.run_all(*args)
            self.assertSame(runs, "ninja %s" % " ".join(args))
            if args not in (("-f", "/dev/null"),):
                self.assertEqual(runs["ours"].returncode, 1, runs["ours"])
        self.assertSameFiles()
