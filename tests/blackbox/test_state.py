"""Black-box tests of ninja's incremental-build state.

Covers `.ninja_log` v7 (layout, rapidhash command hashes, recompaction, version
handling), `.ninja_deps` v4 (byte layout, recovery, `-t deps`), `.ninja_lock`,
depfiles, restat, generator edges, manifest regeneration, dyndep, validations
and the `-d explain/keeprsp/keepdepfile/stats` debug modes.

Every expectation here was observed on real ninja 1.13.2 (see the module
docstring of harness.py for how to point NINJA at a binary):

    NINJA=<ninja> python3 -m unittest -v test_state

Timestamps: a file that must look "edited after the last build" is either
moved into the future with harness.bump_mtime (when the test does not need a
clean no-op build afterwards) or touched with touch_newer(), which waits until
the filesystem clock has passed every mtime in the tree (a few ms at most), so
that a later run can also be checked to be a no-op.
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
from harness import NinjaTestCase, bump_mtime  # noqa: E402


def public_files(directory):
    """The sorted names in a directory, minus ronin's private cache files."""
    return sorted(name for name in os.listdir(directory) if not harness.is_ronin_private(name))

OLD_NINJA = "/usr/bin/ninja"  # ninja 1.11.1 writes build log v5

# --------------------------------------------------------------------------
# rapidhash (V1), written from the description in the spec notes (§3.1).
# --------------------------------------------------------------------------

_M64 = (1 << 64) - 1
_SEED = 0xbdd89aa982704029
_K0, _K1, _K2 = 0x2d358dccaa6c78a5, 0x8bb84b93962eacc9, 0x4b33a62ed433d4a3


def _mum(a, b):
    p = a * b
    return p & _M64, (p >> 64) & _M64


def _mix(a, b):
    lo, hi = _mum(a, b)
    return lo ^ hi


def _r64(d, i):
    return int.from_bytes(d[i:i + 8], "little")


def _r32(d, i):
    return int.from_bytes(d[i:i + 4], "little")


def rapidhash(data):
    """64-bit rapidhash of bytes/str, as used for `.ninja_log` v7 command hashes."""
    if isinstance(data, str):
        data = data.encode()
    n = len(data)
    seed = _SEED ^ _mix(_SEED ^ _K0, _K1) ^ n
    if n <= 16:
        if n >= 4:
            a = ((_r32(data, 0) << 32) | _r32(data, n - 4)) & _M64
            d = (n & 24) >> (n >> 3)
            b = ((_r32(data, d) << 32) | _r32(data, n - 4 - d)) & _M64
        elif n > 0:
            a = (data[0] << 56) | (data[n >> 1] << 32) | data[n - 1]
            b = 0
        else:
            a = b = 0
    else:
        p, i = 0, n
        if i > 48:
            s1 = s2 = seed
            while i >= 48:
                seed = _mix(_r64(data, p) ^ _K0, _r64(data, p + 8) ^ seed)
                s1 = _mix(_r64(data, p + 16) ^ _K1, _r64(data, p + 24) ^ s1)
                s2 = _mix(_r64(data, p + 32) ^ _K2, _r64(data, p + 40) ^ s2)
                p += 48
                i -= 48
            seed ^= s1 ^ s2
        if i > 16:
            seed = _mix(_r64(data, p) ^ _K2, _r64(data, p + 8) ^ seed ^ _K1)
            if i > 32:
                seed = _mix(_r64(data, p + 16) ^ _K2, _r64(data, p + 24) ^ seed)
        a = _r64(data, p + i - 16)
        b = _r64(data, p + i - 8)
    a ^= _K1
    b ^= seed
    a, b = _mum(a, b)
    return _mix(a ^ _K0 ^ n, b ^ _K1)


def hash_hex(command):
    """The hash field `.ninja_log` v7 writes for a command: lowercase hex, no padding."""
    return "%x" % rapidhash(command)


# --------------------------------------------------------------------------
# File helpers shared with test_diff_state.py
# --------------------------------------------------------------------------

LOG_HEADER = "# ninja log v7\n"
DEPS_HEADER = b"# ninjadeps\n"


class LogEntry:
    def __init__(self, start, end, mtime, path, hash_):
        self.start, self.end, self.mtime, self.path, self.hash = start, end, mtime, path, hash_

    def __repr__(self):
        return "LogEntry(%r, %r, %r, %r, %r)" % (self.start, self.end, self.mtime, self.path, self.hash)


def read_log(path):
    """Parses a v7 `.ninja_log`; returns (header line, [LogEntry]). Asserts the strict layout."""
    with open(path, "rb") as f:
        data = f.read().decode()
    lines = data.split("\n")
    assert lines[-1] == "", "log does not end with a newline: %r" % data
    entries = []
    for line in lines[1:-1]:
        fields = line.split("\t")
        assert len(fields) == 5, "bad log line %r" % line
        entries.append(LogEntry(int(fields[0]), int(fields[1]), int(fields[2]), fields[3], fields[4]))
    return lines[0], entries


def log_structure(path):
    """[(path, hash)] in file order: what must match between two ninjas (times differ)."""
    return [(e.path, e.hash) for e in read_log(path)[1]]


def parse_deps(data):
    """Parses `.ninja_deps` bytes; returns (version, records).

    records: ("path", name, checksum, pad) or ("deps", out_id, mtime, [dep ids]).
    """
    assert data[:12] == DEPS_HEADER, data[:16]
    version = struct.unpack("<i", data[12:16])[0]
    pos, records = 16, []
    while pos < len(data):
        head = struct.unpack("<I", data[pos:pos + 4])[0]
        size = head & 0x7FFFFFFF
        payload = data[pos + 4:pos + 4 + size]
        assert len(payload) == size, "truncated record at %d" % pos
        if head & 0x80000000:
            out_id, lo, hi = struct.unpack("<iII", payload[:12])
            mtime = struct.unpack("<q", struct.pack("<II", lo, hi))[0]
            deps = list(struct.unpack("<%di" % ((size - 12) // 4), payload[12:]))
            records.append(("deps", out_id, mtime, deps))
        else:
            raw = payload[:-4]
            name = raw.rstrip(b"\0")
            records.append(("path", name.decode(), struct.unpack("<I", payload[-4:])[0], len(raw) - len(name)))
        pos += 4 + size
    return version, records


def deps_structure(path):
    """Deps-log records with the mtime fields blanked (for comparing two ninjas)."""
    with open(path, "rb") as f:
        version, records = parse_deps(f.read())
    return version, [r if r[0] == "path" else (r[0], r[1], None, r[3]) for r in records]


def deps_entries(path):
    """{output path: (mtime, [dep paths])} with the last record per output winning."""
    with open(path, "rb") as f:
        _, records = parse_deps(f.read())
    names, result = [], {}
    for r in records:
        if r[0] == "path":
            names.append(r[1])
        else:
            result[names[r[1]]] = (r[2], [names[i] for i in r[3]])
    return result


def path_record(name, node_id):
    raw = name.encode()
    raw += b"\0" * ((4 - len(raw) % 4) % 4)
    return struct.pack("<I", len(raw) + 4) + raw + struct.pack("<I", ~node_id & 0xFFFFFFFF)


def deps_record(out_id, mtime, dep_ids):
    payload = struct.pack("<iq", out_id, mtime) + b"".join(struct.pack("<i", i) for i in dep_ids)
    return struct.pack("<I", len(payload) | 0x80000000) + payload


def mtime_ns(path):
    return os.stat(path).st_mtime_ns


def newest_mtime(root, exclude=None):
    newest = 0
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            if exclude and os.path.abspath(p) == os.path.abspath(exclude):
                continue
            newest = max(newest, os.stat(p).st_mtime_ns)
    return newest


def touch_newer(root, rel, timeout=5.0):
    """Touches root/rel (creating it) so it is strictly newer than every other file in root,
    using the real filesystem clock: waits (a few ms at most) until the clock ticks past."""
    path = os.path.join(root, rel)
    limit = newest_mtime(root, exclude=path)
    deadline = time.time() + timeout
    while True:
        harness.touch(path)
        if mtime_ns(path) > limit:
            return
        if time.time() > deadline:
            raise AssertionError("filesystem clock did not pass %d" % limit)
        time.sleep(0.002)


def set_mtime_ago(root, rels, seconds):
    """Moves files' mtimes `seconds` into the past (used to prepare sources before a build)."""
    when = time.time_ns() - int(seconds * 1e9)
    for rel in rels:
        os.utime(os.path.join(root, rel), ns=(when, when))


def explain_lines(stderr):
    return [l for l in stderr.splitlines() if l.startswith("ninja explain: ")]


class StateTestCase(NinjaTestCase):
    """NinjaTestCase plus helpers for state files."""

    def ok(self, *args, **kw):
        r = self.ninja(*args, **kw)
        self.assertEqual(r.returncode, 0, r)
        return r

    def merged(self, *args):
        """Runs ninja with stderr merged into stdout, to observe the interleaving."""
        proc = subprocess.run([harness.NINJA] + list(args), cwd=self.dir, env=harness.base_env(),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=60)
        return proc.returncode, proc.stdout.decode("utf-8", "replace")

    def log(self, rel=".ninja_log"):
        return read_log(self.path(rel))[1]

    def log_text(self, rel=".ninja_log"):
        return self.read(rel)

    def deps_bytes(self, rel=".ninja_deps"):
        with open(self.path(rel), "rb") as f:
            return f.read()

    def deps(self, rel=".ninja_deps"):
        return deps_entries(self.path(rel))

    def touch_newer(self, rel):
        touch_newer(self.dir, rel)

    def age(self, *rels, seconds=100):
        set_mtime_ago(self.dir, rels, seconds)

    def bump(self, rel, seconds=2):
        bump_mtime(self.path(rel), seconds)

    def mtime(self, rel):
        return mtime_ns(self.path(rel))

    def assertNoWork(self, *args):
        r = self.ninja(*args)
        self.assertEqual((r.returncode, r.stdout), (0, "ninja: no work to do.\n"), r)
        return r


# ==========================================================================
# .ninja_log
# ==========================================================================

class BuildLogFormatTests(StateTestCase):

    def test_header_and_five_tab_separated_fields(self):
        self.write("build.ninja", "rule r\n  command = echo a > a\nbuild a: r\n")
        r = self.ok()
        self.assertEqual(r.stdout, "[1/1] echo a > a\n")
        text = self.log_text()
        self.assertTrue(text.startswith("# ninja log v7\n"), text)
        m = re.fullmatch(r"# ninja log v7\n(\d+)\t(\d+)\t(\d+)\ta\te3dc3bc232e8843a\n", text)
        self.assertIsNotNone(m, text)
        start, end, mtime = (int(x) for x in m.groups())
        self.assertLessEqual(start, end)
        self.assertLess(end, 60000)  # milliseconds since this run started
        self.assertGreater(mtime, 10 ** 18)  # nanoseconds since the epoch

    def test_hash_vector_echo_b(self):
        self.write("build.ninja", "rule r\n  command = echo b > b\nbuild b: r\n")
        self.ok()
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("b", "def20147dba11621")])

    @unittest.skipUnless(shutil.which("gcc"), "gcc not installed")
    def test_hash_vector_gcc_command(self):
        self.write("build.ninja", "rule cc\n  command = gcc -MD -MF $out.d -c $in -o $out\n"
                                  "build a.o: cc a.c\n")
        self.write("a.c", "int x;\n")
        self.ok()
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("a.o", "a4e9afbeb13d95ec")])

    def test_hash_vectors_of_every_length_class(self):
        # Commands made of the first L bytes of a repeating pattern; each one is
        # an executable found through PATH, so the command string is exactly it.
        pattern = "0123456789abcdef" * 13
        expected = {3: "c0e3ae94005e6f0d", 4: "a558dc93d085ce36", 8: "d76d2b531eee3341",
                    16: "fcc8fa4e2771d2ef", 17: "c4e6c07ce8d909f3", 32: "51defeab0abd9656",
                    33: "5ad6a821e5baa639", 48: "fbf74f083d4e589", 49: "53891744573ecfd7",
                    95: "8fbfb349570845f8", 96: "a6f7394a929a4119", 97: "a2ada58b0ee1f084",
                    112: "4876198d493ad5c5", 144: "e345543a55f08e53", 200: "8279d2e0a99de6f0"}
        manifest = []
        for n in sorted(expected):
            name = pattern[:n]
            self.write("bin/" + name, "#!/bin/sh\ntouch out%d\n" % n)
            os.chmod(self.path("bin/" + name), 0o755)
            manifest.append("rule r%d\n  command = %s\nbuild out%d: r%d\n" % (n, name, n, n))
        self.write("build.ninja", "".join(manifest))
        self.ok(env={"PATH": self.path("bin") + ":" + os.environ.get("PATH", "/usr/bin:/bin")})
        got = {int(e.path[3:]): e.hash for e in self.log()}
        self.assertEqual(got, expected)
        for n, h in expected.items():
            self.assertEqual(hash_hex(pattern[:n]), h)

    def test_hash_has_no_zero_padding(self):
        name = ("0123456789abcdef" * 3)  # 48 bytes: hash 0fbf74f083d4e589
        self.write("bin/" + name, "#!/bin/sh\ntouch out\n")
        os.chmod(self.path("bin/" + name), 0o755)
        self.write("build.ninja", "rule r\n  command = %s\nbuild out: r\n" % name)
        self.ok(env={"PATH": self.path("bin") + ":" + os.environ.get("PATH", "/usr/bin:/bin")})
        self.assertRegex(self.log_text(), r"\tout\tfbf74f083d4e589\n$")

    def test_hash_is_of_fully_evaluated_command(self):
        self.write("build.ninja",
                   "flags = -x\n"
                   "rule cp\n  command = cp $undefined$in $out && echo $flags $extra\n"
                   "build my$ out: cp in$ file\n  extra = more\n")
        self.write("in file", "x")
        self.ok()
        cmd = "cp 'in file' 'my out' && echo -x more"
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("my out", hash_hex(cmd))])

    def test_rspfile_content_is_appended_to_hashed_string(self):
        self.write("build.ninja", "rule r\n  command = cp $out.rsp $out\n  rspfile = $out.rsp\n"
                                  "  rspfile_content = hello $in\nbuild x: r\n")
        self.ok()
        self.assertEqual(self.read("x"), "hello ")
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("x", "345f7fd8400e2589")])
        self.assertEqual(hash_hex("cp x.rsp x;rspfile=hello "), "345f7fd8400e2589")
        self.assertFalse(self.exists("x.rsp"))  # deleted after success

    def test_empty_rspfile_content_is_not_appended(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n  rspfile = $out.rsp\n"
                                  "  rspfile_content = $in\nbuild x: r\n")
        self.ok()
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("x", hash_hex("touch x"))])
        self.assertEqual(hash_hex("touch x"), "7e36d58d2c566a50")

    def test_one_line_per_output_in_edge_order(self):
        self.write("build.ninja", "rule ok\n  command = touch $out d\n  description = OK $out\n"
                                  "build b c | d: ok\n")
        r = self.ok()
        self.assertEqual(r.stdout, "[1/1] OK b c\n")
        entries = self.log()
        self.assertEqual([e.path for e in entries], ["b", "c", "d"])
        self.assertEqual(len({(e.start, e.end, e.mtime, e.hash) for e in entries}), 1)
        self.assertEqual(entries[0].hash, hash_hex("touch b c d"))

    def test_phony_edges_are_not_logged(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\nbuild all: phony a\n")
        self.ok("all")
        self.assertEqual([e.path for e in self.log()], ["a"])

    def test_no_log_when_nothing_ran(self):
        self.write("build.ninja", "build x: phony\n")
        self.write("x", "")
        self.assertNoWork()
        self.assertFalse(self.exists(".ninja_log"))
        self.assertFalse(self.exists(".ninja_deps"))

    def test_no_log_from_dry_run(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        r = self.ok("-n")
        self.assertEqual(r.stdout, "[1/1] touch a\n")
        self.assertEqual(sorted(os.listdir(self.dir)), ["build.ninja"])

    def test_failed_command_is_not_logged(self):
        self.write("build.ninja", "rule fail\n  command = touch $out && false\nbuild a: fail\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertTrue(self.exists("a"))  # outputs of failed commands are not deleted
        self.assertFalse(self.exists(".ninja_log"))

    def test_only_successful_edges_logged_with_keep_going(self):
        self.write("build.ninja", "rule fail\n  command = false\nrule ok\n  command = touch $out\n"
                                  "build a: fail\nbuild b: ok\n")
        r = self.ninja("-k", "0")
        self.assertEqual(r.returncode, 1)
        self.assertEqual([e.path for e in self.log()], ["b"])

    def test_log_appends_and_last_entry_wins(self):
        self.write("build.ninja", "rule r\n  command = echo a > a\nbuild a: r\n")
        self.ok()
        self.write("build.ninja", "rule r\n  command = echo b > a\nbuild a: r\n")
        self.ok()
        self.assertEqual([(e.path, e.hash) for e in self.log()],
                         [("a", "e3dc3bc232e8843a"), ("a", hash_hex("echo b > a"))])
        self.assertNoWork()

    def test_entries_in_completion_order(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\n"
                                  "build c: r b\nbuild b: r a\nbuild a: r src\n")
        self.write("src", "x")
        self.ok("-j1")
        self.assertEqual([e.path for e in self.log()], ["a", "b", "c"])
        entries = self.log()
        self.assertLessEqual(entries[0].end, entries[1].start)
        self.assertLessEqual(entries[1].end, entries[2].start)

    def test_output_path_with_space_and_canonical_form(self):
        self.write("build.ninja", "rule r\n  command = touch '$out'\nbuild ./sub/../my$ file: r\n")
        self.ok()
        self.assertEqual([e.path for e in self.log()], ["my file"])


class BuildDirTests(StateTestCase):

    def test_builddir_holds_log_and_is_created(self):
        self.write("build.ninja", "builddir = out/sub\nrule r\n  command = touch $out\nbuild a: r\n")
        self.ok()
        self.assertTrue(self.exists("out/sub/.ninja_log"))
        self.assertFalse(self.exists(".ninja_log"))
        self.assertEqual(sorted(os.listdir(self.path("out/sub"))), [".ninja_log"])
        self.assertNoWork()

    def test_builddir_created_even_without_work(self):
        self.write("build.ninja", "builddir = bd\nbuild x: phony\n")
        self.write("x", "")
        self.assertNoWork()
        self.assertEqual(os.listdir(self.path("bd")), [])

    def test_builddir_not_created_by_dry_run(self):
        self.write("build.ninja", "builddir = bd\nrule r\n  command = touch $out\nbuild a: r\n")
        r = self.ok("-n")
        self.assertEqual(r.stdout, "[1/1] touch a\n")
        self.assertFalse(self.exists("bd"))

    def test_builddir_holds_deps_log_and_lock(self):
        self.write("build.ninja",
                   "builddir = bd\nrule cc\n"
                   "  command = test -e bd/.ninja_lock && test ! -e .ninja_lock && "
                   "printf '$out: h.h\\n' > $out.d && touch $out\n"
                   "  deps = gcc\n  depfile = $out.d\nbuild a.o: cc\n")
        self.write("h.h", "")
        self.ok()
        self.assertEqual(sorted(os.listdir(self.path("bd"))), [".ninja_deps", ".ninja_log"])
        self.assertEqual(public_files(self.dir), ["a.o", "bd", "build.ninja", "h.h"])

    def test_builddir_from_included_file(self):
        self.write("build.ninja", "include vars.ninja\nrule r\n  command = touch $out\nbuild a: r\n")
        self.write("vars.ninja", "builddir = inc\n")
        self.ok()
        self.assertTrue(self.exists("inc/.ninja_log"))

    def test_builddir_in_subninja_is_ignored(self):
        self.write("build.ninja", "subninja sub.ninja\n")
        self.write("sub.ninja", "builddir = nope\nrule r\n  command = touch $out\nbuild a: r\n")
        self.ok()
        self.assertTrue(self.exists(".ninja_log"))
        self.assertFalse(self.exists("nope"))


class LockFileTests(StateTestCase):

    def test_lock_exists_during_command_and_is_removed_after(self):
        self.write("build.ninja", "rule r\n  command = test -e .ninja_lock && test ! -s .ninja_lock && touch $out\n"
                                  "build a: r\n")
        self.ok()
        self.assertTrue(self.exists("a"))
        self.assertFalse(self.exists(".ninja_lock"))

    def test_lock_removed_after_failure(self):
        self.write("build.ninja", "rule r\n  command = test -e .ninja_lock && false\nbuild a: r\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertIn("FAILED: [code=1] a \n", r.stdout)
        self.assertFalse(self.exists(".ninja_lock"))

    def test_dry_run_creates_no_lock(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.ok("-n")
        self.assertFalse(self.exists(".ninja_lock"))
        self.assertFalse(self.exists("a"))

    def test_logged_mtime_is_the_lock_stamp_of_the_edge_start(self):
        # Each edge start rewrites .ninja_lock; its mtime is what gets logged
        # (not the output's mtime, here set far into the future).
        self.write("build.ninja", "rule r\n  command = stat -c %.9Y .ninja_lock > $out; "
                                  "touch -d @2000000000 $out.f\nbuild a | a.f: r\n")
        self.ok("-j1")
        sec, frac = self.read("a").strip().split(".")
        stamp = int(sec) * 10 ** 9 + int(frac)
        self.assertEqual([(e.path, e.mtime) for e in self.log()], [("a", stamp), ("a.f", stamp)])

    def test_restat_edge_logs_newest_output_mtime(self):
        self.write("build.ninja", "rule rs\n  command = touch -d @2000000000 $out\n  restat = 1\n"
                                  "build b: rs\n")
        self.ok()
        self.assertEqual([(e.path, e.mtime) for e in self.log()], [("b", 2000000000 * 10 ** 9)])


class BuildLogContentTests(StateTestCase):

    def test_handwritten_log_with_matching_hash_means_up_to_date(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild out: r in\n")
        self.write("in", "x")
        self.write("out", "x")
        self.age("in", seconds=50)
        self.write(".ninja_log", "# ninja log v7\n0\t1\t%d\tout\t%s\n"
                   % (self.mtime("out"), hash_hex("cat in > out")))
        self.assertNoWork()

    def test_handwritten_log_with_other_hash_means_command_changed(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild out: r in\n")
        self.write("in", "x")
        self.write("out", "x")
        self.age("in", seconds=50)
        self.write(".ninja_log", "# ninja log v7\n0\t1\t%d\tout\t%s\n"
                   % (self.mtime("out"), hash_hex("cat in  > out")))
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line changed for out\n")

    def test_unparseable_hash_counts_as_changed(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.write("a", "")
        self.write(".ninja_log", "# ninja log v7\n0\t1\t%d\ta\tzzz\n" % self.mtime("a"))
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line changed for a\n")

    def test_lines_with_too_few_fields_are_ignored(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.write("a", "")
        self.write(".ninja_log", "# ninja log v7\nfoo\tbar\n0\t1\t2\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line not found in log for a\n")
        self.assertEqual(self.log_text().splitlines()[:3], ["# ninja log v7", "foo\tbar", "0\t1\t2"])
        self.assertEqual([e.path for e in read_log_lenient(self.path(".ninja_log"))], ["a"])

    def test_empty_log_file_is_silently_restarted(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.write("a", "")
        self.write(".ninja_log", "")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line not found in log for a\n")
        self.assertEqual([e.path for e in self.log()], ["a"])

    def test_header_only_log(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.write("a", "")
        self.write(".ninja_log", "# ninja log v7\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line not found in log for a\n")

    def test_newer_log_version_is_discarded(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.write("a", "")
        self.write(".ninja_log", "# ninja log v8\n0\t9\t%d\ta\t%s\n" % (self.mtime("a"), hash_hex("touch a")))
        r = self.ok()
        self.assertEqual(r.stderr, "ninja: warning: build log version is too new; starting over\n")
        self.assertEqual(r.stdout, "[1/1] touch a\n")
        self.assertEqual(self.log_text().splitlines()[0], "# ninja log v7")
        self.assertEqual(len(self.log()), 1)

    def test_log_without_header_is_treated_as_too_old(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.write(".ninja_log", "garbage\n0\t9\t1\ta\t%s\n" % hash_hex("touch a"))
        r = self.ok()
        self.assertEqual(r.stderr, "ninja: warning: build log version is too old; starting over\n")
        self.assertEqual(r.stdout, "[1/1] touch a\n")
        self.assertEqual([e.path for e in self.log()], ["a"])

    def test_recompaction_on_load_drops_duplicates_and_dead_entries(self):
        self.write("build.ninja", "rule r\n  command = echo a > a\nbuild a: r\nbuild b: r\n")
        self.ok("a")
        entry = self.log_text().splitlines()[1]
        lines = [entry.replace("\ta\t", "\tgone%d\t" % i) for i in range(5)] + [entry] * 200
        self.write(".ninja_log", "# ninja log v7\n" + "\n".join(lines) + "\n")
        self.write("gone1", "")  # dead entries survive only while the file exists
        self.assertNoWork("a")
        text = self.log_text().splitlines()
        self.assertEqual(text[0], "# ninja log v7")
        self.assertEqual(sorted(text[1:]), sorted([entry, entry.replace("\ta\t", "\tgone1\t")]))
        self.assertFalse(self.exists(".ninja_log.recompact"))

    def test_recompaction_threshold_is_more_than_100_entries(self):
        self.write("build.ninja", "rule r\n  command = echo a > a\nbuild a: r\n")
        self.ok()
        entry = self.log_text().splitlines()[1]
        self.write(".ninja_log", "# ninja log v7\n" + (entry + "\n") * 100)
        self.assertNoWork()
        self.assertEqual(len(self.log()), 100)
        self.write(".ninja_log", "# ninja log v7\n" + (entry + "\n") * 101)
        self.assertNoWork()
        self.assertEqual(len(self.log()), 1)

    def test_recompaction_threshold_needs_three_times_unique(self):
        self.write("build.ninja", "rule r\n  command = echo a > a\nbuild a: r\n")
        self.ok()
        entry = self.log_text().splitlines()[1]
        names = ["x%d" % i for i in range(34)]
        for n in names:
            self.write(n, "")
        lines = [entry.replace("\ta\t", "\t%s\t" % n) for n in names] + [entry] * 70
        self.write(".ninja_log", "# ninja log v7\n" + "\n".join(lines) + "\n")
        self.assertNoWork()  # 104 entries, 35 unique: 104 <= 3 * 35
        self.assertEqual(len(self.log()), 104)

    def test_tool_recompact_always_compacts(self):
        self.write("build.ninja", "rule r\n  command = echo a > a\nbuild a: r\n")
        self.ok()
        entry = self.log_text().splitlines()[1]
        self.write(".ninja_log", "# ninja log v7\n" + (entry + "\n") * 3)
        r = self.ok("-t", "recompact")
        self.assertEqual((r.stdout, r.stderr), ("", ""))
        self.assertEqual(self.log_text(), "# ninja log v7\n" + entry + "\n")


def read_log_lenient(path):
    """Like read_log but skips malformed lines (as ninja does)."""
    out = []
    with open(path) as f:
        for line in f.read().splitlines()[1:]:
            fields = line.split("\t")
            if len(fields) == 5:
                out.append(LogEntry(int(fields[0]), int(fields[1]), int(fields[2]), fields[3], fields[4]))
    return out


# ==========================================================================
# Dirty-state decisions that depend on the build log
# ==========================================================================

class LogDirtyTests(StateTestCase):

    def test_command_change_rebuilds(self):
        self.write("build.ninja", "rule r\n  command = echo 1 > $out\nbuild a: r\n")
        self.ok()
        self.assertNoWork()
        self.write("build.ninja", "rule r\n  command = echo 2 > $out\nbuild a: r\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line changed for a\n")
        self.assertEqual(r.stdout, "[1/1] echo 2 > a\n")
        self.assertEqual(self.read("a"), "2\n")
        self.assertNoWork()

    def test_description_change_does_not_rebuild(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n  description = ONE $out\nbuild a: r\n")
        self.assertEqual(self.ok().stdout, "[1/1] ONE a\n")
        self.write("build.ninja", "rule r\n  command = touch $out\n  description = TWO $out\nbuild a: r\n")
        self.assertNoWork()

    def test_pool_or_other_binding_change_does_not_rebuild(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.ok()
        self.write("build.ninja", "pool p\n  depth = 1\nrule r\n  command = touch $out\n  pool = p\nbuild a: r\n")
        self.assertNoWork()

    def test_rspfile_content_change_rebuilds(self):
        self.write("build.ninja", "rule r\n  command = cp $out.rsp $out\n  rspfile = $out.rsp\n"
                                  "  rspfile_content = one\nbuild x: r\n")
        self.ok()
        self.write("build.ninja", "rule r\n  command = cp $out.rsp $out\n  rspfile = $out.rsp\n"
                                  "  rspfile_content = two\nbuild x: r\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line changed for x\n")
        self.assertEqual(self.read("x"), "two")

    def test_deleted_log_rebuilds_everything(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild a: r src\nbuild b: r a\n")
        self.write("src", "s")
        self.ok()
        os.unlink(self.path(".ninja_log"))
        rc, out = self.merged("-d", "explain", "-j1")
        self.assertEqual(rc, 0)
        self.assertEqual(out, "ninja explain: command line not found in log for a\n[1/2] cat src > a\n"
                              "ninja explain: a is dirty\n[2/2] cat a > b\n")

    def test_touched_input_rebuilds_then_no_work(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild a: r src\nbuild b: r other\n")
        self.write("src", "s")
        self.write("other", "o")
        self.ok()
        before = self.mtime("a")
        self.touch_newer("src")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stdout, "[1/1] cat src > a\n")
        self.assertEqual(r.stderr, "ninja explain: output a older than most recent input src (%d vs %d)\n"
                         % (before, self.mtime("src")))
        self.assertNoWork()

    def test_command_that_writes_output_then_fails_is_rerun(self):
        # The output ends up as new as its input, but the log still holds the
        # mtime of the last successful run: "recorded mtime ... older".
        self.write("build.ninja", "rule r\n  command = cat $in > $out && touch -r $in $out && grep -q ok $in\n"
                                  "build out: r in\n")
        self.write("in", "ok\n")
        self.ok()
        logged = self.log()[0].mtime
        self.write("in", "bad\n")
        self.bump("in")
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(self.read("out"), "bad\n")
        self.assertEqual(self.mtime("out"), self.mtime("in"))
        self.write("in", "ok\n")  # same content length, restore the bumped mtime
        os.utime(self.path("in"), ns=(self.mtime("out"), self.mtime("out")))
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: recorded mtime of out older than most recent input in (%d vs %d)\n"
                         % (logged, self.mtime("out")))
        self.assertEqual(r.stdout, "[1/1] cat in > out && touch -r in out && grep -q ok in\n")

    def test_output_older_than_input_checked_before_log(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild out: r in\n")
        self.write("in", "x")
        self.ok()
        out_m = self.mtime("out")
        self.write("build.ninja", "rule r\n  command = cat $in >$out\nbuild out: r in\n")
        self.bump("in")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output out older than most recent input in (%d vs %d)\n"
                         % (out_m, self.mtime("in")))

    def test_missing_output_reported_before_command_change(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild out: r\n")
        self.ok()
        os.unlink(self.path("out"))
        self.write("build.ninja", "rule r\n  command = touch  $out\nbuild out: r\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output out doesn't exist\n")


def murmur64a(data, seed=0xDECAFBADDECAFBAD):
    """MurmurHash64A as ninja 1.9-1.12 hashed commands in log v5/v6."""
    m, r, mask = 0xc6a4a7935bd1e995, 47, (1 << 64) - 1
    h = (seed ^ (len(data) * m)) & mask
    blocks = len(data) // 8
    for i in range(blocks):
        k = int.from_bytes(data[8 * i:8 * i + 8], "little")
        k = (k * m) & mask
        k ^= k >> r
        k = (k * m) & mask
        h ^= k
        h = (h * m) & mask
    tail = data[8 * blocks:]
    if tail:
        for i in reversed(range(len(tail))):
            h ^= tail[i] << (8 * i)
        h = (h * m) & mask
    h ^= h >> r
    h = (h * m) & mask
    h ^= h >> r
    return h


class OldLogTakeoverTests(StateTestCase):
    """Beyond ninja: logs of versions 5 and 6 (MurmurHash64A, ninja 1.9-1.12) are
    taken over. ninja 1.13.2 deletes them ("build log version is too old;
    starting over") and rebuilds everything; ronin checks each entry against
    its old hash, rebuilds only what is out of date, and rewrites the log as
    version 7 so that ninja 1.13 accepts it afterwards."""

    MANIFEST = "rule r\n  command = touch $out\nbuild a: r\n"

    def _old_log(self, version, command="touch a"):
        self.write("build.ninja", self.MANIFEST)
        self.write("a", "")
        self.write(".ninja_log", "# ninja log v%d\n0\t9\t%d\ta\t%x\n"
                   % (version, self.mtime("a"), murmur64a(command.encode())))

    def test_v6_log_with_matching_hash_is_taken_over(self):
        self._old_log(6)
        r = self.ok("-d", "explain")
        self.assertEqual((r.stdout, r.stderr), ("ninja: no work to do.\n", ""))
        # Rewritten as v7 with the current hash, so ninja 1.13 agrees.
        self.assertEqual(self.log_text().splitlines()[0], "# ninja log v7")
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("a", hash_hex("touch a"))])
        self.assertNoWork()

    def test_v5_log_with_changed_command_rebuilds(self):
        self._old_log(5, command="touch a --old")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: command line changed for a\n")
        self.assertEqual(r.stdout, "[1/1] touch a\n")
        self.assertEqual(self.log_text().splitlines()[0], "# ninja log v7")
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("a", hash_hex("touch a"))])
        self.assertNoWork()

    def test_dry_run_leaves_old_log_alone(self):
        self._old_log(6)
        before = self.log_text()
        r = self.ok("-n")
        self.assertEqual((r.stdout, r.stderr), ("ninja: no work to do.\n", ""))
        self.assertEqual(self.log_text(), before)

    def test_unknown_versions_still_start_over(self):
        self._old_log(4)
        r = self.ok()
        self.assertEqual(r.stderr, "ninja: warning: build log version is too old; starting over\n")
        self.assertEqual(r.stdout, "[1/1] touch a\n")

    @unittest.skipUnless(os.access(OLD_NINJA, os.X_OK), "ninja 1.11.1 not installed at /usr/bin/ninja")
    def test_build_dir_of_ninja_1_11_is_taken_over(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild a: r src\nbuild b: r a\n"
                                  "build c: r src2\n")
        self.write("src", "s")
        self.write("src2", "t")
        old = harness.run(OLD_NINJA, [], self.dir)
        self.assertEqual(old.returncode, 0, old)
        self.assertTrue(self.log_text().startswith("# ninja log v5\n"))
        touch_newer(self.dir, "src2")
        r = self.ok("-j1")
        self.assertEqual(r.stdout, "[1/1] cat src2 > c\n")
        self.assertEqual(r.stderr, "")
        # Later lines for a path win, as when any log is appended to.
        self.assertEqual(sorted({e.path: e.hash for e in self.log()}.items()),
                         [("a", hash_hex("cat src > a")), ("b", hash_hex("cat a > b")),
                          ("c", hash_hex("cat src2 > c"))])
        self.assertTrue(self.log_text().startswith("# ninja log v7\n"))
        self.assertNoWork()

    @unittest.skipUnless(os.access(OLD_NINJA, os.X_OK), "ninja 1.11.1 not installed at /usr/bin/ninja")
    @unittest.skipUnless(harness.REF_NINJA, harness.SKIP_NO_REF)
    def test_reference_accepts_the_upgraded_log(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild a: r src\nbuild b: r a\n")
        self.write("src", "s")
        self.assertEqual(harness.run(OLD_NINJA, [], self.dir).returncode, 0)
        self.assertNoWork()
        ref = harness.run(harness.REF_NINJA, [], self.dir)
        self.assertEqual((ref.returncode, ref.stdout, ref.stderr), (0, "ninja: no work to do.\n", ""))

    @unittest.skipUnless(harness.REF_NINJA, harness.SKIP_NO_REF)
    def test_reference_discards_old_logs(self):
        # The contrast this feature exists for: 1.13.2 starts over.
        self._old_log(6)
        ref = harness.run(harness.REF_NINJA, [], self.dir)
        self.assertEqual(ref.stderr, "ninja: warning: build log version is too old; starting over\n")
        self.assertEqual(ref.stdout, "[1/1] touch a\n")


# ==========================================================================
# .ninja_deps
# ==========================================================================

CC_PRINTF = ("rule cc\n"
             "  command = printf '%s: %s h1.h sub/h2.h\\n' $out $in > $out.d && cat $in > $out\n"
             "  depfile = $out.d\n  deps = gcc\n")


class DepsLogFormatTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("a.c", "a\n")
        self.write("b.c", "b\n")
        self.write("h1.h", "h1\n")
        self.write("sub/h2.h", "h2\n")

    def test_byte_layout_of_single_entry(self):
        self.write("build.ninja", CC_PRINTF + "build a.o: cc a.c\n")
        self.ok()
        data = self.deps_bytes()
        expected = (b"# ninjadeps\n" + struct.pack("<i", 4)
                    + b"\x08\x00\x00\x00a.o\x00\xff\xff\xff\xff"
                    + b"\x08\x00\x00\x00a.c\x00\xfe\xff\xff\xff"
                    + b"\x08\x00\x00\x00h1.h\xfd\xff\xff\xff"
                    + b"\x0c\x00\x00\x00sub/h2.h\xfc\xff\xff\xff"
                    + b"\x18\x00\x00\x80\x00\x00\x00\x00" + struct.pack("<q", self.mtime("a.o"))
                    + b"\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00")
        self.assertEqual(data, expected)

    def test_second_entry_reuses_ids(self):
        self.write("build.ninja", CC_PRINTF + "build a.o: cc a.c\nbuild b.o: cc b.c\n")
        self.ok("-j1")
        version, records = parse_deps(self.deps_bytes())
        self.assertEqual(version, 4)
        self.assertEqual(records, [
            ("path", "a.o", 0xFFFFFFFF, 1), ("path", "a.c", 0xFFFFFFFE, 1),
            ("path", "h1.h", 0xFFFFFFFD, 0), ("path", "sub/h2.h", 0xFFFFFFFC, 0),
            ("deps", 0, self.mtime("a.o"), [1, 2, 3]),
            ("path", "b.o", 0xFFFFFFFB, 1), ("path", "b.c", 0xFFFFFFFA, 1),
            ("deps", 4, self.mtime("b.o"), [5, 2, 3]),
        ])

    def test_path_padding_to_four_bytes(self):
        self.write("build.ninja", "rule cc\n  command = printf '$out: abcde ab abcdefgh\\n' > $out.d"
                                  " && touch $out\n  depfile = $out.d\n  deps = gcc\nbuild o: cc\n")
        self.ok()
        data = self.deps_bytes()
        self.assertEqual(data[16:], b"\x08\x00\x00\x00o\x00\x00\x00\xff\xff\xff\xff"
                                    b"\x0c\x00\x00\x00abcde\x00\x00\x00\xfe\xff\xff\xff"
                                    b"\x08\x00\x00\x00ab\x00\x00\xfd\xff\xff\xff"
                                    b"\x0c\x00\x00\x00abcdefgh\xfc\xff\xff\xff"
                                    + deps_record(0, self.mtime("o"), [1, 2, 3]))

    def test_depfile_deleted_after_ingestion(self):
        self.write("build.ninja", CC_PRINTF + "build a.o: cc a.c\n")
        self.ok()
        self.assertFalse(self.exists("a.o.d"))
        self.assertEqual(public_files(self.dir),
                         [".ninja_deps", ".ninja_log", "a.c", "a.o", "b.c", "build.ninja", "h1.h", "sub"])

    def test_keepdepfile(self):
        self.write("build.ninja", CC_PRINTF + "build a.o: cc a.c\n")
        self.ok("-d", "keepdepfile")
        self.assertEqual(self.read("a.o.d"), "a.o: a.c h1.h sub/h2.h\n")
        self.assertEqual(self.deps()["a.o"][1], ["a.c", "h1.h", "sub/h2.h"])

    def test_deps_mtime_is_the_output_mtime(self):
        self.write("build.ninja", CC_PRINTF + "build a.o: cc a.c\n")
        self.ok()
        self.assertEqual(self.deps()["a.o"][0], self.mtime("a.o"))

    def test_each_output_gets_a_record_with_its_own_mtime(self):
        self.write("build.ninja", "rule cc\n  command = printf 'x y: h1.h a.c\\n' > dep.d && touch x y z"
                                  " && touch -d @1900000000 y && touch -d @1800000000 x\n"
                                  "  depfile = dep.d\n  deps = gcc\nbuild x y | z: cc a.c\n")
        self.ok()
        d = self.deps()
        self.assertEqual(d["x"], (1800000000 * 10 ** 9, ["h1.h", "a.c"]))
        self.assertEqual(d["y"], (1900000000 * 10 ** 9, ["h1.h", "a.c"]))
        self.assertEqual(d["z"], (self.mtime("z"), ["h1.h", "a.c"]))
        _, records = parse_deps(self.deps_bytes())
        self.assertEqual([r[1] for r in records if r[0] == "path"], ["x", "h1.h", "a.c", "y", "z"])
        self.assertNoWork()

    def test_depfile_paths_are_canonicalized(self):
        self.write("build.ninja", "rule cc\n  command = printf '$out: ./sub/../h1.h sub//h2.h\\n' > $out.d"
                                  " && touch $out\n  depfile = $out.d\n  deps = gcc\nbuild ./o: cc\n")
        self.ok()
        self.assertEqual(self.deps(), {"o": (self.mtime("o"), ["h1.h", "sub/h2.h"])})

    def test_depfile_directory_is_created(self):
        self.write("build.ninja", "rule cc\n  command = printf '$out: h1.h\\n' > $depfile && touch $out\n"
                                  "  deps = gcc\n  depfile = deps/sub/$out.d\nbuild c.o: cc\n")
        self.ok()
        self.assertTrue(os.path.isdir(self.path("deps/sub")))
        self.assertEqual(os.listdir(self.path("deps/sub")), [])
        self.assertEqual(self.deps()["c.o"][1], ["h1.h"])

    def test_unchanged_deps_are_not_rewritten(self):
        # Command change reruns the edge; the output is left untouched, so the
        # output id, mtime and deps are identical and nothing is appended.
        self.write("build.ninja", "rule cc\n  command = printf '$out: h1.h\\n' > $out.d && "
                                  "{ test -e $out || touch $out; }\n  depfile = $out.d\n  deps = gcc\n"
                                  "build o: cc\n")
        self.ok()
        before = self.deps_bytes()
        self.write("build.ninja", "rule cc\n  command = printf '$out: h1.h\\n' > $out.d && "
                                  "{ test -e $out || touch  $out; }\n  depfile = $out.d\n  deps = gcc\n"
                                  "build o: cc\n")
        r = self.ok()
        self.assertEqual(r.stdout.count("\n"), 1)
        self.assertEqual(self.deps_bytes(), before)

    def test_changed_deps_append_a_record_that_wins(self):
        self.write("build.ninja", "rule cc\n  command = printf '$out: h1.h\\n' > $out.d && touch $out\n"
                                  "  depfile = $out.d\n  deps = gcc\nbuild o: cc\n")
        self.ok()
        self.write("build.ninja", "rule cc\n  command = printf '$out: sub/h2.h\\n' > $out.d && touch $out\n"
                                  "  depfile = $out.d\n  deps = gcc\nbuild o: cc\n")
        self.ok()
        _, records = parse_deps(self.deps_bytes())
        self.assertEqual([r[0] for r in records], ["path", "path", "deps", "path", "deps"])
        self.assertEqual(records[2][3], [1])
        self.assertEqual(records[4][3], [2])
        self.assertEqual(self.deps(), {"o": (self.mtime("o"), ["sub/h2.h"])})

    def test_missing_depfile_records_no_deps(self):
        self.write("build.ninja", "rule cc\n  command = touch $out\n  deps = gcc\n  depfile = $out.d\n"
                                  "build e.o: cc\n")
        self.ok()
        self.assertEqual(self.deps(), {"e.o": (self.mtime("e.o"), [])})
        r = self.ok("-t", "deps")
        self.assertEqual(r.stdout, "e.o: #deps 0, deps mtime %d (VALID)\n\n" % self.mtime("e.o"))
        self.assertNoWork()

    def test_deps_gcc_without_depfile_fails(self):
        self.write("build.ninja", "rule cc\n  command = touch $out\n  deps = gcc\nbuild a.o: cc\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "[1/1] touch a.o\nFAILED: [code=1] a.o \ntouch a.o\n"
                                   "edge with deps=gcc but no depfile makes no sense\n"
                                   "ninja: build stopped: subcommand failed.\n")
        self.assertFalse(self.exists(".ninja_deps"))
        self.assertFalse(self.exists(".ninja_log"))

    def test_unknown_deps_type_is_fatal_after_the_command_ran(self):
        self.write("build.ninja", "rule cc\n  command = touch $out\n  deps = foo\nbuild b.o: cc\n")
        r = self.ninja()
        self.assertEqual((r.returncode, r.stdout, r.stderr), (1, "", "ninja: fatal: unknown deps type 'foo'\n"))
        self.assertTrue(self.exists("b.o"))
        self.assertFalse(self.exists(".ninja_log"))


class DepsLogBehaviourTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", "rule cc\n  command = printf '%s: %s h1.h\\n' $out $in > $out.d && cat $in > $out\n"
                                  "  depfile = $out.d\n  deps = gcc\n"
                                  "build a.o: cc a.c\nbuild b.o: cc b.c\n")
        self.write("a.c", "a\n")
        self.write("b.c", "b\n")
        self.write("h1.h", "h\n")

    def test_touching_header_known_only_from_deps_log_rebuilds(self):
        self.ok("-j1")
        a, b = self.mtime("a.o"), self.mtime("b.o")
        self.assertFalse(self.exists("a.o.d"))
        self.touch_newer("h1.h")
        h = self.mtime("h1.h")
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stderr,
                         "ninja explain: output a.o older than most recent input h1.h (%d vs %d)\n"
                         "ninja explain: output b.o older than most recent input h1.h (%d vs %d)\n" % (a, h, b, h))
        self.assertEqual(r.stdout.count("\n"), 2)
        self.assertNoWork()

    def test_deleted_header_rebuilds_without_error(self):
        self.ok("-j1")
        os.unlink(self.path("h1.h"))
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: h1.h is dirty\nninja explain: h1.h is dirty\n")
        self.assertEqual(r.stdout, "[1/2] printf '%s: %s h1.h\\n' a.o a.c > a.o.d && cat a.c > a.o\n"
                                   "[2/2] printf '%s: %s h1.h\\n' b.o b.c > b.o.d && cat b.c > b.o\n")

    def test_header_dropped_from_deps_stops_rebuilding(self):
        self.ok("-j1")
        os.unlink(self.path("h1.h"))
        self.write("build.ninja", "rule cc\n  command = printf '%s: %s\\n' $out $in > $out.d && cat $in > $out\n"
                                  "  depfile = $out.d\n  deps = gcc\n"
                                  "build a.o: cc a.c\nbuild b.o: cc b.c\n")
        self.ok()
        self.assertNoWork()

    def test_deleted_deps_log_means_deps_missing(self):
        self.ok("-j1")
        os.unlink(self.path(".ninja_deps"))
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: deps for 'a.o' are missing\n"
                                   "ninja explain: deps for 'b.o' are missing\n")

    def test_output_newer_than_deps_record_is_stale(self):
        self.ok("-j1")
        recorded = self.deps()["a.o"][0]
        self.bump("a.o")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: stored deps info out of date for 'a.o' (%d vs %d)\n"
                         % (recorded, recorded + 2 * 10 ** 9))
        self.assertEqual(r.stdout.count("\n"), 1)

    def test_tool_deps_output(self):
        self.ok("-j1")
        r = self.ok("-t", "deps")
        self.assertEqual(r.stdout,
                         "a.o: #deps 2, deps mtime %d (VALID)\n    a.c\n    h1.h\n\n"
                         "b.o: #deps 2, deps mtime %d (VALID)\n    b.c\n    h1.h\n\n"
                         % (self.mtime("a.o"), self.mtime("b.o")))
        self.assertEqual(r.stderr, "")

    def test_tool_deps_for_named_targets_and_stale(self):
        self.write("build.ninja", self.read("build.ninja") + "rule cat\n  command = cat $in > $out\n"
                                                             "build plain: cat a.c\n")
        self.ok("-j1")
        m = self.mtime("a.o")
        os.unlink(self.path("a.o"))
        r = self.ok("-t", "deps", "plain", "a.o")
        self.assertEqual(r.stdout, "plain: deps not found\n"
                                   "a.o: #deps 2, deps mtime %d (STALE)\n    a.c\n    h1.h\n\n" % m)

    def test_tool_deps_unknown_target(self):
        self.ok("-j1")
        r = self.ninja("-t", "deps", "c.o")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "ninja: error: unknown target 'c.o', did you mean 'a.o'?\n"))

    def test_tool_deps_lists_only_live_entries(self):
        self.ok("-j1")
        self.write("build.ninja", "rule cat\n  command = cat $in > $out\nbuild a.o: cat a.c\n")
        r = self.ok("-t", "deps")
        self.assertEqual(r.stdout, "")

    def test_tool_recompact_drops_entries_without_deps_edge(self):
        self.ok("-j1")
        self.write("build.ninja", "rule cc\n  command = printf '%s: %s h1.h\\n' $out $in > $out.d && cat $in > $out\n"
                                  "  depfile = $out.d\n  deps = gcc\nrule cat\n  command = cat $in > $out\n"
                                  "build a.o: cat a.c\nbuild b.o: cc b.c\n")
        self.ok("-t", "recompact")
        version, records = parse_deps(self.deps_bytes())
        self.assertEqual(version, 4)
        self.assertEqual(records, [("path", "b.o", 0xFFFFFFFF, 1), ("path", "b.c", 0xFFFFFFFE, 1),
                                   ("path", "h1.h", 0xFFFFFFFD, 0), ("deps", 0, self.mtime("b.o"), [1, 2])])
        self.assertFalse(self.exists(".ninja_deps.recompact"))

    def test_recompaction_on_load_above_1000_records(self):
        self.ok("-j1")
        m = self.mtime("a.o")
        data = (DEPS_HEADER + struct.pack("<i", 4) + path_record("a.o", 0) + path_record("a.c", 1)
                + path_record("h1.h", 2) + deps_record(0, m, [1, 2]) * 1001)
        self.write(".ninja_deps", data)
        self.write(".ninja_log", self.read(".ninja_log").replace("\tb.o\t", "\tzz\t"))
        r = self.ok("-d", "explain", "a.o")
        self.assertEqual(r.stdout, "ninja: no work to do.\n")
        self.assertEqual(self.deps_bytes(), DEPS_HEADER + struct.pack("<i", 4) + path_record("a.o", 0)
                         + path_record("a.c", 1) + path_record("h1.h", 2) + deps_record(0, m, [1, 2]))

    def test_handwritten_deps_log_is_honoured(self):
        self.write("build.ninja", "rule cc\n  command = cat $in > $out\n  depfile = $out.d\n  deps = gcc\n"
                                  "build a.o: cc a.c\n")
        self.write("a.o", "a\n")
        self.age("a.c", "h1.h", seconds=50)
        m = self.mtime("a.o")
        self.write(".ninja_log", "# ninja log v7\n0\t1\t%d\ta.o\t%s\n" % (m, hash_hex("cat a.c > a.o")))
        self.write(".ninja_deps", DEPS_HEADER + struct.pack("<i", 4) + path_record("a.o", 0)
                   + path_record("h1.h", 1) + deps_record(0, m, [1]))
        self.assertNoWork()
        self.bump("h1.h", 100)
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output a.o older than most recent input h1.h (%d vs %d)\n"
                         % (m, self.mtime("h1.h")))


class DepsLogRecoveryTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", "rule cc\n  command = printf '%s: %s h1.h\\n' $out $in > $out.d && cat $in > $out\n"
                                  "  depfile = $out.d\n  deps = gcc\n"
                                  "build a.o: cc a.c\nbuild b.o: cc b.c\n")
        self.write("a.c", "a\n")
        self.write("b.c", "b\n")
        self.write("h1.h", "h\n")
        self.ok("-j1")
        self.good = self.deps_bytes()  # 124 bytes: 5 path records, 2 deps records

    def test_truncated_deps_record_recovers(self):
        self.assertEqual(len(self.good), 124)
        self.write(".ninja_deps", self.good[:-3])
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja: warning: premature end of file; recovering\n"
                                   "ninja explain: deps for 'b.o' are missing\n")
        self.assertEqual(r.stdout, "[1/1] printf '%s: %s h1.h\\n' b.o b.c > b.o.d && cat b.c > b.o\n")
        self.assertEqual(self.deps_bytes()[:100], self.good[:100])
        self.assertEqual(self.deps_bytes()[100:], deps_record(3, self.mtime("b.o"), [4, 2]))
        self.assertNoWork()

    def test_truncation_point_is_end_of_last_good_record(self):
        self.write(".ninja_deps", self.good[:-3])
        r = self.ok("-t", "deps")
        self.assertEqual(r.stderr, "ninja: warning: premature end of file; recovering\n")
        self.assertEqual(r.stdout, "a.o: #deps 2, deps mtime %d (VALID)\n    a.c\n    h1.h\n\n"
                                   "b.o: deps not found\n" % self.mtime("a.o"))
        self.assertEqual(self.deps_bytes(), self.good[:100])
        r = self.ok("-t", "deps")
        self.assertEqual(r.stderr, "")

    def test_truncated_path_record_recovers(self):
        # Cut inside the path record of b.o (which starts at byte 76).
        self.write(".ninja_deps", self.good[:80])
        r = self.ok("-j1")
        self.assertEqual(r.stderr, "ninja: warning: premature end of file; recovering\n")
        self.assertEqual(r.stdout, "[1/1] printf '%s: %s h1.h\\n' b.o b.c > b.o.d && cat b.c > b.o\n")
        self.assertEqual(self.deps_bytes()[:76], self.good[:76])
        self.assertEqual(sorted(self.deps()), ["a.o", "b.o"])
        self.assertNoWork()

    def test_oversized_record_recovers(self):
        self.write(".ninja_deps", self.good + struct.pack("<I", 0x80000000 | 1000000))
        r = self.ok()
        self.assertEqual(r.stderr, "ninja: warning: premature end of file; recovering\n")
        self.assertEqual(r.stdout, "ninja: no work to do.\n")
        self.assertEqual(self.deps_bytes(), self.good)

    def test_corrupt_checksum_warns_and_build_continues(self):
        bad = bytearray(self.good)
        i = bad.find(b"b.o\0")
        bad[i + 4] = 0  # checksum of b.o's path record
        self.write(".ninja_deps", bytes(bad))
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stderr, "ninja: warning: premature end of file; recovering\n"
                                   "ninja explain: deps for 'b.o' are missing\n")
        self.assertEqual(r.stdout, "[1/1] printf '%s: %s h1.h\\n' b.o b.c > b.o.d && cat b.c > b.o\n")
        self.assertTrue(self.exists("b.o"))

    def test_bad_signature_starts_over(self):
        self.write(".ninja_deps", b"# ninjadepz\n" + struct.pack("<i", 4))
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stderr, "ninja: warning: bad deps log signature or version; starting over\n"
                                   "ninja explain: deps for 'a.o' are missing\n"
                                   "ninja explain: deps for 'b.o' are missing\n")
        self.assertEqual(self.deps_bytes()[:16], DEPS_HEADER + b"\x04\x00\x00\x00")
        self.assertEqual(sorted(self.deps()), ["a.o", "b.o"])

    def test_bad_signature_file_is_deleted_even_by_dry_run(self):
        self.write(".ninja_deps", b"# ninjadepz\n" + struct.pack("<i", 4))
        r = self.ok("-n")
        self.assertEqual(r.stderr, "ninja: warning: bad deps log signature or version; starting over\n")
        self.assertFalse(self.exists(".ninja_deps"))

    def test_bad_signature_file_is_deleted_without_work(self):
        self.write(".ninja_deps", b"garbage")
        r = self.ok("a.c")
        self.assertEqual(r.stderr, "ninja: warning: bad deps log signature or version; starting over\n")
        self.assertEqual(r.stdout, "ninja: no work to do.\n")
        self.assertFalse(self.exists(".ninja_deps"))

    def test_empty_deps_file_is_a_bad_signature(self):
        self.write(".ninja_deps", b"")
        r = self.ok("-j1")
        self.assertEqual(r.stderr, "ninja: warning: bad deps log signature or version; starting over\n")
        self.assertEqual(r.stdout.count("\n"), 2)

    def test_version_3_is_a_bad_version(self):
        self.write(".ninja_deps", DEPS_HEADER + struct.pack("<i", 3) + self.good[16:])
        r = self.ok("-j1")
        self.assertEqual(r.stderr, "ninja: warning: bad deps log signature or version; starting over\n")

    def test_version_1_says_version_change(self):
        self.write(".ninja_deps", DEPS_HEADER + struct.pack("<i", 1))
        r = self.ok("-j1")
        self.assertEqual(r.stderr, "ninja: warning: deps log version change; rebuilding\n")
        self.assertEqual(r.stdout.count("\n"), 2)


class MsvcDepsTests(StateTestCase):

    def test_show_includes_stripped_and_recorded(self):
        self.write("build.ninja",
                   "rule cl\n  command = printf 'a.c\\nNote: including file: h1.h\\nwarning: x\\n"
                   "Note: including file:    sub/h2.h\\nNote: including file: C:\\\\Program Files\\\\foo.h\\n"
                   "more output\\n' && cat $in > $out\n  deps = msvc\nbuild a.o: cl a.c\n")
        self.write("a.c", "a")
        self.write("h1.h", "")
        self.write("sub/h2.h", "")
        r = self.ok()
        self.assertEqual(r.stdout.split("\n", 1)[1], "warning: x\nmore output\n")
        self.assertEqual(self.deps(), {"a.o": (self.mtime("a.o"), ["h1.h", "sub/h2.h"])})
        self.assertNoWork()
        before = self.mtime("a.o")
        self.bump("sub/h2.h")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output a.o older than most recent input sub/h2.h (%d vs %d)\n"
                         % (before, self.mtime("sub/h2.h")))
        self.assertEqual(r.stdout.count("\n"), 3)

    def test_source_echo_removed_only_before_first_include(self):
        self.write("build.ninja", "rule cl\n  command = printf 'b.cpp\\nNote: including file: h.h\\nb.cpp\\n"
                                  "x.c\\n' && touch $out\n  deps = msvc\nbuild b.o: cl\n")
        self.write("h.h", "")
        r = self.ok()
        self.assertEqual(r.stdout, "[1/1] printf 'b.cpp\\nNote: including file: h.h\\nb.cpp\\nx.c\\n' && touch b.o\n"
                                   "b.cpp\nx.c\n")
        self.assertEqual(self.deps()["b.o"][1], ["h.h"])

    def test_custom_prefix(self):
        self.write("build.ninja", "rule cl\n  command = printf 'INC: h1.h\\nNote: including file: h2.h\\n'"
                                  " && touch $out\n  deps = msvc\n  msvc_deps_prefix = INC:\nbuild b.o: cl\n")
        r = self.ok()
        self.assertEqual(r.stdout.split("\n", 1)[1], "Note: including file: h2.h\n")
        self.assertEqual(self.deps()["b.o"][1], ["h1.h"])

    def test_top_level_prefix_applies_to_every_edge(self):
        self.write("build.ninja", "msvc_deps_prefix = INC:\nrule cl\n  command = printf 'INC: h.h\\n"
                                  "Note: including file: g.h\\n' && touch $out\n  deps = msvc\nbuild y: cl\n")
        r = self.ok()
        self.assertEqual(r.stdout.split("\n", 1)[1], "Note: including file: g.h\n")
        self.assertEqual(self.deps()["y"][1], ["h.h"])

    def test_includes_stripped_from_failing_command(self):
        self.write("build.ninja", "rule cl\n  command = printf 'Note: including file: x.h\\nerr\\n'; exit 3\n"
                                  "  deps = msvc\nbuild d.o: cl\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 3)
        self.assertEqual(r.stdout, "[1/1] printf 'Note: including file: x.h\\nerr\\n'; exit 3\n"
                                   "FAILED: [code=3] d.o \nprintf 'Note: including file: x.h\\nerr\\n'; exit 3\n"
                                   "err\nninja: build stopped: subcommand failed.\n")
        self.assertFalse(self.exists(".ninja_deps"))

    def test_deleted_header_from_msvc_deps_rebuilds(self):
        self.write("build.ninja", "rule cl\n  command = printf 'Note: including file: h.h\\n' && touch $out\n"
                                  "  deps = msvc\nbuild y: cl\n")
        self.write("h.h", "")
        self.ok()
        os.unlink(self.path("h.h"))
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: h.h is dirty\n")
        self.assertEqual(r.stdout, "[1/1] printf 'Note: including file: h.h\\n' && touch y\n")


@unittest.skipUnless(shutil.which("gcc"), "gcc not installed")
class GccDepsTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", "rule cc\n  command = gcc -MD -MF $out.d -c $in -o $out\n"
                                  "  depfile = $out.d\n  deps = gcc\n"
                                  "build a.o: cc a.c\nbuild b.o: cc b.c\n")
        self.write("a.c", '#include "h.h"\nint a = H;\n')
        self.write("b.c", "int b;\n")
        self.write("h.h", "#define H 1\n")

    def test_gcc_deps_recorded(self):
        self.ok()
        d = self.deps()
        self.assertEqual(d["a.o"][1][0], "a.c")
        self.assertIn("h.h", d["a.o"][1])
        self.assertNotIn("h.h", d["b.o"][1])
        self.assertFalse(self.exists("a.o.d"))
        self.assertNoWork()

    def test_touching_header_rebuilds_only_includers(self):
        self.ok()
        self.touch_newer("h.h")
        r = self.ok()
        self.assertEqual(r.stdout, "[1/1] gcc -MD -MF a.o.d -c a.c -o a.o\n")
        self.assertNoWork()


# ==========================================================================
# Depfiles without `deps`
# ==========================================================================

DEPFILE_RULE = "rule cc\n  command = cat $in > $out\n  depfile = $out.d\nbuild a.o: cc a.c\n"


class DepfileTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", DEPFILE_RULE)
        self.write("a.c", "a")

    def test_missing_depfile_rebuilds_every_time(self):
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: depfile 'a.o.d' is missing\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: depfile 'a.o.d' is missing\n")
        self.assertEqual(r.stdout, "[1/1] cat a.c > a.o\n")

    def test_depfile_read_at_scan_time(self):
        self.write("h.h", "")
        self.ok()
        self.write("a.o.d", "a.o: a.c h.h\n")
        self.assertNoWork()
        self.assertTrue(self.exists("a.o.d"))  # never deleted without deps=
        before = self.mtime("a.o")
        self.touch_newer("h.h")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output a.o older than most recent input h.h (%d vs %d)\n"
                         % (before, self.mtime("h.h")))
        self.assertNoWork()
        self.assertFalse(self.exists(".ninja_deps"))

    def test_empty_depfile_rebuilds_every_time(self):
        self.ok()
        self.write("a.o.d", "")
        for _ in range(2):
            r = self.ok("-d", "explain")
            self.assertEqual(r.stderr, "ninja explain: depfile 'a.o.d' is missing\n")

    def test_whitespace_only_depfile(self):
        self.ok()
        self.write("a.o.d", "  \n")
        r = self.ninja()
        self.assertEqual((r.returncode, r.stdout, r.stderr), (1, "", "ninja: error: a.o.d: no outputs declared\n"))

    def test_missing_colon(self):
        self.ok()
        self.write("a.o.d", "foo\n")
        r = self.ninja()
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "ninja: error: a.o.d: expected ':' in depfile\n"))

    def test_missing_colon_at_eof(self):
        self.ok()
        self.write("a.o.d", "a.o")
        r = self.ninja()
        self.assertEqual(r.stderr, "ninja: error: a.o.d: expected ':' in depfile\n")

    def test_target_that_is_not_an_output(self):
        self.ok()
        self.write("a.o.d", "a.o b.o: a.c\n")
        r = self.ninja()
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "ninja: error: a.o.d: depfile mentions 'b.o' as an output, "
                                 "but no such output was declared\n"))

    def test_second_rule_target_that_is_not_an_output(self):
        self.ok()
        self.write("a.o.d", "a.o: a.c\nb.o: x\n")
        r = self.ninja()
        self.assertEqual(r.stderr, "ninja: error: a.o.d: depfile mentions 'b.o' as an output, "
                                   "but no such output was declared\n")

    def test_first_target_mismatch_rebuilds(self):
        self.ok()
        self.write("a.o.d", "b.o: a.c\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: expected depfile 'a.o.d' to mention 'a.o', got 'b.o'\n")
        self.assertEqual(r.stdout, "[1/1] cat a.c > a.o\n")

    def test_multiple_targets_that_are_outputs(self):
        self.write("build.ninja", "rule cc\n  command = cat $in > $out && touch a.x\n  depfile = $out.d\n"
                                  "build a.o | a.x: cc a.c\n")
        self.write("h.h", "")
        self.ok()
        self.write("a.o.d", "a.o a.x: a.c h.h\na.x: h.h\n")
        self.assertNoWork()
        self.bump("h.h")
        r = self.ok("-d", "explain")
        self.assertEqual(explain_lines(r.stderr)[0][:44], "ninja explain: output a.o older than most re")

    def test_escapes_space_dollar_hash_continuation_crlf(self):
        self.ok()
        self.write("a.o.d", b"a.o: a.c my\\ file.h dollar$$.h hash\\#.h \\\n  cont.h \\\r\n crlf.h\r\n"
                            b"cont.h:\r\n\r\nmy\\ file.h:\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: my file.h is dirty\nninja explain: dollar$.h is dirty\n"
                                   "ninja explain: hash#.h is dirty\nninja explain: cont.h is dirty\n"
                                   "ninja explain: crlf.h is dirty\n")
        for name in ("my file.h", "dollar$.h", "hash#.h", "cont.h", "crlf.h"):
            self.write(name, "")
        self.age("my file.h", "dollar$.h", "hash#.h", "cont.h", "crlf.h", "a.c")
        self.ok()
        self.assertNoWork()

    def test_escaped_colons_and_backslashes(self):
        self.ok()
        self.write("a.o.d", "a.o: a.c\\:b.h c\\\\:d.h C:\\dir\\e.h\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: a.c:b.h is dirty\nninja explain: c\\:d.h is dirty\n"
                                   "ninja explain: C:\\dir\\e.h is dirty\n")

    def test_non_name_characters_separate_names(self):
        self.ok()
        self.write("a.o.d", "a.o: a.c | b.h;c.h\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: b.h is dirty\nninja explain: c.h is dirty\n")

    def test_mp_phony_rules_are_ignored(self):
        self.write("h.h", "")
        self.ok()
        self.write("a.o.d", "a.o: a.c h.h\n\nh.h:\n")
        self.assertNoWork()

    def test_inputs_may_not_also_have_inputs(self):
        self.ok()
        self.write("a.o.d", "a.o: a.c h.h\nh.h: foo\n")
        r = self.ninja()
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "ninja: error: a.o.d: inputs may not also have inputs\n"))

    def test_repeated_target_rules_merge(self):
        self.ok()
        self.write("a.o.d", "a.o: a.c\na.o: h.h\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: h.h is dirty\n")

    def test_target_only_depfile(self):
        self.ok()
        self.write("a.o.d", "a.o: \\\n")
        self.assertNoWork()

    def test_deleted_depfile_input_rebuilds_without_error(self):
        self.write("h.h", "")
        self.ok()
        self.write("a.o.d", "a.o: a.c h.h\n")
        self.assertNoWork()
        os.unlink(self.path("h.h"))
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: h.h is dirty\n")
        self.assertEqual(r.stdout, "[1/1] cat a.c > a.o\n")

    def test_depfile_inputs_not_shown_by_query(self):
        self.write("h.h", "")
        self.ok()
        self.write("a.o.d", "a.o: a.c h.h\n")
        r = self.ok("-t", "query", "a.o")
        self.assertEqual(r.stdout, "a.o:\n  input: cc\n    a.c\n  outputs:\n")


# ==========================================================================
# restat
# ==========================================================================

RESTAT_MANIFEST = ("rule cp_if_changed\n  command = cmp -s $in $out || cp $in $out\n  restat = 1\n"
                   "  description = RESTAT $out\n"
                   "rule cat\n  command = cat $in > $out\n  description = CAT $out\n"
                   "build mid: cp_if_changed src\nbuild out1: cat mid\nbuild out2: cat out1\n"
                   "build other: cat src\n")


class RestatTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", RESTAT_MANIFEST)
        self.write("src", "1\n")

    def test_unchanged_output_skips_dependents_and_shrinks_total(self):
        self.assertEqual(self.ok("-j1").stdout, "[1/4] RESTAT mid\n[2/4] CAT out1\n[3/4] CAT out2\n[4/4] CAT other\n")
        self.touch_newer("src")
        r = self.ok("-j1")
        self.assertEqual(r.stdout, "[1/4] RESTAT mid\n[2/2] CAT other\n")
        self.assertNoWork()

    def test_changed_output_runs_dependents(self):
        self.ok("-j1")
        self.write("src", "2\n")
        self.touch_newer("src")
        r = self.ok("-j1")
        self.assertEqual(r.stdout, "[1/4] RESTAT mid\n[2/4] CAT out1\n[3/4] CAT out2\n[4/4] CAT other\n")
        self.assertEqual(self.read("out2"), "2\n")
        self.assertNoWork()

    def test_restat_log_mtime_is_start_stamp_when_output_cleaned(self):
        self.ok("-j1")
        first = {e.path: e.mtime for e in self.log()}
        self.touch_newer("src")
        self.ok("-j1")
        entries = self.log()
        self.assertEqual([e.path for e in entries], ["mid", "out1", "out2", "other", "mid", "other"])
        self.assertGreater(entries[4].mtime, first["mid"])
        self.assertGreaterEqual(entries[4].mtime, self.mtime("src"))
        self.assertLess(self.mtime("mid"), entries[4].mtime)  # output kept its old mtime

    def test_future_input_keeps_restat_edge_dirty(self):
        # restat logs the start stamp, which stays older than an input dated in
        # the future: the restat edge (and plain dependents of src) rerun.
        self.ok("-j1")
        self.bump("src", 30)
        self.assertEqual(self.ok("-j1").stdout, "[1/4] RESTAT mid\n[2/2] CAT other\n")
        logged = self.log()[-2].mtime
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stdout, "[1/4] RESTAT mid\n[2/2] CAT other\n")
        self.assertEqual(explain_lines(r.stderr)[0],
                         "ninja explain: recorded mtime of mid older than most recent input src (%d vs %d)"
                         % (logged, self.mtime("src")))

    def test_restat_on_build_line(self):
        self.write("build.ninja", "rule cp\n  command = cmp -s $in $out || cp $in $out\n"
                                  "rule cat\n  command = cat $in > $out\n"
                                  "build mid: cp src\n  restat = 1\nbuild out: cat mid\n")
        self.ok()
        self.touch_newer("src")
        self.assertEqual(self.ok().stdout, "[1/2] cmp -s src mid || cp src mid\n")

    def test_restat_value_zero_is_true(self):
        self.write("build.ninja", RESTAT_MANIFEST.replace("restat = 1", "restat = 0"))
        self.ok("-j1")
        self.touch_newer("src")
        self.assertEqual(self.ok("-j1").stdout, "[1/4] RESTAT mid\n[2/2] CAT other\n")

    def test_without_restat_everything_downstream_runs(self):
        self.write("build.ninja", RESTAT_MANIFEST.replace("  restat = 1\n", ""))
        self.ok("-j1")
        self.touch_newer("src")
        self.assertEqual(self.ok("-j1").stdout,
                         "[1/4] RESTAT mid\n[2/4] CAT out1\n[3/4] CAT out2\n[4/4] CAT other\n")

    def test_restat_output_never_created(self):
        self.write("build.ninja", "rule rs\n  command = true\n  restat = 1\n  description = RS $out\n"
                                  "rule cat\n  command = echo > $out\n  description = CAT $out\n"
                                  "build mid: rs in\nbuild z: cat mid\n")
        self.write("in", "")
        rc, out = self.merged("-j1", "-d", "explain")
        self.assertEqual((rc, out), (0, "ninja explain: output mid doesn't exist\n[1/2] RS mid\n"
                                        "ninja explain: mid is dirty\nninja explain: output z doesn't exist\n"
                                        "[2/2] CAT z\n"))
        rc, out = self.merged("-j1", "-d", "explain")
        self.assertEqual((rc, out), (0, "ninja explain: output mid doesn't exist\n[1/2] RS mid\n"))


# ==========================================================================
# generator
# ==========================================================================

class GeneratorTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", "rule gen\n  command = echo v1 > $out\n  generator = 1\nbuild g: gen\n")

    def test_command_change_does_not_rebuild(self):
        self.ok()
        self.write("build.ninja", "rule gen\n  command = echo v2 > $out\n  generator = 1\nbuild g: gen\n")
        self.assertNoWork()
        self.assertEqual(self.read("g"), "v1\n")

    def test_missing_log_entry_does_not_rebuild(self):
        self.ok()
        os.unlink(self.path(".ninja_log"))
        self.assertNoWork()
        self.assertFalse(self.exists(".ninja_log"))

    def test_missing_output_rebuilds(self):
        self.ok()
        os.unlink(self.path("g"))
        r = self.ok("-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output g doesn't exist\n")

    def test_generator_is_logged(self):
        self.ok()
        self.assertEqual([(e.path, e.hash) for e in self.log()], [("g", hash_hex("echo v1 > g"))])

    def test_newer_input_rebuilds(self):
        self.write("build.ninja", "rule gen\n  command = cat $in > $out\n  generator = 1\nbuild g: gen in\n")
        self.write("in", "1")
        self.ok()
        self.touch_newer("in")
        self.assertEqual(self.ok().stdout, "[1/1] cat in > g\n")
        self.assertNoWork()


# ==========================================================================
# Manifest self-regeneration
# ==========================================================================

GEN_PY = '''import sys
v = open("ver").read().strip()
open("build.ninja", "w").write("""rule regen
  command = %s gen.py
  generator = 1
  description = REGEN
build build.ninja: regen gen.py ver
rule cat
  command = cat $in > $out # v%%s
  description = CAT $out
build a: cat in
build b: cat a
""" %% v)
''' % sys.executable


class RegenerationTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("gen.py", GEN_PY)
        self.write("ver", "1\n")
        self.write("in", "x\n")
        subprocess.check_call([sys.executable, "gen.py"], cwd=self.dir)
        self.age("gen.py", "ver", seconds=100)
        self.age("build.ninja", "in", seconds=50)

    def test_no_regeneration_when_manifest_up_to_date(self):
        r = self.ok("-j1")
        self.assertEqual(r.stdout, "[1/2] CAT a\n[2/2] CAT b\n")
        self.assertEqual([e.path for e in self.log()], ["a", "b"])

    def test_regenerated_first_then_reloaded_with_counters_continuing(self):
        self.ok("-j1")
        self.write("ver", "2\n")
        self.touch_newer("ver")
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stdout, "[1/1] REGEN\n[1/3] CAT a\n[2/3] CAT b\n")
        self.assertEqual(explain_lines(r.stderr)[1:], ["ninja explain: command line changed for a",
                                                       "ninja explain: a is dirty"])
        self.assertRegex(explain_lines(r.stderr)[0],
                         r"^ninja explain: output build.ninja older than most recent input ver \(\d+ vs %d\)$"
                         % self.mtime("ver"))
        self.assertIn("# v2", self.read("build.ninja"))
        entries = self.log()
        self.assertEqual([e.path for e in entries], ["a", "b", "build.ninja", "a", "b"])
        self.assertLess(entries[3].start, entries[2].end)  # the run clock restarts with the reload
        self.assertNoWork()

    def test_dry_run_stops_after_regeneration(self):
        self.ok("-j1")
        self.write("ver", "2\n")
        self.touch_newer("ver")
        r = self.ok("-n", "-j1")
        self.assertEqual(r.stdout, "[1/1] REGEN\n")
        self.assertIn("# v1", self.read("build.ninja"))

    def test_regeneration_with_explicit_manifest_flag(self):
        self.ok("-j1")
        self.write("ver", "3\n")
        self.touch_newer("ver")
        r = self.ok("-j1", "-f", "build.ninja")
        self.assertEqual(r.stdout, "[1/1] REGEN\n[1/3] CAT a\n[2/3] CAT b\n")

    def test_regeneration_failure(self):
        self.write("build.ninja", "rule regen\n  command = exit 2\n  generator = 1\n  description = REGEN\n"
                                  "build build.ninja: regen gen.in\nrule cat\n  command = cat $in > $out\n"
                                  "build a: cat in\n")
        self.age("build.ninja", seconds=10)
        self.write("gen.in", "")
        r = self.ninja()
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "[1/1] REGEN\nFAILED: [code=2] build.ninja \nexit 2\n",
                          "ninja: error: rebuilding 'build.ninja': subcommand failed\n"))
        self.assertFalse(self.exists("a"))

    def test_restat_regeneration_that_changes_nothing_does_not_reload(self):
        self.write("build.ninja", "rule regen\n  command = cmp -s build.ninja.in build.ninja || "
                                  "cp build.ninja.in build.ninja\n  generator = 1\n  restat = 1\n"
                                  "  description = REGEN\nbuild build.ninja: regen build.ninja.in\n"
                                  "rule cat\n  command = cat $in > $out\n  description = CAT $out\n"
                                  "build a: cat in\n")
        shutil.copy(self.path("build.ninja"), self.path("build.ninja.in"))
        self.age("build.ninja", seconds=10)
        r = self.ok()
        self.assertEqual(r.stdout, "[1/1] REGEN\n[1/2] CAT a\n")
        entries = self.log()
        self.assertEqual([e.path for e in entries], ["build.ninja", "a"])
        self.assertGreaterEqual(entries[1].start, entries[0].end)  # same run clock: no reload
        self.assertNoWork()

    def test_still_dirty_after_100_tries(self):
        self.write("build.ninja", "rule regen\n  command = touch build.ninja\n  generator = 1\n"
                                  "  description = REGEN\nbuild build.ninja: regen | FORCE\n"
                                  "build FORCE: phony\nrule cat\n  command = cat $in > $out\nbuild a: cat in\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "".join("[1/%d] REGEN\n" % i for i in range(1, 101)))
        self.assertEqual(r.stderr, "ninja: error: manifest 'build.ninja' still dirty after 100 tries,"
                                   " perhaps system time is not set\n")
        self.assertEqual([e.path for e in self.log()], ["build.ninja"] * 100)
        self.assertFalse(self.exists("a"))


# ==========================================================================
# dyndep
# ==========================================================================

DYNDEP_MANIFEST = ("rule mkdd\n  command = printf 'ninja_dyndep_version = 1\\nbuild out | out.imp: dyndep | extra.h\\n'"
                   " > $out\n  description = DD $out\n"
                   "rule r\n  command = cat $in > $out && touch out.imp\n  description = R $out\n"
                   "build dd: mkdd dd.in\nbuild out: r in || dd\n  dyndep = dd\nbuild final: r out\n")


class DyndepTests(StateTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", DYNDEP_MANIFEST)
        self.write("in", "x")
        self.write("extra.h", "e")
        self.write("dd.in", "")

    def test_generated_dyndep_file_adds_inputs_and_outputs(self):
        r = self.ok("-j1")
        self.assertEqual(r.stdout, "[1/3] DD dd\n[2/3] R out\n[3/3] R final\n")
        self.assertEqual([e.path for e in self.log()], ["dd", "out", "out.imp", "final"])
        self.assertNoWork()

    def test_dyndep_loaded_at_scan_time_when_up_to_date(self):
        self.ok("-j1")
        r = self.ok("-t", "query", "out")
        self.assertEqual(r.stdout, "out:\n  input: r\n    in\n    | extra.h\n    || dd\n  outputs:\n    final\n")
        self.touch_newer("extra.h")
        r = self.ok("-j1")
        self.assertEqual(r.stdout, "[1/2] R out\n[2/2] R final\n")
        self.assertNoWork()

    def test_dyndep_implicit_output_missing_rebuilds(self):
        self.ok("-j1")
        os.unlink(self.path("out.imp"))
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stdout, "[1/2] R out\n[2/2] R final\n")
        self.assertEqual(explain_lines(r.stderr)[0], "ninja explain: output out.imp doesn't exist")

    def test_query_before_dyndep_exists_warns(self):
        r = self.ok("-t", "query", "out")
        self.assertEqual(r.stderr, "ninja: warning: loading 'dd': No such file or directory\n\n")
        self.assertEqual(r.stdout, "out:\n  input: r\n    in\n    || dd\n  outputs:\n    final\n")

    def test_explain_lines_are_repeated_after_dyndep_load(self):
        r = self.ok("-j1", "-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output dd doesn't exist\n"
                                   "ninja explain: output out doesn't exist\n"
                                   "ninja explain: output out doesn't exist\n"
                                   "ninja explain: out is dirty\n"
                                   "ninja explain: out is dirty\n")

    def test_dyndep_restat(self):
        self.write("build.ninja",
                   "rule mkdd\n  command = printf 'ninja_dyndep_version = 1\\nbuild mid: dyndep\\n  restat = 1\\n'"
                   " > $out\n"
                   "rule cp\n  command = cmp -s src mid || cp src mid\n  description = CP $out\n"
                   "rule cat\n  command = cat $in > $out\n  description = CAT $out\n"
                   "build dd: mkdd\nbuild mid: cp src || dd\n  dyndep = dd\nbuild top: cat mid\n")
        self.write("src", "1")
        self.ok("-j1")
        self.touch_newer("src")
        r = self.ok("-j1")
        self.assertEqual(r.stdout, "[1/2] CP mid\n")
        self.assertNoWork()

    def test_dyndep_must_be_an_input(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild out: r in\n  dyndep = dd\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "ninja: error: build.ninja:5: dyndep 'dd' is not an input\n\n")


class DyndepErrorTests(StateTestCase):
    """Dyndep file errors; the file is a source, so it is loaded at scan time."""

    def setUp(self):
        super().setUp()
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild out: r in || dd\n  dyndep = dd\n"
                                  "build out2: r in\nbuild out3: r in || dd\n  dyndep = dd\n")
        self.write("in", "")

    def check(self, dd, stderr, rc=1):
        self.write("dd", dd)
        r = self.ninja("out")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (rc, "", stderr))

    def test_output_not_mentioned(self):
        self.check("ninja_dyndep_version = 1\n", "ninja: error: 'out' not mentioned in its dyndep file 'dd'\n")

    def test_valid_file_accepted(self):
        self.write("dd", "ninja_dyndep_version = 1.0.5\nbuild out: dyndep\n\nbuild out3: dyndep\n  restat = 1\n")
        self.assertEqual(self.ok("out").stdout, "[1/1] touch out\n")

    def test_accepted_and_rejected_version_forms(self):
        for version in ("1", "1.0", "1-anything", "1.0.7"):
            with self.subTest(version=version):
                self.write("dd", "ninja_dyndep_version = %s\nbuild out: dyndep\nbuild out3: dyndep\n" % version)
                self.assertEqual(self.ok("out").stdout, "[1/1] touch out\n")
                os.unlink(self.path("out"))
        for version in ("2", "0.9", "abc"):
            with self.subTest(version=version):
                self.check("ninja_dyndep_version = %s\nbuild out: dyndep\n" % version,
                           "ninja: error: dd:1: unsupported 'ninja_dyndep_version = %s'\n"
                           "ninja_dyndep_version = %s\n%s^ near here\n"
                           % (version, version, " " * (len("ninja_dyndep_version = ") + len(version))))

    def test_mentions_output_of_edge_without_binding(self):
        self.check("ninja_dyndep_version = 1\nbuild out: dyndep\nbuild out2: dyndep\nbuild out3: dyndep\n",
                   "ninja: error: dyndep file 'dd' mentions output 'out2' whose build statement does not have "
                   "a dyndep binding for the file\n")

    def test_multiple_rules_generate(self):
        self.check("ninja_dyndep_version = 1\nbuild out | out2: dyndep\nbuild out3: dyndep\n",
                   "ninja: error: multiple rules generate out2\n")

    def test_unsupported_version(self):
        self.check("ninja_dyndep_version = 1.1\nbuild out: dyndep\n",
                   "ninja: error: dd:1: unsupported 'ninja_dyndep_version = 1.1'\n"
                   "ninja_dyndep_version = 1.1\n                          ^ near here\n")

    def test_missing_version(self):
        self.check("build out: dyndep\n", "ninja: error: dd:1: expected 'ninja_dyndep_version = ...'\n\n")

    def test_no_build_statement(self):
        self.check("ninja_dyndep_version = 1\nbuild nope: dyndep\n",
                   "ninja: error: dd:2: no build statement exists for 'nope'\n"
                   "build nope: dyndep\n          ^ near here\n")

    def test_multiple_statements(self):
        self.check("ninja_dyndep_version = 1\nbuild out: dyndep\nbuild out: dyndep\n",
                   "ninja: error: dd:3: multiple statements for 'out'\nbuild out: dyndep\n         ^ near here\n")

    def test_explicit_outputs(self):
        self.check("ninja_dyndep_version = 1\nbuild out out3: dyndep\n",
                   "ninja: error: dd:2: explicit outputs not supported\n"
                   "build out out3: dyndep\n              ^ near here\n")

    def test_rule_name_must_be_dyndep(self):
        self.check("ninja_dyndep_version = 1\nbuild out: r\n",
                   "ninja: error: dd:2: expected build command name 'dyndep'\nbuild out: r\n           ^ near here\n")

    def test_explicit_inputs(self):
        self.check("ninja_dyndep_version = 1\nbuild out: dyndep in\n",
                   "ninja: error: dd:2: explicit inputs not supported\n"
                   "build out: dyndep in\n                    ^ near here\n")

    def test_order_only_inputs(self):
        self.check("ninja_dyndep_version = 1\nbuild out: dyndep || in\n",
                   "ninja: error: dd:2: order-only inputs not supported\n"
                   "build out: dyndep || in\n                  ^ near here\n")

    def test_binding_not_restat(self):
        self.check("ninja_dyndep_version = 1\nbuild out: dyndep\n  foo = 1\n",
                   "ninja: error: dd:3: binding is not 'restat'\n  foo = 1\n         ^ near here\n")

    def test_no_variables(self):
        self.check("ninja_dyndep_version = 1\nfoo = 1\n", "ninja: error: dd:2: unexpected identifier\n\n")

    def test_errors_from_generated_dyndep_stop_the_build(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nrule cp\n  command = cp $in $out\n"
                                  "build dd: cp dd.in\nbuild out: r in || dd\n  dyndep = dd\nbuild out2: r in\n")
        cases = [("ninja_dyndep_version = 1\n", "'out' not mentioned in its dyndep file 'dd'.\n"),
                 ("ninja_dyndep_version = 1\nbuild out | out2: dyndep\n", "multiple rules generate out2.\n"),
                 ("ninja_dyndep_version = 1\nbuild nope: dyndep\n",
                  "dd:2: no build statement exists for 'nope'\nbuild nope: dyndep\n          ^ near here.\n")]
        for dd, msg in cases:
            with self.subTest(dd=dd):
                self.write("dd.in", dd)
                r = self.ninja("out")
                self.assertEqual((r.returncode, r.stdout, r.stderr),
                                 (1, "[1/2] cp dd.in dd\nninja: build stopped: " + msg, ""))
                for f in ("dd", ".ninja_log"):
                    if self.exists(f):
                        os.unlink(self.path(f))


# ==========================================================================
# validations
# ==========================================================================

class ValidationTests(StateTestCase):

    def test_validation_built_with_target_and_not_dirtying_it(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\n  description = R $out\n"
                                  "build out: r in |@ check\nbuild check: r in2\nbuild other: r in\n")
        self.write("in", "x")
        self.write("in2", "y")
        r = self.ok("-j1", "out")
        self.assertEqual(r.stdout, "[1/2] R out\n[2/2] R check\n")
        self.assertFalse(self.exists("other"))
        self.touch_newer("in2")
        r = self.ok("-j1", "out")
        self.assertEqual(r.stdout, "[1/1] R check\n")
        self.assertNoWork("out")

    def test_validation_may_depend_on_the_edge(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\n  description = R $out\n"
                                  "build out: r in |@ check\nbuild check: r out\n")
        self.write("in", "x")
        rc, text = self.merged("-j1", "-d", "explain", "out")
        self.assertEqual((rc, text), (0, "ninja explain: output out doesn't exist\n[1/2] R out\n"
                                         "ninja explain: out is dirty\n[2/2] R check\n"))
        os.unlink(self.path("check"))
        rc, text = self.merged("-d", "explain", "out")
        self.assertEqual((rc, text), (0, "ninja explain: output check doesn't exist\n[1/1] R check\n"))

    def test_failing_validation_fails_the_build(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\n  description = R $out\n"
                                  "rule fail\n  command = exit 1\n  description = F $out\n"
                                  "build out: r in |@ check\nbuild check: fail out\nbuild top: r out\n")
        self.write("in", "x")
        r = self.ninja("-j1", "top")
        self.assertEqual((r.returncode, r.stdout), (1, "[1/3] R out\n[2/3] F check\nFAILED: [code=1] check \n"
                                                       "exit 1\nninja: build stopped: subcommand failed.\n"))
        r = self.ninja("-j1", "top")
        self.assertEqual((r.returncode, r.stdout), (1, "[1/2] F check\nFAILED: [code=1] check \n"
                                                       "exit 1\nninja: build stopped: subcommand failed.\n"))

    def test_validation_shown_by_query(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild out: r in |@ check\n"
                                  "build check: r out\n")
        r = self.ok("-t", "query", "out", "check")
        self.assertEqual(r.stdout, "out:\n  input: r\n    in\n  validations:\n    check\n  outputs:\n    check\n"
                                   "check:\n  input: r\n    out\n  outputs:\n  validation for:\n    out\n")


# ==========================================================================
# -d explain / keeprsp / keepdepfile / stats
# ==========================================================================

class ExplainTests(StateTestCase):

    def test_explanation_printed_just_before_each_command(self):
        self.write("build.ninja", "rule r\n  command = echo hi $out\nbuild a: r\nbuild b: r a\n")
        rc, out = self.merged("-d", "explain", "-j1")
        self.assertEqual((rc, out), (0, "ninja explain: output a doesn't exist\n[1/2] echo hi a\nhi a\n"
                                        "ninja explain: a is dirty\n[2/2] echo hi b\nhi b\n"))

    def test_explain_goes_to_stderr_only(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        r = self.ok("-d", "explain")
        self.assertEqual(r.stdout, "[1/1] touch a\n")
        self.assertEqual(r.stderr, "ninja explain: output a doesn't exist\n")

    def test_explain_in_dry_run(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\nbuild b: r a\n")
        rc, out = self.merged("-n", "-d", "explain", "-j1")
        self.assertEqual((rc, out), (0, "ninja explain: output a doesn't exist\n[1/2] touch a\n"
                                        "ninja explain: a is dirty\n[2/2] touch b\n"))

    def test_phony_explanations_are_not_printed(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild FORCE: phony\nbuild a: r | FORCE\n")
        for _ in range(2):
            r = self.ok("-d", "explain")
            self.assertEqual((r.stdout, r.stderr), ("[1/1] touch a\n", "ninja explain: FORCE is dirty\n"))

    def test_order_only_missing_phony_does_not_dirty(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild b: r || oo\nbuild oo: phony\n")
        self.ok()
        self.assertNoWork()

    def test_nothing_explained_without_work(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.ok()
        r = self.ok("-d", "explain")
        self.assertEqual((r.stdout, r.stderr), ("ninja: no work to do.\n", ""))

    def test_multiple_reasons_for_one_edge_in_scan_order(self):
        self.write("build.ninja", "rule r\n  command = cat $in > $out\nbuild a: r s1\nbuild b: r s2\n"
                                  "build c: r a b\n")
        self.write("s1", "1")
        self.write("s2", "2")
        self.ok()
        os.unlink(self.path("a"))
        os.unlink(self.path("b"))
        rc, out = self.merged("-d", "explain", "-j1")
        self.assertEqual(out, "ninja explain: output a doesn't exist\n[1/3] cat s1 > a\n"
                              "ninja explain: output b doesn't exist\n[2/3] cat s2 > b\n"
                              "ninja explain: a is dirty\nninja explain: b is dirty\n[3/3] cat a b > c\n")


class DebugModeTests(StateTestCase):

    RSP = "rule r\n  command = cp $rspfile $out%s\n  rspfile = $out.rsp\n  rspfile_content = $in\nbuild out: r in\n"

    def test_rspfile_deleted_after_success(self):
        self.write("build.ninja", self.RSP % "")
        self.write("in", "")
        self.ok()
        self.assertEqual(self.read("out"), "in")
        self.assertFalse(self.exists("out.rsp"))

    def test_keeprsp(self):
        self.write("build.ninja", self.RSP % "")
        self.write("in", "")
        self.ok("-d", "keeprsp")
        self.assertEqual(self.read("out.rsp"), "in")

    def test_rspfile_kept_after_failure(self):
        self.write("build.ninja", self.RSP % " && false")
        self.write("in", "")
        self.assertEqual(self.ninja().returncode, 1)
        self.assertEqual(self.read("out.rsp"), "in")

    def test_rspfile_written_by_dry_run_only_kept_with_keeprsp(self):
        self.write("build.ninja", self.RSP % "")
        self.write("in", "")
        self.ok("-n")
        self.assertEqual(sorted(os.listdir(self.dir)), ["build.ninja", "in"])
        self.ok("-n", "-d", "keeprsp")
        self.assertEqual(self.read("out.rsp"), "in")
        self.assertFalse(self.exists("out"))

    def test_stats_table_format(self):
        self.write("build.ninja", self.RSP % "")
        self.write("in", "")
        r = self.ok("-d", "stats")
        lines = r.stdout.split("\n")
        self.assertEqual(lines[0], "[1/1] cp out.rsp out")
        header = lines[1]
        m = re.fullmatch(r"metric( *)\tcount \tavg \(us\) \ttotal \(ms\)", header)
        self.assertIsNotNone(m, header)
        width = len("metric") + len(m.group(1))
        rows = lines[2:lines.index("")]
        self.assertTrue(rows)
        names = []
        for row in rows:
            fields = row.split("\t")
            self.assertEqual(len(fields), 4, row)
            self.assertEqual(len(fields[0]), width, row)
            self.assertRegex(fields[1], r"^\d+ *$")
            self.assertGreaterEqual(len(fields[1]), 6)
            self.assertRegex(fields[2], r"^\d+\.\d *$")
            self.assertGreaterEqual(len(fields[2]), 8)
            self.assertRegex(fields[3], r"^\d+\.\d$")
            names.append(fields[0].rstrip())
        self.assertEqual(width, max(len(n) for n in names + ["metric"]))
        self.assertEqual(names[:3], [".ninja parse", ".ninja_log load", ".ninja_deps load"])
        self.assertRegex(lines[-2], r"^path->node hash load \d+\.\d\d \(\d+ entries / \d+ buckets\)$")
        self.assertEqual(lines[-1], "")

    def test_stats_with_no_work(self):
        self.write("build.ninja", "build x: phony\n")
        self.write("x", "")
        r = self.ok("-d", "stats")
        self.assertTrue(r.stdout.startswith("ninja: no work to do.\nmetric"), r.stdout)

    def test_several_debug_modes_together(self):
        self.write("build.ninja", self.RSP % "")
        self.write("in", "")
        r = self.ok("-d", "keeprsp", "-d", "explain")
        self.assertEqual(r.stderr, "ninja explain: output out doesn't exist\n")
        self.assertTrue(self.exists("out.rsp"))


if __name__ == "__main__":
    harness.main()
