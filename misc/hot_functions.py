#!/usr/bin/env python3
"""Writes cmake/hot-functions.txt: the functions a build executes, for the
linker to place together (lld's --symbol-ordering-file, see CMakeLists.txt).

Why: a small build touches ~250 KB of ninja's ~1.8 MB of code, spread over
most of it. The kernel maps file pages around each fault in 64 KiB windows
(fault-around), so that code made ~1.4 MB of the resident set of a build of
5,000 `touch` commands (3.4 MB in all). Placed together it is ~0.6 MB.

How: runs a freshly built ninja under `valgrind --tool=callgrind
--dump-instr=yes` on small workloads (a spawn tree; a deps tree built from
clean, a no-op, `-n` after touching a header, two --content-hash builds,
`-t targets all`), maps every executed instruction to its symbol
(`nm`), and lists the symbols most workloads use first. String functions
are chosen by glibc at start-up for the CPU (valgrind's differs from the
machine's), so every variant of a used one is listed; so is the code
posix_spawn's child runs in ninja's memory before exec, which valgrind
does not see.

  misc/hot_functions.py build/ninja            # rewrites cmake/hot-functions.txt

A stale list only makes the layout worse, never the binary wrong: names
that no longer exist are ignored by the linker.
"""

import argparse
import bisect
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN_TREE = os.path.join(REPO, "misc", "bench", "gen_tree.py")

# Code that runs in ninja's address space but not under valgrind's eyes:
# posix_spawn's child (CLONE_VM, before exec) and what it calls.
SPAWN_CHILD = re.compile(r"^(__spawni_child|__spawni|__spawnix|__posix_spawn\w*|posix_spawn\w*|__execve|execve|"
                         r"__execvpe\w*|maybe_script_execute|__libc_sigaction|__sigaction|sigaction|__dup2|dup2|"
                         r"__setpgid|setpgid|__close_range|close_range|_exit|_Exit|__sigprocmask|sigprocmask|"
                         r"__pthread_sigmask|pthread_sigmask)$")
# glibc's string and memory functions come in CPU-specific variants; the
# ones an x86-64 machine of the last decade picks (not the SSE2 baseline,
# not those for Intel's transactional memory).
VARIANT = re.compile(r"^__(mem\w*?|str\w*?|stp\w*?|wmem\w*?|wcs\w*?|raw\w*?)_(avx|evex|sse|ssse|erms|rtm|unaligned)")
MODERN = re.compile(r"_(avx2|avx|evex|avx512)(_\w+)?$")


def run(cmd, cwd, env=None):
    full = dict(os.environ, **(env or {}))
    subprocess.run(cmd, cwd=cwd, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def touch(paths):
    now = time.time_ns()
    for p in paths:
        os.utime(p, ns=(now, now))


def profile_workloads(ninja, work):
    """Runs each workload under callgrind; returns (workload, profile files)."""
    profiles = []
    count = [0]

    def grind(name, args, cwd, env=None):
        count[0] += 1
        out = os.path.join(work, "cg.%02d.%s.%%p" % (count[0], name))
        run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no", "--compress-strings=no",
             "--callgrind-out-file=" + out, ninja] + args, cwd, env)
        profiles.append((name, glob.glob(out.replace("%p", "*"))))

    spawn = os.path.join(work, "spawn")
    run([sys.executable, GEN_TREE, spawn, "--spawn", "100"], work)
    sbdir = os.path.join(spawn, "out")
    grind("spawn-clean", ["-j2"], sbdir)
    os.unlink(os.path.join(sbdir, ".ninja_log"))
    grind("spawn", ["-j2"], sbdir)
    os.unlink(os.path.join(sbdir, ".ninja_log"))
    grind("spawn-sh", ["-j2"], sbdir, {"RONIN_SKIP_SHELL": "0"})

    deps = os.path.join(work, "deps")
    run([sys.executable, GEN_TREE, deps, "--deps", "--edges", "400", "--files", "1200", "--subninjas", "8"], work)
    bdir = os.path.join(deps, "out", "Default")
    run([ninja, "-t", "clean"], bdir)
    grind("deps-clean", ["-j2"], bdir)
    grind("noop", [], bdir)
    grind("targets", ["-t", "targets", "all"], bdir)
    header = os.path.join(deps, "build", "build_config.h")
    touch([header])
    grind("hot-header-n", ["-n"], bdir)
    grind("hot-header", ["-j2"], bdir)
    sources = sorted(glob.glob(os.path.join(deps, "**", "*.cc"), recursive=True))[::3]
    env = {"RONIN_FLAGS": "--content-hash"}
    touch(sources + [header])
    grind("content-hash-first", ["-j2"], bdir, env)
    touch(sources + [header])
    grind("branch-switch", ["-j2"], bdir, env)
    return profiles


def executed_addresses(path):
    addresses = set()
    for line in open(path, errors="replace"):
        if line.startswith("0x"):
            addresses.add(int(line.split(None, 1)[0], 16))
    return addresses


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ninja", help="the ninja binary to profile (a static build: nm must see libc)")
    ap.add_argument("--out", default=os.path.join(REPO, "cmake", "hot-functions.txt"))
    args = ap.parse_args()
    ninja = os.path.abspath(args.ninja)

    symbols = []
    nm = subprocess.run(["nm", "--defined-only", "-S", ninja], capture_output=True, text=True, check=True)
    for line in nm.stdout.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4 and parts[2] in "tTwWiI":
            symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    symbols.sort()
    starts = [s[0] for s in symbols]

    work = tempfile.mkdtemp(prefix="ronin-hot-")
    try:
        profiles = profile_workloads(ninja, work)
        used_by = collections.Counter()
        first_seen = {}
        for name, files in profiles:
            here = set()
            for path in files:
                for address in sorted(executed_addresses(path)):
                    i = bisect.bisect_right(starts, address) - 1
                    if i < 0 or address >= symbols[i][0] + max(symbols[i][1], 1):
                        continue
                    here.add(symbols[i][2])
                    first_seen.setdefault(symbols[i][2], len(first_seen))
            used_by.update(here)
            print("%-20s %5d functions" % (name, len(here)), file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    # Functions every workload runs first, then the others; within a
    # count, in the order they first ran.
    order = sorted(used_by, key=lambda n: (-used_by[n], first_seen[n]))
    families = {m.group(1) for m in map(VARIANT.match, order) if m}
    listed = set(order)
    for _, _, name in symbols:
        m = VARIANT.match(name)
        modern = m and m.group(1) in families and MODERN.search(name) and "_rtm" not in name
        if name not in listed and (modern or SPAWN_CHILD.match(name)):
            order.append(name)
            listed.add(name)
    with open(args.out, "w") as f:
        f.write("\n".join(order) + "\n")
    print("%d symbols -> %s" % (len(order), args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
