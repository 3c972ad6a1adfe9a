"""--remote-jobs: commands run through a distributed launcher take remote
slots, not -j slots (src/remote_launchers.*, src/remote_jobs.*).

A fake launcher records how many commands of its kind run at once: each
holds a file in run/ while it runs and logs the count it sees. Remote ones
wait (bounded) until the expected number are running at once, so a build
that admits too few shows it as a low count, never as a timing flake. The
real tests run Debian's distcc against a distccd on 127.0.0.1 and icecream
on loopback, on CMake trees using CMAKE_C_COMPILER_LAUNCHER.
"""

import os
import shutil
import signal
import socket
import subprocess
import time
import unittest

from harness import NinjaTestCase

# kind, then the command to run. BARRIER: wait until this many of the
# kind run at once (or 10 s; the first to see it releases the others).
FAKE_LAUNCHER = r"""#!/bin/sh
kind=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
run=$root/run
mkdir -p "$run"
me=$run/$kind.$$
: > "$me"
count() { ls "$run" | grep -c "^$kind\."; }
count >> "$root/$kind.log"
target=${BARRIER:-1}
[ "$kind" = remote ] || target=1
i=0
while [ ! -e "$run/release.$kind" ] && [ "$(count)" -lt "$target" ] && [ $i -lt 100 ]; do
  sleep 0.1; i=$((i+1))
done
: > "$run/release.$kind.tmp" && mv "$run/release.$kind.tmp" "$run/release.$kind" 2>/dev/null
count >> "$root/$kind.log"
[ "$kind" = local ] && sleep 0.2
rm -f "$me"
"$@"
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeLauncherTest(NinjaTestCase):
    REMOTE = 16   # compiles through tools/distcc and tools/farm
    LOCAL = 6     # local generator-like commands

    def setUp(self):
        super().setUp()
        for name in ("distcc", "farm", "gen"):
            self.write("tools/" + name, FAKE_LAUNCHER)
            os.chmod(self.path("tools/" + name), 0o755)
        lines = ["farmkind = remote\n", "rule cc\n  command = tools/distcc remote touch $out\n",
                 "rule farm\n  command = env X=1 tools/farm $farmkind touch $out\n",
                 "rule gen\n  command = tools/gen local touch $out\n",
                 "rule link\n  command = tools/gen local touch $out\n"]
        objs = []
        for i in range(self.REMOTE):
            objs.append("o%d" % i)
            lines.append("build o%d: %s\n" % (i, "farm" if i % 4 == 0 else "cc"))
        for i in range(self.LOCAL):
            lines.append("build g%d: gen\n" % i)
        lines.append("build app: link %s\n" % " ".join(objs))
        lines.append("build all: phony app %s\n" % " ".join("g%d" % i for i in range(self.LOCAL)))
        lines.append("default all\n")
        self.write("build.ninja", "".join(lines))

    def counts(self, kind):
        with open(self.path(kind + ".log")) as f:
            return [int(line) for line in f if line.strip()]

    def build(self, *args, barrier=1, flags=None):
        env = {"BARRIER": str(barrier)}
        if flags is not None:
            env["RONIN_FLAGS"] = flags
        r = self.ninja(*args, env=env, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertTrue(self.exists("app"))
        return r

    def test_remote_jobs_exceed_j_local_jobs_stay_within(self):
        self.build("-j2", "--remote-jobs=8", "--remote-launchers=farm", barrier=8)
        remote, local = self.counts("remote"), self.counts("local")
        self.assertEqual(len(remote), 2 * self.REMOTE)
        self.assertEqual(max(remote), 8, "8 remote commands run at once with -j2 --remote-jobs=8")
        self.assertEqual(len(local), 2 * (self.LOCAL + 1))
        self.assertLessEqual(max(local), 2, "local commands stay within -j2")

    def test_remote_jobs_take_no_jobserver_token(self):
        # With ninja as the jobserver (-j2: two slots), remote commands run
        # beside the slots rather than waiting for tokens.
        self.build("-j2", "--jobserver-pool", "--remote-jobs=8", "--remote-launchers=farm", barrier=8)
        self.assertEqual(max(self.counts("remote")), 8)
        self.assertLessEqual(max(self.counts("local")), 2)

    def test_remote_launchers_through_ronin_flags(self):
        self.build("-j1", barrier=4, flags="--remote-jobs=4 --remote-launchers=farm")
        self.assertEqual(max(self.counts("remote")), 4)
        self.assertEqual(max(self.counts("local")), 1)

    def test_without_the_option_launchers_count_against_j(self):
        self.build("-j2", barrier=1)
        self.assertLessEqual(max(self.counts("remote")), 2)
        self.assertLessEqual(max(self.counts("local")), 2)

    def test_unnamed_launcher_is_local(self):
        # tools/farm is not a default launcher: its commands share -j with
        # the local ones (counted as local here), distcc's go remote.
        self.write("build.ninja", self.read("build.ninja").replace("farmkind = remote", "farmkind = local"))
        self.build("-j2", "--remote-jobs=8", barrier=1)
        self.assertEqual(len(self.counts("local")), 2 * (self.LOCAL + 1 + self.REMOTE // 4))
        self.assertLessEqual(max(self.counts("local")), 2)

    def test_bad_values(self):
        for args, message in (
                (["--remote-jobs=0"], "--remote-jobs=0: invalid value '0'"),
                (["--remote-jobs=x"], "--remote-jobs=x: invalid value 'x'"),
                (["--remote-jobs=-3"], "--remote-jobs=-3: invalid value '-3'"),
                (["--remote-launchers=a,,b"], "--remote-launchers=a,,b: empty launcher name"),
                (["--remote-launchers=/usr/bin/distcc"], "--remote-launchers=/usr/bin/distcc: launcher names")):
            r = self.ninja(*args)
            self.assertEqual(r.returncode, 1, args)
            self.assertEqual(r.stdout, "")
            self.assertTrue(r.stderr.startswith("ninja: error: " + message), r.stderr)
            self.assertFalse(self.exists("app"))
        r = self.ninja(env={"RONIN_FLAGS": "--remote-jobs=0"})
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("ninja: error: RONIN_FLAGS: --remote-jobs=0: invalid value"), r.stderr)


def wait_for_port(port, proc, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.1)
    return False


class LauncherProject(NinjaTestCase):
    """A small CMake tree compiled through CMAKE_C_COMPILER_LAUNCHER, with a
    few local code generators that record their concurrency (local.log)."""
    SOURCES = 10
    GENERATED = 4

    def write_project(self):
        self.write("src/gen.sh", FAKE_LAUNCHER)
        files = {}
        cmake = ["cmake_minimum_required(VERSION 3.16)\nproject(p C)\n"]
        sources = []
        for i in range(self.SOURCES):
            files["src/f%d.c" % i] = "int f%d(void) { return %d; }\n" % (i, i)
            sources.append("f%d.c" % i)
        for i in range(self.GENERATED):
            out = "${CMAKE_BINARY_DIR}/g%d.c" % i
            files["src/g%d.c.in" % i] = "int g%d(void) { return %d; }\n" % (i, i)
            cmake.append("add_custom_command(OUTPUT %s COMMAND sh ${CMAKE_SOURCE_DIR}/gen.sh local "
                         "cp ${CMAKE_SOURCE_DIR}/g%d.c.in %s)\n" % (out, i, out))
            sources.append(out)
        files["src/main.c"] = "int main(void) { return 0; }\n"
        sources.append("main.c")
        cmake.append("add_executable(app %s)\n" % " ".join(sources))
        files["src/CMakeLists.txt"] = "".join(cmake)
        for rel, content in files.items():
            self.write(rel, content)

    def configure(self, launcher):
        self.write_project()
        configure = subprocess.run(
            ["cmake", "-S", self.path("src"), "-B", self.path("b"), "-G", "Ninja",
             "-DCMAKE_MAKE_PROGRAM=" + os.environ.get("NINJA", "ninja"),
             "-DCMAKE_C_COMPILER_LAUNCHER=" + launcher],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        self.assertEqual(configure.returncode, 0, configure.stdout.decode())

    def build_and_check(self, env, timeout=300):
        r = self.ninja("-C", "b", "-j1", "--remote-jobs=8", env=env, timeout=timeout)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        local = [int(line) for line in self.read("local.log").split()]
        self.assertEqual(len(local), 2 * self.GENERATED)
        self.assertEqual(max(local), 1, "the generators stay within -j1")
        r = self.ninja("-C", "b", "--remote-jobs=8", env=env)
        self.assertEqual(r.stdout, "ninja: Entering directory `b'\nninja: no work to do.\n")


def stop_group(proc):
    # The daemons fork helpers in their own session: end them all.
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@unittest.skipUnless(shutil.which("cmake") and shutil.which("cc"),
                     "SKIPPED: cmake or cc not installed (apt-get install cmake gcc)")
class DistccTest(LauncherProject):
    """Real Debian distcc: distccd on 127.0.0.1, CMake's compiler launcher."""

    def setUp(self):
        super().setUp()
        if not (shutil.which("distcc") and shutil.which("distccd")):
            self.skipTest("SKIPPED: distcc not installed (apt-get install distcc)")
        os.chmod(self.dir, 0o755)  # distccd drops to its own user
        self.port = free_port()
        self.log = self.path("distccd.log")
        self.write("distccd.log", "")
        os.chmod(self.log, 0o666)
        self.daemon = subprocess.Popen(
            ["distccd", "--daemon", "--no-detach", "--allow", "127.0.0.1", "--listen", "127.0.0.1",
             "--port", str(self.port), "--log-file", self.log, "--log-level", "info"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.addCleanup(stop_group, self.daemon)
        if not wait_for_port(self.port, self.daemon):
            self.fail("distccd did not start: " + self.read("distccd.log"))

    def test_compiles_go_to_distccd_and_local_jobs_stay_within_j(self):
        self.configure("distcc")
        os.makedirs(self.path("distcc-state"))
        # No fallback: a compile distccd did not take fails the build.
        env = {"DISTCC_HOSTS": "127.0.0.1:%d/8" % self.port, "DISTCC_FALLBACK": "0",
               "DISTCC_SKIP_LOCAL_RETRY": "1", "DISTCC_DIR": self.path("distcc-state")}
        self.build_and_check(env)
        log = self.read("distccd.log")
        for i in range(self.SOURCES):
            self.assertIn("f%d.c" % i, log, "every compile went to distccd")
        self.assertEqual(log.count("COMPILE_OK"), self.SOURCES + self.GENERATED + 1)


@unittest.skipUnless(shutil.which("cmake") and shutil.which("cc"),
                     "SKIPPED: cmake or cc not installed (apt-get install cmake gcc)")
class IcecreamTest(LauncherProject):
    """Real Debian icecream: icecc-scheduler and iceccd on loopback, found
    by address (-s), not by broadcast, on a network name of the test's own.
    With one node the scheduler places every job on it, so the proof of
    distribution is the scheduler's log of each compile it placed."""

    def setUp(self):
        super().setUp()
        if not all(shutil.which(p) for p in ("icecc", "icecc-scheduler", "iceccd")):
            self.skipTest("SKIPPED: icecream not installed (apt-get install icecc)")
        if os.geteuid() != 0:
            self.skipTest("SKIPPED: iceccd needs root here (it drops to the icecc user)")
        os.chmod(self.dir, 0o755)  # both daemons drop to the icecc user
        netname = "ronin%d" % os.getpid()
        port, daemon_port = free_port(), free_port()
        for log in ("scheduler.log", "iceccd.log"):
            self.write(log, "")
            os.chmod(self.path(log), 0o666)
        self.scheduler = subprocess.Popen(
            ["icecc-scheduler", "-n", netname, "-p", str(port), "-l", self.path("scheduler.log"), "-vv"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.addCleanup(stop_group, self.scheduler)
        self.daemon = subprocess.Popen(
            ["iceccd", "-n", netname, "-s", "127.0.0.1:%d" % port, "-p", str(daemon_port), "-m", "4",
             "-N", netname, "-l", self.path("iceccd.log"), "-vv"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.addCleanup(stop_group, self.daemon)
        deadline = time.monotonic() + 60
        while "Connected to scheduler" not in self.read("iceccd.log"):
            if time.monotonic() > deadline or self.daemon.poll() is not None:
                self.skipTest("SKIPPED: iceccd could not reach icecc-scheduler on loopback here: "
                              + self.read("iceccd.log")[-400:])
            time.sleep(0.2)

    def test_compiles_go_through_the_scheduler_and_local_jobs_stay_within_j(self):
        self.configure("icecc")
        # The first compile packs the compiler environment (slow once).
        self.build_and_check({"ICECC_DEBUG": "info"}, timeout=600)
        log = self.read("scheduler.log")
        for i in range(self.SOURCES):
            self.assertRegex(log, r"NEW .*f%d\.c" % i, "the scheduler placed every compile")
