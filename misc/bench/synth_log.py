#!/usr/bin/env python3
"""Give a generated tree's .ninja_log a realistic history, for timing
`ninja -t trace` and `ninja -t report` (gen_tree.py writes every entry as
0..1 ms, which no real build does).

Rewrites LOG in place as two builds of every command: an earlier one and
the last one, each a -jN schedule (in log order, ignoring dependencies) of
durations drawn from a seeded generator by the kind of output (objects
take longer than stamps, links longest). Mtimes and command hashes are
kept, so the tree stays up to date.

  synth_log.py /tmp/ronin-bench/plain/out/Default/.ninja_log -j 32
"""

import argparse
import heapq
import os
import random


def duration_range(output):
    base = os.path.basename(output)
    if base.endswith((".o", ".obj")):
        return 150, 4000
    if base.endswith((".stamp", ".h", ".cc", ".inputdeps")):
        return 5, 120
    if base.endswith((".a", ".so")):
        return 100, 900
    return 600, 9000  # executables and the rest


def schedule(commands, durations, jobs):
    """(start, end, command index) in order of finishing."""
    free = [(0, slot) for slot in range(jobs)]
    done = []
    for index, _ in enumerate(commands):
        start, slot = heapq.heappop(free)
        end = start + durations[index]
        heapq.heappush(free, (end, slot))
        done.append((start, end, index))
    done.sort(key=lambda item: (item[1], item[2]))
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("-j", type=int, default=32, help="job slots (default %(default)s)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with open(args.log) as f:
        header = f.readline()
        lines = [line.rstrip("\n").split("\t") for line in f if line.count("\t") == 4]
    commands = []  # lists of (output, mtime, hash); one command's outputs share a hash
    for _, _, mtime, output, cmd_hash in lines:
        if commands and commands[-1][0][2] == cmd_hash:
            commands[-1].append((output, mtime, cmd_hash))
        else:
            commands.append([(output, mtime, cmd_hash)])
    rng = random.Random(args.seed)
    last = [rng.randint(*duration_range(c[0][0])) for c in commands]
    earlier = [max(1, int(d * rng.uniform(0.7, 1.3))) for d in last]
    with open(args.log, "w") as f:
        f.write(header)
        for durations in (earlier, last):
            for start, end, index in schedule(commands, durations, args.j):
                for output, mtime, cmd_hash in commands[index]:
                    f.write("%d\t%d\t%s\t%s\t%s\n" % (start, end, mtime, output, cmd_hash))
    print("%s: %d commands, two builds of -j%d" % (args.log, len(commands), args.j))


if __name__ == "__main__":
    main()
