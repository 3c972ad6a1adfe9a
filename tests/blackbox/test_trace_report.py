"""Black-box tests of `ninja -t trace` and `ninja -t report`: where the last
build recorded in .ninja_log spent its time.

Logs are written directly (build_timing.py simulates a -j8 build of a
generated tree) or by real builds, by ours and by reference ninja 1.13.2.
Rendering in a real browser is tested in test_browser.py.

  NINJA=<our ninja> python3 -m unittest -v test_trace_report
"""

import html.parser
import json
import os
import re
import time
import unittest

from build_timing import Tree, write_log
from harness import REF_NINJA, SKIP_NO_REF, NinjaTestCase, run

MANIFEST = """rule sl
  command = sleep $t && touch $out
rule two
  command = touch $out
build a: sl
  t = 0
build b: sl a
  t = 0
build x y: two a
build all: phony b x
"""


class Tables(html.parser.HTMLParser):
    """Cell texts of every <table id=...>, row by row; and every id."""

    def __init__(self, text):
        super().__init__()
        self.tables, self.ids, self._table, self._row, self._cell = {}, set(), None, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag == "td" and self._row is not None:
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr" and self._row:
            self._table.append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def x_events(trace):
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


class TraceTest(NinjaTestCase):

    def trace(self, *args):
        result = self.ninja("-t", "trace", *args)
        self.assertEqual(0, result.returncode, result)
        self.assertEqual("", result.stderr)
        return json.loads(result.stdout)

    def write_history(self, builds):
        """builds: lists of (start, end, output, hash); earlier builds first."""
        write_log(self.path(".ninja_log"), [line for build in builds for line in build])

    def test_one_event_per_command_of_the_last_build(self):
        tree = Tree(300)
        self.write("build.ninja", tree.manifest())
        earlier = tree.simulate(jobs=4)
        last = [line for line in tree.simulate(jobs=8) if not line[2].startswith("bin/")]
        self.write_history([earlier, last])
        events = x_events(self.trace())
        self.assertEqual(sorted(line[2] for line in last), sorted(e["name"] for e in events))
        by_name = {e["name"]: e for e in events}
        for start, end, output, _ in last:
            event = by_name[output]
            self.assertEqual((start * 1000, (end - start) * 1000), (event["ts"], event["dur"]))
            self.assertEqual(tree.edges[output][0], event["cat"])

    def test_slots_never_overlap_and_are_as_few_as_the_peak(self):
        tree = Tree(2000)
        self.write("build.ninja", tree.manifest())
        lines = tree.simulate(jobs=8)
        self.write_history([lines])
        events = x_events(self.trace())
        self.assertEqual(len(lines), len(events))
        by_slot = {}
        for event in events:
            by_slot.setdefault(event["tid"], []).append((event["ts"], event["ts"] + event["dur"]))
        for slot, spans in by_slot.items():
            spans.sort()
            for (_, end), (start, _) in zip(spans, spans[1:]):
                self.assertLessEqual(end, start, "slot %d overlaps" % slot)
        self.assertEqual(8, len(by_slot))  # the simulation kept all 8 busy at its peak
        names = {e["tid"]: e["args"]["name"] for e in self.trace()["traceEvents"] if e["name"] == "thread_name"}
        self.assertEqual(set(by_slot), set(names))

    def test_last_build_is_after_the_last_drop_in_end_times(self):
        # ninjatracing's rule: a line that ends before the previous one starts
        # a new build, even a one-line one.
        self.write("build.ninja", MANIFEST)
        self.write_history([[(0, 50, "a", 1), (50, 90, "b", 2)], [(0, 30, "a", 1)],
                            [(10, 20, "b", 2), (20, 25, "x", 3), (20, 25, "y", 3)]])
        events = x_events(self.trace())
        self.assertEqual([("b", 10000, 10000), ("x", 20000, 5000)],
                         [(e["name"], e["ts"], e["dur"]) for e in events])
        # The two outputs of one command are one event.
        self.assertEqual(["x", "y"], events[1]["args"]["outputs"])
        self.assertEqual("two", events[1]["cat"])

    def test_all_shows_every_outputs_latest_entry(self):
        self.write("build.ninja", MANIFEST)
        self.write_history([[(0, 50, "a", 1), (50, 90, "b", 2)], [(0, 30, "a", 1)]])
        self.assertEqual([("a", 0, 30000), ("b", 50000, 40000)],
                         [(e["name"], e["ts"], e["dur"]) for e in x_events(self.trace("-a"))])

    def test_output_file_and_gone_outputs(self):
        self.write("build.ninja", MANIFEST)
        self.write_history([[(0, 5, "a", 1), (5, 9, "old", 7)]])
        result = self.ninja("-t", "trace", "-o", "t.json")
        self.assertEqual((0, ""), (result.returncode, result.stdout))
        with open(self.path("t.json")) as f:
            events = x_events(json.load(f))
        self.assertEqual(["sl", "(not in manifest)"], [e["cat"] for e in events])

    def test_written_by_a_real_build(self):
        self.write("build.ninja", MANIFEST)
        self.assertEqual(0, self.ninja("all").returncode)
        self.assertEqual(["a", "b", "x"], sorted(e["name"] for e in x_events(self.trace())))
        # A no-op build writes nothing: the last build is still that one.
        self.assertEqual(0, self.ninja("all").returncode)
        self.assertEqual(3, len(x_events(self.trace())))

    @unittest.skipUnless(REF_NINJA, SKIP_NO_REF)
    def test_log_written_by_reference_ninja(self):
        self.write("build.ninja", MANIFEST)
        self.assertEqual(0, self.reference("all").returncode)
        with open(self.path(".ninja_log")) as f:
            lines = [line.split("\t") for line in f.read().splitlines()[1:]]
        events = x_events(self.trace())
        self.assertEqual(sorted(l[3] for l in lines if l[3] != "y"), sorted(e["name"] for e in events))
        for e in events:
            line = next(l for l in lines if l[3] == e["name"])
            self.assertEqual((int(line[1]) - int(line[0])) * 1000, e["dur"])

    def test_help_and_bad_arguments(self):
        self.write("build.ninja", MANIFEST)
        for args in (["-h"], ["-z"], ["extra"]):
            result = self.ninja("-t", "trace", *args)
            self.assertEqual(1, result.returncode)
            self.assertTrue(result.stdout.startswith("usage: ninja -t trace [options]\n"), result)


# Two sources copied, one reduced to its first byte (a change after it is
# cut off early), and a copy of that.
RECORDED_MANIFEST = """rule cp
  command = cp $in $out
rule first
  command = head -c1 $in > $out
build a.o: cp a.c
build d.o: cp d.c
build h: first h.c
build h2: cp h
"""


def ran_durations(events):
    return {e["name"]: e["dur"] for e in events if e["ph"] == "X"}


class RecordedDetailTest(NinjaTestCase):
    """What ronin recorded in .ronin_state about the runs of the last build
    (log/edge_outcome.h) goes in the events' args."""

    def setUp(self):
        super().setUp()
        self.write("build.ninja", RECORDED_MANIFEST)
        for name, content in (("a.c", "a\n"), ("d.c", "d\n"), ("h.c", "1x\n")):
            self.write(name, content)

    def build(self, *args):
        result = self.ninja(*args)
        self.assertEqual(0, result.returncode, result)
        return result

    def rewrite(self, name, content):
        # Newer than every output built before, never in the future.
        time.sleep(0.02)
        self.write(name, content)

    def events(self, *args):
        result = self.ninja("-t", "trace", *args)
        self.assertEqual((0, ""), (result.returncode, result.stderr))
        return json.loads(result.stdout)["traceEvents"]

    def test_runs_carry_their_peak_rss_and_unchanged_outputs(self):
        self.build("--content-hash")
        events = {e["name"]: e for e in x_events({"traceEvents": self.events()})}
        self.assertEqual(["a.o", "d.o", "h", "h2"], sorted(events))
        for event in events.values():
            self.assertGreater(event["args"]["peak_rss_bytes"], 0, event)
            self.assertEqual(0, event["args"]["unchanged_outputs"], event)

    def test_content_hash_skips_and_early_cutoff(self):
        self.build("--content-hash")
        self.rewrite("a.c", "a\n")   # same content: skipped by the scan
        self.rewrite("d.c", "d 2\n")  # runs
        self.rewrite("h.c", "1y\n")   # runs, and leaves h as it was: h2 is cut off
        result = self.build("--content-hash")
        self.assertEqual(2, len(re.findall(r"^\[", result.stdout, re.M)), result.stdout)
        events = self.events()
        ran = {e["name"]: e["args"] for e in events if e["ph"] == "X"}
        self.assertEqual(["d.o", "h"], sorted(ran))
        self.assertEqual(0, ran["d.o"]["unchanged_outputs"])
        self.assertEqual(1, ran["h"]["unchanged_outputs"])
        skipped = [(e["name"], e["cat"], e["args"]) for e in events if e["ph"] == "i"]
        # a.o by the scan, h2 when h's unchanged output cleaned it.
        self.assertEqual([("a.o", "cp", {"skipped": "content_hash"}), ("h2", "cp", {"skipped": "content_hash"})],
                         skipped)
        # h2 was settled after h ran, a.o before anything did.
        times = {e["name"]: e["ts"] for e in events if e["ph"] in ("X", "i")}
        self.assertLessEqual(times["a.o"], times["d.o"])
        self.assertGreaterEqual(times["h2"], times["h"] + ran_durations(events)["h"])
        # The .ninja_log lines that settled them are not commands of the
        # report either.
        report = self.ninja("-t", "report")
        self.assertEqual(0, report.returncode, report)
        with open(self.path("ninja_report.html")) as f:
            html = f.read()
        self.assertNotIn(">a.o<", html)
        self.assertIn(">d.o<", html)
        # A build that skips nothing shows no skips.
        self.rewrite("d.c", "d 3\n")
        self.build("--content-hash")
        self.assertEqual([], [e for e in self.events() if e["ph"] == "i"])

    def test_a_build_that_only_skipped_is_no_build(self):
        self.build("--content-hash")
        self.rewrite("d.c", "d 2\n")
        self.build("--content-hash")
        before = self.events()
        self.rewrite("a.c", "a\n")
        self.assertEqual("ninja: no work to do.\n", self.build("--content-hash").stdout)
        # The skip wrote .ninja_log lines (for Ninja), but the last build is
        # still the one that ran d.o.
        self.assertEqual(["d.o"], sorted(e["name"] for e in self.events() if e["ph"] == "X"))
        self.assertEqual([e for e in before if e["ph"] == "X"], [e for e in self.events() if e["ph"] == "X"])

    def test_a_record_of_another_run_is_not_shown(self):
        self.build("--content-hash")
        # Without the option nothing is recorded: d.o's record describes the
        # run before, whose times differ.
        self.rewrite("d.c", "d 2\n")
        time.sleep(0.01)
        self.build()
        events = {e["name"]: e for e in x_events({"traceEvents": self.events("-a")})}
        self.assertNotIn("peak_rss_bytes", events["d.o"]["args"])
        self.assertIn("peak_rss_bytes", events["a.o"]["args"])

    def test_without_the_option_nothing_is_recorded_or_read(self):
        self.build()
        self.assertFalse(self.exists(".ronin_state"))
        self.assertTrue(all(e["args"] == {} for e in x_events({"traceEvents": self.events()})))

    def test_a_damaged_state_file_is_read_as_far_as_whole_and_left_alone(self):
        self.build("--content-hash")
        with open(self.path(".ronin_state"), "rb") as f:
            data = f.read()
        with open(self.path(".ronin_state"), "wb") as f:
            f.write(data[:-3])
        events = self.events()
        self.assertEqual(4, len(x_events({"traceEvents": events})))
        with open(self.path(".ronin_state"), "rb") as f:
            self.assertEqual(data[:-3], f.read(), "a reading tool never repairs the state file")


class DamagedLogTest(NinjaTestCase):
    """The trace and report tools word a log they cannot read as the build
    log's loader does for other commands."""

    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)

    def test_missing_log(self):
        for tool in ("trace", "report"):
            result = self.ninja("-t", tool)
            self.assertEqual((1, "ninja: error: loading build log .ninja_log: No such file or directory\n"),
                             (result.returncode, result.stderr))

    def test_unreadable_log_matches_the_build(self):
        os.mkdir(self.path(".ninja_log"))
        build = self.ninja("-n", "all")
        self.assertEqual(1, build.returncode)
        for tool in ("trace", "report"):
            result = self.ninja("-t", tool)
            self.assertEqual((1, "", build.stderr), (result.returncode, result.stdout, result.stderr))

    def test_unknown_version_uses_the_build_logs_words(self):
        self.write(".ninja_log", "# ninja log v99\n0\t1\t0\ta\t1\n")
        recompact = self.ninja("-t", "recompact")
        self.assertIn("build log version is too new", recompact.stderr)
        self.write(".ninja_log", "# ninja log v99\n0\t1\t0\ta\t1\n")
        for tool in ("trace", "report"):
            result = self.ninja("-t", tool)
            self.assertEqual((1, "ninja: error: loading build log .ninja_log: build log version is too new\n"),
                             (result.returncode, result.stderr))
            self.assertTrue(self.exists(".ninja_log"), "a reading tool never deletes the log")

    def test_garbage_lines_and_cut_tail_are_skipped(self):
        self.write(".ninja_log", "# ninja log v7\n0\t5\t0\ta\t1\nnot a line\n5\t9\t0\tb\t2\n9\t12\t0\tx")
        events = x_events(json.loads(self.ninja("-t", "trace").stdout))
        self.assertEqual(["a", "b"], [e["name"] for e in events])


class ReportTest(NinjaTestCase):

    def report(self, *args, path="ninja_report.html"):
        result = self.ninja("-t", "report", *args)
        self.assertEqual((0, path + "\n", ""), (result.returncode, result.stdout, result.stderr))
        with open(self.path(path), encoding="utf-8") as f:
            return f.read()

    def test_small_build_has_every_section_and_nothing_external(self):
        self.write("build.ninja", MANIFEST)
        self.assertEqual(0, self.ninja("all").returncode)
        page = self.report()
        tables = Tables(page)
        for id in ("summary", "timeline-svg", "parallelism-svg", "critical-path", "slowest", "rules",
                   "changes-none"):
            self.assertIn(id, tables.ids)
        self.assertEqual(3, len(tables.tables["slowest"]))
        self.assertEqual({"sl", "two"}, {row[0] for row in tables.tables["rules"]})
        self.assertEqual(3, page.count('<rect class="job"'))
        # Self-contained: no scripts, no links or sources to fetch.
        self.assertNotIn("<script", page)
        self.assertIsNone(re.search(r"\b(src|href)=", page))
        self.assertEqual({"http://www.w3.org/2000/svg"}, set(re.findall(r"https?://[^\"' ]+", page)))

    def test_one_command_is_one_command(self):
        self.write("build.ninja", MANIFEST)
        self.assertEqual(0, self.ninja("a").returncode)
        page = self.report()
        self.assertRegex(page, r"<dt>Critical path</dt><dd>\d+ ms in 1 command</dd>")
        self.assertIn("in 1 command, drawn in red", page)
        self.assertIsNone(re.search(r"\b1 commands\b", page))

    def test_time_per_kind_of_command_on_cmake_shaped_rules(self):
        # One rule per target and kind, as CMake names them: the kinds add up.
        self.write("build.ninja", """rule CXX_COMPILER__lib_Release
  command = touch $out && : > $out.d
  depfile = $out.d
  deps = gcc
rule CXX_COMPILER__app_Release
  command = touch $out && : > $out.d
  depfile = $out.d
  deps = gcc
rule CXX_STATIC_LIBRARY_LINKER__lib_Release
  command = touch $out
rule CXX_EXECUTABLE_LINKER__app_Release
  command = touch $out
rule CUSTOM_COMMAND
  command = touch $out
build a.o: CXX_COMPILER__lib_Release a.cc
build b.o: CXX_COMPILER__lib_Release b.cc
build m.o: CXX_COMPILER__app_Release m.cc
build lib.a: CXX_STATIC_LIBRARY_LINKER__lib_Release a.o b.o
build app: CXX_EXECUTABLE_LINKER__app_Release m.o lib.a
build gen.txt: CUSTOM_COMMAND
build all: phony app gen.txt
""")
        for name in ("a.cc", "b.cc", "m.cc"):
            self.write(name, "")
        self.assertEqual(0, self.ninja("all").returncode)
        tables = Tables(self.report()).tables
        self.assertEqual({"compile": "3", "link": "2", "custom": "1"},
                         {row[0]: row[1] for row in tables["kinds"]})
        self.assertEqual(5, len(tables["rules"]))

    def test_builddir_and_output_option(self):
        self.write("build.ninja", "builddir = out\n" + MANIFEST)
        self.assertEqual(0, self.ninja("all").returncode)
        self.assertIn("critical-path", self.report(path="out/ninja_report.html"))
        self.assertIn("critical-path", self.report("-o", "r.html", path="r.html"))

    def test_empty_log(self):
        self.write("build.ninja", MANIFEST)
        self.write(".ninja_log", "# ninja log v7\n")
        self.assertIn('id="empty"', self.report())

    def test_names_the_critical_path_of_a_build_with_known_sleeps(self):
        # a -> b -> d sleeps far longer than the side branches c and e.
        self.write("build.ninja", """rule sl
  command = sleep $t && touch $out
build a: sl
  t = 0.6
build b: sl a
  t = 0.4
build c: sl
  t = 0.01
build e: sl c
  t = 0.01
build d: sl b e
  t = 0.2
build all: phony d
""")
        self.assertEqual(0, self.ninja("-j4", "all").returncode)
        rows = Tables(self.report()).tables["critical-path"]
        self.assertEqual(["a", "b", "d"], [row[1] for row in rows])
        self.assertEqual(["1", "2", "3"], [row[0] for row in rows])

    def test_critical_path_of_a_generated_build(self):
        tree = Tree(1500, seed=3)
        self.write("build.ninja", tree.manifest())
        write_log(self.path(".ninja_log"), tree.simulate(jobs=8))
        total, chain = tree.critical_path()
        page = self.report()
        self.assertEqual(chain, [row[1] for row in Tables(page).tables["critical-path"]])
        self.assertIn("%d commands, drawn in red" % len(chain), page)

    def test_changes_against_an_earlier_build(self):
        self.write("build.ninja", MANIFEST)
        write_log(self.path(".ninja_log"), [(0, 100, "a", 1), (100, 600, "b", 2),
                                            (0, 300, "a", 1), (300, 310, "x", 3), (300, 320, "b", 2)])
        page = self.report()
        tables = Tables(page).tables
        self.assertEqual([["a", "sl", "0 ms", "300 ms", "100 ms", "+200 ms"]], tables["slower"])
        self.assertEqual([["b", "sl", "300 ms", "20 ms", "500 ms", "-480 ms"]], tables["faster"])
        self.assertIn("2 commands of this build also ran in an earlier build", page)

    def test_large_build_stays_small(self):
        tree = Tree(5000, seed=5)
        self.write("build.ninja", tree.manifest())
        write_log(self.path(".ninja_log"), tree.simulate(jobs=16))
        page = self.report()
        self.assertLess(len(page), 3 * 1024 * 1024)
        self.assertLessEqual(page.count('<rect class="job"'), 4000)
        self.assertIn('<rect class="folded"', page)
        tables = Tables(page).tables
        self.assertEqual(20, len(tables["slowest"]))
        slowest = sorted(tree.duration.values(), reverse=True)[:20]
        self.assertEqual(["%d ms" % d if d < 1000 else "%.2f s" % (d / 1000) for d in slowest],
                         [row[3] for row in tables["slowest"]])


if __name__ == "__main__":
    unittest.main()
