#!/usr/bin/env python3
"""A live one-line summary of a build, read from its event stream (doc/events.md).

    ninja --events=fd:3 3>&1 >/dev/null | misc/events_summary.py
    mkfifo ev; misc/events_summary.py < ev & ninja --events=ev

Prints, as the build goes, "build N: F/P done, R running (last: OUTPUT)", then one line per build
with its result and counts, and each failed command's outputs.
"""
import json
import sys

running, done = {}, 0
for line in sys.stdin:
    event = json.loads(line)
    kind = event["event"]
    if kind == "build_start":
        running, done = {}, 0
    elif kind == "edge_start":
        running[event["edge"]] = event["outputs"][0]
    elif kind == "edge_end":
        running.pop(event["edge"], None)
        done += 1
        if event["result"] == "failure":
            print("\nFAILED: %s" % " ".join(event["outputs"]))
    if kind in ("edge_start", "edge_end"):
        last = event["outputs"][0]
        sys.stdout.write("\rbuild %d: %d done, %d running (last: %s)\x1b[K" % (event["build"], done, len(running), last))
        sys.stdout.flush()
    elif kind == "build_end":
        counts = event["counts"]
        print("\rbuild %d: %s, %d of %d commands run, %d failed, %d cached\x1b[K" % (
            event["build"], event["result"], counts["started"], counts["planned"], counts["failed"], counts["cached"]))
