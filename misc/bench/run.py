#!/usr/bin/env python3
"""Side-by-side benchmark of ronin's `ninja` against reference Ninja 1.13.2.

Generates (and caches) synthetic trees with gen_tree.py, then runs both
binaries alternately (ours, ref, ours, ref, ...) on each scenario, after one
untimed warm-up round, and reports medians of wall time, user+sys CPU time and
peak RSS (from os.wait4's rusage) with the ratio ours/ref. Every run's output
is checked (e.g. a no-op must print `ninja: no work to do.`, both binaries
must plan the same number of edges).

  run.py                         full-size trees, 5 runs per scenario
  run.py --quick                 small trees (smoke test)
  run.py --scenarios noop,parse -n 9 --json out.json --markdown out.md
  run.py --callgrind             instruction counts (Ir) under valgrind, small trees
  run.py --perf /tmp/prof        perf profiles of OUR binary (top functions)

See misc/bench/README.md for what each scenario measures.
"""

import argparse
import datetime
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(HERE, "gen_tree.py")
sys.dont_write_bytecode = True  # keep misc/bench free of __pycache__
sys.path.insert(0, HERE)
import gen_tree  # noqa: E402  (for GENERATOR_VERSION and T_OUT)

# Tree name -> gen_tree.py arguments, for the full and the --quick sizes.
TREES = {
    "full": {
        "plain": ["--plain"],
        "deps": ["--deps"],
        "plain4x": ["--plain", "--edges", "208000", "--files", "412000", "--subninjas", "2000"],
        "spawn": ["--spawn", "5000"],
        "spawnwin": ["--spawn", "2000"],
        "chain": ["--chain", "100000"],
        "fanin": ["--fanin", "100000"],
        "makespan": ["--makespan", "48"],
        "switch": ["--deps", "--edges", "20000", "--files", "41200", "--subninjas", "200"],
        "cache": ["--deps", "--edges", "5000", "--files", "10300", "--subninjas", "50"],
        "tinyc": ["--tiny-c", "400"],
        "fmt": ["--fmt"],
    },
    "quick": {
        "plain": ["--plain", "--edges", "5000", "--files", "10300", "--subninjas", "50"],
        "deps": ["--deps", "--edges", "5000", "--files", "10300", "--subninjas", "50"],
        "plain4x": ["--plain", "--edges", "20000", "--files", "41200", "--subninjas", "200"],
        "spawn": ["--spawn", "200"],
        "spawnwin": ["--spawn", "200"],
        "chain": ["--chain", "10000"],
        "fanin": ["--fanin", "10000"],
        "makespan": ["--makespan", "16"],
        "switch": ["--deps", "--edges", "1500", "--files", "3100", "--subninjas", "20"],
        "cache": ["--deps", "--edges", "1500", "--files", "3100", "--subninjas", "20"],
        "tinyc": ["--tiny-c", "60"],
        "fmt": ["--fmt"],
    },
}

NOOP = "ninja: no work to do."
BIG_STACK = 64 << 20


class Scenario:
    def __init__(self, name, tree, args, what, per_binary_tree=False, stack=None,
                 stdout_null=False, env=None):
        self.env = env or {}
        self.name = name
        self.tree = tree
        self.args = args
        self.what = what
        self.per_binary_tree = per_binary_tree
        self.stack = stack
        self.stdout_null = stdout_null

    # Hooks, overridden per scenario.
    def setup(self, tree):
        pass

    def teardown(self, tree):
        pass

    def finish(self, tree):
        """After the scenario's last run."""
        pass

    def check(self, rc, out, tree):
        """Returns (problem or None, work description)."""
        if rc != 0:
            return "exit %s" % rc, None
        return None, None

    # Which binary runs in each slot, with which environment: ours and the
    # reference, both with `env` (RONIN_FLAGS, which the reference ignores).
    def binary(self, bins, slot):
        return bins[slot]

    def command(self, bins, slot):
        return [self.binary(bins, slot)] + self.args

    def env_for(self, slot):
        return self.env


class VersusSelf:
    """Mixed into a scenario: both slots run OUR binary, `env` (ronin's
    options) only in the first, so the "ref" columns are ours without them:
    an option's cost, side by side in one run."""

    def binary(self, bins, slot):
        return bins["ours"]

    def env_for(self, slot):
        return self.env if slot == "ours" else {}


class Noop(Scenario):
    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        if out.strip() != NOOP:
            return "not a no-op: %r" % out.strip()[:200], None
        return None, "no-op"


class Parse(Scenario):
    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        return None, "%d targets" % out.count("\n") if out is not None else None


class HotHeader(Scenario):
    """Touch the header included by ~60% of the objects, `ninja -n`, restore."""

    def setup(self, tree):
        p = os.path.join(tree["root"], tree["meta"]["hot_header"])
        st = os.stat(p)
        self._saved = (p, st.st_atime_ns, st.st_mtime_ns)
        t = gen_tree.T_OUT + 3600 * 10**9  # newer than every output
        os.utime(p, ns=(t, t))

    def teardown(self, tree):
        p, a, m = self._saved
        os.utime(p, ns=(a, m))

    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        m = re.findall(r"^\[(\d+)/(\d+)\]", out, re.M)
        if not m or m[-1][0] != m[-1][1]:
            return "unexpected -n output", None
        return None, "%s edges" % m[-1][1]


class ManifestTouched(Noop):
    """A no-op right after the top manifest changed (a fresh mtime before
    every run): ours parses and rewrites its graph image (src/image/graph_image.h)."""

    def setup(self, tree):
        p = os.path.join(tree["bdir"], "build.ninja")
        t = time.time_ns()
        os.utime(p, ns=(t, t))


def remove_logs(bdir):
    for f in (".ninja_log", ".ninja_deps", ".ninja_lock"):
        try:
            os.unlink(os.path.join(bdir, f))
        except FileNotFoundError:
            pass


class AuditBuild(VersusSelf, Scenario):
    """A build from clean of `args`' targets, ours with --audit against
    ours without (VersusSelf). Before each run, untimed, the targets'
    outputs (what `-t clean TARGETS` removes) and the logs go."""

    def setup(self, tree):
        targets = [a for a in self.args if not a.startswith("-")]
        subprocess.run([self.cleaner, "-t", "clean"] + targets, cwd=tree["bdir"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        remove_logs(tree["bdir"])
        for name in (".ronin_state", ".ronin_graph"):
            try:
                os.unlink(os.path.join(tree["bdir"], name))
            except FileNotFoundError:
                pass

    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        ran = len(re.findall(r"^\[\d+/\d+\]", out, re.M))
        audited = re.search(r"^ninja: audit: (\d+) commands? audited, (.*)$", out, re.M)
        if audited and audited.group(2) != "no findings":
            return "findings: " + audited.group(2), None
        return None, "%d commands%s" % (ran, ", audited" if audited else "")


class NoopVersusSelf(VersusSelf, Noop):
    pass


class Spawn(Scenario):
    """Run all N trivial commands with -j2. The outputs exist and the
    .ninja_log is gone, so every command is out of date (its command line is
    unknown) and each `touch` only updates an mtime: what is measured is
    starting and reaping processes, not the file system creating inodes."""

    def setup(self, tree):
        bdir = tree["bdir"]
        out = os.path.join(bdir, "out")
        os.makedirs(out, exist_ok=True)
        present = set(os.listdir(out))
        for i in range(tree["meta"]["commands"]):
            if str(i) not in present:
                open(os.path.join(out, str(i)), "a").close()
        remove_logs(bdir)

    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        n = tree["meta"]["commands"]
        try:
            with open(os.path.join(tree["bdir"], ".ninja_log")) as f:
                ran = sum(1 for line in f if not line.startswith("#"))
        except OSError:
            ran = 0
        if ran != n:
            return "ran %d of %d commands" % (ran, n), None
        return None, "%d commands" % n


class SpawnClean(Scenario):
    """Build the N commands from clean: each `touch` creates its file.

    The previous run's outputs are moved aside, not deleted, until the
    scenario is over: on ext4 without a journal (these machines) the inode
    allocator skips inodes freed in the last 1-6 minutes one by one, so
    deleting 5000 files before every run makes each later file creation
    scan past them, in the kernel, inside `touch`; the runs would measure
    how many files were deleted recently instead of the executor."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._moved = 0

    def trash(self, tree):
        return os.path.join(tree["root"], "spawn-clean-trash")

    def setup(self, tree):
        bdir = tree["bdir"]
        out = os.path.join(bdir, "out")
        if os.path.exists(out):
            os.makedirs(self.trash(tree), exist_ok=True)
            self._moved += 1
            os.rename(out, os.path.join(self.trash(tree), "%d-%d" % (os.getpid(), self._moved)))
        remove_logs(bdir)

    def finish(self, tree):
        shutil.rmtree(self.trash(tree), ignore_errors=True)

    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        n = tree["meta"]["commands"]
        made = len(os.listdir(os.path.join(tree["bdir"], "out")))
        if made != n:
            return "built %d of %d outputs" % (made, n), None
        return None, "%d commands" % n


class SpawnWin(Spawn):
    """The spawn scenario for Windows: ronin's ninja.exe (build/build-win, or
    $NINJA_WIN) against the reference ninja.exe 1.13.2
    (misc/reference-ninja-win.sh), both under the same wine prefix and
    wineserver (tests/blackbox/wine.py's session: the prefix booted once,
    `touch` is the helpers' touch.exe on WINEPATH). Times are of the whole
    `wine ninja.exe` call; wineserver, shared and persistent, is not in the
    CPU column. Wine is not Windows: its own process start-up (a Linux
    process per command, each loading wine's DLLs) dominates, so this shows
    only that ronin.exe is not slower there (doc/performance.md)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.exes = None
        self.wine_env = {}

    def prepare(self):
        sys.path.insert(0, os.path.join(REPO, "tests", "blackbox"))
        import wine  # noqa: E402  (the tests' wine session and paths)
        missing = wine.missing_tools()
        if missing:
            raise SystemExit("spawn-win: " + missing)
        ours = wine.ninja_win() if os.environ.get("NINJA_WIN") else os.path.join(REPO, "build", "build-win",
                                                                                  "ninja.exe")
        if not os.path.isfile(ours):
            raise SystemExit("spawn-win: no %s (ctest -R windows.setup cross-builds it)" % ours)
        self.exes = {"ours": ours, "ref": wine.reference_ninja_win()}
        session = wine.session()
        self.wine = wine.WINE
        self.wine_env = session.env

    def binary(self, bins, slot):
        return self.exes[slot]

    def command(self, bins, slot):
        return [self.wine, self.binary(bins, slot)] + self.args

    def env_for(self, slot):
        return dict(self.env, **self.wine_env)


class Makespan(Scenario):
    """Build the sleeping graph from clean with -j4, the log of the previous
    build present (the untimed warm-up is the first build, without a log):
    what is measured is the order in which ready commands start. The lower
    bound is max(longest chain of durations, total work / 4), twice: from
    the manifest's nominal sleeps, and from the durations the previous run's
    .ninja_log recorded (what the scheduler knows; each command also starts
    `sh`, `sleep` and `touch`, which the nominal bound does not count)."""

    JOBS = 4

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._first = set()

    def setup(self, tree):
        bdir = tree["bdir"]
        shutil.rmtree(os.path.join(bdir, "o"), ignore_errors=True)
        if tree["root"] not in self._first:  # the warm-up builds without a log
            self._first.add(tree["root"])
            remove_logs(bdir)
            return
        tree.setdefault("_log_bounds", []).append(self.log_bound(tree))

    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        made = len(os.listdir(os.path.join(tree["bdir"], "o")))
        if made != tree["meta"]["commands"]:
            return "built %d of %d outputs" % (made, tree["meta"]["commands"]), None
        return None, "lower bound %.2f s" % self.lower_bound(tree)

    @classmethod
    def lower_bound(cls, tree):
        meta = tree["meta"]
        return max(meta["longest_chain_seconds"], meta["work_seconds"] / cls.JOBS)

    @classmethod
    def log_bound(cls, tree):
        """The bound from the durations in the tree's .ninja_log (the last
        entry of each output); None without a log entry for every command."""
        durations = {}
        try:
            with open(os.path.join(tree["bdir"], ".ninja_log")) as f:
                for line in f:
                    fields = line.rstrip("\n").split("\t")
                    if len(fields) == 5 and not line.startswith("#"):
                        durations[fields[3]] = (int(fields[1]) - int(fields[0])) / 1000.0
        except (OSError, ValueError):
            return None
        inputs = gen_tree.makespan_inputs(tree["bdir"])
        if any(out not in durations for out in inputs):
            return None
        chain, work = gen_tree.makespan_chain_and_work(inputs, durations)
        return max(chain, work / cls.JOBS)


class BranchSwitch(Scenario):
    """What `git checkout other && git checkout -` leaves: 30 % of the
    sources and the hot header rewritten with the same content (newer
    mtimes), then a real build (-j2). Ours runs with --content-hash (through
    RONIN_FLAGS, which the reference ignores); its warm-up round is the
    first build with the option, which records the content it ran with.
    Every round touches the same files, so the reference rebuilds the same
    edges each time and ours, from round 1 on, none."""

    def sources(self, tree):
        if "_sources" not in tree:
            found = []
            for dirpath, dirnames, filenames in os.walk(tree["root"]):
                dirnames[:] = sorted(d for d in dirnames if os.path.join(dirpath, d) != tree["bdir"])
                found += [os.path.join(dirpath, f) for f in sorted(filenames)
                          if f.endswith((".c", ".cc", ".cpp"))]
            tree["_sources"] = [p for i, p in enumerate(found) if i % 10 in (0, 3, 7)]
        return tree["_sources"]

    def setup(self, tree):
        now = time.time_ns()
        for p in self.sources(tree) + [os.path.join(tree["root"], tree["meta"]["hot_header"])]:
            os.utime(p, ns=(now, now))

    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        ran = len(re.findall(r"^\[\d+/\d+\]", out, re.M))
        return None, "%d commands" % ran


class CacheBuild(Scenario):
    """A clean build (-j2) of the deps-shaped tree. Ours runs with --cache
    (through RONIN_FLAGS, which the reference ignores): its compile edges
    (deps = gcc) are cacheable; links, stamps and actions are not and run
    as usual. `warm`: the cache holds every compile (the warm-up round fills
    it); otherwise it is emptied before each run (cost of looking up and
    storing). `backend`: "dir" (--cache=DIR), "http" (a local nginx with
    WebDAV PUT, tests/blackbox/nginx_cache.py) or "off" (ours without
    --cache: the base the cold-cache overhead is measured against).

    Before each run, untimed and alike for both binaries, the outputs that
    `-t clean` would remove (the reference's `-n -t clean` lists them) and,
    for a cold run, the cache are moved aside, not deleted: on ext4 without
    a journal, as on these machines, every file created within minutes of
    many deletions scans past the freed inodes in the kernel (see
    SpawnClean), so deleting ~5,000 outputs and ~10,000 cache files before
    each run made every later file creation, the reference's compiles' and
    ours', cost ~0.1 ms more. What was moved aside is deleted when the
    scenario ends, then the file system is synced and left alone for the
    kernel's 5 s window, so the next scenario does not pay for it either."""

    cleaner = None  # set by main(): the reference binary

    def __init__(self, *args, warm=True, backend="dir", **kwargs):
        super().__init__(*args, **kwargs)
        self.warm = warm
        self.backend = backend
        self.nginx = None
        self._moved = 0

    def prepare(self, workdir, cleaner):
        self.cleaner = cleaner
        self.dir = os.path.join(workdir, "ronin-cache-" + self.name)
        self.trash = os.path.join(workdir, "ronin-cache-trash-" + self.name)
        if self.backend == "off":
            self.env = {}
        elif self.backend == "http":
            sys.path.insert(0, os.path.join(REPO, "tests", "blackbox"))
            import nginx_cache
            shutil.rmtree(self.dir, ignore_errors=True)
            self.nginx = nginx_cache.Nginx(self.dir)
            self.nginx.start()
            self.env = {"RONIN_FLAGS": "--cache=" + self.nginx.url}
        else:
            self.env = {"RONIN_FLAGS": "--cache=" + self.dir}

    def cache_dir(self, tree):
        return os.path.join(self.dir, "www", "cache") if self.nginx else self.dir

    def move_aside(self, path):
        """Renames `path` into the trash (the same file system as the tree
        and the cache: both are under the workdir)."""
        self._moved += 1
        os.makedirs(self.trash, exist_ok=True)
        os.rename(path, os.path.join(self.trash, str(self._moved)))

    def setup(self, tree):
        listed = subprocess.run([self.cleaner, "-n", "-t", "clean"], cwd=tree["bdir"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, universal_newlines=True).stdout
        for line in listed.splitlines():
            if line.startswith("Remove "):
                self.move_aside(os.path.join(tree["bdir"], line[len("Remove "):]))
        remove_logs(tree["bdir"])
        if not self.warm and os.path.exists(self.cache_dir(tree)):
            self.move_aside(self.cache_dir(tree))
            if self.nginx:
                os.makedirs(self.cache_dir(tree), exist_ok=True)

    def finish(self, tree):
        if self.nginx:
            self.nginx.stop()
            self.nginx = None
        if os.path.exists(self.dir) or os.path.exists(self.trash):
            shutil.rmtree(self.dir, ignore_errors=True)
            shutil.rmtree(self.trash, ignore_errors=True)
            os.sync()  # clean inode tables: the kernel then skips freed inodes for 5 s, not 5 min
            time.sleep(5)

    def check(self, rc, out, tree):
        if rc != 0:
            return "exit %s" % rc, None
        ran = len(re.findall(r"^\[\d+/\d+\]", out, re.M))
        return None, "%d edges" % ran


class WatchLatency(Scenario):
    """From a leaf source's write to its compile command's start: ours --watch, ours one-shot and the
    reference one-shot in one run (watch_latency.py); its own loop, not bench_scenario's."""

    def bench_entry(self, trees, bins, runs):
        import watch_latency
        res, idle = watch_latency.bench({b: trees[(self.tree, b)] for b in bins}, bins, runs, run_measured, log)
        sec = {k: [ms / 1e3 for ms in res[k]["latency_ms"]] for k in ("watch", "ours", "ref")}
        entry = {"scenario": self.name, "what": self.what, "args": self.args, "tree": self.tree,
                 "leaf": res["leaf"], "idle": idle}
        entry["ours"] = {"wall": sec["watch"], "cpu": [], "rss": [idle.get("rss_kb", float("nan"))],
                         "problems": res["watch"]["problems"] + ["one-shot: " + p for p in res["ours"]["problems"]],
                         "work": ["write %s" % res["leaf"]["source"]], "median_wall": med(sec["watch"])}
        entry["ref"] = {"wall": sec["ref"], "cpu": [], "rss": [], "problems": res["ref"]["problems"],
                        "work": ["write %s" % res["leaf"]["source"]], "median_wall": med(sec["ref"])}
        entry["ours_one_shot"] = {"wall": sec["ours"], "median_wall": med(sec["ours"])}
        notes = ["ours one-shot %.1f ms (--watch / one-shot %.3f)" % (
            med(sec["ours"]) * 1e3, ratio(med(sec["watch"]), med(sec["ours"])))]
        if idle:
            notes.append("idle --watch over %d s: %d CPU ticks, %d wake-ups; RSS %.1f MB idle vs %.1f MB peak "
                         "of a one-shot no-op" % (idle["seconds"], idle["cpu_ticks"], idle["wakeups"],
                                                  idle["rss_kb"] / 1024, idle["one_shot_noop_rss_kb"] / 1024))
            if idle["cpu_ticks"] or idle["wakeups"]:
                entry["ours"]["problems"].append("the idle watch used CPU or woke up")
            if idle["rss_kb"] > idle["one_shot_noop_rss_kb"]:
                entry["ours"]["problems"].append("the idle watch holds more memory than a one-shot no-op")
        entry["notes"] = "; ".join(notes)
        return entry


def scenarios():
    return [
        Noop("noop", "plain", [], "no-op build, GN-shaped tree, no deps log"),
        Noop("noop-deps", "deps", [], "no-op build, same shape with deps = gcc and a 6M-entry deps log"),
        Parse("parse", "plain", ["-t", "targets", "all"], "load manifest + list all targets (> /dev/null)",
              stdout_null=True),
        Parse("parse-cold", "plain", ["-t", "targets", "all"], "same, without ours' graph image (a cold parse)",
              stdout_null=True, env={"RONIN_GRAPH_IMAGE": "0"}),
        ManifestTouched("noop-regen", "plain", [], "no-op right after build.ninja changed (ours parses and "
                        "writes its graph image)"),
        HotHeader("hot-header-n", "deps", ["-n"], "touch a header 60% of objects include, then -n"),
        Spawn("spawn", "spawn", ["-j2"], "run all N `touch` commands (outputs exist, no .ninja_log), -j2",
              per_binary_tree=True),
        Spawn("spawn-sh", "spawn", ["-j2"], "same, RONIN_SKIP_SHELL=0: ours also runs each via /bin/sh -c",
              per_binary_tree=True, env={"RONIN_SKIP_SHELL": "0"}),
        SpawnClean("spawn-clean", "spawn", ["-j2"], "run N `touch` commands from clean (files created), -j2",
                   per_binary_tree=True),
        SpawnWin("spawn-win", "spawnwin", ["-j64"], "the spawn scenario on Windows: ninja.exe vs ninja.exe "
                 "1.13.2 under one wine, N `touch.exe` commands, -j64", per_binary_tree=True),
        Noop("noop-4x", "plain4x", [], "no-op build, 4x larger tree"),
        Noop("chain", "chain", [], "no-op, 100k-deep chain (64 MB stack)", stack=BIG_STACK),
        Noop("fanin", "fanin", [], "no-op, one edge with 100k inputs"),
        BranchSwitch("branch-switch", "switch", ["-j2"],
                     "touch 30% of sources + hot header (same content), build -j2; ours --content-hash",
                     per_binary_tree=True, env={"RONIN_FLAGS": "--content-hash"}),
        Noop("noop-ch", "plain", [], "noop with RONIN_FLAGS=--content-hash (ref ignores it)",
             env={"RONIN_FLAGS": "--content-hash"}),
        Noop("noop-deps-ch", "deps", [], "noop-deps with RONIN_FLAGS=--content-hash (ref ignores it)",
             env={"RONIN_FLAGS": "--content-hash"}),
        CacheBuild("cache-off", "cache", ["-j2"], "clean build -j2, deps tree; ours without --cache "
                   "(cache-cold's base)", per_binary_tree=True, backend="off"),
        CacheBuild("cache-warm", "cache", ["-j2"], "clean build -j2, deps tree; ours --cache, warm",
                   per_binary_tree=True),
        CacheBuild("cache-cold", "cache", ["-j2"], "clean build -j2, deps tree; ours --cache, emptied each run",
                   per_binary_tree=True, warm=False),
        CacheBuild("cache-warm-http", "cache", ["-j2"], "clean build -j2, deps tree; ours --cache=http:// "
                   "(local nginx, WebDAV), warm", per_binary_tree=True, backend="http"),
        CacheBuild("cache-cold-http", "cache", ["-j2"], "same, the nginx cache emptied each run",
                   per_binary_tree=True, backend="http", warm=False),
        WatchLatency("watch-latency", "plain", ["--watch", "-j2"],
                     "write a leaf source; time until its compile starts: ours --watch (ours), the reference "
                     "one-shot (ref), ours one-shot (notes)", per_binary_tree=True),
        Makespan("makespan", "makespan", ["-j%d" % Makespan.JOBS],
                 "sleeping commands of heavy-tailed durations from clean, -j4, log of the last build present",
                 per_binary_tree=True),
        AuditBuild("audit-fmt", "fmt", ["-j2", "fmt"] + FMT_TEST_OBJECTS,
                   "fmt's library and 6 test sources from clean, -j2; ours --audit vs ours (ref column)",
                   env={"RONIN_FLAGS": "--audit"}),
        AuditBuild("audit-tiny", "tinyc", ["-j2", "libtiny.a"],
                   "N tiny C compiles and an archive from clean, -j2; ours --audit vs ours (ref column)",
                   env={"RONIN_FLAGS": "--audit"}),
        NoopVersusSelf("audit-noop", "plain", [], "no-op build; ours --audit vs ours (ref column)",
                       env={"RONIN_FLAGS": "--audit"}),
    ]


# fmt's test sources compiled by audit-fmt (objects only: no GoogleTest build).
FMT_TEST_OBJECTS = ["test/CMakeFiles/%s-test.dir/%s-test.cc.o" % (name, name)
                    for name in ("args", "assert", "color", "os", "ostream", "scan")]


# --------------------------------------------------------------------------

def log(msg):
    print(msg, file=sys.stderr, flush=True)


def ensure_tree(workdir, size, name, suffix="", regen=False):
    """Generates the tree unless an up-to-date cached copy exists."""
    gen_args = TREES[size][name]
    root = os.path.join(workdir, "%s-%s%s" % (size, name, suffix))
    meta_path = os.path.join(root, "bench-tree.json")
    want = {"args": gen_args, "generator_version": gen_tree.GENERATOR_VERSION}
    stamp = os.path.join(root, "bench-run-stamp.json")
    if not regen and os.path.exists(meta_path) and os.path.exists(stamp):
        with open(stamp) as f:
            if json.load(f) == want:
                with open(meta_path) as g:
                    meta = json.load(g)
                return {"root": root, "bdir": os.path.join(root, meta["build_dir"]), "meta": meta}
    log("generating %s tree %s ..." % (size, root))
    subprocess.check_call([sys.executable, GEN, root, "--force"] + gen_args,
                          stdout=sys.stderr)
    with open(stamp, "w") as f:
        json.dump(want, f)
    with open(meta_path) as g:
        meta = json.load(g)
    return {"root": root, "bdir": os.path.join(root, meta["build_dir"]), "meta": meta}


def state_fingerprint(tree):
    """Sizes/mtimes of the log files: a no-op must not touch them."""
    fp = []
    for f in (".ninja_log", ".ninja_deps"):
        p = os.path.join(tree["bdir"], f)
        try:
            st = os.stat(p)
            fp.append((f, st.st_size, st.st_mtime_ns))
        except FileNotFoundError:
            fp.append((f, None, None))
    return fp


def find_gnu_time():
    """GNU time, if installed: see run_measured for why it is used for RSS."""
    for p in ("/usr/bin/time",):
        try:
            v = subprocess.run([p, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True).stdout
        except OSError:
            continue
        if "GNU" in v:
            return p
    return None


GNU_TIME = find_gnu_time()


def run_measured(cmd, cwd, out_path, stack=None, use_time=True, extra_env=None):
    """Runs cmd; returns (rc, wall s, user+sys s, maxrss KiB).

    Wall and CPU times come from os.wait4 on the child. Its ru_maxrss is not
    usable on its own for small processes: Linux folds the RSS of the forking
    process (this Python, ~14 MB) into the child's ru_maxrss at exec time.
    So when GNU time is installed the command runs under it (`time -f %M`,
    a ~1 MB process that forks the command) and peak RSS is taken from its
    report; its own ~1 ms overhead is the same for both binaries. Without
    it, ru_maxrss is used and values below ~14 MB are meaningless."""
    env = dict(os.environ)
    for k in ("NINJA_STATUS", "CLICOLOR_FORCE", "NINJA_STATUS_REFRESH_MILLIS"):
        env.pop(k, None)
    env["TERM"] = "dumb"
    for k, v in (extra_env or {}).items():
        if v is None:
            env.pop(k, None)  # unset (wine's session: DISPLAY)
        else:
            env[k] = v

    def pre():
        if stack:
            resource.setrlimit(resource.RLIMIT_STACK, (stack, resource.RLIM_INFINITY))
    rss_file = None
    if GNU_TIME and use_time:
        rss_file = "/tmp/ronin-bench-%d.rss" % os.getpid()
        cmd = [GNU_TIME, "-f", "%M", "-o", rss_file, "--"] + cmd
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, env=env, preexec_fn=pre)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    p.returncode = rc
    rss = ru.ru_maxrss
    if rss_file:
        with open(rss_file) as f:
            lines = f.read().splitlines()
        os.unlink(rss_file)
        rss = int(lines[-1])
        for l in lines:
            m = re.match(r"Command terminated by signal (\d+)", l)
            if m:
                rc = -int(m.group(1))
    return rc, wall, ru.ru_utime + ru.ru_stime, rss


def read_out(path, limit=64 << 20):
    if path == os.devnull:
        return None
    with open(path, "rb") as f:
        return f.read(limit).decode("utf-8", "replace")


def bench_scenario(sc, trees, bins, runs, workdir, keep_going=True):
    res = {b: {"wall": [], "cpu": [], "rss": [], "problems": [], "work": set()} for b in bins}
    out_path = {b: os.path.join(workdir, "out-%s-%s.txt" % (sc.name, b)) for b in bins}
    order = list(bins)
    for rnd in range(runs + 1):  # round 0 = warm-up, not recorded
        for b in order:
            tree = trees[(sc.tree, b)] if sc.per_binary_tree else trees[(sc.tree, None)]
            fp = state_fingerprint(tree)
            sc.setup(tree)
            op = os.devnull if (sc.stdout_null and rnd > 0) else out_path[b]
            try:
                rc, wall, cpu, rss = run_measured(sc.command(bins, b), tree["bdir"], op, sc.stack,
                                                  extra_env=sc.env_for(b))
            finally:
                sc.teardown(tree)
            problem, work = sc.check(rc, read_out(op), tree)
            if problem is None and isinstance(sc, (Noop, HotHeader, Parse)) and \
                    state_fingerprint(tree) != fp:
                problem = "modified .ninja_log/.ninja_deps"
            if problem:
                res[b]["problems"].append(problem)
                log("  %s %s: PROBLEM: %s" % (sc.name, b, problem))
            if work:
                res[b]["work"].add(work)
            if rnd > 0:
                res[b]["wall"].append(wall)
                res[b]["cpu"].append(cpu)
                res[b]["rss"].append(rss)
            log("  %-13s %-4s %s wall %.3fs cpu %.3fs rss %.1f MB%s" % (
                sc.name, b, "warm-up" if rnd == 0 else "run %d" % rnd, wall, cpu, rss / 1024,
                "" if rc == 0 else " rc=%d" % rc))
    for b in bins:
        sc.finish(trees[(sc.tree, b)] if sc.per_binary_tree else trees[(sc.tree, None)])
    return res


def probe_default_stack(sc, trees, bins):
    """For the chain: does each binary survive the default 8 MB stack?"""
    notes = {}
    for b in bins:
        tree = trees[(sc.tree, None)]
        op = os.path.join(os.path.dirname(tree["root"]), "probe.txt")
        rc, _, _, _ = run_measured([bins[b]] + sc.args, tree["bdir"], op, stack=8 << 20)
        notes[b] = "ok" if rc == 0 else ("crash (signal %d)" % -rc if rc < 0 else "exit %d" % rc)
    return notes


# --------------------------------------------------------------------------
# The single-threaded floor (stat_floor.cc): read the manifests and logs
# whole, then one stat per file, on one thread, nothing parsed or kept.

FLOOR_SOURCE = os.path.join(HERE, "stat_floor.cc")


def has_floor(sc):
    """The no-op scenarios of the ordinary trees (not under RONIN_FLAGS, not
    after a manifest change, not the tool-shaped chain and fan-in)."""
    return type(sc) is Noop and not sc.env and sc.tree in ("plain", "deps", "plain4x")


def build_floor(workdir):
    exe = os.path.join(workdir, "stat_floor")
    subprocess.check_call([os.environ.get("CXX", "g++"), "-O2", "-o", exe, FLOOR_SOURCE])
    return exe


def manifest_files(bdir):
    """build.ninja and every file it includes or subninjas, relative to bdir."""
    found, todo = [], ["build.ninja"]
    while todo:
        path = todo.pop()
        found.append(path)
        with open(os.path.join(bdir, path), errors="replace") as f:
            for line in f:
                m = re.match(r"(?:subninja|include)\s+(\S+)\s*$", line)
                if m:
                    todo.append(m.group(1))
    return found


def floor_list(tree, ref, workdir):
    """Writes the floor's list for `tree` (untimed; the graph's files come
    from the reference's -t targets all, -t inputs and -t deps) and returns
    its path and the number of files to stat."""
    bdir = tree["bdir"]

    def tool(*args):
        return subprocess.run([ref, "-t"] + list(args), cwd=bdir, stdout=subprocess.PIPE, check=True,
                              stderr=subprocess.DEVNULL, universal_newlines=True).stdout.splitlines()
    paths = dict.fromkeys(tool("inputs"))
    paths.update(dict.fromkeys(line.rsplit(": ", 1)[0] for line in tool("targets", "all")))
    if os.path.exists(os.path.join(bdir, ".ninja_deps")):
        paths.update(dict.fromkeys(line.strip() for line in tool("deps") if line.startswith("    ")))
    lines = ["r " + m for m in manifest_files(bdir)]
    lines += ["r " + log for log in (".ninja_log", ".ninja_deps") if os.path.exists(os.path.join(bdir, log))]
    lines += ["s " + p for p in paths if p]
    list_path = os.path.join(workdir, "floor-%s.list" % os.path.basename(tree["root"]))
    with open(list_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return list_path, len(paths)


def bench_floor(sc, tree, floor_exe, ref, runs, workdir):
    """The floor's median wall and CPU time in `sc`'s tree (a warm-up, then
    `runs` runs), right after the scenario's own runs."""
    list_path, files = floor_list(tree, ref, workdir)
    out_path = os.path.join(workdir, "out-%s-floor.txt" % sc.name)
    walls, cpus = [], []
    for rnd in range(runs + 1):
        rc, wall, cpu, _ = run_measured([floor_exe, list_path], tree["bdir"], out_path, use_time=False)
        did = read_out(out_path).strip()
        if rc != 0 or "statted %d files" % files not in did:
            raise RuntimeError("stat_floor in %s: exit %d, %r" % (tree["bdir"], rc, did))
        if rnd > 0:
            walls.append(wall)
            cpus.append(cpu)
        log("  %-13s floor %s wall %.3fs cpu %.3fs (%s)" % (sc.name, "warm-up" if rnd == 0 else "run %d" % rnd,
                                                          wall, cpu, did))
    return {"wall": walls, "cpu": cpus, "median_wall": med(walls), "median_cpu": med(cpus), "work": did}


# --------------------------------------------------------------------------

def machine_facts():
    facts = {}
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
            facts["cpu"] = m.group(1) if m else "?"
    except OSError:
        facts["cpu"] = "?"
    facts["cores"] = os.cpu_count()
    try:
        with open("/proc/meminfo") as f:
            m = re.search(r"MemTotal:\s*(\d+)", f.read())
            facts["ram_gb"] = round(int(m.group(1)) / 1024 / 1024, 1)
    except OSError:
        pass
    facts["kernel"] = platform.release()
    facts["python"] = platform.python_version()
    return facts


def fs_type(path):
    try:
        out = subprocess.run(["df", "-T", path], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout.splitlines()
        return out[1].split()[1]
    except Exception:
        return "?"


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def ratio(a, b):
    return a / b if b else float("nan")


def markdown_table(results):
    hdr = ("| scenario | ours wall (s) | ref wall (s) | wall ours/ref | ours CPU (s) | ref CPU (s) "
           "| CPU ours/ref | ours RSS (MB) | ref RSS (MB) | RSS ours/ref | work | check |")
    sep = "|" + "---|" * 12
    lines = [hdr, sep]
    for r in results:
        o, f = r["ours"], r["ref"]
        ow, fw = med(o["wall"]), med(f["wall"])
        oc, fc = med(o["cpu"]), med(f["cpu"])
        orss, frss = med(o["rss"]) / 1024, med(f["rss"]) / 1024
        work = ", ".join(sorted(set(o["work"]) | set(f["work"]))) or "-"
        if set(o["work"]) != set(f["work"]):
            work = "ours: %s; ref: %s" % (", ".join(sorted(o["work"])) or "-",
                                          ", ".join(sorted(f["work"])) or "-")
        probs = []
        for b in ("ours", "ref"):
            if r[b]["problems"]:
                probs.append("%s: %s" % (b, "; ".join(sorted(set(r[b]["problems"])))))
        if r.get("notes"):
            probs.append(r["notes"])
        lines.append("| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f | %.1f | %.1f | %.2f | %s | %s |" % (
            r["scenario"], ow, fw, ratio(ow, fw), oc, fc, ratio(oc, fc), orss, frss,
            ratio(orss, frss), work, "; ".join(probs) or "ok"))
    return "\n".join(lines)


def callgrind_ir(bin_path, args, cwd, out_file, stack=None, env=None):
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file, bin_path] + args
    rc, wall, _, _ = run_measured(cmd, cwd, out_file + ".stdout", stack, use_time=False,
                                  extra_env=env)
    ir = None
    try:
        with open(out_file) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    ir = int(line.split()[1])
    except OSError:
        pass
    return rc, ir, wall


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__[__doc__.index("  run.py"):])
    default_ours = os.path.join(REPO, "build", "ninja")
    if not os.path.exists(default_ours):
        default_ours = os.path.join(REPO, "ninja")
    ap.add_argument("--ours", default=default_ours, help="our binary (default: build/ninja or ./ninja)")
    ap.add_argument("--ref", help="reference binary (default: misc/reference-ninja.sh's)")
    ap.add_argument("-n", "--runs", type=int, default=5, help="timed runs per binary per scenario (default 5)")
    ap.add_argument("--quick", action="store_true", help="small trees (5k edges) for smoke runs")
    ap.add_argument("--scenarios", help="comma-separated subset (default: all): " +
                    ",".join(s.name for s in scenarios()))
    ap.add_argument("--workdir", default="/tmp/ronin-bench", help="where trees are generated/cached")
    ap.add_argument("--regen", action="store_true", help="regenerate the trees even if cached")
    ap.add_argument("--json", help="write raw samples and medians to this file")
    ap.add_argument("--markdown", help="write the Markdown table to this file")
    ap.add_argument("--callgrind", action="store_true",
                    help="run each binary once under callgrind and report instructions (Ir); "
                         "uses the --quick trees unless --full is given")
    ap.add_argument("--full", action="store_true", help="with --callgrind: use the full-size trees")
    ap.add_argument("--perf", metavar="DIR", help="perf-record OUR binary on each scenario into DIR and "
                    "print the top functions (default scenarios: noop,noop-deps,parse)")
    ap.add_argument("--top", type=int, default=15, help="functions listed by --perf (default 15)")
    ap.add_argument("--perf-reps", type=int, default=3, help="runs per --perf recording (default 3)")
    ap.add_argument("--perf-which", choices=("ours", "ref"), default="ours",
                    help="binary profiled by --perf (default ours)")
    args = ap.parse_args(argv)

    ref = args.ref
    if not ref:
        ref = subprocess.check_output([os.path.join(REPO, "misc", "reference-ninja.sh")],
                                      universal_newlines=True).strip()
    bins = {"ours": os.path.abspath(args.ours), "ref": os.path.abspath(ref)}
    for b, p in bins.items():
        if not os.access(p, os.X_OK):
            ap.error("%s binary %s is not executable" % (b, p))

    all_sc = scenarios()
    if args.scenarios:
        names = args.scenarios.split(",")
        unknown = set(names) - {s.name for s in all_sc}
        if unknown:
            ap.error("unknown scenario(s): %s" % ", ".join(sorted(unknown)))
        sel = [s for s in all_sc if s.name in names]
    elif args.perf:
        sel = [s for s in all_sc if s.name in ("noop", "noop-deps", "parse")]
    else:
        sel = all_sc

    quick = args.quick or (args.callgrind and not args.full)
    size = "quick" if quick else "full"
    os.makedirs(args.workdir, exist_ok=True)

    trees = {}
    for sc in sel:
        if sc.per_binary_tree:
            for b in bins:
                trees[(sc.tree, b)] = ensure_tree(args.workdir, size, sc.tree, "-" + b, args.regen)
        elif (sc.tree, None) not in trees:
            trees[(sc.tree, None)] = ensure_tree(args.workdir, size, sc.tree, "", args.regen)

    if args.perf:
        return perf_mode(args, sel, trees, bins)
    if args.callgrind:
        return callgrind_mode(args, sel, trees, bins, size)

    floor_exe = build_floor(args.workdir) if any(has_floor(sc) for sc in sel) else None
    started = datetime.datetime.now()
    load_start = os.getloadavg()
    results = []
    for sc in sel:
        log("scenario %s (%s)" % (sc.name, sc.what))
        if isinstance(sc, WatchLatency):
            results.append(sc.bench_entry(trees, bins, args.runs))
            continue
        if isinstance(sc, CacheBuild):
            sc.prepare(args.workdir, bins["ref"])
        if isinstance(sc, AuditBuild):
            sc.cleaner = bins["ref"]
        if isinstance(sc, SpawnWin):
            sc.prepare()
        res = bench_scenario(sc, trees, bins, args.runs, args.workdir)
        entry = {"scenario": sc.name, "what": sc.what, "args": sc.args, "tree": sc.tree}
        for b in bins:
            entry[b] = {"wall": res[b]["wall"], "cpu": res[b]["cpu"], "rss": res[b]["rss"],
                        "problems": res[b]["problems"], "work": sorted(res[b]["work"]),
                        "median_wall": med(res[b]["wall"]), "median_cpu": med(res[b]["cpu"]),
                        "median_rss_kb": med(res[b]["rss"])}
        if isinstance(sc, Makespan):
            bound = Makespan.lower_bound(trees[(sc.tree, "ours")])
            entry["lower_bound"] = bound
            notes = ["wall / nominal lower bound %.2f s: " % bound + ", ".join(
                "%s %.3f" % (b, med(res[b]["wall"]) / bound) for b in bins)]
            for b in bins:
                log_bounds = [x for x in trees[(sc.tree, b)].get("_log_bounds", []) if x]
                if log_bounds:
                    entry[b]["log_bounds"] = log_bounds
                    notes.append("%s / bound by its last log (median %.2f s): %.3f" % (
                        b, med(log_bounds), med(res[b]["wall"]) / med(log_bounds)))
            entry["notes"] = "; ".join(notes)
        if isinstance(sc, SpawnWin):
            n = trees[(sc.tree, "ours")]["meta"]["commands"]
            entry["notes"] = "under %s: ours = `%s`, ref = `%s`; starts a second: ours %.0f, ref %.0f" % (
                subprocess.check_output([sc.wine, "--version"], universal_newlines=True).strip(), sc.exes["ours"],
                sc.exes["ref"], n / med(res["ours"]["wall"]), n / med(res["ref"]["wall"]))
        if isinstance(sc, CacheBuild) and sc.backend != "off":
            base = next((r for r in results if r["scenario"] == "cache-off"), None)
            if base:
                entry["notes"] = "ours / ours without --cache: %.2f" % (
                    med(res["ours"]["wall"]) / base["ours"]["median_wall"])
        if isinstance(sc, VersusSelf):
            entry["notes"] = "ref columns: ours without %s; ours with / without: wall %.3f, CPU %.3f" % (
                sc.env.get("RONIN_FLAGS"), med(res["ours"]["wall"]) / med(res["ref"]["wall"]),
                med(res["ours"]["cpu"]) / med(res["ref"]["cpu"]))
        if has_floor(sc):
            floor = bench_floor(sc, trees[(sc.tree, None)], floor_exe, bins["ref"], args.runs, args.workdir)
            entry["floor"] = floor
            entry["notes"] = "single-threaded floor %.3f s: ours/floor %.2f, ref/floor %.2f" % (
                floor["median_wall"], med(res["ours"]["wall"]) / floor["median_wall"],
                med(res["ref"]["wall"]) / floor["median_wall"])
        if sc.name == "chain":
            notes = probe_default_stack(sc, trees, bins)
            bad = ["%s %s" % (b, n) for b, n in notes.items() if n != "ok"]
            if bad:
                entry["notes"] = "default 8 MB stack: " + ", ".join(bad)
        results.append(entry)

    table = markdown_table(results)
    tree_lines = []
    for (name, b), t in sorted(trees.items(), key=lambda x: (x[0][0], x[0][1] or "")):
        if b == "ref":
            continue
        m = t["meta"]
        desc = ", ".join("%s=%s" % (k, m[k]) for k in
                         ("edges", "files", "subninjas", "manifest_bytes", "deps_entries",
                          "deps_log_bytes", "commands") if k in m)
        tree_lines.append("- `%s` (%s): %s" % (name, os.path.dirname(t["root"]) + "/" +
                                               os.path.basename(t["root"]), desc))
    facts = machine_facts()
    facts["tree_fs"] = fs_type(args.workdir)
    cmdline = "misc/bench/run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    md = [table, "", "Trees:", *tree_lines, "",
          "Command: `%s`  " % cmdline.strip(),
          "Date: %s; runs per binary per scenario: %d (+1 warm-up), alternating ours/ref; medians.  " % (
              started.strftime("%Y-%m-%d %H:%M"), args.runs),
          "Machine: %s, %s cores, %s GB RAM, Linux %s, trees on %s; load average %.1f at start, "
          "%.1f at end.  " % (
              facts["cpu"], facts["cores"], facts.get("ram_gb", "?"), facts["kernel"], facts["tree_fs"],
              load_start[0], os.getloadavg()[0]),
          "ours = `%s`, ref = `%s`" % (bins["ours"], bins["ref"])]
    print("\n".join(md))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(md) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            facts["loadavg_start"], facts["loadavg_end"] = load_start[0], os.getloadavg()[0]
            json.dump({"date": started.isoformat(), "command": cmdline, "machine": facts,
                       "binaries": bins, "size": size, "runs": args.runs,
                       "trees": {"%s%s" % (k[0], "-" + k[1] if k[1] else ""): v["meta"]
                                 for k, v in trees.items()},
                       "results": results}, f, indent=1)
    bad = any(r[b]["problems"] for r in results for b in bins)
    return 1 if bad else 0


def callgrind_top(out_file, n):
    """Top-n functions by self Ir, via callgrind_annotate, names shortened."""
    try:
        text = subprocess.run(["callgrind_annotate", out_file], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, universal_newlines=True).stdout
    except OSError:
        return []
    rows, on = [], False
    for l in text.splitlines():
        if "file:function" in l:
            on = True
            continue
        if not on or not l.strip() or l.startswith("--"):
            continue
        m = re.match(r"\s*([\d,]+)\s+\(\s*([\d.]+)%\)\s+(?:[^:]*:)?(.*?)(?:\s+\[(.*)\])?$", l)
        if not m:
            continue
        fn = m.group(3)
        # drop the parameter list: keep up to the '(' matching the final ')'
        depth = 0
        for i in range(len(fn) - 1, -1, -1):
            if fn[i] == ")":
                depth += 1
            elif fn[i] == "(":
                depth -= 1
                if depth == 0:
                    fn = fn[:i] + fn[fn.rfind(")") + 1:]
                    break
        fn = short_symbol(fn.strip())
        lib = os.path.basename(m.group(4) or "")
        rows.append("%6s%%  %s%s" % (m.group(2), fn, "  (%s)" % lib if lib.startswith("lib") else ""))
        if len(rows) >= n:
            break
    return rows


def callgrind_mode(args, sel, trees, bins, size):
    if not shutil.which("valgrind"):
        log("valgrind not found")
        return 2
    cgdir = os.path.join(args.workdir, "callgrind")
    os.makedirs(cgdir, exist_ok=True)
    rows = []
    for sc in sel:
        row = {"scenario": sc.name}
        for b in bins:
            tree = trees[(sc.tree, b)] if sc.per_binary_tree else trees[(sc.tree, None)]
            # An untimed run first, as in the timed mode's round 0: the
            # previous binary in this tree may have left state (ours' graph
            # image is keyed by the binary) that only this binary's first run
            # rewrites, which is not the steady state measured. Before the
            # setup, which may make the tree dirty on purpose.
            run_measured([sc.binary(bins, b)] + sc.args, tree["bdir"], os.devnull,
                         sc.stack or BIG_STACK, use_time=False, extra_env=sc.env_for(b))
            sc.setup(tree)
            try:
                rc, ir, wall = callgrind_ir(sc.binary(bins, b), sc.args, tree["bdir"],
                                            os.path.join(cgdir, "%s.%s.out" % (sc.name, b)),
                                            sc.stack or BIG_STACK, sc.env_for(b))
            finally:
                sc.teardown(tree)
                sc.finish(tree)
            row[b] = ir
            row[b + "_rc"] = rc
            log("  %-13s %-4s Ir %s (%.1fs under valgrind)%s" % (
                sc.name, b, "{:,}".format(ir) if ir else "?", wall, "" if rc == 0 else " rc=%d" % rc))
        rows.append(row)
    lines = ["| scenario | ours Ir | ref Ir | ours/ref |", "|---|---|---|---|"]
    for r in rows:
        o, f = r["ours"], r["ref"]
        lines.append("| %s | %s | %s | %s |" % (
            r["scenario"], "{:,}".format(o) if o else "?", "{:,}".format(f) if f else "?",
            "%.2f" % (o / f) if o and f else "?"))
    lines.append("")
    lines.append("(callgrind, %s trees, one run each; Ir = instructions executed by ninja itself, "
                 "not by the commands it spawns)" % size)
    if shutil.which("callgrind_annotate") and args.top > 0:
        for r in rows:
            fns = callgrind_top(os.path.join(cgdir, "%s.ours.out" % r["scenario"]), args.top)
            if fns:
                lines.append("")
                lines.append("%s: top %d functions of ours by self Ir" % (r["scenario"], len(fns)))
                lines.extend("    " + f for f in fns)
    print("\n".join(lines))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"callgrind": rows, "binaries": bins, "size": size}, f, indent=1)
    return 0


def short_symbol(s):
    """Shortens libstdc++ template spellings in a perf line."""
    s = s.replace("std::basic_string_view<char, std::char_traits<char> >", "string_view")
    s = re.sub(r"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >",
               "string", s)
    # _Hashtable<K, std::pair<K const, V>, ...>::f  ->  unordered_map<K, V>::f
    m = re.search(r"std::_Hashtable<(.*?), std::pair<\1 const, (.*?)>, std::allocator<.*>::(\w+)", s)
    if m:
        s = s[:m.start()] + "std::unordered_map<%s, %s>::%s" % (m.group(1), m.group(2), m.group(3)) + \
            s[m.end():]
    return s


def perf_report(data, sort, limit):
    out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--stdio", "--sort", sort,
                          "-g", "none", "--percent-limit", str(limit)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True).stdout
    rows = []
    for l in out.splitlines():
        if not l.strip() or l.startswith("#"):
            continue
        l = re.sub(r"(\s+-)+\s*$", "", l.rstrip()).strip()
        l = re.sub(r"\s{2,}", "  ", l)
        rows.append(short_symbol(l))
    return out, rows


def perf_mode(args, sel, trees, bins):
    if not shutil.which("perf"):
        log("perf not found")
        return 2
    os.makedirs(args.perf, exist_ok=True)
    for sc in sel:
        tree = trees[(sc.tree, args.perf_which)] if sc.per_binary_tree else trees[(sc.tree, None)]
        data = os.path.join(os.path.abspath(args.perf), "%s.%s.data" % (sc.name, args.perf_which))
        # Run the binary --perf-reps times in one recording (more samples);
        # setup/teardown only bracket the whole recording, fine for the
        # read-only scenarios this is meant for.
        inner = " ; ".join(["%s %s" % (bins[args.perf_which], " ".join(sc.args))] * args.perf_reps)
        sc.setup(tree)
        try:
            run_measured(["perf", "record", "-q", "-F", "4999", "-g", "-o", data,
                          "--", "/bin/sh", "-c", inner],
                         tree["bdir"], os.path.join(args.perf, sc.name + ".out"), sc.stack,
                         use_time=False, extra_env=sc.env)
        finally:
            sc.teardown(tree)
            sc.finish(tree)
        report, rows = perf_report(data, "symbol", 0.2)
        with open(os.path.join(args.perf, "%s.%s.report.txt" % (sc.name, args.perf_which)), "w") as f:
            f.write(report)
        _, dsos = perf_report(data, "dso", 1)
        print("## %s (`ninja %s`, %d runs): top %d self-time symbols of %s" % (
            sc.name, " ".join(sc.args), args.perf_reps, args.top, args.perf_which))
        print("    by DSO: " + "; ".join(dsos[:4]))
        for l in rows[:args.top]:
            if len(l) > 160:
                l = l[:157] + "..."
            print("    " + l)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
