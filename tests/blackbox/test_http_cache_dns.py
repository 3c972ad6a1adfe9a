"""--cache=http://NAME:PORT/PREFIX where NAME is known only to DNS
(src/dns_resolver.*): a tiny UDP DNS server on 127.0.0.1 answers
`cache.test` with 127.0.0.1 and every other name with NXDOMAIN, and
RONIN_RESOLV_CONF points ninja at it (the nameserver line carries the
server's port, an extension glibc ignores)."""

import os
import socket
import struct
import threading
import unittest

from harness import NinjaTestCase
import nginx_cache
import test_cache

NO_NGINX = "SKIPPED: nginx not installed (apt-get install nginx)"
BUILD = ("rule plain\n  command = echo ran >> {log}; echo made > $out\n"
         "build out: plain in\n")


class FakeDns:
    """Answers A queries for the names in `names` (name -> IPv4 text);
    AAAA queries for them get an empty NOERROR answer; other names
    NXDOMAIN. Records the names asked."""

    def __init__(self, names):
        self.names = names
        self.asked = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                query, peer = self.sock.recvfrom(512)
            except OSError:
                return
            reply = self.answer(query)
            if reply:
                self.sock.sendto(reply, peer)

    def answer(self, query):
        if len(query) < 12:
            return None
        labels, at = [], 12
        while at < len(query) and query[at]:
            labels.append(query[at + 1:at + 1 + query[at]].decode("ascii", "replace"))
            at += 1 + query[at]
        question = query[12:at + 5]
        qtype = struct.unpack(">H", query[at + 1:at + 3])[0]
        name = ".".join(labels).lower()
        self.asked.append(name)
        records = b""
        if name not in self.names:
            flags, count = 0x8183, 0  # NXDOMAIN
        elif qtype == 1:
            flags, count = 0x8180, 1
            records = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + socket.inet_aton(self.names[name])
        else:
            flags, count = 0x8180, 0
        return query[:2] + struct.pack(">HHHHH", flags, 1, count, 0, 0) + question + records

    def stop(self):
        self.sock.close()


class DnsNameTest(NinjaTestCase):
    def setUp(self):
        super().setUp()
        self.dns = FakeDns({"cache.test": "127.0.0.1"})
        self.addCleanup(self.dns.stop)
        self.write("resolv.conf", "# fake\nnameserver 127.0.0.1:%d\noptions timeout:2\n" % self.dns.port)
        self.write("in", "")
        self.write("build.ninja", BUILD.format(log=self.path("ran.log")))

    def build(self, url):
        for name in ("out", ".ninja_log"):
            if os.path.exists(self.path(name)):
                os.remove(self.path(name))
        result = self.ninja("--cache=" + url, "--cache-rules=plain", "-d", "stats",
                            env={"RONIN_RESOLV_CONF": self.path("resolv.conf")})
        self.assertEqual(0, result.returncode, result)
        self.assertEqual("made\n", self.read("out"))
        return result

    def runs(self):
        return self.read("ran.log").count("ran")

    @unittest.skipUnless(nginx_cache.find_nginx(), NO_NGINX)
    def test_warm_cache_hit_through_a_dns_name(self):
        nginx = nginx_cache.Nginx(self.path("nginx"))
        nginx.start()
        self.addCleanup(nginx.stop)
        url = "http://cache.test:%d/cache" % nginx.port
        first = self.build(url)
        self.assertEqual((0, 1), test_cache.hits_and_misses(first.stdout))
        self.assertEqual("", first.stderr)
        second = self.build(url)
        self.assertEqual((1, 0), test_cache.hits_and_misses(second.stdout))
        self.assertEqual("", second.stderr)
        self.assertEqual(1, self.runs())
        self.assertIn("cache.test", self.dns.asked)
        self.assertIn(" PUT ", nginx.access_log())

    def test_unknown_name_warns_once_and_builds_locally(self):
        result = self.build("http://nosuch.test:8080/cache")
        self.assertEqual(1, result.stderr.count("ninja: warning: cache server "), result.stderr)
        self.assertIn("could not be resolved via /etc/hosts or DNS", result.stderr)
        self.assertIn("; building locally", result.stderr)
        self.assertEqual(1, self.runs())
        self.assertIn("nosuch.test", self.dns.asked)

    def test_no_dns_query_without_cache_or_for_hosts_names(self):
        self.ninja(env={"RONIN_RESOLV_CONF": self.path("resolv.conf")})
        self.build("http://127.0.0.1:%d/cache" % nginx_cache.free_port())
        self.build("http://localhost:%d/cache" % nginx_cache.free_port())
        self.assertEqual([], self.dns.asked)


if __name__ == "__main__":
    unittest.main()
