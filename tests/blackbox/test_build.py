"""Black-box tests for building: dirty scan, scheduling, pools, status output,
failures, signals and command-line flags.

Every expected output below was observed from reference ninja 1.13.2 (see
/work/shared/spec/ninja-reference.md for the notes these tests grew from).
Run: NINJA=path/to/ninja python3 -m unittest -v test_build
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest

import harness
from harness import NinjaTestCase, RONIN_USAGE_RE, base_env, strip_ronin_usage

# Sources get this (old) mtime so that freshly built outputs are always newer
# and "newer input" can be simulated without writing timestamps in the future.
T0 = int(time.time()) - 100000


def _cgroup_cpus():
    """Best-effort CPU quota from cgroup v2 / v1 (None when unlimited/unknown)."""
    try:
        with open("/sys/fs/cgroup/cpu.max") as f:
            quota, period = f.read().split()[:2]
        if quota != "max" and int(period) > 0:
            return max(1, int(quota) // int(period))
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/cpu/cpu.cfs_quota_us") as f:
            quota = int(f.read())
        with open("/sys/fs/cgroup/cpu/cpu.cfs_period_us") as f:
            period = int(f.read())
        if quota > 0 and period > 0:
            return max(1, quota // period)
    except (OSError, ValueError):
        pass
    return None


def default_jobs():
    """Ninja's default -j: CPUs<=1 -> 2, CPUs==2 -> 3, else CPUs+2."""
    cpus = len(os.sched_getaffinity(0))
    quota = _cgroup_cpus()
    if quota is not None:
        cpus = min(cpus, quota)
    if cpus <= 1:
        return 2
    if cpus == 2:
        return 3
    return cpus + 2


def usage_text():
    return (
        "usage: ninja [options] [targets...]\n"
        "\n"
        "if targets are unspecified, builds the 'default' target (see manual).\n"
        "\n"
        "options:\n"
        "  --version      print ninja version (\"1.13.2\")\n"
        "  -v, --verbose  show all command lines while building\n"
        "  --quiet        don't show progress status, just command output\n"
        "\n"
        "  -C DIR   change to DIR before doing anything else\n"
        "  -f FILE  specify input build file [default=build.ninja]\n"
        "\n"
        "  -j N     run N jobs in parallel (0 means infinity) [default=%d on this system]\n"
        "  -k N     keep going until N jobs fail (0 means infinity) [default=1]\n"
        "  -l N     do not start new jobs if the load average is greater than N\n"
        "  -n       dry run (don't run commands but act like they succeeded)\n"
        "\n"
        "  -d MODE  enable debugging (use '-d list' to list modes)\n"
        "  -t TOOL  run a subtool (use '-t list' to list subtools)\n"
        "    terminates toplevel options; further flags are passed to the tool\n"
        "  -w FLAG  adjust warnings (use '-w list' to list warnings)\n" % default_jobs())


D_LIST = (
    "debugging modes:\n"
    "  stats        print operation counts/timing info\n"
    "  explain      explain what caused a command to execute\n"
    "  keepdepfile  don't delete depfiles after they're read by ninja\n"
    "  keeprsp      don't delete @response files on success\n"
    "multiple modes can be enabled via -d FOO -d BAR\n")

W_LIST = (
    "warning flags:\n"
    "  phonycycle={err,warn}  phony build statement references itself\n")

# A rule that records which outputs were built, in order.
LOG_RULES = """\
rule touch
  command = echo $out >> ran.log; touch $out
  description = T $out
rule cp
  command = echo $out >> ran.log; cp $in $out
  description = CP $out
rule cmd
  command = $cmd
  description = $desc
"""

# Records how many jobs run at once: sh conc.sh OUTPUT LIMIT TOTAL.
# Each job registers itself in run/, then waits until LIMIT jobs are running
# (or all TOTAL jobs have started), lingers briefly and records the running
# count again.  peaks gets one running-count per line.
CONC_SH = """\
name=$1; limit=$2; total=$3
mkdir -p run started
: > "run/$name"
: > "started/$name"
i=0
while :; do
  r=$(ls run | wc -l); s=$(ls started | wc -l)
  echo "$r" >> peaks
  if [ "$r" -ge "$limit" ] || [ "$s" -ge "$total" ] || [ "$i" -ge 500 ]; then break; fi
  i=$((i+1))
  sleep 0.01
done
sleep 0.05
echo "$(ls run | wc -l)" >> peaks
rm "run/$name"
touch "$name"
"""

# sh waitfor.sh FILE: waits (at most ~5 s) until FILE exists.
WAITFOR_SH = """\
i=0
while [ ! -e "$1" ] && [ "$i" -lt 500 ]; do i=$((i+1)); sleep 0.01; done
"""

# sh waitgone.sh PIDFILE: waits until the pid in PIDFILE has been reaped.
WAITGONE_SH = """\
i=0
while [ ! -s "$1" ] && [ "$i" -lt 500 ]; do i=$((i+1)); sleep 0.01; done
pid=$(cat "$1")
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 1000 ]; do i=$((i+1)); sleep 0.01; done
"""

# python catch.py OUTPUT: writes OUTPUT, announces itself, then waits to be
# signalled and records which signal arrived (in file 'sig').
CATCH_PY = """\
import os, signal, sys, time
def handler(signum, frame):
    with open("sig.tmp", "w") as f:
        f.write(signal.Signals(signum).name + "\\n")
    os.rename("sig.tmp", "sig")
    sys.exit(0)
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, handler)
with open(sys.argv[1], "w") as f:
    f.write("partial")
with open("pgid", "w") as f:
    f.write("%d %d\\n" % (os.getpgrp(), os.getpid()))
open("started", "w").close()
# Short sleeps: CPython runs a handler between bytecodes, so a signal that
# lands just before a long sleep's system call would wait for it to end.
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    time.sleep(0.05)
open("finished", "w").close()
"""


class BuildTestCase(NinjaTestCase):
    """NinjaTestCase with a few helpers for builds."""

    def setUp(self):
        super().setUp()
        self.scripts()

    def scripts(self):
        self.write("conc.sh", CONC_SH)
        self.write("waitfor.sh", WAITFOR_SH)
        self.write("waitgone.sh", WAITGONE_SH)

    def manifest(self, text, rules=True):
        self.write("build.ninja", (LOG_RULES if rules else "") + text)

    def set_mtime(self, rel, offset=0):
        """Sets rel's mtime to T0 + offset seconds (creating it if missing)."""
        harness.touch(self.path(rel), T0 + offset)

    def mtime_ns(self, rel):
        return os.stat(self.path(rel)).st_mtime_ns

    def ran(self):
        """Outputs built so far, in order (from ran.log)."""
        if not self.exists("ran.log"):
            return []
        return self.read("ran.log").split()

    def clear_ran(self):
        if self.exists("ran.log"):
            os.unlink(self.path("ran.log"))

    def peaks(self):
        return [int(x) for x in self.read("peaks").split()]

    def assertRun(self, result, rc, stdout, stderr=""):
        self.assertEqual((result.returncode, result.stdout, result.stderr), (rc, stdout, stderr))

    def assertNinja(self, args, rc, stdout, stderr="", env=None):
        r = self.ninja(*args, env=env)
        self.assertRun(r, rc, stdout, stderr)
        return r

    def files(self):
        return harness.list_tree(self.dir)

    def popen(self, *args, env=None, stdin=subprocess.DEVNULL):
        return subprocess.Popen([harness.NINJA] + list(args), cwd=self.dir, env=base_env(env),
                                stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def wait_for(self, rel, timeout=15.0):
        deadline = time.time() + timeout
        while not self.exists(rel):
            if time.time() > deadline:
                self.fail("timed out waiting for %s" % rel)
            time.sleep(0.01)


# ---------------------------------------------------------------------------
# Command-line flags
# ---------------------------------------------------------------------------

class TestFlags(BuildTestCase):

    def test_version(self):
        self.assertNinja(["--version"], 0, "1.13.2\n")

    def test_version_needs_no_manifest_and_ignores_targets(self):
        self.assertNinja(["--version", "whatever"], 0, "1.13.2\n")

    def test_version_after_other_flags(self):
        self.assertNinja(["-d", "explain", "--version"], 0, "1.13.2\n")

    def assertUsage(self, *args):
        r = self.ninja(*args)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        # Ninja's text, then the block of ronin's own options (test_ronin_flags.py).
        self.assertEqual(strip_ronin_usage(r.stderr), usage_text())
        self.assertRegex(r.stderr, RONIN_USAGE_RE)
        self.assertTrue(r.stderr.endswith("\n"))

    def test_help_short(self):
        self.assertUsage("-h")

    def test_help_long(self):
        self.assertUsage("--help")

    def test_help_reports_default_jobs(self):
        r = self.ninja("-h")
        m = re.search(r"\[default=(\d+) on this system\]", r.stderr)
        self.assertIsNotNone(m)
        self.assertEqual(int(m.group(1)), default_jobs())

    def test_help_reports_current_j(self):
        # The usage text shows the parallelism in effect, so an earlier -j changes it.
        r = self.ninja("-j", "7", "-h")
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("  -j N     run N jobs in parallel (0 means infinity) [default=7 on this system]\n",
                      r.stderr)

    def test_unknown_long_option(self):
        self.assertNinja(["--foo"], 1, "",
                         harness.NINJA + ": unrecognized option '--foo'\n" + usage_text())

    def test_unknown_short_option(self):
        self.assertNinja(["-x"], 1, "", harness.NINJA + ": invalid option -- 'x'\n" + usage_text())

    def test_option_missing_argument(self):
        self.assertNinja(["-j"], 1, "",
                         harness.NINJA + ": option requires an argument -- 'j'\n" + usage_text())

    def test_option_missing_argument_C(self):
        self.assertNinja(["-C"], 1, "",
                         harness.NINJA + ": option requires an argument -- 'C'\n" + usage_text())

    def test_ambiguous_long_option(self):
        self.assertNinja(["--ver"], 1, "",
                         harness.NINJA + ": option '--ver' is ambiguous; possibilities: "
                         "'--version' '--verbose'\n" + usage_text())

    def test_unique_long_option_prefix_accepted(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["--verb"], 0, "[1/1] echo a >> ran.log; touch a\n")

    def test_invalid_j_not_numeric(self):
        self.assertNinja(["-j", "x"], 1, "", "ninja: fatal: invalid -j parameter\n")

    def test_invalid_j_negative(self):
        self.assertNinja(["-j", "-1"], 1, "", "ninja: fatal: invalid -j parameter\n")

    def test_invalid_j_trailing_garbage(self):
        self.assertNinja(["-j", "2x"], 1, "", "ninja: fatal: invalid -j parameter\n")

    def test_j_empty_string_is_accepted(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-j", "", "-n"], 0, "[1/1] T a\n")

    def test_invalid_k(self):
        self.assertNinja(["-k", "x"], 1, "",
                         "ninja: fatal: -k parameter not numeric; did you mean -k 0?\n")

    def test_invalid_k_trailing_garbage(self):
        self.assertNinja(["-k", "2x"], 1, "",
                         "ninja: fatal: -k parameter not numeric; did you mean -k 0?\n")

    def test_negative_k_accepted(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-k", "-1", "-n"], 0, "[1/1] T a\n")

    def test_invalid_l(self):
        self.assertNinja(["-l", "x"], 1, "",
                         "ninja: fatal: -l parameter not numeric: did you mean -l 0.0?\n")

    def test_invalid_l_empty(self):
        self.assertNinja(["-l", ""], 1, "",
                         "ninja: fatal: -l parameter not numeric: did you mean -l 0.0?\n")

    def test_l_float_and_trailing_garbage_accepted(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-l", "1.5", "-n"], 0, "[1/1] T a\n")
        self.assertNinja(["-l", "1.5x", "-n"], 0, "[1/1] T a\n")

    def test_invalid_flag_checked_before_manifest(self):
        # No build.ninja at all: the flag error wins.
        self.assertNinja(["-j", "x"], 1, "", "ninja: fatal: invalid -j parameter\n")

    def test_combined_short_flags(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-nv"], 0, "[1/1] echo a >> ran.log; touch a\n")
        self.assertFalse(self.exists("a"))

    def test_d_list(self):
        self.assertNinja(["-d", "list"], 1, D_LIST)

    def test_w_list(self):
        self.assertNinja(["-w", "list"], 1, W_LIST)

    def test_d_list_stops_before_later_errors(self):
        self.assertNinja(["-d", "list", "-d", "foo"], 1, D_LIST)

    def test_unknown_d_no_suggestion(self):
        self.assertNinja(["-d", "foo"], 1, "", "ninja: error: unknown debug setting 'foo'\n")

    def test_unknown_d_with_suggestion(self):
        self.assertNinja(["-d", "explian"], 1, "",
                         "ninja: error: unknown debug setting 'explian', did you mean 'explain'?\n")

    def test_unknown_d_suggestion_keeprsp(self):
        self.assertNinja(["-d", "keeprs"], 1, "",
                         "ninja: error: unknown debug setting 'keeprs', did you mean 'keeprsp'?\n")

    def test_unknown_d_too_far_for_suggestion(self):
        self.assertNinja(["-d", "exp"], 1, "", "ninja: error: unknown debug setting 'exp'\n")

    def test_unknown_w(self):
        self.assertNinja(["-w", "foo"], 1, "", "ninja: error: unknown warning flag 'foo'\n")

    def test_unknown_w_with_suggestion(self):
        self.assertNinja(["-w", "phonycycl=err"], 1, "",
                         "ninja: error: unknown warning flag 'phonycycl=err', "
                         "did you mean 'phonycycle=err'?\n")

    def test_w_without_value_is_unknown(self):
        self.assertNinja(["-w", "phonycycle"], 1, "",
                         "ninja: error: unknown warning flag 'phonycycle'\n")

    def test_w_dupbuild_without_value_is_unknown(self):
        self.assertNinja(["-w", "dupbuild"], 1, "", "ninja: error: unknown warning flag 'dupbuild'\n")

    def test_w_dupbuild_err_deprecated(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-w", "dupbuild=err"], 0, "[1/1] T a\n",
                         "ninja: warning: deprecated warning 'dupbuild'\n")

    def test_w_dupbuild_warn_deprecated(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-w", "dupbuild=warn", "-n"], 0, "[1/1] T a\n",
                         "ninja: warning: deprecated warning 'dupbuild'\n")

    def test_w_depfilemulti_deprecated(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-w", "depfilemulti=err", "-n"], 0, "[1/1] T a\n",
                         "ninja: warning: deprecated warning 'depfilemulti'\n")

    def test_w_phonycycle_accepted_silently(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-w", "phonycycle=err", "-n"], 0, "[1/1] T a\n")

    def test_d_modes_accepted(self):
        self.manifest("build a: touch\n")
        for mode in ("keepdepfile", "keeprsp", "nostatcache"):
            self.assertNinja(["-d", mode, "-n"], 0, "[1/1] T a\n")

    def test_missing_default_manifest(self):
        self.assertNinja([], 1, "", "ninja: error: loading 'build.ninja': No such file or directory\n")


# ---------------------------------------------------------------------------
# Dirty scan
# ---------------------------------------------------------------------------

class TestDirtyScan(BuildTestCase):

    def test_missing_output_is_built(self):
        self.manifest("build out: cp in\n")
        self.set_mtime("in")
        self.assertNinja([], 0, "[1/1] CP out\n")
        self.assertEqual(self.ran(), ["out"])

    def test_second_run_no_work_to_do(self):
        self.manifest("build out: cp in\n")
        self.set_mtime("in")
        self.assertNinja([], 0, "[1/1] CP out\n")
        self.assertNinja([], 0, "ninja: no work to do.\n")
        self.assertEqual(self.ran(), ["out"])

    def test_up_to_date_tree_creates_no_log(self):
        self.manifest("build all: phony in\n")
        self.set_mtime("in")
        self.assertNinja([], 0, "ninja: no work to do.\n")
        self.assertFalse(self.exists(".ninja_log"))
        self.assertFalse(self.exists(".ninja_deps"))
        self.assertFalse(self.exists(".ninja_lock"))

    def test_output_older_than_input_rebuilds(self):
        self.manifest("build mid: cp in\nbuild out: cp mid\nbuild other: cp in2\n")
        self.set_mtime("in")
        self.set_mtime("in2")
        self.ninja()
        self.clear_ran()
        self.set_mtime("mid", 10)
        self.set_mtime("in", 20)
        self.assertNinja([], 0, "[1/2] CP mid\n[2/2] CP out\n")
        self.assertEqual(self.ran(), ["mid", "out"])

    def test_output_newer_than_input_is_clean(self):
        self.manifest("build out: cp in\n")
        self.set_mtime("in")
        self.ninja()
        self.set_mtime("in", 5)
        self.set_mtime("out", 10)
        self.assertNinja([], 0, "ninja: no work to do.\n")

    def test_implicit_input_newer_rebuilds(self):
        self.manifest("build out: cp in | hdr\n")
        self.set_mtime("in")
        self.set_mtime("hdr")
        self.ninja()
        self.set_mtime("out", 10)
        self.set_mtime("hdr", 20)
        self.assertNinja([], 0, "[1/1] CP out\n")

    def test_order_only_input_never_dirties(self):
        self.manifest("build out: cp in || oo\n")
        self.set_mtime("in")
        self.set_mtime("oo")
        self.ninja()
        self.set_mtime("out", 10)
        self.set_mtime("oo", 20)
        self.assertNinja([], 0, "ninja: no work to do.\n")

    def test_order_only_built_first_then_not_dirtying(self):
        self.manifest("build out: cp in || gen\nbuild gen: touch\n")
        self.set_mtime("in")
        self.assertNinja(["-j1"], 0, "[1/2] T gen\n[2/2] CP out\n")
        os.unlink(self.path("gen"))
        self.clear_ran()
        # The missing order-only output is rebuilt; 'out' itself stays clean.
        self.assertNinja([], 0, "[1/1] T gen\n")
        self.assertEqual(self.ran(), ["gen"])

    def test_deleted_intermediate_rebuilds_dependents(self):
        self.manifest("build a: touch\nbuild b: cp a\nbuild c: cp b\n")
        self.ninja()
        self.clear_ran()
        os.unlink(self.path("b"))
        self.assertNinja(["c"], 0, "[1/2] CP b\n[2/2] CP c\n")

    def test_phony_with_inputs_propagates_newer_input(self):
        self.manifest("build p: phony in\nbuild q: touch p\n")
        self.set_mtime("in")
        self.assertNinja([], 0, "[1/1] T q\n")
        self.assertNinja([], 0, "ninja: no work to do.\n")
        self.set_mtime("q", 10)
        self.set_mtime("in", 20)
        self.assertNinja([], 0, "[1/1] T q\n")
        self.assertFalse(self.exists("p"))

    def test_phony_not_printed_or_counted(self):
        self.manifest("build a: touch\nbuild b: touch\nbuild all: phony a b\nbuild top: phony all\n")
        self.assertNinja(["-j1", "top"], 0, "[1/2] T a\n[2/2] T b\n")

    def test_phony_without_inputs_forces_rebuild_every_time(self):
        self.manifest("build FORCE: phony\nbuild out: touch | FORCE\nbuild stable: touch\n")
        self.assertNinja(["-j1"], 0, "[1/2] T out\n[2/2] T stable\n")
        self.assertNinja([], 0, "[1/1] T out\n")
        self.assertNinja([], 0, "[1/1] T out\n")
        self.assertEqual(self.ran(), ["out", "stable", "out", "out"])
        self.assertFalse(self.exists("FORCE"))

    def test_phony_without_inputs_existing_file_is_not_forcing(self):
        self.manifest("build FORCE: phony\nbuild out: touch | FORCE\n")
        self.set_mtime("FORCE")
        self.assertNinja([], 0, "[1/1] T out\n")
        self.assertNinja([], 0, "ninja: no work to do.\n")

    def test_phony_without_inputs_newer_file_dirties_dependent(self):
        self.manifest("build FORCE: phony\nbuild out: touch | FORCE\n")
        self.set_mtime("FORCE")
        self.ninja()
        self.set_mtime("out", 10)
        self.set_mtime("FORCE", 20)
        self.assertNinja([], 0, "[1/1] T out\n")

    def test_phony_without_inputs_alone_is_no_work(self):
        self.manifest("build FORCE: phony\n")
        self.assertNinja(["FORCE"], 0, "ninja: no work to do.\n")

    def test_command_change_rebuilds(self):
        self.write("build.ninja", "rule r\n  command = touch $out $flags\nbuild a: r\n")
        self.assertNinja([], 0, "[1/1] touch a \n")
        self.assertNinja([], 0, "ninja: no work to do.\n")
        self.write("build.ninja", "rule r\n  command = touch $out $flags\nbuild a: r\n  flags = -c\n")
        self.assertNinja([], 0, "[1/1] touch a -c\n")

    def test_missing_log_rebuilds_everything(self):
        self.manifest("build a: touch\nbuild b: touch\n")
        self.ninja("-j1")
        os.unlink(self.path(".ninja_log"))
        self.assertNinja(["-j1"], 0, "[1/2] T a\n[2/2] T b\n")

    def test_failed_output_left_behind_is_rebuilt(self):
        self.manifest("build out: cmd\n  cmd = touch out; exit 1\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertTrue(self.exists("out"))
        r = self.ninja()
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stdout.startswith("[1/1] touch out; exit 1\nFAILED: [code=1] out \n"))

    def test_missing_source_needed_by(self):
        self.manifest("build out: cp in\n")
        self.assertNinja([], 1, "",
                         "ninja: error: 'in', needed by 'out', missing and no known rule to make it\n")

    def test_missing_source_as_top_level_target(self):
        self.manifest("build out: cp in\n")
        self.assertNinja(["in"], 1, "", "ninja: error: 'in' missing and no known rule to make it\n")

    def test_missing_source_names_immediate_dependent(self):
        self.manifest("build x: cp missing\nbuild y: cp x\n")
        self.assertNinja(["y"], 1, "",
                         "ninja: error: 'missing', needed by 'x', missing and no known rule to make it\n")

    def test_missing_implicit_input(self):
        self.manifest("build out: touch | imp\n")
        self.assertNinja([], 1, "",
                         "ninja: error: 'imp', needed by 'out', missing and no known rule to make it\n")

    def test_missing_order_only_input(self):
        self.manifest("build out: touch || oo\n")
        self.assertNinja([], 1, "",
                         "ninja: error: 'oo', needed by 'out', missing and no known rule to make it\n")

    def test_missing_input_of_phony(self):
        self.manifest("build p: phony missing\n")
        self.assertNinja([], 1, "",
                         "ninja: error: 'missing', needed by 'p', missing and no known rule to make it\n")

    def test_missing_validation_is_not_an_error(self):
        self.manifest("build v: touch |@ val_missing\n")
        self.assertNinja([], 0, "[1/1] T v\n")

    def test_missing_source_runs_nothing(self):
        self.manifest("build ok: touch\nbuild bad: cp missing\n")
        self.assertNinja(["ok", "bad"], 1, "",
                         "ninja: error: 'missing', needed by 'bad', missing and no known rule to make it\n")
        self.assertEqual(self.ran(), [])
        self.assertFalse(self.exists(".ninja_log"))


# ---------------------------------------------------------------------------
# Targets, -C, -f
# ---------------------------------------------------------------------------

class TestTargets(BuildTestCase):

    def setUp(self):
        super().setUp()
        self.manifest("build a: touch src.c\nbuild b: touch a\nbuild c: touch\n"
                      "build d/e: touch\ndefault b\n")
        self.set_mtime("src.c")

    def test_default_statement(self):
        self.assertNinja([], 0, "[1/2] T a\n[2/2] T b\n")
        self.assertEqual(self.ran(), ["a", "b"])

    def test_no_default_builds_all_roots(self):
        self.manifest("build a: touch\nbuild b: touch a\nbuild c: touch\n")
        self.assertNinja(["-j1"], 0, "[1/3] T a\n[2/3] T b\n[3/3] T c\n")

    def test_explicit_target(self):
        self.assertNinja(["c"], 0, "[1/1] T c\n")
        self.assertEqual(self.ran(), ["c"])

    def test_multiple_targets(self):
        self.assertNinja(["-j1", "c", "a"], 0, "[1/2] T a\n[2/2] T c\n")

    def test_target_path_is_canonicalized(self):
        self.assertNinja(["-j1", "./c", "d//e"], 0, "[1/2] T c\n[2/2] T d/e\n")

    def test_target_path_dotdot(self):
        self.assertNinja(["d/../c"], 0, "[1/1] T c\n")

    def test_source_caret_builds_first_consumer(self):
        self.assertNinja(["src.c^"], 0, "[1/1] T a\n")

    def test_caret_on_target_without_out_edge(self):
        self.assertNinja(["c^"], 1, "", "ninja: error: 'c' has no out edge\n")

    def test_source_target_up_to_date(self):
        self.assertNinja(["src.c"], 0, "ninja: no work to do.\n")

    def test_unknown_target_with_suggestion(self):
        self.assertNinja(["bb"], 1, "", "ninja: error: unknown target 'bb', did you mean 'b'?\n")

    def test_unknown_target_without_suggestion(self):
        self.assertNinja(["zzzzzzzz"], 1, "", "ninja: error: unknown target 'zzzzzzzz'\n")

    def test_empty_target(self):
        self.assertNinja([""], 1, "", "ninja: error: empty path\n")

    def test_trailing_slash_target(self):
        self.assertNinja(["d/"], 1, "", "ninja: error: unknown target 'd', did you mean 'a'?\n")

    def test_dash_C(self):
        os.mkdir(self.path("sub"))
        self.write("sub/build.ninja", "rule r\n  command = touch $out\nbuild o: r\n")
        self.assertNinja(["-C", "sub"], 0, "ninja: Entering directory `sub'\n[1/1] touch o\n")
        self.assertTrue(self.exists("sub/o"))
        self.assertTrue(self.exists("sub/.ninja_log"))
        self.assertNinja(["-C", "sub"], 0, "ninja: Entering directory `sub'\nninja: no work to do.\n")

    def test_dash_C_absolute(self):
        os.mkdir(self.path("sub"))
        self.write("sub/build.ninja", "rule r\n  command = touch $out\nbuild o: r\n")
        d = self.path("sub")
        self.assertNinja(["-C", d], 0, "ninja: Entering directory `%s'\n[1/1] touch o\n" % d)

    def test_dash_C_quiet_has_no_entering_line(self):
        os.mkdir(self.path("sub"))
        self.write("sub/build.ninja", "rule r\n  command = touch $out\nbuild o: r\n")
        self.assertNinja(["-C", "sub", "--quiet"], 0, "")
        self.assertTrue(self.exists("sub/o"))

    def test_dash_C_missing_directory(self):
        self.assertNinja(["-C", "nonexist"], 1, "ninja: Entering directory `nonexist'\n",
                         "ninja: fatal: chdir to 'nonexist' - No such file or directory\n")

    def test_dash_C_last_one_wins(self):
        os.mkdir(self.path("sub"))
        os.unlink(self.path("build.ninja"))
        self.write("sub/build.ninja", "rule r\n  command = touch $out\nbuild o: r\n")
        self.assertNinja(["-C", "sub", "-C", "."], 1, "ninja: Entering directory `.'\n",
                         "ninja: error: loading 'build.ninja': No such file or directory\n")

    def test_dash_C_then_relative_f(self):
        os.mkdir(self.path("sub"))
        self.write("other.ninja", "rule r\n  command = touch $out\nbuild o: r\n")
        self.assertNinja(["-C", "sub", "-f", "../other.ninja"], 0,
                         "ninja: Entering directory `sub'\n[1/1] touch o\n")
        self.assertTrue(self.exists("sub/o"))

    def test_dash_f(self):
        self.write("other.ninja", "rule r\n  command = touch $out\nbuild o: r\n")
        self.assertNinja(["-f", "other.ninja"], 0, "[1/1] touch o\n")
        self.assertNinja(["-f", "other.ninja"], 0, "ninja: no work to do.\n")
        self.assertFalse(self.exists("a"))

    def test_dash_f_missing(self):
        self.assertNinja(["-f", "nonexist"], 1, "",
                         "ninja: error: loading 'nonexist': No such file or directory\n")


# ---------------------------------------------------------------------------
# Parallelism, -k, pools, ordering
# ---------------------------------------------------------------------------

def conc_manifest(n, limit, pool=None, depth=None):
    text = ""
    if pool:
        text += "pool %s\n  depth = %d\n" % (pool, depth)
    text += "rule conc\n  command = sh conc.sh $out %d %d\n  description = C $out\n" % (limit, n)
    if pool:
        text += "  pool = %s\n" % pool
    for i in range(n):
        text += "build o%d: conc\n" % i
    return text


class TestParallel(BuildTestCase):

    def test_two_jobs_run_concurrently(self):
        # Each job waits for the other's marker: only finishes quickly if concurrent.
        self.manifest("build a: cmd\n  cmd = touch a.started; sh waitfor.sh b.started; "
                      "test -e b.started && touch a\n  desc = A\n"
                      "build b: cmd\n  cmd = touch b.started; sh waitfor.sh a.started; "
                      "test -e a.started && touch b\n  desc = B\n")
        r = self.ninja("-j2")
        self.assertEqual(r.returncode, 0, r)
        self.assertTrue(self.exists("a") and self.exists("b"))

    def test_j2_limits_concurrency(self):
        self.write("build.ninja", conc_manifest(5, 2))
        r = self.ninja("-j2")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 2)

    def test_j3_limits_concurrency(self):
        self.write("build.ninja", conc_manifest(6, 3))
        r = self.ninja("-j3")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 3)

    def test_default_j(self):
        n = default_jobs()
        self.write("build.ninja", conc_manifest(n + 1, n))
        r = self.ninja()
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), n)

    def test_j0_is_unlimited(self):
        self.write("build.ninja", conc_manifest(7, 7))
        r = self.ninja("-j0")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 7)

    def test_j1_runs_serially(self):
        self.write("build.ninja", conc_manifest(3, 1))
        r = self.ninja("-j1")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 1)

    def test_parallel_outputs_printed_in_finish_order(self):
        # slow waits until ninja has reaped fast (ninja reaps a job right
        # before reporting it), so the finish order is deterministic.
        self.manifest("build slow: cmd\n  cmd = sh waitgone.sh fast.pid; echo slow-out; touch slow\n"
                      "  desc = SLOW\n"
                      "build fast: cmd\n  cmd = echo $$$$ > fast.pid; echo fast-out; touch fast\n"
                      "  desc = FAST\n")
        self.assertNinja(["-j2"], 0, "[1/2] FAST\nfast-out\n[2/2] SLOW\nslow-out\n")


class TestKeepGoing(BuildTestCase):

    def setUp(self):
        super().setUp()
        self.manifest("build f1: cmd\n  cmd = echo f1 >> ran.log; exit 3\n  desc = f1\n"
                      "build f2: cmd\n  cmd = echo f2 >> ran.log; exit 4\n  desc = f2\n"
                      "build f3: cmd\n  cmd = echo f3 >> ran.log; exit 5\n  desc = f3\n"
                      "build ok: touch\n")

    def test_default_stops_after_first_failure(self):
        self.assertNinja(["-j1"], 3,
                         "[1/4] f1\nFAILED: [code=3] f1 \necho f1 >> ran.log; exit 3\n"
                         "ninja: build stopped: subcommand failed.\n")
        self.assertEqual(self.ran(), ["f1"])

    def test_k1_is_default(self):
        self.assertNinja(["-j1", "-k1"], 3,
                         "[1/4] f1\nFAILED: [code=3] f1 \necho f1 >> ran.log; exit 3\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_k2_stops_after_two_failures(self):
        self.assertNinja(["-j1", "-k", "2"], 4,
                         "[1/4] f1\nFAILED: [code=3] f1 \necho f1 >> ran.log; exit 3\n"
                         "[2/4] f2\nFAILED: [code=4] f2 \necho f2 >> ran.log; exit 4\n"
                         "ninja: build stopped: subcommands failed.\n")
        self.assertEqual(self.ran(), ["f1", "f2"])

    def test_k0_runs_everything(self):
        self.assertNinja(["-j1", "-k", "0"], 5,
                         "[1/4] f1\nFAILED: [code=3] f1 \necho f1 >> ran.log; exit 3\n"
                         "[2/4] f2\nFAILED: [code=4] f2 \necho f2 >> ran.log; exit 4\n"
                         "[3/4] f3\nFAILED: [code=5] f3 \necho f3 >> ran.log; exit 5\n"
                         "[4/4] T ok\n"
                         "ninja: build stopped: cannot make progress due to previous errors.\n")
        self.assertEqual(self.ran(), ["f1", "f2", "f3", "ok"])

    def test_k_larger_than_failures(self):
        r = self.ninja("-j1", "-k", "10")
        self.assertEqual(r.returncode, 5)
        self.assertTrue(r.stdout.endswith(
            "[4/4] T ok\nninja: build stopped: cannot make progress due to previous errors.\n"), r)

    def test_exit_code_is_last_failure_not_max(self):
        self.manifest("build hi: cmd\n  cmd = exit 9\nbuild lo: cmd\n  cmd = exit 2\n")
        self.assertNinja(["-j1", "-k0", "lo", "hi"], 2,
                         "[1/2] exit 9\nFAILED: [code=9] hi \nexit 9\n"
                         "[2/2] exit 2\nFAILED: [code=2] lo \nexit 2\n"
                         "ninja: build stopped: cannot make progress due to previous errors.\n")

    def test_k0_blocked_dependents(self):
        self.manifest("build a: cmd\n  cmd = echo aout; exit 3\n  desc = A\n"
                      "build b: cmd\n  cmd = echo bout; exit 5\n  desc = B\n"
                      "build c: touch a\nbuild d: touch\n")
        self.assertNinja(["-j1", "-k0", "c", "b", "d"], 5,
                         "[1/4] A\nFAILED: [code=3] a \necho aout; exit 3\naout\n"
                         "[2/4] B\nFAILED: [code=5] b \necho bout; exit 5\nbout\n"
                         "[3/4] T d\n"
                         "ninja: build stopped: cannot make progress due to previous errors.\n")
        self.assertEqual(self.ran(), ["d"])

    def test_running_commands_finish_after_failure(self):
        self.manifest("build slow: cmd\n  cmd = touch slow.started; sh waitgone.sh fail.pid; "
                      "echo slow-done; touch slow\n  desc = SLOW\n"
                      "build fail: cmd\n  cmd = sh waitfor.sh slow.started; echo $$$$ > fail.pid; "
                      "echo fail-out; exit 7\n  desc = FAIL\n"
                      "build later: touch slow fail\n")
        self.assertNinja(["-j2"], 7,
                         "[1/3] FAIL\nFAILED: [code=7] fail \nsh waitfor.sh slow.started; "
                         "echo $$ > fail.pid; echo fail-out; exit 7\nfail-out\n"
                         "[2/3] SLOW\nslow-done\n"
                         "ninja: build stopped: subcommand failed.\n")
        self.assertTrue(self.exists("slow"))
        self.assertFalse(self.exists("later"))


class TestPools(BuildTestCase):

    def test_pool_depth_limits_concurrency(self):
        self.write("build.ninja", conc_manifest(6, 2, pool="p", depth=2))
        r = self.ninja("-j4")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 2)

    def test_pool_depth_one_serializes(self):
        self.write("build.ninja", conc_manifest(3, 1, pool="p", depth=1))
        r = self.ninja("-j4")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 1)

    def test_j_smaller_than_pool_depth_wins(self):
        self.write("build.ninja", conc_manifest(4, 2, pool="p", depth=4))
        r = self.ninja("-j2")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 2)

    def test_two_pools_run_side_by_side(self):
        text = ("pool p\n  depth = 1\npool q\n  depth = 1\n"
                "rule cp_\n  command = sh conc.sh $out 2 4\n  pool = p\n"
                "rule cq_\n  command = sh conc.sh $out 2 4\n  pool = q\n"
                "build p1: cp_\nbuild p2: cp_\nbuild q1: cq_\nbuild q2: cq_\n")
        self.write("build.ninja", text)
        r = self.ninja("-j4")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 2)

    def test_pool_in_build_statement(self):
        text = ("pool p\n  depth = 2\n"
                "rule c\n  command = sh conc.sh $out 2 6\n")
        for i in range(6):
            text += "build o%d: c\n  pool = p\n" % i
        self.write("build.ninja", text)
        r = self.ninja("-j5")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(max(self.peaks()), 2)

    def test_pool_delayed_edge_released_before_new_ready_edge(self):
        # With -j1: 'c' waits in the pool while 'a' runs; when 'a' finishes, the
        # delayed 'c' is released ahead of the newly-ready 'b' of the same pool.
        self.manifest("pool p\n  depth = 1\nbuild a: touch\n  pool = p\nbuild b: touch a\n  pool = p\n"
                      "build c: touch\n  pool = p\nbuild d: touch\n")
        self.assertNinja(["-j1"], 0, "[1/4] T a\n[2/4] T c\n[3/4] T b\n[4/4] T d\n")

    def test_console_pool_status_at_start_on_pipe(self):
        self.manifest("build c: cmd\n  pool = console\n"
                      "  cmd = echo console-out; if [ -t 1 ]; then echo tty; else echo notty; fi; touch c\n"
                      "  desc = CONSOLE\n"
                      "build d: cmd c\n  cmd = echo d-out; touch d\n  desc = D\n"
                      "build e: cmd\n  cmd = echo e-out; touch e\n  desc = E\n")
        self.assertNinja(["-j1"], 0,
                         "[0/3] CONSOLE\nconsole-out\nnotty\n[2/3] D\nd-out\n[3/3] E\ne-out\n")

    def test_console_pool_status_counters(self):
        self.manifest("build c: cmd\n  pool = console\n  cmd = touch c\n  desc = CONSOLE\n"
                      "build d: cmd c\n  cmd = touch d\n  desc = D\n")
        self.assertNinja(["-j1"], 0, "[1/2/1/0/1] CONSOLE\n[2/2/1/2/0] D\n",
                         env={"NINJA_STATUS": "[%s/%t/%r/%f/%u] "})

    def test_console_pool_buffers_other_output(self):
        self.manifest("build c: cmd\n  pool = console\n"
                      "  cmd = echo console-start; sh waitgone.sh x.pid; echo console-done; touch c\n"
                      "  desc = CONSOLE\n"
                      "build x: cmd\n  cmd = echo $$$$ > x.pid; echo x-out; touch x\n  desc = X\n")
        self.assertNinja(["-j2"], 0,
                         "[0/2] CONSOLE\nconsole-start\nconsole-done\n[1/2] X\nx-out\n")

    def test_console_pool_job_shares_terminal(self):
        self.manifest("build c: cmd\n  pool = console\n"
                      "  cmd = if [ -t 1 ]; then echo tty; else echo notty; fi; touch c\n"
                      "  desc = CONSOLE\n"
                      "build n: cmd\n  cmd = if [ -t 1 ]; then echo tty; else echo notty; fi; touch n\n"
                      "  desc = N\n")
        r = self.ninja_pty("-j1")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout,
                         "\r[0/2] CONSOLE\x1b[K\ntty\n\r[1/2] N\x1b[K\r[2/2] N\x1b[K\nnotty\n")

    def test_console_pool_job_in_ninja_process_group(self):
        self.manifest("build c: cmd\n  pool = console\n"
                      "  cmd = cut -d' ' -f5 /proc/self/stat > pg; touch c\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(int(self.read("pg")), os.getpgrp())


class TestCriticalPath(BuildTestCase):

    def test_longest_chain_first(self):
        self.manifest("build s1: touch\nbuild l1: touch\nbuild l2: touch l1\nbuild l3: touch l2\n"
                      "build t1: touch\nbuild t2: touch t1\nbuild all: phony s1 l3 t2\n")
        self.assertNinja(["-j1", "all"], 0,
                         "[1/6] T l1\n[2/6] T l2\n[3/6] T t1\n[4/6] T s1\n[5/6] T l3\n[6/6] T t2\n")

    def test_command_line_order_does_not_matter(self):
        self.manifest("build s1: touch\nbuild l1: touch\nbuild l2: touch l1\nbuild l3: touch l2\n"
                      "build t1: touch\nbuild t2: touch t1\n")
        self.assertNinja(["-j1", "s1", "t2", "l3"], 0,
                         "[1/6] T l1\n[2/6] T l2\n[3/6] T t1\n[4/6] T s1\n[5/6] T l3\n[6/6] T t2\n")

    def test_ties_in_manifest_order(self):
        self.manifest("build a: touch\nbuild b: touch\nbuild c: touch\n")
        self.assertNinja(["-j1", "c", "b", "a"], 0, "[1/3] T a\n[2/3] T b\n[3/3] T c\n")

    def test_tie_break_by_manifest_order_not_name(self):
        self.manifest("build z: touch\nbuild m: touch\nbuild a: touch\n")
        self.assertNinja(["-j1"], 0, "[1/3] T z\n[2/3] T m\n[3/3] T a\n")

    def test_phony_edges_do_not_add_weight(self):
        self.manifest("build y1: touch\nbuild y2: touch y1\nbuild x1: touch\n"
                      "build px: phony x1\nbuild x2: touch px\nbuild all: phony y2 x2\n")
        self.assertNinja(["-j1", "all"], 0, "[1/4] T y1\n[2/4] T x1\n[3/4] T y2\n[4/4] T x2\n")

    def test_longer_chain_through_phony(self):
        self.manifest("build y1: touch\nbuild y2: touch y1\nbuild x1: touch\n"
                      "build px: phony x1\nbuild x2: touch px\nbuild x3: touch x2\n"
                      "build all: phony y2 x3\n")
        self.assertNinja(["-j1", "all"], 0,
                         "[1/5] T x1\n[2/5] T y1\n[3/5] T x2\n[4/5] T y2\n[5/5] T x3\n")

    def test_interrupted_command_order_with_manifest_ties(self):
        # All weight 1: the earliest edge in the manifest runs first even when
        # requested last on the command line.
        self.manifest("build int: cmd\n  cmd = kill -INT $$$$\n"
                      "build e255: cmd\n  cmd = exit 255\nbuild ok: touch\n")
        self.assertNinja(["-j1", "-k0", "e255", "ok", "int"], 130,
                         "ninja: build stopped: interrupted by user.\n")
        self.assertEqual(self.ran(), [])


# ---------------------------------------------------------------------------
# Dry run, verbosity
# ---------------------------------------------------------------------------

class TestDryRun(BuildTestCase):

    def test_dry_run_runs_nothing(self):
        self.manifest("build a: touch\nbuild b: cp a\n")
        self.assertNinja(["-n"], 0, "[1/2] T a\n[2/2] CP b\n")
        self.assertEqual(self.ran(), [])
        self.assertFalse(self.exists("a"))
        self.assertFalse(self.exists(".ninja_log"))
        self.assertFalse(self.exists(".ninja_lock"))

    def test_dry_run_repeats(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-n"], 0, "[1/1] T a\n")
        self.assertNinja(["-n"], 0, "[1/1] T a\n")

    def test_dry_run_after_build_no_work(self):
        self.manifest("build a: touch\n")
        self.ninja()
        self.assertNinja(["-n"], 0, "ninja: no work to do.\n")

    def test_dry_run_failing_command_succeeds(self):
        self.manifest("build a: cmd\n  cmd = exit 1\nbuild b: cp a\n")
        self.assertNinja(["-n", "-j1"], 0, "[1/2] exit 1\n[2/2] CP b\n")

    def test_dry_run_creates_output_dirs(self):
        self.manifest("builddir = bd\nbuild x/y/out: touch\n  depfile = deps/z/out.d\n")
        self.assertNinja(["-n"], 0, "[1/1] T x/y/out\n")
        self.assertEqual(self.files(), ["build.ninja", "conc.sh", "deps/", "deps/z/",
                                        "waitfor.sh", "waitgone.sh", "x/", "x/y/"])

    def test_dry_run_verbose(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-n", "-v"], 0, "[1/1] echo a >> ran.log; touch a\n")

    def test_dry_run_quiet(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-n", "--quiet"], 0, "")


class TestVerbosity(BuildTestCase):

    def setUp(self):
        super().setUp()
        self.manifest("build a: cmd\n  cmd = echo aout; touch a\n  desc = A\n"
                      "build bad: cmd\n  cmd = echo badout; exit 3\n  desc = BAD\n")

    def test_verbose_shows_commands(self):
        self.assertNinja(["-v", "a"], 0, "[1/1] echo aout; touch a\naout\n")

    def test_verbose_long(self):
        self.assertNinja(["--verbose", "a"], 0, "[1/1] echo aout; touch a\naout\n")

    def test_verbose_failure(self):
        self.assertNinja(["-v", "bad"], 3,
                         "[1/1] echo badout; exit 3\nFAILED: [code=3] bad \necho badout; exit 3\n"
                         "badout\nninja: build stopped: subcommand failed.\n")

    def test_verbose_no_work(self):
        self.ninja("a")
        self.assertNinja(["-v", "a"], 0, "ninja: no work to do.\n")

    def test_quiet_shows_only_command_output(self):
        self.assertNinja(["--quiet", "a"], 0, "aout\n")

    def test_quiet_no_work_prints_nothing(self):
        self.ninja("a")
        self.assertNinja(["--quiet", "a"], 0, "")

    def test_quiet_failure(self):
        self.assertNinja(["--quiet", "bad"], 3,
                         "FAILED: [code=3] bad \necho badout; exit 3\nbadout\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_last_of_quiet_and_verbose_wins(self):
        self.assertNinja(["--quiet", "-v", "a"], 0, "[1/1] echo aout; touch a\naout\n")
        os.unlink(self.path("a"))
        self.assertNinja(["-v", "--quiet", "a"], 0, "aout\n")


# ---------------------------------------------------------------------------
# Output directories, rspfiles
# ---------------------------------------------------------------------------

class TestOutputDirs(BuildTestCase):

    def test_output_parent_dirs_created(self):
        self.manifest("build a/b/c/out: cmd\n  cmd = test -d a/b/c && touch a/b/c/out\n")
        self.assertNinja([], 0, "[1/1] test -d a/b/c && touch a/b/c/out\n")
        self.assertTrue(self.exists("a/b/c/out"))

    def test_all_outputs_dirs_created(self):
        self.manifest("build x/one y/two | z/three: cmd\n"
                      "  cmd = test -d x && test -d y && test -d z && touch x/one y/two z/three\n"
                      "  desc = MULTI\n")
        self.assertNinja([], 0, "[1/1] MULTI\n")
        self.assertTrue(self.exists("z/three"))

    def test_depfile_dir_created(self):
        self.write("a.c", "hi\n")
        self.manifest("rule cc\n  command = echo \"$out: $in\" > $depfile; cp $in $out\n"
                      "  depfile = deps/x/$out.d\nbuild out/a.o: cc a.c\n")
        self.assertNinja([], 0, "[1/1] echo \"out/a.o: a.c\" > deps/x/out/a.o.d; cp a.c out/a.o\n")
        self.assertEqual(self.read("deps/x/out/a.o.d"), "out/a.o: a.c\n")
        self.assertNinja([], 0, "ninja: no work to do.\n")

    def test_existing_dirs_are_fine(self):
        os.makedirs(self.path("o"))
        self.manifest("build o/x: touch\n")
        self.assertNinja([], 0, "[1/1] T o/x\n")


class TestRspfile(BuildTestCase):

    def setUp(self):
        super().setUp()
        self.write("in", "x")
        self.manifest("rule r\n  command = cat $out.rsp > $out.seen; touch $out\n"
                      "  rspfile = $out.rsp\n  rspfile_content = hello $in\n"
                      "rule f\n  command = cat $out.rsp; exit 1\n"
                      "  rspfile = $out.rsp\n  rspfile_content = fail $in\n"
                      "build out: r in\nbuild bad: f in\n")

    def test_written_before_command_and_deleted_after_success(self):
        self.assertNinja(["out"], 0, "[1/1] cat out.rsp > out.seen; touch out\n")
        self.assertEqual(self.read("out.seen"), "hello in")
        self.assertFalse(self.exists("out.rsp"))

    def test_kept_after_failure(self):
        self.assertNinja(["bad"], 1, "[1/1] cat bad.rsp; exit 1\nFAILED: [code=1] bad \n"
                         "cat bad.rsp; exit 1\nfail in\nninja: build stopped: subcommand failed.\n")
        self.assertEqual(self.read("bad.rsp"), "fail in")

    def test_keeprsp_keeps_it(self):
        self.assertNinja(["-d", "keeprsp", "out"], 0, "[1/1] cat out.rsp > out.seen; touch out\n")
        self.assertEqual(self.read("out.rsp"), "hello in")

    def test_dry_run_writes_and_deletes(self):
        self.assertNinja(["-n", "out"], 0, "[1/1] cat out.rsp > out.seen; touch out\n")
        self.assertFalse(self.exists("out.rsp"))
        self.assertFalse(self.exists("out.seen"))

    def test_dry_run_keeprsp(self):
        self.assertNinja(["-n", "-d", "keeprsp", "out"], 0,
                         "[1/1] cat out.rsp > out.seen; touch out\n")
        self.assertEqual(self.read("out.rsp"), "hello in")
        self.assertFalse(self.exists("out"))

    def test_rspfile_dir_not_created(self):
        self.manifest("rule r\n  command = touch $out\n  rspfile = r/$out.rsp\n"
                      "  rspfile_content = x\nbuild o/out: r\n")
        self.assertNinja([], 1, "ninja: build stopped: .\n",
                         "ninja: error: WriteFile(r/o/out.rsp): Unable to create file. "
                         "No such file or directory\n")
        self.assertTrue(os.path.isdir(self.path("o")))
        self.assertFalse(self.exists("o/out"))

    def test_rspfile_content_change_rebuilds(self):
        self.ninja("out")
        self.manifest("rule r\n  command = cat $out.rsp > $out.seen; touch $out\n"
                      "  rspfile = $out.rsp\n  rspfile_content = bye $in\n"
                      "build out: r in\n")
        self.assertNinja(["out"], 0, "[1/1] cat out.rsp > out.seen; touch out\n")
        self.assertEqual(self.read("out.seen"), "bye in")


# ---------------------------------------------------------------------------
# Failures and signals
# ---------------------------------------------------------------------------

class TestFailure(BuildTestCase):

    def test_failed_block(self):
        self.manifest("build a: cp src\nbuild b: cmd a\n  cmd = echo oops; exit 3\n")
        self.write("src", "x")
        self.assertNinja([], 3, "[1/2] CP a\n[2/2] echo oops; exit 3\nFAILED: [code=3] b \n"
                         "echo oops; exit 3\noops\nninja: build stopped: subcommand failed.\n")

    def test_failed_lists_all_outputs_including_implicit(self):
        self.manifest("build o1 o2 | o3: cmd\n  cmd = exit 1\n  desc = DESC o1 o2\n")
        self.assertNinja([], 1, "[1/1] DESC o1 o2\nFAILED: [code=1] o1 o2 o3 \nexit 1\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_exit_status_propagated(self):
        self.manifest("build a: cmd\n  cmd = exit 42\n")
        self.assertNinja([], 42, "[1/1] exit 42\nFAILED: [code=42] a \nexit 42\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_exit_status_255(self):
        self.manifest("build a: cmd\n  cmd = exit 255\n")
        self.assertNinja([], 255, "[1/1] exit 255\nFAILED: [code=255] a \nexit 255\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_failure_output_without_newline(self):
        self.manifest("build sub/x: cmd\n  cmd = printf 'line1\\nline2'; exit 2\n  desc = DESC sub/x\n")
        self.assertNinja([], 2, "[1/1] DESC sub/x\nFAILED: [code=2] sub/x \n"
                         "printf 'line1\\nline2'; exit 2\nline1\nline2\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_failure_stops_dependents_and_later_edges(self):
        self.manifest("build a: cmd\n  cmd = exit 1\nbuild b: touch a\nbuild c: touch\n")
        self.assertNinja(["-j1"], 1, "[1/3] exit 1\nFAILED: [code=1] a \nexit 1\n"
                         "ninja: build stopped: subcommand failed.\n")
        self.assertEqual(self.ran(), [])

    def test_outputs_not_deleted_on_failure(self):
        self.manifest("build a: cmd\n  cmd = touch a; exit 1\n")
        self.ninja()
        self.assertTrue(self.exists("a"))

    def test_failed_edge_not_logged(self):
        self.manifest("build a: cmd\n  cmd = exit 1\n")
        self.ninja()
        self.assertFalse(self.exists(".ninja_log"))

    def test_failed_block_colored_with_clicolor_force(self):
        self.manifest("build e: cmd\n  cmd = echo bad; exit 4\n  desc = E\n")
        self.assertNinja([], 4, "[1/1] E\n\x1b[31mFAILED: [code=4] \x1b[0me \necho bad; exit 4\n"
                         "bad\nninja: build stopped: subcommand failed.\n",
                         env={"CLICOLOR_FORCE": "1"})

    def test_failure_after_output_without_newline(self):
        self.manifest("build a: cmd\n  cmd = printf 'no-newline' ; touch a\n  desc = A\n"
                      "build b: cmd a\n  cmd = printf 'fail-out'; exit 2\n  desc = B\n")
        self.assertNinja([], 2, "[1/2] A\nno-newline[2/2] B\n\nFAILED: [code=2] b \n"
                         "printf 'fail-out'; exit 2\nfail-out\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_k0_failure_blocks_newlines(self):
        self.manifest("build b: cmd\n  cmd = printf 'fail-out'; exit 2\n  desc = B\n"
                      "build c: cmd\n  cmd = echo hi; exit 1\n")
        self.assertNinja(["-j1", "-k0", "c", "b"], 1,
                         "[1/2] B\nFAILED: [code=2] b \nprintf 'fail-out'; exit 2\nfail-out"
                         "[2/2] echo hi; exit 1\n\nFAILED: [code=1] c \necho hi; exit 1\nhi\n"
                         "ninja: build stopped: cannot make progress due to previous errors.\n")


class TestCommandSignals(BuildTestCase):

    def setUp(self):
        super().setUp()
        self.manifest("build k9: cmd\n  cmd = echo before; kill -9 $$$$\n"
                      "build int: cmd\n  cmd = echo before; touch int; kill -INT $$$$\n"
                      "build term: cmd\n  cmd = kill -TERM $$$$\n"
                      "build hup: cmd\n  cmd = kill -HUP $$$$\n"
                      "build segv: cmd\n  cmd = kill -SEGV $$$$\n"
                      "build usr1: cmd\n  cmd = kill -USR1 $$$$\n"
                      "build e130: cmd\n  cmd = touch e130; exit 130\n"
                      "build ok: touch\n")

    def test_sigkill(self):
        self.assertNinja(["k9"], 137, "[1/1] echo before; kill -9 $$\nFAILED: [code=137] k9 \n"
                         "echo before; kill -9 $$\nbefore\nninja: build stopped: subcommand failed.\n")

    def test_sigsegv(self):
        self.assertNinja(["segv"], 139, "[1/1] kill -SEGV $$\nFAILED: [code=139] segv \n"
                         "kill -SEGV $$\nninja: build stopped: subcommand failed.\n")

    def test_sigusr1(self):
        self.assertNinja(["usr1"], 138, "[1/1] kill -USR1 $$\nFAILED: [code=138] usr1 \n"
                         "kill -USR1 $$\nninja: build stopped: subcommand failed.\n")

    def test_sigint_of_command_is_interrupt(self):
        self.assertNinja(["int"], 130, "ninja: build stopped: interrupted by user.\n")
        # Not deleted: ninja itself was not interrupted.
        self.assertTrue(self.exists("int"))
        self.assertFalse(self.exists(".ninja_log"))

    def test_sigterm_of_command_is_interrupt(self):
        self.assertNinja(["term"], 130, "ninja: build stopped: interrupted by user.\n")

    def test_sighup_of_command_is_interrupt(self):
        self.assertNinja(["hup"], 130, "ninja: build stopped: interrupted by user.\n")

    def test_exit_130_is_interrupt(self):
        self.assertNinja(["e130"], 130, "ninja: build stopped: interrupted by user.\n")
        self.assertTrue(self.exists("e130"))

    def test_interrupt_stops_keep_going(self):
        self.assertNinja(["-j1", "-k0", "ok", "int"], 130,
                         "ninja: build stopped: interrupted by user.\n")
        self.assertFalse(self.exists("ok"))


class TestInterruptNinja(BuildTestCase):

    def setUp(self):
        super().setUp()
        self.write("catch.py", CATCH_PY)
        self.py = sys.executable

    def interrupt(self, sig, *args):
        p = self.popen(*args)
        try:
            self.wait_for("started")
        except BaseException:
            p.kill()
            p.communicate()
            raise
        p.send_signal(sig)
        out, err = p.communicate(timeout=20)
        return harness.Result(p.returncode, out.decode(), err.decode())

    def long_manifest(self, extra=""):
        self.manifest("build o1 o2: cmd\n  cmd = exec '%s' catch.py o1\n%s" % (self.py, extra))
        self.set_mtime("o2")

    def check(self, sig, name):
        self.long_manifest()
        r = self.interrupt(sig)
        self.assertRun(r, 130, "ninja: build stopped: interrupted by user.\n")
        self.assertEqual(self.read("sig"), name + "\n")
        # The output the command wrote is deleted, the untouched one is kept.
        self.assertFalse(self.exists("o1"))
        self.assertTrue(self.exists("o2"))
        self.assertFalse(self.exists("finished"))
        self.assertFalse(self.exists(".ninja_lock"))
        self.assertFalse(self.exists(".ninja_log"))

    def test_sigint(self):
        self.check(signal.SIGINT, "SIGINT")

    def test_sigterm(self):
        self.check(signal.SIGTERM, "SIGTERM")

    def test_sighup(self):
        self.check(signal.SIGHUP, "SIGHUP")

    def test_job_runs_in_own_process_group(self):
        self.long_manifest()
        r = self.interrupt(signal.SIGINT)
        self.assertEqual(r.returncode, 130)
        pgid, pid = self.read("pgid").split()
        self.assertEqual(pgid, pid)

    def test_signal_reaches_whole_process_group(self):
        # The python process is a child of /bin/sh here (the trailing '; true'
        # prevents exec), so it only gets the signal via the process group.
        self.manifest("build o1: cmd\n  cmd = '%s' catch.py o1; true\n" % self.py)
        r = self.interrupt(signal.SIGTERM)
        self.assertRun(r, 130, "ninja: build stopped: interrupted by user.\n")
        self.wait_for("sig")
        self.assertEqual(self.read("sig"), "SIGTERM\n")

    def test_depfile_edge_deletes_all_outputs_and_depfile(self):
        self.manifest("build o1 o2: cmd\n  cmd = echo 'o1: x' > o1.d; exec '%s' catch.py o1\n"
                      "  depfile = o1.d\n" % self.py)
        self.set_mtime("o2")
        r = self.interrupt(signal.SIGINT)
        self.assertRun(r, 130, "ninja: build stopped: interrupted by user.\n")
        self.assertFalse(self.exists("o1"))
        self.assertFalse(self.exists("o2"))
        self.assertFalse(self.exists("o1.d"))

    def test_finished_edges_are_kept_and_logged(self):
        self.manifest("build first: touch\n"
                      "build o1: cmd first\n  cmd = exec '%s' catch.py o1\n" % self.py)
        r = self.interrupt(signal.SIGINT, "-j1")
        self.assertRun(r, 130, "[1/2] T first\nninja: build stopped: interrupted by user.\n")
        self.assertTrue(self.exists("first"))
        self.assertIn("\tfirst\t", self.read(".ninja_log"))
        self.assertNotIn("\to1\t", self.read(".ninja_log"))
        self.clear_ran()
        os.unlink(self.path("started"))
        # The next run only redoes the interrupted edge.
        r = self.interrupt(signal.SIGINT, "-j1")
        self.assertRun(r, 130, "ninja: build stopped: interrupted by user.\n")
        self.assertEqual(self.ran(), [])


# ---------------------------------------------------------------------------
# Processes and command output
# ---------------------------------------------------------------------------

class TestProcess(BuildTestCase):

    def test_stdin_is_dev_null(self):
        self.manifest("build a: cmd\n  cmd = cat > got; readlink /proc/self/fd/0 > fd0; touch a\n")
        p = self.popen(stdin=subprocess.PIPE)
        out, err = p.communicate(b"secret data\n", timeout=30)
        self.assertEqual(p.returncode, 0, (out, err))
        self.assertEqual(self.read("got"), "")
        self.assertEqual(self.read("fd0"), "/dev/null\n")

    def test_command_in_own_process_group(self):
        self.manifest("build a: cmd\n  cmd = cut -d' ' -f5 /proc/self/stat > pg; echo $$$$ > pid; touch a\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(self.read("pg"), self.read("pid"))
        self.assertNotEqual(int(self.read("pg")), os.getpgrp())

    def test_runs_via_bin_sh(self):
        self.manifest("build a: cmd\n  cmd = echo $$0\n")
        self.assertNinja([], 0, "[1/1] echo $0\n/bin/sh\n")

    def test_environment_inherited(self):
        self.manifest("build a: cmd\n  cmd = echo \"[$$RONIN_TEST_VAR]\"\n")
        self.assertNinja([], 0, "[1/1] echo \"[$RONIN_TEST_VAR]\"\n[hello world]\n",
                         env={"RONIN_TEST_VAR": "hello world"})

    def test_stdout_and_stderr_merged_in_order(self):
        self.manifest("build a: cmd\n  cmd = echo 1; echo 2 >&2; echo 3; echo 4 >&2\n  desc = A\n")
        self.assertNinja([], 0, "[1/1] A\n1\n2\n3\n4\n")

    def test_large_output(self):
        self.manifest("build a: cmd\n  cmd = i=0; while [ $$i -lt 4000 ]; do "
                      "echo line-$$i-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; i=$$((i+1)); done\n"
                      "  desc = BIG\n")
        r = self.ninja()
        self.assertEqual(r.returncode, 0)
        lines = r.stdout.split("\n")
        self.assertEqual(lines[0], "[1/1] BIG")
        self.assertEqual(len(lines), 4002)
        self.assertEqual(lines[4000], "line-3999-" + "x" * 47)

    def test_background_child_holding_pipe(self):
        # The job is finished when its output pipe closes, not when sh exits.
        self.manifest("build a: cmd\n  cmd = (sh waitfor.sh e; echo late) & echo early; touch e\n"
                      "  desc = A\n")
        self.assertNinja([], 0, "[1/1] A\nearly\nlate\n")


class TestCommandOutput(BuildTestCase):

    def test_output_after_status_line(self):
        self.manifest("build c: cmd\n  cmd = echo out; echo err >&2; touch c\n  desc = C\n")
        self.assertNinja([], 0, "[1/1] C\nout\nerr\n")

    def test_output_without_newline_sequence(self):
        self.manifest("build a: cmd\n  cmd = printf 'no-newline' ; touch a\n  desc = A\n"
                      "build b: cmd\n  cmd = touch b\n  desc = B\n"
                      "build c: cmd\n  cmd = printf '\\033[31mred\\033[0m\\n' ; touch c\n  desc = C\n"
                      "build d: cmd\n  cmd = printf 'last' ; touch d\n  desc = D\n")
        self.assertNinja(["-j1"], 0,
                         "[1/4] A\nno-newline[2/4] B\n[3/4] C\n\nred\n[4/4] D\nlast\n")

    def test_output_without_newline_then_quiet_edge_at_end(self):
        self.manifest("build c: cmd\n  cmd = printf 'nonl'; touch c\n  desc = C\n"
                      "build d: cmd c\n  cmd = touch d\n  desc = D\n")
        self.assertNinja([], 0, "[1/2] C\nnonl[2/2] D\n\n")

    def test_output_without_newline_quiet(self):
        self.manifest("build a: cmd\n  cmd = printf 'no-newline' ; touch a\n"
                      "build b: cmd\n  cmd = printf 'x\\n' ; touch b\n"
                      "build c: cmd\n  cmd = printf 'last' ; touch c\n")
        self.assertNinja(["-j1", "--quiet"], 0, "no-newline\nx\nlast\n")

    def test_ansi_stripped_on_pipe(self):
        self.manifest("build a: cmd\n  cmd = printf 'A\\033[2KB\\033[1;31mC\\033[mD\\033]0;t\\007E\\033xF\\033[G\\n'\n"
                      "  desc = A\n")
        self.assertNinja([], 0, "[1/1] A\nABCD]0;t\x07ExF\n")

    def test_ansi_kept_with_clicolor_force(self):
        self.manifest("build a: cmd\n  cmd = printf 'A\\033[2KB\\033[1;31mC\\033[mD\\n'\n  desc = A\n")
        self.assertNinja([], 0, "[1/1] A\nA\x1b[2KB\x1b[1;31mC\x1b[mD\n", env={"CLICOLOR_FORCE": "1"})

    def test_ansi_stripped_with_clicolor_force_zero(self):
        self.manifest("build a: cmd\n  cmd = printf '\\033[31mred\\033[0m\\n'\n  desc = A\n")
        self.assertNinja([], 0, "[1/1] A\nred\n", env={"CLICOLOR_FORCE": "0"})

    def test_ansi_in_description_not_stripped(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n"
                   "  description = \x1b[1mBOLD\x1b[0m $out\nbuild a: r\n")
        self.assertNinja([], 0, "[1/1] \x1b[1mBOLD\x1b[0m a\n")

    def test_quiet_output_stripped(self):
        self.manifest("build a: cmd\n  cmd = printf '\\033[32mgreen\\033[0m\\n'\n")
        self.assertNinja(["--quiet"], 0, "green\n")


# ---------------------------------------------------------------------------
# Status line and NINJA_STATUS
# ---------------------------------------------------------------------------

ALL_PLACEHOLDERS = "s=%s t=%t p=%p r=%r u=%u f=%f o=%o c=%c e=%e E=%E w=%w W=%W P=%P %% | "


class TestStatus(BuildTestCase):

    def chain(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n  description = R $out\n"
                   "build a: r\nbuild b: r a\nbuild c: r b\nbuild d: r c\n")

    def test_description_used(self):
        self.chain()
        self.assertNinja([], 0, "[1/4] R a\n[2/4] R b\n[3/4] R c\n[4/4] R d\n")

    def test_command_used_without_description(self):
        self.write("build.ninja", "rule r\n  command = touch $out\nbuild a: r\n")
        self.assertNinja([], 0, "[1/1] touch a\n")

    def test_command_used_with_empty_description(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n  description =\nbuild a: r\n")
        self.assertNinja([], 0, "[1/1] touch a\n")

    def test_total_counts_only_dirty_edges(self):
        self.chain()
        self.ninja()
        os.unlink(self.path("d"))
        self.assertNinja([], 0, "[1/1] R d\n")

    def test_all_placeholders(self):
        self.chain()
        r = self.ninja("-j1", env={"NINJA_STATUS": ALL_PLACEHOLDERS})
        self.assertEqual(r.returncode, 0)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 4, r)
        pct = [" 25%", " 50%", " 75%", "100%"]
        for i, line in enumerate(lines):
            n = i + 1
            pattern = ("s=%d t=4 p=%s r=1 u=%d f=%d " % (n, pct[i], 4 - n, n) +
                       r"o=\d+\.\d c=(\?|\d+\.\d) e=\d+\.\d{3} E=(\?|\d+\.\d{3}) "
                       r"w=\d\d:\d\d W=(\?|\d\d:\d\d) P=[ \d]{2}\d% % \| R " + "abcd"[i] + "$")
            self.assertRegex(line, pattern)

    def test_deterministic_placeholders(self):
        self.chain()
        self.assertNinja(["-j1"], 0,
                         "1/4 r1 u3 f1  25% R a\n2/4 r1 u2 f2  50% R b\n"
                         "3/4 r1 u1 f3  75% R c\n4/4 r1 u0 f4 100% R d\n",
                         env={"NINJA_STATUS": "%s/%t r%r u%u f%f %p "})

    def test_percent_literal(self):
        self.chain()
        self.assertNinja(["-j1"], 0, "%1% R a\n%2% R b\n%3% R c\n%4% R d\n",
                         env={"NINJA_STATUS": "%%%f%% "})

    def test_plain_text_status(self):
        self.chain()
        self.assertNinja(["-j1"], 0, ">> R a\n>> R b\n>> R c\n>> R d\n",
                         env={"NINJA_STATUS": ">> "})

    def test_empty_status(self):
        self.chain()
        self.assertNinja(["-j1"], 0, "R a\nR b\nR c\nR d\n", env={"NINJA_STATUS": ""})

    def test_status_with_verbose(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n  description = R $out\nbuild a: r\n")
        self.assertNinja(["-v"], 0, "<1> touch a\n", env={"NINJA_STATUS": "<%f> "})

    def test_ansi_in_status_kept(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n  description = R $out\nbuild a: r\n")
        self.assertNinja([], 0, "\x1b[32m[1/1]\x1b[0m R a\n",
                         env={"NINJA_STATUS": "\x1b[32m[%f/%t]\x1b[0m "})

    def test_unknown_placeholder(self):
        self.manifest("build a: touch\nbuild b: touch a\n")
        self.assertNinja([], 1, "", "ninja: fatal: unknown placeholder '%x' in $NINJA_STATUS\n",
                         env={"NINJA_STATUS": "%x"})
        # On a pipe the status is printed when the first edge finishes.
        self.assertEqual(self.ran(), ["a"])
        self.assertFalse(self.exists(".ninja_log"))

    def test_unknown_placeholder_dry_run(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-n"], 1, "", "ninja: fatal: unknown placeholder '%x' in $NINJA_STATUS\n",
                         env={"NINJA_STATUS": "[%x]"})

    def test_unknown_placeholder_unused_when_no_work(self):
        self.manifest("build a: touch\n")
        self.ninja()
        self.assertNinja([], 0, "ninja: no work to do.\n", env={"NINJA_STATUS": "%x"})

    def test_unknown_placeholder_unused_when_quiet(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["--quiet"], 0, "", env={"NINJA_STATUS": "%x"})
        self.assertTrue(self.exists("a"))

    def test_trailing_percent(self):
        self.manifest("build a: touch\n")
        self.assertNinja(["-n"], 1, "", "ninja: fatal: unknown placeholder '%\x00' in $NINJA_STATUS\n",
                         env={"NINJA_STATUS": "abc%"})


# ---------------------------------------------------------------------------
# Smart terminal (pty)
# ---------------------------------------------------------------------------

class TestSmartTerminal(BuildTestCase):

    def chain(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n  description = R $out\n"
                   "build a: r\nbuild b: r a\nbuild c: r b\n")

    def test_byte_stream(self):
        self.chain()
        r = self.ninja_pty("-j1")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout, "\r[0/3] R a\x1b[K\r[1/3] R a\x1b[K\r[1/3] R b\x1b[K"
                                   "\r[2/3] R b\x1b[K\r[2/3] R c\x1b[K\r[3/3] R c\x1b[K\n")

    def test_no_work(self):
        self.chain()
        self.ninja()
        r = self.ninja_pty()
        self.assertEqual((r.returncode, r.stdout), (0, "ninja: no work to do.\n"))

    def test_status_counters_at_start_and_finish(self):
        self.chain()
        r = self.ninja_pty("-j1", env={"NINJA_STATUS": "[%s/%t r=%r f=%f u=%u] "})
        self.assertEqual(r.stdout,
                         "\r[1/3 r=1 f=0 u=2] R a\x1b[K\r[1/3 r=1 f=1 u=2] R a\x1b[K"
                         "\r[2/3 r=1 f=1 u=1] R b\x1b[K\r[2/3 r=1 f=2 u=1] R b\x1b[K"
                         "\r[3/3 r=1 f=2 u=0] R c\x1b[K\r[3/3 r=1 f=3 u=0] R c\x1b[K\n")

    def test_parallel_counters(self):
        self.write("build.ninja", "rule r\n  command = $cmd\n  description = $out\n"
                   "build a: r\n  cmd = sh waitgone.sh b.pid; echo a-out; touch a\n"
                   "build b: r\n  cmd = echo $$$$ > b.pid; echo b-out; touch b\n")
        r = self.ninja_pty("-j2", env={"NINJA_STATUS": "[%s %r %f/%t] "})
        self.assertEqual(r.stdout,
                         "\r[1 1 0/2] a\x1b[K\r[2 2 0/2] b\x1b[K\r[2 2 1/2] b\x1b[K\nb-out\n"
                         "\r[2 1 2/2] a\x1b[K\na-out\n")

    def test_elide_to_width(self):
        self.write("build.ninja", "rule r\n  command = $cmd\n  description = $desc\n"
                   "build a: r\n  cmd = touch a\n"
                   "  desc = this is a rather long description for output a\n")
        r = self.ninja_pty(columns=20)
        self.assertEqual(r.stdout, "\r[0/1] th... output a\x1b[K\r[1/1] th... output a\x1b[K\n")

    def test_elide_counts_ansi_as_zero_width(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n"
                   "  description = \x1b[1mBOLD\x1b[0m building the output file named $out\n"
                   "build a: r\n")
        r = self.ninja_pty(columns=30)
        self.assertEqual(r.stdout,
                         "\r[0/1] \x1b[1mBOLD\x1b[0m bu...t file named a\x1b[K"
                         "\r[1/1] \x1b[1mBOLD\x1b[0m bu...t file named a\x1b[K\n")

    def test_elide_tiny_width(self):
        self.write("build.ninja", "rule r\n  command = touch $out\n"
                   "  description = \x1b[1mBOLD\x1b[0m building the output file named $out\n"
                   "build a: r\n")
        r = self.ninja_pty(columns=3)
        self.assertEqual(r.stdout, "\r...\x1b[1m\x1b[0m\x1b[K\r...\x1b[1m\x1b[0m\x1b[K\n")

    def test_short_line_not_elided(self):
        self.chain()
        r = self.ninja_pty("a", columns=11)
        self.assertEqual(r.stdout, "\r[0/1] R a\x1b[K\r[1/1] R a\x1b[K\n")

    def test_output_and_colors(self):
        self.write("build.ninja", "rule r\n  command = $cmd\n  description = $desc\n"
                   "build a: r\n  cmd = echo hello; touch a\n  desc = A\n"
                   "build b: r a\n  cmd = printf '\\033[32mgreen\\033[0m\\n'; touch b\n  desc = B\n"
                   "build c: r b\n  cmd = printf 'nonl'; touch c\n  desc = C\n"
                   "build d: r c\n  cmd = touch d\n  desc = D\n")
        r = self.ninja_pty("-j1")
        self.assertEqual(r.stdout,
                         "\r[0/4] A\x1b[K\r[1/4] A\x1b[K\nhello\n"
                         "\r[1/4] B\x1b[K\r[2/4] B\x1b[K\n\x1b[32mgreen\x1b[0m\n"
                         "\r[2/4] C\x1b[K\r[3/4] C\x1b[K\nnonl"
                         "\r[3/4] D\x1b[K\r[4/4] D\x1b[K\n")

    def test_failure(self):
        self.write("build.ninja", "rule r\n  command = $cmd\n  description = $desc\n"
                   "build c: r\n  cmd = printf 'nonl'; touch c\n  desc = C\n"
                   "build e: r c\n  cmd = echo bad; exit 4\n  desc = E\n")
        r = self.ninja_pty("-j1")
        self.assertEqual(r.returncode, 4)
        self.assertEqual(r.stdout,
                         "\r[0/2] C\x1b[K\r[1/2] C\x1b[K\nnonl"
                         "\r[1/2] E\x1b[K\r[2/2] E\x1b[K\n"
                         "\x1b[31mFAILED: [code=4] \x1b[0me \necho bad; exit 4\nbad\n"
                         "ninja: build stopped: subcommand failed.\n")

    def test_verbose_is_not_smart(self):
        self.write("build.ninja", "rule r\n  command = $cmd\n"
                   "build a: r\n  cmd = printf '\\033[32mgreen\\033[0m\\n'; touch a\n"
                   "build b: r a\n  cmd = printf 'nonl'; touch b\n"
                   "build c: r b\n  cmd = touch c\n")
        r = self.ninja_pty("-j1", "-v")
        self.assertEqual(r.stdout,
                         "[1/3] printf '\\033[32mgreen\\033[0m\\n'; touch a\n\x1b[32mgreen\x1b[0m\n"
                         "[2/3] printf 'nonl'; touch b\nnonl[3/3] touch c\n\n")

    def test_quiet(self):
        self.write("build.ninja", "rule r\n  command = $cmd\n"
                   "build a: r\n  cmd = printf '\\033[32mgreen\\033[0m\\n'; touch a\n"
                   "build b: r a\n  cmd = printf 'nonl'; touch b\n")
        r = self.ninja_pty("-j1", "--quiet")
        self.assertEqual(r.stdout, "\x1b[32mgreen\x1b[0m\nnonl\n")

    def test_term_dumb(self):
        self.chain()
        r = self.ninja_pty("-j1", env={"TERM": "dumb"})
        self.assertEqual(r.stdout, "[1/3] R a\n[2/3] R b\n[3/3] R c\n")

    def test_console_pool_buffers_status(self):
        self.write("build.ninja", "rule r\n  command = $cmd\n  description = $desc\n"
                   "build c: r\n  pool = console\n"
                   "  cmd = echo console-start; sh waitgone.sh x.pid; echo console-done; touch c\n"
                   "  desc = CONSOLE\n"
                   "build x: r\n  cmd = echo $$$$ > x.pid; echo x-out; touch x\n  desc = X\n")
        r = self.ninja_pty("-j2")
        self.assertEqual(r.stdout, "\r[0/2] CONSOLE\x1b[K\nconsole-start\nconsole-done\n"
                                   "[1/2] X\nx-out\n")

    def test_unknown_placeholder_before_first_command(self):
        self.manifest("build a: touch\n")
        r = self.ninja_pty(env={"NINJA_STATUS": "%x"})
        self.assertEqual((r.returncode, r.stdout),
                         (1, "ninja: fatal: unknown placeholder '%x' in $NINJA_STATUS\n"))
        self.assertEqual(self.ran(), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
