#!/usr/bin/env python3
"""spawn_latency.py STRACE: how soon ninja notices a command's end and starts
the next one. STRACE is the output of

  strace --seccomp-bpf -f -ttt -e trace=clone3,execve,exit_group,wait4,ppoll \
      -o STRACE ninja -j4

(ninja must be the first pid). Prints the median, 90th percentile and
maximum, over all commands, of the time from the command's top process
exiting to ninja waking, to ninja reaping it, and to ninja's next spawn
(when it starts one before waiting again)."""
import re, sys, statistics
lines = open(sys.argv[1]).read().splitlines()
ninja = lines[0].split()[0]
children = set()   # ninja's direct children (spawned commands)
exit_at = {}       # pid -> time of "+++ exited"
events = []        # (time, kind, pid)
for line in lines:
    pid, t, rest = line.split(None, 2)
    t = float(t)
    if pid == ninja:
        m = re.match(r"(?:<\.\.\. )?clone3.*= (\d+)$", rest)
        if m: children.add(m.group(1))
        if rest.startswith("clone3("): events.append((t, "spawn", pid))
        m = re.match(r"wait4\((\d+),", rest)
        if m: events.append((t, "reap", m.group(1)))
        if "ppoll resumed" in rest: events.append((t, "wake", pid))
    elif rest.startswith("+++ exited"):
        exit_at[pid] = t
# per reaped child: exit -> ninja wakes -> reaps -> next spawn (if one follows before the next wait)
wake, reap, spawn = [], [], []
for i, (t, kind, pid) in enumerate(events):
    if kind != "reap" or pid not in exit_at: continue
    e = exit_at[pid]
    wakes = [w for (w, k, _) in events[:i] if k == "wake" and w >= e]
    if wakes: wake.append(wakes[0] - e)
    reap.append(t - e)
    # the next spawn before ninja waits again
    for (t2, k2, _) in events[i + 1:]:
        if k2 == "spawn": spawn.append(t2 - e); break
        if k2 in ("wake", "reap"): break
def show(name, xs):
    xs = sorted(x * 1000 for x in xs)
    if xs: print("%-28s n=%3d median %.3f ms  p90 %.3f ms  max %.3f ms" % (name, len(xs), statistics.median(xs), xs[int(len(xs) * .9)], xs[-1]))
show("exit -> ninja wakes", wake)
show("exit -> ninja reaps", reap)
show("exit -> next command spawned", spawn)
