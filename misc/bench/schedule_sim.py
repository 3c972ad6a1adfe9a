#!/usr/bin/env python3
"""List-scheduling simulator: how ordering rules for ready edges do on the
makespan tree and on random DAGs (doc/performance.md, "Scheduling").

  schedule_sim.py TREE_DIR           the makespan tree (gen_tree.py --makespan)
  schedule_sim.py TREE_DIR --random  also random DAGs of three families, with
                                     exact and perturbed durations

Greedy list scheduling on J slots: whenever a slot is free, the ready edge
the rule ranks first starts; commands take their durations exactly (no
start-up cost). Rules:
  count      Ninja 1.13: the longest chain of commands (every edge weighs 1)
  bl         critical path by duration (bottom level)
  bl floor   the same with durations floored at 200 ms (ronin's order)
  rev alap   resource-aware ALAP: list-schedule the reversed graph on J
             slots; start first what must start earliest counted from the end
With --random, the rules rank by the durations of the last run, and the
build takes them perturbed by +-10 % or +-30 % (as compile times vary).
"""
import heapq
import random
import re
import statistics
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tree  # noqa: E402


class Graph:
    def __init__(self, order, ins, dur):
        self.order, self.ins, self.dur = order, ins, dur
        self.users = {o: [] for o in order}
        for o in order:
            for i in ins[o]:
                self.users[i].append(o)
        self.idx = {o: k for k, o in enumerate(order)}

    def bottom(self, w):
        """Longest chain of weights from each edge to the end (inputs come first in `order`)."""
        bl = {}
        for o in reversed(self.order):
            bl[o] = w[o] + max((bl[u] for u in self.users[o]), default=0)
        return bl

    def top(self, w):
        tl = {}
        for o in self.order:
            tl[o] = max((tl[i] + w[i] for i in self.ins[o]), default=0)
        return tl

    def bound(self, jobs):
        return max(max(self.bottom(self.dur).values()), sum(self.dur.values()) / jobs)


def list_schedule(g, jobs, prio, dur, reverse=False):
    """Greedy list scheduling; returns (makespan, finish time of each edge).
    Reversed: an edge is ready once all its users are done."""
    before, after = (g.users, g.ins) if reverse else (g.ins, g.users)
    waiting = {o: len(before[o]) for o in g.order}
    ready = [(-prio[o], g.idx[o], o) for o in g.order if waiting[o] == 0]
    heapq.heapify(ready)
    running, t, finish = [], 0.0, {}
    while ready or running:
        while ready and len(running) < jobs:
            _, _, o = heapq.heappop(ready)
            heapq.heappush(running, (t + dur[o], g.idx[o], o))
        t, _, done = heapq.heappop(running)
        finish[done] = t
        for u in after[done]:
            waiting[u] -= 1
            if waiting[u] == 0:
                heapq.heappush(ready, (-prio[u], g.idx[u], u))
    return t, finish


def priorities(g, jobs):
    """Each rule's priority (higher starts first), from g.dur (the last run's durations)."""
    bl = g.bottom(g.dur)
    tl = g.top(g.dur)
    _, rev_finish = list_schedule(g, jobs, {o: tl[o] + g.dur[o] for o in g.order}, g.dur, reverse=True)
    return {
        "count": g.bottom({o: 1 for o in g.order}),
        "bl": bl,
        "bl floor": g.bottom({o: max(g.dur[o], 0.2) for o in g.order}),
        "rev alap": {o: rev_finish[o] + bl[o] * 1e-9 for o in g.order},
    }


def makespan_tree(tree_dir):
    bdir = os.path.join(tree_dir, "out")
    inputs = gen_tree.makespan_inputs(bdir)
    with open(os.path.join(bdir, "build.ninja")) as f:
        dur = {o: float(d) for o, d in re.findall(r"^build (\S+): work [^\n]*\n  d = ([\d.]+)", f.read(), re.M)}
    return Graph(list(inputs), inputs, dur)


class Builder:
    """Collects a random graph's edges in order (inputs first)."""

    def __init__(self):
        self.order, self.ins, self.dur = [], {}, {}

    def add(self, name, seconds, inputs=()):
        self.order.append(name)
        self.ins[name] = list(inputs)
        self.dur[name] = seconds
        return name

    def graph(self):
        return Graph(self.order, self.ins, self.dur)


def layered(rng, n):
    """Heavy-tailed sources (some behind a quick generator), a few fan-in levels."""
    b = Builder()
    layer = []
    for i in range(n):
        pre = [b.add("g%d" % i, rng.choice([0.02, 0.05, 0.1]))] if rng.random() < 0.4 else []
        layer.append(b.add("s%d" % i, min(8.0, 0.2 * rng.paretovariate(1.2)), pre))
    for level in range(rng.randint(1, 3)):
        layer = [b.add("l%d_%d" % (level, j), rng.choice([0.05, 0.2, 0.5, 1.0, 2.0, 3.0]),
                       rng.sample(layer, rng.randint(1, min(len(layer), 10))))
                 for j in range(max(1, len(layer) // rng.randint(3, 8)))]
    return b.graph()


def chains(rng, n):
    """Chains of 1-12 heavy-tailed steps into a few sinks."""
    b = Builder()
    ends = []
    for c in range(max(1, n // 5)):
        prev = []
        for k in range(rng.randint(1, 12)):
            prev = [b.add("c%d_%d" % (c, k), min(6.0, 0.1 * rng.paretovariate(1.1)), prev)]
        ends.append(prev[0])
    for s in range(rng.randint(1, 4)):
        b.add("sink%d" % s, rng.choice([0.1, 1, 3]), rng.sample(ends, max(1, len(ends) // 2)))
    return b.graph()


def compiles(rng, n):
    """Chromium-like: compiles per directory, an archive each, links over many archives."""
    b = Builder()
    libs = []
    for d in range(max(2, n // 20)):
        objs = [b.add("o%d_%d" % (d, k), 0.3 + rng.expovariate(1.0)) for k in range(rng.randint(3, 30))]
        libs.append(b.add("a%d" % d, 0.1, objs))
    for k in range(rng.randint(1, 6)):
        b.add("link%d" % k, rng.uniform(1, 10), rng.sample(libs, rng.randint(1, len(libs))))
    return b.graph()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    jobs = 4
    g = makespan_tree(sys.argv[1])
    bound = g.bound(jobs)
    print("makespan tree, %d slots: nominal bound %.3f s" % (jobs, bound))
    for name, prio in priorities(g, jobs).items():
        m, _ = list_schedule(g, jobs, prio, g.dur)
        print("  %-9s %.3f s  %.3f of the bound" % (name, m, m / bound))
    if "--random" not in sys.argv:
        return
    rng = random.Random(11)
    print("random DAGs, 50 each: mean / worst makespan over the bound of what ran")
    for family in (layered, chains, compiles):
        for slots in (4, 8):
            for noise in (0.0, 0.1, 0.3):
                ratios = {}
                for _ in range(50):
                    g = family(rng, rng.randint(20, 200))
                    ran = {o: d * rng.uniform(1 - noise, 1 + noise) for o, d in g.dur.items()}
                    actual = Graph(g.order, g.ins, ran)
                    for name, prio in priorities(g, slots).items():
                        m, _ = list_schedule(g, slots, prio, ran)
                        ratios.setdefault(name, []).append(m / actual.bound(slots))
                print("  %-8s j%-2d +-%2d%%  " % (family.__name__, slots, noise * 100) + "  ".join(
                    "%s %.4f/%.3f" % (k, statistics.mean(v), max(v)) for k, v in ratios.items()))


if __name__ == "__main__":
    main()
