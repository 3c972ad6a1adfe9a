#!/usr/bin/env python3
"""Checks an event stream (`ninja --events=PATH`) against its schema, doc/events.md (version 1).

    misc/events_schema.py EVENTS_FILE       prints each problem, exit status 1 if any

Every line must be one JSON object of a known event with the documented fields and types, the
stream must be in order (stream_start first, builds numbered from 1, each build_start closed by a
build_end, an edge_end for every edge_start, times that never go back, stream_end last) and
complete. A stream cut short (`allow_cut=True`) may stop anywhere but must be valid up to there.
The tests import check_stream(); Python 3 standard library only.
"""

import json
import sys

STR, INT, BOOL, NUM = "string", "integer", "boolean", "number"
NULL_INT, NULL_NUM, NULL_STR = "integer or null", "number or null", "string or null"
STRS = "array of strings"

EDGE = {"edge": INT, "outputs": STRS}
OPTIONS = {"content_hash": BOOL, "cache": NULL_STR, "keep_free_memory": INT, "remote_jobs": INT,
           "jobserver_pool": BOOL}
LOG = {"mtime": INT, "command_hash": "hex64"}
COUNTS = {"planned": INT, "started": INT, "succeeded": INT, "failed": INT, "cached": INT, "skipped": INT}

# Event -> its fields (besides event, t and build) and their types.
EVENTS = {
    "stream_start": {"schema": STR, "version": INT, "ninja_version": STR, "pid": INT, "cwd": STR, "unix_ms": INT},
    "build_start": {"targets": STRS, "trigger": ("command_line", "manifest", "watch"), "changed": STRS,
                    "parallelism": INT, "failures_allowed": INT, "max_load": NULL_NUM, "dry_run": BOOL,
                    "explain": BOOL, "verbosity": ("normal", "verbose", "no_status", "quiet"),
                    "options": OPTIONS},
    "explain": dict(EDGE, reasons=STRS),
    "edge_start": dict(EDGE, command=STR, description=STR, pool=STR, start_ms=INT),
    "edge_end": dict(EDGE, result=("success", "failure", "interrupted"), exit_status=NULL_INT, start_ms=INT,
                     end_ms=INT, peak_rss_bytes=NULL_INT, cached=BOOL, unchanged_outputs=NULL_INT, output=STR,
                     log=("object or null", LOG)),
    "edge_skipped": dict(EDGE, reason=("content_unchanged",)),
    "build_end": {"result": ("success", "no_work", "failure", "interrupted", "error"), "exit_code": INT,
                  "error": STR, "counts": COUNTS},
    "error": {"message": STR},
    "stream_end": {"exit_code": INT},
}
IN_BUILD = {"build_start", "explain", "edge_start", "edge_end", "edge_skipped", "build_end"}


def _type_problem(value, kind):
    """None if value is of kind, else what is wrong."""
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if isinstance(kind, dict):
        if not isinstance(value, dict):
            return "expected an object"
        return _fields_problem(value, kind)
    if isinstance(kind, tuple) and kind and kind[0] == "object or null":
        return None if value is None else _type_problem(value, kind[1])
    if isinstance(kind, tuple):
        return None if value in kind else "expected one of %s, got %r" % ("/".join(kind), value)
    ok = {
        STR: isinstance(value, str), INT: is_int, BOOL: isinstance(value, bool),
        NUM: is_int or isinstance(value, float), NULL_INT: value is None or is_int,
        NULL_NUM: value is None or is_int or isinstance(value, float), NULL_STR: value is None or isinstance(value, str),
        STRS: isinstance(value, list) and all(isinstance(v, str) for v in value),
        "hex64": isinstance(value, str) and len(value) == 16 and all(c in "0123456789abcdef" for c in value),
    }[kind]
    return None if ok else "expected %s, got %r" % (kind, value)


def _fields_problem(obj, fields):
    for name, kind in fields.items():
        if name not in obj:
            return "no field %r" % name
        problem = _type_problem(obj[name], kind)
        if problem:
            return "%s: %s" % (name, problem)
    return None


class _Checker:
    def __init__(self):
        self.problems = []
        self.events = []
        self.last_t = 0
        self.build = 0
        self.in_build = False
        self.running = {}  # edge -> line of its edge_start
        self.ended = False

    def problem(self, number, text):
        self.problems.append("line %d: %s" % (number, text))

    def line(self, number, text):
        try:
            event = json.loads(text)
        except ValueError as e:
            return self.problem(number, "not JSON: %s" % e)
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            return self.problem(number, "not an event object")
        self.events.append(event)
        kind = event["event"]
        if kind not in EVENTS:
            return  # readers ignore events they do not know
        problem = _fields_problem(event, dict(EVENTS[kind], t=INT))
        if problem:
            return self.problem(number, "%s: %s" % (kind, problem))
        self.order(number, kind, event)

    def order(self, number, kind, event):
        if self.ended:
            self.problem(number, "%s after stream_end" % kind)
        if event["t"] < self.last_t:
            self.problem(number, "time goes back (%d after %d)" % (event["t"], self.last_t))
        self.last_t = event["t"]
        if (number == 1) != (kind == "stream_start"):
            self.problem(number, "stream_start must be the first line, and only it")
        if kind == "stream_start" and (event["schema"], event["version"]) != ("ronin-events", 1):
            self.problem(number, "not version 1 of ronin-events")
        if kind == "build_start":
            if self.in_build:
                self.problem(number, "build_start inside build %d" % self.build)
            self.build += 1
            self.in_build = True
            self.running = {}
        if kind in IN_BUILD:
            if not self.in_build:
                self.problem(number, "%s outside a build" % kind)
            elif event.get("build") != self.build:
                self.problem(number, "%s of build %r in build %d" % (kind, event.get("build"), self.build))
        elif "build" in event:
            self.problem(number, "%s has a build number" % kind)
        if kind == "edge_start":
            if event["edge"] in self.running:
                self.problem(number, "edge %d started twice" % event["edge"])
            self.running[event["edge"]] = number
        if kind == "edge_end":
            if self.running.pop(event["edge"], None) is None:
                self.problem(number, "edge_end of edge %d, which is not running" % event["edge"])
            if event["end_ms"] < event["start_ms"]:
                self.problem(number, "ends before it starts")
            if (event["result"] == "interrupted") != (event["exit_status"] is None):
                self.problem(number, "exit_status must be null exactly when interrupted")
        if kind == "build_end":
            for edge, started in sorted(self.running.items()):
                self.problem(number, "build ends with edge %d (started on line %d) not ended" % (edge, started))
            self.in_build = False
        if kind == "stream_end":
            if self.in_build:
                self.problem(number, "stream_end inside build %d" % self.build)
            self.ended = True


def check_stream(text, allow_cut=False):
    """(problems, events): the problems found (empty: valid) and every event parsed."""
    checker = _Checker()
    if text and not text.endswith("\n"):
        checker.problems.append("the last line has no newline (half a line written)")
    lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    for number, line in enumerate(lines, 1):
        checker.line(number, line)
    if not lines or lines == [""]:
        checker.problems.append("empty stream")
    elif not checker.ended and not allow_cut:
        checker.problems.append("no stream_end: the stream is not complete")
    return checker.problems, checker.events


def log_entries(events):
    """The .ninja_log entries a stream's edges recorded: {output: (start, end, mtime, hash)}, last wins."""
    entries = {}
    for event in events:
        if event.get("event") == "edge_end" and event.get("log"):
            for output in event["outputs"]:
                entries[output] = (event["start_ms"], event["end_ms"], event["log"]["mtime"],
                                   int(event["log"]["command_hash"], 16))
    return entries


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        problems, events = check_stream(f.read())
    for problem in problems:
        print(problem)
    if not problems:
        print("%s: %d events, valid" % (argv[1], len(events)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
