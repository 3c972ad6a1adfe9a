"""--audit: what commands really read and write, against the graph.

Seeded bugs, each found with the right kind and path: a generated header
with no path to its generator (in a hand-written manifest and in a real
CMake project), a read missing from the depfile, an undeclared output a
later edge reads, a command writing a source; the same through a
statically linked helper, a helper making raw system calls, a helper
started with an empty environment, and a shell pipeline. Then the reports
(-t audit, -t audit -json, --audit=strict), what --audit leaves alone
(nothing monitored without it; a no-op build starts no monitor), and that
nothing is ever left stuck (a command killed mid-trap, ninja killed, -k,
Ctrl-C). Real projects without findings are in test_audit_projects.py.
"""

import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

import harness
from harness import NinjaTestCase

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_job_reaper import MarkedProcessesTestCase, marked_processes  # noqa: E402
from test_reliability import wait_for  # noqa: E402

CC = shutil.which("cc") or shutil.which("gcc")
CMAKE = shutil.which("cmake")
ON_LINUX = platform.system() == "Linux"

# A helper program the commands run: reads, writes or probes io_uring, through
# libc or through the raw system call instruction (no libc wrapper).
HELPER_C = r"""
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long raw_openat(const char* path, long flags) {
#if defined(__x86_64__)
  long result;
  __asm__ volatile("syscall" : "=a"(result) : "a"(SYS_openat), "D"(-100L), "S"(path), "d"(flags), "r"(0666L)
                   : "rcx", "r11", "memory");
  return result;
#else
  return syscall(SYS_openat, AT_FDCWD, path, flags, 0666);
#endif
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const char* mode = argv[1];
  const char* path = argv[2];
  if (!strcmp(mode, "uring")) {
    char params[120] = {0};  /* struct io_uring_params */
    long fd = syscall(SYS_io_uring_setup, 1, params);
    printf("io_uring_setup: %s\n", fd >= 0 ? "ok" : strerror(errno));
    return 0;
  }
  int raw = !strncmp(mode, "raw-", 4);
  int write_mode = !strcmp(mode + (raw ? 4 : 0), "write");
  long flags = write_mode ? (O_WRONLY | O_CREAT | O_APPEND) : O_RDONLY;
  long fd = raw ? raw_openat(path, flags) : open(path, (int)flags, 0666);
  if (fd < 0) return 1;
  if (write_mode) return write((int)fd, "x\n", 2) == 2 ? 0 : 1;
  char buffer[256];
  return read((int)fd, buffer, sizeof(buffer)) >= 0 ? 0 : 1;
}
"""

RULES = """\
rule cc
  command = cc -MD -MF $out.d -c $in -o $out
  depfile = $out.d
  deps = gcc
rule gen
  command = printf '#define X 1\\n' > $out
rule sh
  command = $cmd
"""


def findings_of(stdout):
    """(edge, kind words, path) of each "ninja: audit: EDGE: KIND: PATH (...)" line."""
    found = []
    for line in stdout.splitlines():
        if not line.startswith("ninja: audit: ") or " commands audited" in line or " command audited" in line:
            continue
        edge, kind, rest = line[len("ninja: audit: "):].split(": ", 2)
        found.append((edge, kind, rest.split(" (", 1)[0]))
    return sorted(found)


@unittest.skipUnless(ON_LINUX and CC, "SKIPPED: --audit needs Linux and a C compiler (apt-get install gcc)")
class SeededBugsTest(NinjaTestCase):

    def build_helpers(self):
        self.write("helper.c", HELPER_C)
        for name, extra in (("helper", []), ("helper_static", ["-static"])):
            result = subprocess.run([CC, "-O1", "-o", self.path(name), self.path("helper.c")] + extra,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if result.returncode != 0:
                self.skipTest("SKIPPED: cannot link a %s helper: %s" % (name, result.stdout.decode()[-300:]))

    def audit(self, *args, expect_rc=0):
        result = self.ninja("--audit", "-j1", *args, timeout=120)
        self.assertEqual(result.returncode, expect_rc, result)
        return result

    def test_each_kind_with_its_path(self):
        self.write("build.ninja", RULES + """\
build gen.h: gen
build a.o: cc a.c
build b.o: cc b.c
build extra: sh
  cmd = echo log > extra.log; touch extra
build reader: sh
  cmd = cat extra.log > reader
build conf_user: sh a.c
  cmd = cat conf.txt a.c > conf_user
build clob: sh
  cmd = echo '// edited' >> b.c; touch clob
""")
        self.write("a.c", '#include "gen.h"\nint a = X;\n')
        self.write("b.c", "int b;\n")
        self.write("conf.txt", "setting\n")
        # gen.h first and extra before reader, as the manifest happens to order them.
        result = self.audit("gen.h", "a.o", "b.o", "extra", "reader", "conf_user", "clob")
        self.assertEqual([
            ("a.o", "undeclared input from another edge", "gen.h"),
            ("clob", "clobber", "b.c"),
            ("conf_user", "input missing from the discovered deps", "conf.txt"),
            ("extra", "undeclared output", "extra.log"),
            ("reader", "undeclared input from another edge", "extra.log"),
        ], findings_of(result.stdout))
        self.assertIn("ninja: audit: 7 commands audited, 5 findings: 2 undeclared input from another edge, "
                      "1 input missing from the discovered deps, 1 undeclared output, 1 clobber\n", result.stdout)
        # Each line says what was expected.
        self.assertIn("ninja: audit: a.o: undeclared input from another edge: gen.h (made by the edge building "
                      "'gen.h', with no dependency path from it in the manifest: expected gen.h as an input or "
                      "order-only input)\n", result.stdout)

    def test_a_read_missing_from_the_depfile(self):
        # The depfile is written by hand and forgets one header.
        self.write("build.ninja", """\
rule cc_forgetful
  command = cc -c $in -o $out && echo "$out: $in" > $out.d
  depfile = $out.d
  deps = gcc
build a.o: cc_forgetful a.c
""")
        self.write("a.c", '#include "a.h"\nint a = A;\n')
        self.write("a.h", "#define A 1\n")
        result = self.audit()
        self.assertEqual([("a.o", "input missing from the discovered deps", "a.h")], findings_of(result.stdout))
        self.assertIn("neither a declared input nor in its depfile or deps log", result.stdout)

    def test_a_depfile_without_deps_is_read_after_the_command(self):
        # No `deps`: the depfile stays for the next build; the audit reads it.
        self.write("build.ninja", """\
rule cc_depfile
  command = cc -MD -MF $out.d -c $in -o $out && $extra
  depfile = $out.d
build a.o: cc_depfile a.c
  extra = true
build b.o: cc_depfile b.c
  extra = cat conf.txt > /dev/null
""")
        self.write("a.c", '#include "a.h"\nint a = A;\n')
        self.write("b.c", "int b;\n")
        self.write("a.h", "#define A 1\n")
        self.write("conf.txt", "x\n")
        result = self.audit()
        self.assertEqual([("b.o", "input missing from the discovered deps", "conf.txt")], findings_of(result.stdout))

    def test_a_correct_manifest_has_no_findings(self):
        self.write("build.ninja", RULES + """\
build gen.h: gen
build a.o: cc a.c || gen.h
build lib.a: sh a.o
  cmd = rm -f lib.a && ar rcs lib.a a.o
""")
        self.write("a.c", '#include "gen.h"\nint a = X;\n')
        result = self.audit()
        self.assertEqual([], findings_of(result.stdout))
        self.assertIn("ninja: audit: 3 commands audited, no findings\n", result.stdout)

    def test_through_a_static_helper_raw_calls_an_empty_environment_and_a_pipeline(self):
        self.build_helpers()
        self.write("build.ninja", RULES + """\
build gen.h: gen
build static_read: sh | helper_static
  cmd = ./helper_static read conf.txt && touch static_read
build raw_write: sh | helper
  cmd = ./helper raw-write src.c && touch raw_write
build env_write: sh | helper
  cmd = env -i ./helper write stray.txt && touch env_write
build piped: sh
  cmd = cat gen.h | tr a-z A-Z | wc -c > piped
""")
        self.write("conf.txt", "setting\n")
        self.write("src.c", "int s;\n")
        # src.c is a source: some edge names it.
        with open(self.path("build.ninja"), "a") as f:
            f.write("build s.o: cc src.c\n")
        result = self.audit("gen.h", "static_read", "raw_write", "env_write", "piped")
        self.assertEqual([
            ("env_write", "undeclared output", "stray.txt"),
            ("piped", "undeclared input from another edge", "gen.h"),
            ("raw_write", "clobber", "src.c"),
            ("static_read", "input missing from the discovered deps", "conf.txt"),
        ], findings_of(result.stdout))

    def test_io_uring_is_refused_only_under_audit(self):
        self.build_helpers()
        self.write("build.ninja", "rule sh\n  command = $cmd\n"
                                  "build probe: sh | helper\n  cmd = ./helper uring x > probe\n")
        self.audit()
        self.assertEqual("io_uring_setup: Function not implemented\n", self.read("probe"))
        os.remove(self.path("probe"))
        result = self.ninja()
        self.assertEqual(result.returncode, 0, result)
        self.assertNotEqual("io_uring_setup: Function not implemented\n", self.read("probe"))


@unittest.skipUnless(ON_LINUX and CC, "SKIPPED: --audit needs Linux and a C compiler (apt-get install gcc)")
class ReportsTest(NinjaTestCase):

    MANIFEST = "rule sh\n  command = $cmd\nbuild a: sh\n  cmd = cat conf.txt > a\nbuild b: sh\n  cmd = touch b\n"

    def setUp(self):
        super().setUp()
        self.write("build.ninja", self.MANIFEST)
        self.write("conf.txt", "x\n")

    def test_tool_prints_the_last_audited_build(self):
        result = self.ninja("-t", "audit")
        self.assertEqual(result.returncode, 1, result)
        self.assertIn("ninja: error: no audited build in .ronin_state (build with --audit first)", result.stderr)
        self.assertEqual(self.ninja("--audit").returncode, 0)
        result = self.ninja("-t", "audit")
        self.assertEqual((result.returncode, result.stdout), (0,
            "a: input missing from the discovered deps: conf.txt (neither a declared input nor discovered: "
            "expected it as an input (implicit: | conf.txt))\n"
            "2 commands audited, 1 finding: 1 input missing from the discovered deps\n"))
        report = json.loads(self.ninja("-t", "audit", "-json").stdout)
        self.assertEqual(report["commands_audited"], 2)
        self.assertEqual(report["counts"], {"undeclared-input": 0, "missing-dep": 1, "undeclared-output": 0,
                                            "clobber": 0})
        self.assertEqual([(f["kind"], f["edge"], f["path"]) for f in report["findings"]],
                         [("missing-dep", "a", "conf.txt")])
        # A no-op audits nothing: the last audited build stays the one shown.
        self.assertIn("ninja: no work to do.", self.ninja("--audit").stdout)
        self.assertEqual(json.loads(self.ninja("-t", "audit", "-json").stdout), report)

    def test_json_is_a_document_without_findings_too(self):
        self.write("build.ninja", "rule sh\n  command = $cmd\nbuild b: sh\n  cmd = touch b\n")
        self.assertEqual(self.ninja("--audit").returncode, 0)
        report = json.loads(self.ninja("-t", "audit", "-json").stdout)
        self.assertEqual((report["commands_audited"], report["findings"]), (1, []))

    def test_a_fixed_edge_drops_its_findings(self):
        self.assertEqual(self.ninja("--audit").returncode, 0)
        self.write("build.ninja", self.MANIFEST.replace("build a: sh\n", "build a: sh | conf.txt\n"))
        os.remove(self.path("a"))  # a new implicit input alone rebuilds nothing
        self.assertEqual(self.ninja("--audit").returncode, 0)
        self.assertEqual(self.ninja("-t", "audit").stdout, "1 command audited, no findings\n")

    def test_strict_fails_a_build_with_findings(self):
        result = self.ninja("--audit=strict")
        self.assertEqual(result.returncode, 1, result)
        self.assertIn("ninja: error: --audit=strict: the build has 1 finding", result.stderr)
        self.assertTrue(self.exists("a"))  # the build itself ran through
        self.write("build.ninja", self.MANIFEST.replace("build a: sh\n", "build a: sh | conf.txt\n"))
        os.remove(self.path("a"))
        self.assertEqual(self.ninja("--audit=strict").returncode, 0)

    def test_without_the_option_nothing_is_watched_or_written(self):
        plain = self.ninja()
        self.assertEqual(plain.returncode, 0, plain)
        self.assertNotIn("audit", plain.stdout + plain.stderr)
        self.assertFalse(self.exists(".ronin_state"))
        # Through RONIN_FLAGS like any ronin option.
        os.remove(self.path("a"))
        result = self.ninja(env={"RONIN_FLAGS": "--audit"})
        self.assertIn("ninja: audit: 1 command audited, 1 finding", result.stdout)

    def test_bad_values(self):
        result = self.ninja("--audit=loud")
        self.assertEqual(result.returncode, 1)
        self.assertIn("ninja: error: --audit=loud: expected strict, or no value", result.stderr)
        result = self.ninja("--audit-root=")
        self.assertEqual(result.returncode, 1)
        self.assertIn("--audit-root=: expected a directory", result.stderr)

    def test_audit_root_widens_the_project(self):
        outside = os.path.join(self.dir, "..", "ronin-audit-root-" + uuid.uuid4().hex[:8])
        os.makedirs(outside)
        self.addCleanup(shutil.rmtree, outside, True)
        with open(os.path.join(outside, "settings"), "w") as f:
            f.write("x\n")
        self.write("build.ninja", "rule sh\n  command = $cmd\nbuild a: sh\n  cmd = cat %s/settings > a\n" % outside)
        self.assertIn("no findings", self.ninja("--audit").stdout)
        os.remove(self.path("a"))
        result = self.ninja("--audit", "--audit-root=" + os.path.relpath(outside, self.dir))
        self.assertEqual([("a", "input missing from the discovered deps", os.path.realpath(outside) + "/settings")],
                         findings_of(result.stdout))


@unittest.skipUnless(ON_LINUX, "SKIPPED: --audit needs Linux")
class NeverStuckTest(MarkedProcessesTestCase):
    """Whatever ends a command or ninja, no process is left waiting on a trap."""

    def busy_rule(self):
        # Path calls in a loop (each a trap), marked for pgrep; the pid file
        # says where it is.
        return ("rule busy\n  command = echo $$$$ > $out.pid; exec sh -c 'while :; do test -e x%s; done'\n"
                % self.marker)

    def test_a_command_killed_mid_trap(self):
        self.write("build.ninja", self.busy_rule() + "build a: busy\n")
        proc = subprocess.Popen([harness.NINJA, "--audit"], cwd=self.dir, env=harness.base_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.assertTrue(wait_for(lambda: self.exists("a.pid") and self.read("a.pid").strip()), "never started")
        time.sleep(0.2)
        os.kill(int(self.read("a.pid")), signal.SIGKILL)
        out, _ = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 128 + signal.SIGKILL, out)  # the command's status, as Ninja
        self.assertIn(b"FAILED: [code=137] a", out)
        self.assertEqual([], marked_processes(self.marker))

    def test_ninja_killed_the_reaper_ends_the_commands(self):
        self.write("build.ninja", self.busy_rule() + "build a: busy\nbuild b: busy\n")
        proc = subprocess.Popen([harness.NINJA, "--audit", "-j2"], cwd=self.dir, env=harness.base_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.assertTrue(wait_for(lambda: self.exists("a.pid") and self.exists("b.pid")), "never started")
        proc.kill()
        proc.wait(timeout=60)
        self.assertTrue(wait_for(lambda: not marked_processes(self.marker)),
                        "left running: %r" % marked_processes(self.marker))

    def test_ninja_killed_without_the_reaper_leaves_nothing_waiting(self):
        # The commands live on (--job-reaper=off) but their traps fail
        # (ENOSYS) instead of waiting for an answer: each loop spins on.
        # Its result goes through a descriptor opened at the start: an open
        # after ninja is gone fails, as every path call then does.
        # (stderr too: the shell's own complaint would meet a closed pipe.)
        self.write("build.ninja", "rule slow\n  command = exec 3>$out.done 2>&3; echo $$$$ > $out.pid; "
                                  "sleep 1%s; cat conf.txt > got; echo rc=$$? >&3\nbuild a: slow\n"
                                  % self.marker)
        self.write("conf.txt", "x\n")
        proc = subprocess.Popen([harness.NINJA, "--audit", "--job-reaper=off"], cwd=self.dir,
                                env=harness.base_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.assertTrue(wait_for(lambda: self.exists("a.pid")), "never started")
        proc.kill()
        proc.wait(timeout=60)
        self.assertTrue(wait_for(lambda: "rc=" in self.read("a.done"), timeout=30), "the command is stuck")
        self.assertNotEqual("rc=0\n", self.read("a.done"))
        self.assertFalse(self.exists("got"))

    def test_keep_going_and_interrupt(self):
        self.write("build.ninja", "rule sh\n  command = $cmd\n"
                                  "build bad1: sh\n  cmd = cat missing1\n"
                                  "build bad2: sh\n  cmd = cat missing2\n"
                                  "build good: sh\n  cmd = touch good\n")
        result = self.ninja("--audit", "-k", "0", "-j2", timeout=120)
        self.assertEqual(result.returncode, 1, result)
        self.assertTrue(self.exists("good"))
        self.assertIn("ninja: audit: 1 command audited, no findings", result.stdout)
        # Ctrl-C in the middle of busy commands.
        self.write("build.ninja", self.busy_rule() + "build a: busy\nbuild b: busy\n")
        proc = subprocess.Popen([harness.NINJA, "--audit", "-j2"], cwd=self.dir, env=harness.base_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.assertTrue(wait_for(lambda: self.exists("a.pid") and self.exists("b.pid")), "never started")
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, out)
        self.assertIn(b"interrupted by user", out)
        self.assertTrue(wait_for(lambda: not marked_processes(self.marker)),
                        "left running: %r" % marked_processes(self.marker))


@unittest.skipUnless(ON_LINUX and CC and CMAKE, "SKIPPED: needs Linux, cmake and a C compiler (apt-get install cmake gcc)")
class CMakeCustomCommandTest(unittest.TestCase):
    """The manual's example: a header generated by add_custom_command in one
    target, included by another target that does not depend on it."""

    CMAKELISTS = """\
cmake_minimum_required(VERSION 3.16)
project(demo C)
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/config.h
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_SOURCE_DIR}/config.h.in ${CMAKE_CURRENT_BINARY_DIR}/config.h
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/config.h.in)
add_library(gen STATIC gen.c ${CMAKE_CURRENT_BINARY_DIR}/config.h)
target_include_directories(gen PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
add_executable(app main.c)
target_include_directories(app PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
%s
"""

    def configure(self, fixed):
        root = tempfile_dir(self)
        src, build = os.path.join(root, "src"), os.path.join(root, "build")
        harness.write_tree(src, {
            "CMakeLists.txt": self.CMAKELISTS % ("add_dependencies(app gen)" if fixed else ""),
            "config.h.in": "#define ANSWER 42\n",
            "gen.c": '#include "config.h"\nint answer(void) { return ANSWER; }\n',
            "main.c": '#include "config.h"\nint main(void) { return ANSWER - 42; }\n'})
        result = subprocess.run([CMAKE, "-S", src, "-B", build, "-G", "Ninja",
                                 "-DCMAKE_MAKE_PROGRAM=" + harness.NINJA],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        self.assertEqual(result.returncode, 0, result.stdout.decode())
        return build

    def test_the_missing_dependency_is_found_and_the_fix_is_clean(self):
        build = self.configure(fixed=False)
        # config.h first, as a lucky build would make it.
        result = harness.run(harness.NINJA, ["--audit", "-j1", "config.h", "all"], build, timeout=300)
        self.assertEqual(result.returncode, 0, result)
        self.assertEqual([("CMakeFiles/app.dir/main.c.o", "undeclared input from another edge", "config.h")],
                         findings_of(result.stdout))
        build = self.configure(fixed=True)
        result = harness.run(harness.NINJA, ["--audit", "-j1"], build, timeout=300)
        self.assertEqual(result.returncode, 0, result)
        self.assertEqual([], findings_of(result.stdout))
        self.assertIn("no findings", result.stdout)


def tempfile_dir(test):
    root = tempfile.mkdtemp(prefix="ronin-audit-")
    test.addCleanup(shutil.rmtree, root, True)
    return root


if __name__ == "__main__":
    unittest.main()
