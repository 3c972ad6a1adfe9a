"""The HTTP cache store (src/http_cache_store.*, src/http_client.*) against
a real nginx with WebDAV PUT (nginx_cache.py) and against servers that
misbehave: down, silent, talking garbage.

The store is driven through tests/tools/cache_store_probe, which keeps one
store open while the test changes the server between commands, so "the
server died mid-run" is a real mid-run event. Timeouts are asserted as
behaviour (the probe finishes, with one warning), never as seconds."""

import hashlib
import os
import socket
import subprocess
import threading
import unittest

from harness import NinjaTestCase
import nginx_cache

PROBE = os.environ.get("CACHE_STORE_PROBE") or os.path.join(
    os.path.dirname(__file__), "..", "..", "build", "cache_store_probe")
WARNING = "ninja: warning: cache server "


class Probe:
    """cache_store_probe as a coprocess: one command in, one answer out."""

    def __init__(self, url, *options):
        self.proc = subprocess.Popen([PROBE] + list(options) + [url], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def close(self):
        """Ends the probe (its store flushes); returns what it printed on stderr."""
        self.proc.stdin.close()
        stderr = self.proc.stderr.read()
        self.proc.wait(120)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return stderr


def sha256(data):
    return hashlib.sha256(data).hexdigest()


class HttpCacheTestCase(NinjaTestCase):
    def setUp(self):
        super().setUp()
        if not os.access(PROBE, os.X_OK):
            self.skipTest("SKIPPED: cache_store_probe not built (%s)" % PROBE)

    def blob(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def probe(self, url, *options):
        probe = Probe(url, *options)
        self.addCleanup(lambda: probe.proc.poll() is not None or probe.proc.kill())
        return probe


class NginxCacheTest(HttpCacheTestCase):
    def setUp(self):
        super().setUp()
        if not nginx_cache.find_nginx():
            self.skipTest("SKIPPED: nginx not installed (apt-get install nginx)")
        self.nginx = nginx_cache.Nginx(self.path("nginx"))
        self.nginx.start()
        self.addCleanup(self.nginx.stop)

    def test_round_trip_over_kept_alive_connections(self):
        contents = [("out%d" % i).encode() * (i * 5000 + 1) for i in range(6)]
        writer = self.probe(self.nginx.url)
        digests = []
        for i, data in enumerate(contents):
            answer = writer.ask("put-blob " + self.blob("b%d" % i, data))
            self.assertEqual("stored " + sha256(data), answer)
            digests.append(sha256(data))
        key = sha256(b"an action")
        self.assertEqual("stored", writer.ask("put-action %s %s" % (key, self.blob("entry", b"entry text\n"))))
        self.assertEqual("", writer.close())

        reader = self.probe(self.nginx.url)
        for i, digest in enumerate(digests):
            self.assertEqual("hit", reader.ask("get-blob %s %s" % (digest, self.path("got%d" % i))))
            with open(self.path("got%d" % i), "rb") as f:
                self.assertEqual(contents[i], f.read())
        self.assertEqual("hit", reader.ask("get-action %s %s" % (key, self.path("got-entry"))))
        self.assertEqual("entry text\n", self.read("got-entry"))
        self.assertEqual("", reader.close())

        # The reader's seven GETs went over one connection.
        gets = [line.split() for line in self.nginx.access_log().splitlines() if " GET " in line]
        self.assertEqual(7, len(gets))
        self.assertEqual(1, len({fields[0] for fields in gets}))
        # Bazel's layout under the prefix.
        self.assertTrue(os.path.exists(self.nginx.file("ac", key)))
        self.assertTrue(os.path.exists(self.nginx.file("cas", digests[0])))

    def test_absent_entries_are_quiet_misses(self):
        probe = self.probe(self.nginx.url)
        self.assertEqual("miss", probe.ask("get-blob %s %s" % (sha256(b"x"), self.path("o"))))
        self.assertEqual("miss", probe.ask("get-action %s %s" % (sha256(b"y"), self.path("o"))))
        self.assertEqual("no", probe.ask("disabled"))
        self.assertEqual("", probe.close())

    def test_corrupted_blob_is_a_miss_and_is_replaced(self):
        data = b"object code\n" * 100
        probe = self.probe(self.nginx.url)
        self.assertEqual("stored " + sha256(data), probe.ask("put-blob " + self.blob("b", data)))
        self.assertEqual("flushed", probe.ask("flush"))
        with open(self.nginx.file("cas", sha256(data)), "wb") as f:
            f.write(b"object code\n" * 99 + b"object cod3\n")
        self.assertEqual("miss", probe.ask("get-blob %s %s" % (sha256(data), self.path("o"))))
        self.assertEqual("no", probe.ask("disabled"))
        # Truncated is damaged too.
        with open(self.nginx.file("cas", sha256(data)), "wb") as f:
            f.write(data[:10])
        self.assertEqual("miss", probe.ask("get-blob %s %s" % (sha256(data), self.path("o"))))
        # Storing the bytes again (the rebuilt output) repairs the entry.
        probe.ask("put-blob " + self.path("b"))
        self.assertEqual("flushed", probe.ask("flush"))
        self.assertEqual("hit", probe.ask("get-blob %s %s" % (sha256(data), self.path("o"))))
        self.assertEqual("", probe.close())

    def test_server_killed_mid_run_warns_once_then_is_off(self):
        data = b"some bytes"
        probe = self.probe(self.nginx.url)
        self.assertEqual("stored " + sha256(data), probe.ask("put-blob " + self.blob("b", data)))
        self.assertEqual("flushed", probe.ask("flush"))
        self.assertEqual("hit", probe.ask("get-blob %s %s" % (sha256(data), self.path("o"))))
        self.nginx.stop()
        self.assertEqual("miss", probe.ask("get-blob %s %s" % (sha256(data), self.path("o"))))
        self.assertEqual("yes", probe.ask("disabled"))
        self.assertEqual("miss", probe.ask("get-action %s %s" % (sha256(b"k"), self.path("o"))))
        self.assertEqual("refused " + sha256(data), probe.ask("put-blob " + self.path("b")))
        stderr = probe.close()
        self.assertEqual(1, stderr.count(WARNING), stderr)
        self.assertIn("building locally", stderr)

    def test_put_refused_by_server_warns_once(self):
        # A location without WebDAV answers PUT with 405.
        url = "http://127.0.0.1:%d/readonly" % self.nginx.port
        probe = self.probe(url)
        for i in range(3):
            probe.ask("put-blob " + self.blob("b%d" % i, b"%d" % i))
        self.assertEqual("flushed", probe.ask("flush"))
        self.assertEqual("yes", probe.ask("disabled"))
        stderr = probe.close()
        self.assertEqual(1, stderr.count(WARNING), stderr)
        self.assertIn("status 40", stderr)


class FakeServer:
    """A loopback server that answers every connection with `reply` (None:
    accepts and never answers) until stopped."""

    def __init__(self, reply):
        self.reply = reply
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.url = "http://127.0.0.1:%d/cache" % self.port
        self.held = []
        self.stopped = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self.reply is None:
                self.held.append(conn)  # silent: keep it open, say nothing
                continue
            try:
                conn.recv(65536)
                conn.sendall(self.reply)
            except OSError:
                pass
            conn.close()

    def stop(self):
        self.stopped = True
        self.sock.close()
        for conn in self.held:
            conn.close()


class MisbehavingServerTest(HttpCacheTestCase):
    def server(self, reply):
        server = FakeServer(reply)
        self.addCleanup(server.stop)
        return server

    def assert_one_warning_then_off(self, url, expected, *options):
        probe = self.probe(url, *options)
        for i in range(3):
            self.assertEqual("miss", probe.ask("get-blob %s %s" % (sha256(b"%d" % i), self.path("o"))))
        self.assertEqual("yes", probe.ask("disabled"))
        self.assertTrue(probe.ask("put-blob " + self.blob("b", b"x")).startswith("refused"))
        stderr = probe.close()
        self.assertEqual(1, stderr.count(WARNING), stderr)
        self.assertIn(expected, stderr)
        self.assertIn("; building locally", stderr)

    def test_server_down(self):
        port = nginx_cache.free_port()  # nobody listens there
        self.assert_one_warning_then_off("http://127.0.0.1:%d/c" % port, "Connection refused")

    def test_silent_server_times_out_once(self):
        server = self.server(None)
        self.assert_one_warning_then_off(server.url, "no answer", "--timeout-ms=300")

    def test_garbage_response(self):
        server = self.server(b"SSH-2.0-OpenSSH_9.2\r\n\r\n")
        self.assert_one_warning_then_off(server.url, "not an HTTP/1.x status line")

    def test_truncated_response(self):
        server = self.server(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
        self.assert_one_warning_then_off(server.url, "closed in the middle")

    def test_server_error_status(self):
        server = self.server(b"HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n")
        self.assert_one_warning_then_off(server.url, "status 503")

    def test_chunked_and_close_delimited_bodies(self):
        data = b"chunked blob contents"
        for reply in (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                      b"7\r\nchunked\r\n0e;ext=1\r\n blob contents\r\n0\r\nX-Trailer: 1\r\n\r\n",
                      b"HTTP/1.0 200 OK\r\n\r\n" + data):
            server = self.server(reply)
            probe = self.probe(server.url)
            self.assertEqual("hit", probe.ask("get-blob %s %s" % (sha256(data), self.path("o"))))
            with open(self.path("o"), "rb") as f:
                self.assertEqual(data, f.read())
            self.assertEqual("", probe.close())

    def test_bad_urls_are_errors(self):
        for url, message in (("https://cache.example:443/c", "TLS terminator"),
                             ("http://", "no host"),
                             ("http://host:99999/", "bad port"),
                             ("ftp://host/", "not an http:// URL")):
            probe = self.probe(url)
            stderr = probe.close()
            self.assertEqual(1, probe.proc.returncode)
            self.assertIn("ninja: error: bad cache URL", stderr)
            self.assertIn(message, stderr)


if __name__ == "__main__":
    unittest.main()
