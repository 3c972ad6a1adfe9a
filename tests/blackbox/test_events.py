"""Black-box tests of `--events=PATH|fd:N`: the event stream of real builds, each line checked
against its schema (doc/events.md) by misc/events_schema.py, through success, failure,
interruption, -n, -d explain, a regenerated manifest, a manifest that does not load and --watch;
.ninja_log's entries rebuilt from the stream, and -t trace -e reading it back.

  NINJA=<our ninja> python3 -m unittest -v test_events
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from harness import NINJA, NinjaTestCase, base_env, bump_mtime

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc"))
from events_schema import check_stream, log_entries  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc", "bench"))
from process_lines import ProcessLines  # noqa: E402

HANG_GUARD = 60  # seconds: only ever reached when something hangs

TREE = {
    "build.ninja": "rule cc\n  command = cat $in > $out && echo made $out\n  description = CC $out\n"
                   "rule link\n  command = cat $in > $out\n  description = LINK $out\n"
                   "rule fail\n  command = echo broken; exit 3\n"
                   "build a.o: cc a.c\nbuild b.o: cc b.c\nbuild app: link a.o b.o\n"
                   "build bad: fail a.o\n"
                   "default app\n",
    "a.c": "a\n", "b.c": "b\n",
}


def set_mtime(path, seconds):
    os.utime(path, (seconds, seconds))


def read_log(path):
    """{output: (start, end, mtime, hash)} of a .ninja_log v7, last entry wins."""
    entries = {}
    with open(path) as f:
        for line in f.read().splitlines()[1:]:
            start, end, mtime, output, command_hash = line.split("\t")
            entries[output] = (int(start), int(end), int(mtime), int(command_hash, 16))
    return entries


class EventsTestCase(NinjaTestCase):
    def setUp(self):
        super().setUp()
        for rel, text in TREE.items():
            self.write(rel, text)

    def stream(self, name="events.json", allow_cut=False):
        """The stream's events, after checking it against the schema."""
        with open(self.path(name), encoding="utf-8") as f:
            text = f.read()
        problems, events = check_stream(text, allow_cut=allow_cut)
        self.assertEqual([], problems, text)
        return events

    def of(self, events, kind):
        return [e for e in events if e["event"] == kind]


class BuildStreamTest(EventsTestCase):
    def test_a_build_is_a_valid_stream_that_rebuilds_the_ninja_log(self):
        r = self.ninja("--events=events.json", "-j2")
        self.assertEqual(0, r.returncode, r.stdout + r.stderr)
        events = self.stream()
        self.assertEqual(["stream_start", "build_start"], [e["event"] for e in events[:2]])
        self.assertEqual(["build_end", "stream_end"], [e["event"] for e in events[-2:]])
        self.assertEqual(3, len(self.of(events, "edge_start")))
        ends = {e["outputs"][0]: e for e in self.of(events, "edge_end")}
        self.assertEqual({"a.o", "b.o", "app"}, set(ends))
        self.assertEqual("made a.o\n", ends["a.o"]["output"])
        self.assertEqual("cat a.o b.o > app", self.of(events, "edge_start")[-1]["command"])
        self.assertEqual(read_log(self.path(".ninja_log")), log_entries(events))
        end = events[-2]
        self.assertEqual(("success", 0), (end["result"], end["exit_code"]))
        self.assertEqual({"planned": 3, "started": 3, "succeeded": 3, "failed": 0, "cached": 0, "skipped": 0},
                         end["counts"])
        self.assertEqual(0, events[-1]["exit_code"])

    def test_no_work_is_a_build_of_its_own(self):
        self.ninja()
        self.ninja("--events=events.json")
        events = self.stream()
        self.assertEqual(["stream_start", "build_start", "build_end", "stream_end"], [e["event"] for e in events])
        self.assertEqual("no_work", events[2]["result"])

    def test_a_failure_ends_the_build_and_the_stream(self):
        r = self.ninja("--events=events.json", "bad")
        self.assertEqual(3, r.returncode)  # the command's, as Ninja 1.13
        events = self.stream()
        failed = [e for e in self.of(events, "edge_end") if e["outputs"] == ["bad"]]
        self.assertEqual(1, len(failed))
        self.assertEqual(("failure", 3, "broken\n", None),
                         (failed[0]["result"], failed[0]["exit_status"], failed[0]["output"], failed[0]["log"]))
        end = self.of(events, "build_end")[0]
        self.assertEqual(("failure", 3, "subcommand failed"), (end["result"], end["exit_code"], end["error"]))
        self.assertEqual(1, end["counts"]["failed"])
        self.assertEqual(3, events[-1]["exit_code"])

    def test_an_unknown_target_is_a_build_that_could_not_start(self):
        r = self.ninja("--events=events.json", "nope")
        self.assertEqual(1, r.returncode)
        events = self.stream()
        end = self.of(events, "build_end")[0]
        self.assertEqual(("error", "unknown target 'nope', did you mean 'app'?"), (end["result"], end["error"]))

    def test_a_manifest_that_does_not_load_is_an_error_outside_any_build(self):
        self.write("build.ninja", "build x: nosuchrule\n")
        r = self.ninja("--events=events.json")
        self.assertEqual(1, r.returncode)
        events = self.stream()
        self.assertEqual(["stream_start", "error", "stream_end"], [e["event"] for e in events])
        self.assertIn("unknown build rule 'nosuchrule'", events[1]["message"])

    def test_explain_events_only_with_d_explain(self):
        self.ninja("--events=events.json")
        self.assertEqual([], self.of(self.stream(), "explain"))
        bump_mtime(self.path("a.c"))
        r = self.ninja("--events=events.json", "-d", "explain")
        events = self.stream()
        explained = {e["outputs"][0]: e["reasons"] for e in self.of(events, "explain")}
        self.assertEqual({"a.o", "app"}, set(explained))
        for reasons in explained.values():
            for reason in reasons:
                self.assertIn("ninja explain: " + reason, r.stderr)
        # Each explain comes before its edge's start.
        kinds = [(e["event"], e.get("edge")) for e in events]
        for e in self.of(events, "explain"):
            self.assertLess(kinds.index(("explain", e["edge"])), kinds.index(("edge_start", e["edge"])))
        self.assertTrue(self.of(events, "build_start")[0]["explain"])

    def test_a_dry_run_records_nothing(self):
        self.ninja("-n", "--events=events.json")
        events = self.stream()
        self.assertTrue(self.of(events, "build_start")[0]["dry_run"])
        ends = self.of(events, "edge_end")
        self.assertEqual(3, len(ends))
        self.assertEqual([None] * 3, [e["log"] for e in ends])
        self.assertFalse(self.exists("a.o"))

    def test_a_regenerated_manifest_is_a_build_of_its_own(self):
        manifest = TREE["build.ninja"] + ("rule regen\n  command = cp gen.in build.ninja\n  generator = 1\n"
                                          "build build.ninja: regen gen.in\n")
        self.write("gen.in", manifest)
        self.write("build.ninja", manifest)
        past = time.time() - 10
        os.utime(self.path("build.ninja"), (past, past))  # older than gen.in: regenerated first
        r = self.ninja("--events=events.json")
        self.assertEqual(0, r.returncode, r.stdout + r.stderr)
        starts = self.of(self.stream(), "build_start")
        self.assertEqual([("manifest", ["build.ninja"]), ("command_line", [])],
                         [(s["trigger"], s["targets"]) for s in starts])

    def test_an_input_touched_without_a_change_is_a_skip_under_content_hash(self):
        self.ninja("--content-hash")
        bump_mtime(self.path("a.c"))
        r = self.ninja("--content-hash", "--events=events.json")
        self.assertEqual(0, r.returncode, r.stdout + r.stderr)
        events = self.stream()
        skipped = self.of(events, "edge_skipped")
        self.assertEqual([(["a.o"], "content_unchanged")], [(e["outputs"], e["reason"]) for e in skipped])
        self.assertEqual([], self.of(events, "edge_start"))
        end = self.of(events, "build_end")[0]
        self.assertEqual(("no_work", 1), (end["result"], end["counts"]["skipped"]))
        self.assertTrue(self.of(events, "build_start")[0]["options"]["content_hash"])

    def test_a_skip_of_the_manifests_own_edge_is_told_in_the_next_build(self):
        # (cp -p: the regenerated manifest has its input's mtime, in the past.)
        manifest = TREE["build.ninja"] + "rule regen\n  command = cp -p build.in build.ninja\n  generator = 1\n" \
                                         "build build.ninja: regen build.in\n"
        self.write("build.ninja", manifest)
        self.write("build.in", manifest)
        now = time.time()
        set_mtime(self.path("build.ninja"), now - 30)
        set_mtime(self.path("build.in"), now - 20)  # newer than build.ninja: the first run regenerates
        self.assertEqual(0, self.ninja("--content-hash").returncode)
        set_mtime(self.path("build.in"), now - 10)  # newer again, its content the same
        r = self.ninja("--content-hash", "--events=events.json")
        self.assertEqual(0, r.returncode, r.stdout + r.stderr)
        events = self.stream()
        self.assertEqual(["stream_start", "build_start", "edge_skipped"], [e["event"] for e in events[:3]])
        self.assertEqual((["build.ninja"], 1), (events[2]["outputs"], events[2]["build"]))
        self.assertEqual(1, self.of(events, "build_end")[0]["counts"]["skipped"])

    def test_the_stream_changes_no_start_order(self):
        # Ready edges the plan orders by critical path (and --shuffle by its
        # seed): with the stream, the same commands start in the same order.
        manifest = "rule cp\n  command = cat $in > $out\n  description = CP $out\n"
        manifest += "".join("build o%d: cp a.c\n" % i for i in range(12))
        manifest += "build c1: cp o5\nbuild c2: cp c1\nbuild c3: cp c2 o9\n"
        manifest += "build all: cp c3 %s\n" % " ".join("o%d" % i for i in range(12))
        for args in (["-j1"], ["-j1", "--shuffle=7"]):
            outputs = []
            for name, stream in (("plain", []), ("streamed", ["--events=events.json"])):
                self.write(name + "/build.ninja", manifest)
                self.write(name + "/a.c", "a\n")
                r = self.ninja("-C", name, *(args + stream))
                self.assertEqual(0, r.returncode, r.stdout + r.stderr)
                outputs.append(r.stdout.replace(name, "DIR"))
            self.assertEqual(outputs[0], outputs[1])
            printed = re.findall(r"^\[\d+/\d+\] CP (\S+)$", outputs[1], re.M)
            self.assertEqual(16, len(printed))
            started = [e["outputs"][0] for e in self.of(self.stream(), "edge_start")]
            self.assertEqual(printed, started)
            for name in ("plain", "streamed"):
                shutil.rmtree(self.path(name))

    def test_an_open_descriptor(self):
        read_end, write_end = os.pipe()
        proc = subprocess.Popen([NINJA, "--events=fd:%d" % write_end], cwd=self.dir, env=base_env(),
                                pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_end)
        with os.fdopen(read_end, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(0, proc.wait(HANG_GUARD))
        problems, events = check_stream(text)
        self.assertEqual([], problems, text)
        self.assertEqual(3, len(self.of(events, "edge_end")))

    def test_a_reader_that_goes_away_does_not_stop_the_build(self):
        read_end, write_end = os.pipe()
        os.close(read_end)
        proc = subprocess.run([NINJA, "--events=fd:%d" % write_end], cwd=self.dir, env=base_env(),
                              pass_fds=(write_end,), capture_output=True, text=True, timeout=HANG_GUARD)
        os.close(write_end)
        self.assertEqual(0, proc.returncode, proc.stderr)
        self.assertTrue(self.exists("app"))

    def test_where_it_cannot_write_is_an_error_at_start(self):
        r = self.ninja("--events=no/such/dir/events.json")
        self.assertEqual(1, r.returncode)
        self.assertEqual("", r.stdout)
        self.assertRegex(r.stderr, r"^ninja: error: --events: opening no/such/dir/events.json: No such file")
        r = self.ninja("--events=fd:99")
        self.assertEqual("ninja: error: --events: 'fd:99' is not an open file descriptor\n", r.stderr)
        self.assertFalse(self.exists("app"))

    def test_also_through_ronin_flags(self):
        r = self.ninja(env={"RONIN_FLAGS": "--events=events.json"})
        self.assertEqual(0, r.returncode)
        self.assertEqual(3, len(self.of(self.stream(), "edge_end")))

    def test_a_subtool_writes_no_stream(self):
        r = self.ninja("-t", "targets", env={"RONIN_FLAGS": "--events=tool.json"})
        self.assertEqual(0, r.returncode, r.stderr)
        self.assertIn("app: link\n", r.stdout)
        self.assertFalse(self.exists("tool.json"))

    def test_relative_to_where_ninja_started(self):
        os.mkdir(self.path("sub"))
        for rel, text in TREE.items():
            self.write(os.path.join("sub", rel), text)
        r = self.ninja("-C", "sub", "--events=events.json")
        self.assertEqual(0, r.returncode, r.stderr)
        events = self.stream()
        self.assertEqual(os.path.realpath(self.path("sub")), os.path.realpath(events[0]["cwd"]))
        self.assertFalse(self.exists("sub/events.json"))

    def test_the_example_client_summarises_a_stream(self):
        self.ninja("--events=events.json", "-k", "0", "app", "bad")
        summary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "misc", "events_summary.py")
        with open(self.path("events.json")) as stream:
            r = subprocess.run([sys.executable, summary], stdin=stream, capture_output=True, text=True,
                               timeout=HANG_GUARD)
        self.assertEqual(0, r.returncode, r.stderr)
        self.assertIn("FAILED: bad\n", r.stdout)
        self.assertTrue(r.stdout.endswith("build 1: failure, 4 of 4 commands run, 1 failed, 0 cached\x1b[K\n"),
                        repr(r.stdout[-200:]))

    def test_the_trace_reads_the_stream_as_it_reads_the_log(self):
        self.ninja("--events=events.json", "-j2")
        from_log = self.ninja("-t", "trace")
        from_stream = self.ninja("-t", "trace", "-e", "events.json")
        self.assertEqual(0, from_stream.returncode, from_stream.stderr)

        def spans(text):
            return sorted((e["name"], e["ts"], e["dur"]) for e in json.loads(text)["traceEvents"] if e["ph"] == "X")

        self.assertEqual(spans(from_log.stdout), spans(from_stream.stdout))
        self.assertEqual(3, len(spans(from_stream.stdout)))

    def test_the_report_reads_the_stream_as_it_reads_the_log(self):
        self.ninja("--events=events.json", "-j2")

        def jobs(*args):
            r = self.ninja("-t", "report", "-o", "r.html", *args)
            self.assertEqual((0, "r.html\n", ""), (r.returncode, r.stdout, r.stderr))
            page = self.read("r.html")
            paths = re.findall(r'<td class="path">(a\.o|b\.o|app)</td>', page)
            return page.count('<rect class="job"'), sorted(set(paths))

        from_log = jobs()
        self.assertEqual((3, ["a.o", "app", "b.o"]), from_log)
        self.assertEqual(from_log, jobs("-e", "events.json"))


class InterruptedStreamTest(EventsTestCase):
    def test_ctrl_c_ends_each_running_edge_and_the_build(self):
        self.write("build.ninja", "rule sl\n  command = sleep 30 && touch $out\n"
                                  "build x: sl\nbuild y: sl\n")
        proc = subprocess.Popen([NINJA, "--events=events.json", "-j2"], cwd=self.dir, env=base_env(),
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + HANG_GUARD
        while not self.exists("events.json") or self.read("events.json").count('"edge_start"') < 2:
            self.assertLess(time.monotonic(), deadline, "the edges never started")
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        self.assertEqual(130, proc.wait(HANG_GUARD))
        events = self.stream()
        ends = self.of(events, "edge_end")
        self.assertEqual([("interrupted", None)] * 2, [(e["result"], e["exit_status"]) for e in ends])
        end = self.of(events, "build_end")[0]
        self.assertEqual(("interrupted", 130, "interrupted by user"), (end["result"], end["exit_code"], end["error"]))
        self.assertEqual(130, events[-1]["exit_code"])


class WatchStreamTest(EventsTestCase):
    def test_each_round_is_a_build_triggered_by_its_change(self):
        proc = subprocess.Popen([NINJA, "--watch", "--events=events.json", "-j1"], cwd=self.dir, env=base_env(),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        output = ProcessLines(proc)
        try:
            output.wait_for(re.compile(r"^ninja: watching for changes"), 0, HANG_GUARD)
            with open(self.path("b.c"), "a") as f:
                f.write("more\n")
            linked = output.wait_for(re.compile(r"^\[2/2\] LINK app$"), 0, HANG_GUARD)
            # A manifest edit: a fresh run, whose build names the change too.
            self.write("c.c", "c\n")
            with open(self.path("build.ninja"), "a") as f:
                f.write("build c.o: cc c.c\ndefault c.o\n")
            output.wait_for(re.compile(r"^\[1/1\] CC c.o$"), linked, HANG_GUARD)
            proc.send_signal(signal.SIGINT)
            self.assertEqual(130, proc.wait(HANG_GUARD))
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            output.reader.join(HANG_GUARD)
            proc.stdout.close()
        events = self.stream()
        starts = self.of(events, "build_start")
        self.assertEqual([("command_line", []), ("watch", ["b.c"]), ("watch", ["build.ninja"])],
                         [(s["trigger"], s["changed"]) for s in starts])
        second = [e["outputs"][0] for e in events if e["event"] == "edge_end" and e["build"] == 2]
        self.assertEqual(["b.o", "app"], second)
        third = [e["outputs"][0] for e in events if e["event"] == "edge_end" and e["build"] == 3]
        self.assertEqual(["c.o"], third)
        self.assertEqual(read_log(self.path(".ninja_log")), log_entries(events))
        self.assertEqual(130, events[-1]["exit_code"])


if __name__ == "__main__":
    import unittest
    unittest.main()
