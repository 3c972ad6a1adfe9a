#!/usr/bin/env python3
"""Chaos soak: random graphs built under random faults must end up exactly
as a from-scratch build of the same sources.

Graphs come from the differential generator (test_diff_random.py) with its
commands swapped for ones whose outputs are the concatenation of their
inputs (so a stale output shows as wrong content), and kept only when
reference ninja builds them cleanly from scratch. Each round edits, touches,
deletes or restores a few sources, runs ronin with a random -j and -k, and
injects one fault:

  signal   SIGINT, SIGTERM or SIGKILL at a random moment of the build
  diskfull the build directory is a small tmpfs (when root can mount one;
           else RLIMIT_FSIZE, `ulimit -f`) filled to a few KB of room
  corrupt  the tail of .ninja_log, .ninja_deps or .ronin_state cut or
           overwritten with garbage
  none     an ordinary build

then runs ronin once more, uninterrupted, and checks: same exit status and
same output contents as a from-scratch build of the same sources in a fresh
directory, a second run with no work to do, and reference ninja 1.13.2
(`-n`) finding nothing to do either.

    NINJA=build/ninja REF_NINJA=... python3 chaos_soak.py --rounds 2000 --seed 1

Prints counts of rounds and faults per kind; exits 1 at the first failure
with the seed, round and a copy of the directory to look at.
"""

import argparse
import collections
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
import test_diff_random as gen  # noqa: E402

# Outputs are their inputs' contents (for each output of the edge), after a
# few ms, so that signals land while commands run.
CAT = "sleep 0.00%d; for o in $out; do cat $in /dev/null > \"$$o\"; done"
COMMANDS = [CAT % 1, CAT % 3, CAT % 5 + "; echo note >&2",
            CAT % 2 + "; for o in $out; do echo \"$$o: n.h\" > \"$$o.d\"; done"]
LOGS = [".ninja_log", ".ninja_deps", ".ronin_state"]
PRIVATE = (".ninja_log", ".ninja_deps", ".ninja_lock", ".ronin_state", ".ronin_lock", "filler")


def run(binary, args, cwd, timeout=60, limit_fsize=None):
    def preexec():
        if limit_fsize is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
    return subprocess.run([binary] + args, cwd=cwd, env=harness.base_env(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          errors="replace", timeout=timeout, preexec_fn=preexec)


def outputs_of(root):
    """Every file of the tree but ronin's own state, with its content."""
    tree = {}
    for base, dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(base, name)
            rel = os.path.relpath(path, root)
            if rel in PRIVATE or rel.startswith(".ronin"):
                continue
            with open(path, "rb") as f:
                tree[rel] = f.read()
    return tree


def clear(root):
    for name in os.listdir(root):
        path = os.path.join(root, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.faults = collections.Counter()
        self.ref = harness.REF_NINJA
        self.work = tempfile.mkdtemp(prefix="ronin-soak-")
        self.dir = os.path.join(self.work, "build")
        self.scratch = os.path.join(self.work, "scratch")
        os.makedirs(self.dir)
        os.makedirs(self.scratch)
        self.tmpfs = False
        if os.geteuid() == 0 and not args.no_tmpfs:
            self.tmpfs = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", self.dir],
                                        stderr=subprocess.DEVNULL).returncode == 0
        self.disk_fault = "tmpfs" if self.tmpfs else "ulimit -f"

    def close(self):
        if self.tmpfs:
            subprocess.run(["umount", "-l", self.dir])
        shutil.rmtree(self.work, True)

    # A graph reference ninja builds cleanly, and its sources.
    def new_graph(self):
        # The generator's deliberately broken lines and odd keys make most
        # graphs fail; the soak wants graphs that build.
        gen.COMMANDS = COMMANDS
        gen.BROKEN_LINES = ["# nothing broken"]
        gen.RULE_KEYS = ["description", "depfile", "restat", "pool", "deps"]
        while True:
            files = gen.random_manifest(self.rng)
            for name in gen.NAMES:
                if self.rng.random() < 0.9 and not name.startswith(("o//", "sub/")):
                    files.setdefault(name, "%s %d\n" % (name, self.rng.randint(0, 9)))
            clear(self.scratch)
            harness.write_tree(self.scratch, files)
            checker = self.ref or harness.NINJA
            targets = run(checker, ["-t", "targets", "all"], self.scratch)
            if targets.returncode != 0:
                continue
            built = {line.rsplit(": ", 1)[0] for line in targets.stdout.splitlines()}
            # Sources are what no edge writes.
            sources = {k: v for k, v in files.items() if os.path.normpath(k) not in built}
            clear(self.scratch)
            harness.write_tree(self.scratch, sources)
            first = run(checker, ["-j4"], self.scratch)
            if first.returncode != 0 or "ninja: no work to do." in first.stdout:
                continue
            if run(checker, [], self.scratch).stdout != "ninja: no work to do.\n":
                continue
            self.files = sources
            self.sources = dict(sources)
            # Half the graphs run with an option that keeps .ronin_state,
            # so that file's tail gets corrupted too; it changes no decision.
            os.environ["RONIN_FLAGS"] = self.rng.choice(["", "--keep-free-memory=1K"])
            clear(self.dir)
            harness.write_tree(self.dir, self.files)
            return

    def mutate(self):
        names = sorted(n for n in self.sources if not n.endswith(".ninja"))
        for _ in range(self.rng.randint(1, 3) if names else 0):
            name = self.rng.choice(names)
            path = os.path.join(self.dir, name)
            kind = self.rng.choice(["edit", "touch", "delete", "restore"])
            if kind == "edit":
                self.sources[name] = "%s %d\n" % (name, self.rng.randint(0, 1 << 30))
            if kind == "delete":
                self.sources.pop(name)
                names.remove(name)
                if os.path.exists(path):
                    os.unlink(path)
                if not names:
                    break
                continue
            if kind == "restore":
                self.sources[name] = self.files[name]
            harness.write_tree(self.dir, {name: self.sources[name]})
            if kind == "touch":
                os.utime(path, None)
        if self.rng.random() < 0.3:  # bring back what was deleted
            for name, text in self.files.items():
                if name not in self.sources:
                    self.sources[name] = text
                    harness.write_tree(self.dir, {name: text})

    def faulty_run(self):
        jobs = "-j%d" % self.rng.choice([1, 2, 3, 8, 50])
        keep = ["-k", str(self.rng.choice([0, 1, 2]))]
        kind = self.rng.choice(["signal", "signal", "diskfull", "corrupt", "none"])
        args = [harness.NINJA, jobs] + keep
        if kind == "signal":
            sig = self.rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
            self.faults[signal.Signals(sig).name] += 1
            proc = subprocess.Popen(args, cwd=self.dir, env=harness.base_env(), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(self.rng.random() * 0.03)
            proc.send_signal(sig)
            proc.wait(timeout=60)
        elif kind == "diskfull":
            self.faults["disk full (%s)" % self.disk_fault] += 1
            room = self.rng.randint(0, 8192)
            if self.tmpfs:
                self.fill_disk(room)
                run(harness.NINJA, args[1:], self.dir)
                os.unlink(os.path.join(self.dir, "filler"))
            else:
                size = sum(os.path.getsize(os.path.join(self.dir, n)) for n in LOGS
                           if os.path.exists(os.path.join(self.dir, n)))
                run(harness.NINJA, args[1:], self.dir, limit_fsize=size + room)
        elif kind == "corrupt":
            run(harness.NINJA, args[1:], self.dir)
            self.corrupt_a_log()
        else:
            self.faults["none"] += 1
            run(harness.NINJA, args[1:], self.dir)

    def fill_disk(self, room):
        stat = os.statvfs(self.dir)
        free = stat.f_bavail * stat.f_frsize
        with open(os.path.join(self.dir, "filler"), "wb") as f:
            try:
                f.write(b"\0" * max(0, free - room))
            except OSError:
                pass

    def corrupt_a_log(self):
        present = [n for n in LOGS if os.path.exists(os.path.join(self.dir, n))]
        if not present:
            self.faults["corrupt (no log yet)"] += 1
            return
        name = self.rng.choice(present)
        path = os.path.join(self.dir, name)
        size = os.path.getsize(path)
        cut = self.rng.randint(max(0, size - 64), size)
        with open(path, "r+b") as f:
            f.truncate(cut)
            if self.rng.random() < 0.5:
                f.seek(cut)
                f.write(bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 24))))
        self.faults["corrupt " + name] += 1

    def check(self, round_number):
        # With a source deleted, whether the build fails depends on what is
        # up to date (a missing input of a clean edge is no error): ninja
        # 1.13.2 on a copy of the same directory is the judge of that.
        twin = os.path.join(self.work, "twin")
        shutil.rmtree(twin, True)
        if self.ref and self.sources.keys() != self.files.keys():
            shutil.copytree(self.dir, twin, symlinks=True)
        final = run(harness.NINJA, ["-j4"], self.dir)
        clear(self.scratch)
        harness.write_tree(self.scratch, self.sources)
        expected = run(self.ref or harness.NINJA, ["-j4"], self.scratch)
        judge = self.scratch
        if expected.returncode != 0 and os.path.isdir(twin):
            expected = run(self.ref, ["-j4"], twin)
            judge = twin
        problems = []
        if (final.returncode == 0) != (expected.returncode == 0):
            problems.append("final run exit %d, from scratch %d\n%s%s" % (
                final.returncode, expected.returncode, final.stdout, final.stderr))
        elif final.returncode == 0:
            ours, theirs = outputs_of(self.dir), outputs_of(judge)
            if ours != theirs:
                diff = sorted(k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k))
                problems.append("outputs differ from a from-scratch build: %s" % diff)
            again = run(harness.NINJA, [], self.dir)
            if again.stdout != "ninja: no work to do.\n":
                problems.append("second run was not a no-op:\n" + again.stdout + again.stderr)
            if self.ref:
                ref = run(self.ref, ["-n", "-d", "explain"], self.dir)
                if "ninja: no work to do." not in ref.stdout:
                    problems.append("ninja 1.13.2 finds work:\n" + ref.stdout + ref.stderr)
        if problems:
            keep = tempfile.mkdtemp(prefix="ronin-soak-failure-")
            shutil.copytree(self.dir, os.path.join(keep, "build"), symlinks=True)
            print("FAILED at seed %d round %d (tree kept in %s):\n%s\n--- build.ninja\n%s" % (
                self.args.seed, round_number, keep, "\n".join(problems), self.files["build.ninja"]))
            return False
        return True

    def soak(self):
        for round_number in range(1, self.args.rounds + 1):
            if round_number % 100 == 1:
                self.new_graph()
            self.mutate()
            self.faulty_run()
            if not self.check(round_number):
                return False
            if round_number % 100 == 0:
                print("seed %d: %d rounds, faults %s" % (self.args.seed, round_number, dict(self.faults)), flush=True)
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-tmpfs", action="store_true", help="use ulimit -f for a full disk")
    args = parser.parse_args()
    soak = Soak(args)
    try:
        ok = soak.soak()
    finally:
        soak.close()
    print("chaos soak seed %d: %d rounds, ref ninja %s, faults: %s" % (
        args.seed, args.rounds, "yes" if soak.ref else "no (skipped its check)",
        ", ".join("%s %d" % kv for kv in sorted(soak.faults.items()))))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
