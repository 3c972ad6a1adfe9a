"""--cache=http://...: the build cache's scenarios (test_cache.py) with a
real nginx serving WebDAV PUT (nginx_cache.py) as the backend, and what
happens to a build when the server dies in the middle of it."""

import glob
import os
import shutil
import unittest

from harness import NinjaTestCase
import nginx_cache
import test_cache

NO_NGINX = "SKIPPED: nginx not installed (apt-get install nginx)"


class NginxBackend(test_cache.DirectoryBackend):
    """--cache=http://127.0.0.1:PORT/cache on a fresh nginx; blobs are
    damaged as the directory backend damages them, in nginx's files."""

    def __init__(self, root):
        self.nginx = nginx_cache.Nginx(os.path.join(root, "nginx"))
        self.nginx.start()

    def spec(self):
        return self.nginx.url

    def blob_files(self):
        return glob.glob(self.nginx.file("cas", "*"))

    def stop(self):
        self.nginx.stop()


@unittest.skipUnless(nginx_cache.find_nginx(), NO_NGINX)
class NginxCacheScenariosTest(test_cache.CacheScenarios, NinjaTestCase):
    Backend = NginxBackend

    def test_corrupt_blob_is_rebuilt(self):
        super().test_corrupt_blob_is_rebuilt()
        self.assertNotIn("warning", self.cached(cwd=self.path("a")).stderr)


@unittest.skipUnless(nginx_cache.find_nginx(), NO_NGINX)
class NginxCMakeCheckoutsTest(test_cache.CMakeCheckoutsTest):
    Backend = NginxBackend


@unittest.skipUnless(nginx_cache.find_nginx(), NO_NGINX)
@unittest.skipUnless(shutil.which("gcc"), "SKIPPED: gcc not installed (apt-get install gcc)")
class ParallelLookupsTest(NinjaTestCase):
    """Lookups on a server run on worker threads, several at once, each
    holding a -j slot: hits and misses mixed, with a link that needs them
    all, give the objects a build without the cache gives."""
    COUNT = 40

    def setUp(self):
        super().setUp()
        self.backend = NginxBackend(self.dir)
        self.addCleanup(self.backend.stop)
        lines = ["rule cc\n  command = gcc -MD -MF $out.d -c $in -o $out\n  deps = gcc\n  depfile = $out.d\n"
                 "rule ar\n  command = rm -f $out && ar rcD $out $in\n"]
        for i in range(self.COUNT):
            self.write("f%d.c" % i, '#include "h.h"\nint f%d(void) { return H + %d; }\n' % (i, i))
            lines.append("build f%d.o: cc f%d.c\n" % (i, i))
        lines.append("build lib.a: ar %s\n" % " ".join("f%d.o" % i for i in range(self.COUNT)))
        self.write("h.h", "#define H 1\n")
        self.write("build.ninja", "".join(lines))

    def build(self, *args):
        result = self.ninja("--cache=" + self.backend.spec(), "-d", "stats", *args)
        self.assertEqual(result.returncode, 0, result)
        self.assertEqual("", result.stderr)
        return test_cache.hits_and_misses(result.stdout)

    def outputs(self):
        names = ["f%d.o" % i for i in range(self.COUNT)] + ["lib.a"]
        return {name: self.read_bytes(name) for name in names}

    def clean(self):
        self.assertEqual(0, self.ninja("-t", "clean").returncode)
        os.remove(self.path(".ninja_log"))

    def test_mixed_hits_and_misses_match_a_plain_build(self):
        self.assertEqual((0, self.COUNT), self.build("-j4"))
        self.clean()
        for i in range(0, self.COUNT, 4):  # every 4th source changes: a miss
            self.write("f%d.c" % i, '#include "h.h"\nint f%d(void) { return H - %d; }\n' % (i, i))
        misses = len(range(0, self.COUNT, 4))
        self.assertEqual((self.COUNT - misses, misses), self.build("-j4"))
        cached = self.outputs()
        self.assertIn("no work to do", self.ninja().stdout)
        # The same tree built without the cache.
        self.clean()
        self.assertEqual(0, self.ninja("-j4").returncode)
        self.assertEqual(cached, self.outputs())
        # And all hits now, at -j1 and -j8.
        for jobs in ("-j1", "-j8"):
            self.clean()
            self.assertEqual((self.COUNT, 0), self.build(jobs))
            self.assertEqual(cached, self.outputs())

    def read_bytes(self, rel):
        with open(self.path(rel), "rb") as f:
            return f.read()


@unittest.skipUnless(nginx_cache.find_nginx(), NO_NGINX)
@unittest.skipUnless(shutil.which("gcc"), "SKIPPED: gcc not installed (apt-get install gcc)")
class ServerDiesMidBuildTest(NinjaTestCase):
    COUNT = 30

    def setUp(self):
        super().setUp()
        self.backend = NginxBackend(self.dir)
        self.addCleanup(self.backend.stop)
        # The 10th compile stops the server (nginx's fast shutdown) before it
        # runs, and waits until it has gone (a zombie: this test reaps it).
        lines = ["rule cc\n  command = $pre gcc -MD -MF $out.d -c $in -o $out\n  deps = gcc\n  depfile = $out.d\n"]
        for i in range(self.COUNT):
            self.write("f%d.c" % i, "int f%d(void) { return %d; }\n" % (i, i))
            lines.append("build f%d.o: cc f%d.c\n" % (i, i))
            if i == 9:
                lines.append("  pre = kill {0}; i=0; while [ $$i -lt 200 ] && [ -e /proc/{0} ] && "
                             "! grep -qs zombie /proc/{0}/status; do sleep 0.05; i=$$((i+1)); done;\n"
                             .format(self.backend.nginx.proc.pid))
        self.write("build.ninja", "".join(lines))

    def test_build_goes_on_locally_with_one_warning(self):
        result = self.ninja("--cache=" + self.backend.spec(), "-j1")
        self.assertEqual(result.returncode, 0, result)
        self.assertEqual(1, (result.stdout + result.stderr).count("ninja: warning: cache server"), result)
        self.assertIn("building locally", result.stderr)
        for i in range(self.COUNT):
            self.assertTrue(self.exists("f%d.o" % i))
        self.assertIn("no work to do", self.ninja().stdout)
        # The objects are the compiler's: a plain rebuild makes the same bytes.
        built = {i: self.read_bytes("f%d.o" % i) for i in range(self.COUNT)}
        self.assertEqual(0, self.ninja("-t", "clean").returncode)
        self.write("build.ninja", self.read("build.ninja").replace("$pre ", ""))
        self.assertEqual(0, self.ninja().returncode)
        for i in range(self.COUNT):
            self.assertEqual(built[i], self.read_bytes("f%d.o" % i))

    def read_bytes(self, rel):
        with open(self.path(rel), "rb") as f:
            return f.read()


if __name__ == "__main__":
    unittest.main(verbosity=2)
