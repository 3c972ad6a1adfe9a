"""Synthetic build trees with a made-up but consistent history, for the
trace and report tests: a manifest of `touch` commands and a .ninja_log as
ninja would have written it after running them with -jN, with durations
drawn from a seeded generator. Also the expected answers (last build,
critical path) computed independently of ninja.
"""

import heapq
import random
import zlib


def write_log(path, lines):
    """lines: (start_ms, end_ms, output, hash) in file order."""
    with open(path, "w") as f:
        f.write("# ninja log v7\n")
        for start, end, output, cmd_hash in lines:
            f.write("%d\t%d\t0\t%s\t%x\n" % (start, end, output, cmd_hash))


class Tree:
    """A layered tree: objects (rule cc) -> archives (rule ar) -> programs
    (rule link). edges: output -> (rule, [input outputs])."""

    def __init__(self, edge_count, seed=1):
        rng = random.Random(seed)
        self.edges = {}
        links = max(1, edge_count // 50)
        archives = max(1, edge_count // 10)
        objects = edge_count - links - archives
        objs = ["obj/o%d.o" % i for i in range(objects)]
        for o in objs:
            self.edges[o] = ("cc", [])
        libs = []
        for j in range(archives):
            members = objs[j::archives]
            lib = "lib/l%d.a" % j
            self.edges[lib] = ("ar", members)
            libs.append(lib)
        for k in range(links):
            self.edges["bin/p%d" % k] = ("link", rng.sample(libs, min(len(libs), 3)))
        ranges = {"cc": (30, 900), "ar": (10, 120), "link": (200, 1500)}
        self.duration = {out: rng.randint(*ranges[rule]) for out, (rule, _) in self.edges.items()}

    def manifest(self):
        text = ["rule %s\n  command = touch $out\n" % rule for rule in ("cc", "ar", "link")]
        for out, (rule, inputs) in self.edges.items():
            text.append("build %s: %s %s\n" % (out, rule, " ".join(inputs)))
        text.append("build all: phony %s\ndefault all\n" % " ".join(o for o in self.edges if o.startswith("bin/")))
        return "".join(text)

    def simulate(self, jobs, offset_ms=0):
        """Runs the tree with `jobs` slots in manifest order as far as the
        dependencies allow; returns log lines in order of finishing."""
        waiting = {out: len(inputs) for out, (_, inputs) in self.edges.items()}
        users = {out: [] for out in self.edges}
        for out, (_, inputs) in self.edges.items():
            for i in inputs:
                users[i].append(out)
        order = {out: n for n, out in enumerate(self.edges)}
        ready = [(order[o], o) for o, n in waiting.items() if n == 0]
        heapq.heapify(ready)
        running, lines, now = [], [], 0
        while ready or running:
            while ready and len(running) < jobs:
                _, out = heapq.heappop(ready)
                heapq.heappush(running, (now + self.duration[out], now, out))
            end, start, out = heapq.heappop(running)
            now = end
            lines.append((start + offset_ms, end + offset_ms, out, zlib.crc32(out.encode())))
            for user in users[out]:
                waiting[user] -= 1
                if waiting[user] == 0:
                    heapq.heappush(ready, (order[user], user))
        return lines

    def critical_path(self):
        """(total ms, outputs first to last) of the longest chain."""
        best = {}
        for out, (_, inputs) in self.edges.items():  # manifest order is topological
            prev = max(inputs, key=lambda i: best[i][0], default=None)
            base = best[prev][0] if prev else 0
            best[out] = (base + self.duration[out], prev)
        last = max(best, key=lambda o: best[o][0])
        chain, node = [], last
        while node:
            chain.append(node)
            node = best[node][1]
        return best[last][0], chain[::-1]
