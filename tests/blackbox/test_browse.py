"""Black-box tests of `ninja -t browse`, ronin's built-in web server.

Each test starts the server on a free port in a temporary tree and talks to
it over 127.0.0.1 with http.client or raw sockets. The option parsing, the
help and the startup/shutdown messages match reference Ninja 1.13.2 (whose
browse is a Python script); where the reference is installed, they are also
compared against it directly. The pages themselves are ronin's own.

  NINJA=<our ninja> python3 -m unittest -v test_browse
"""

import html.parser
import http.client
import os
import select
import signal
import socket
import stat
import subprocess
import threading
import time
import unittest
import urllib.parse

from harness import NINJA, REF_NINJA, SKIP_NO_REF, NinjaTestCase, base_env, run, run_in_pty

MANIFEST = """\
rule cc
  command = cc $in -o $out
rule link
  command = link $in -o $out
build b.o: cc b.c
build a.o x.o | a.d: cc a.c b.o | impl.h zz.h || order1 a0 |@ val1
build order1: phony
build val1: cc v.c
build prog: link a.o b.o || order1
build all: phony prog
default prog
"""

ALL_NODES = {"b.o", "b.c", "a.o", "x.o", "a.d", "a.c", "impl.h", "zz.h", "order1", "a0",
             "val1", "v.c", "prog", "all"}

# `ninja -t browse -h` with 80 columns, as printed by reference ninja 1.13.2.
HELP_80 = """\
usage: ninja -t browse [-h] [--port PORT] [--hostname HOSTNAME] [--no-browser]
                       [--ninja-command NINJA_COMMAND] [-f F]
                       [initial_target]

positional arguments:
  initial_target        Initial target to show (default all)

options:
  -h, --help            show this help message and exit
  --port PORT, -p PORT  Port number to use (default 8000)
  --hostname HOSTNAME, -a HOSTNAME
                        Hostname to bind to (default localhost)
  --no-browser          Do not open a webbrowser on startup.
  --ninja-command NINJA_COMMAND
                        Path to ninja binary (default ninja)
  -f F                  Path to build.ninja file (default build.ninja)
"""

USAGE_80 = HELP_80[:HELP_80.index("\n\n") + 1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Page(html.parser.HTMLParser):
    """The parts of a page the tests look at: title, h1 text, every link,
    and for each <ul id=...> the links of each of its items."""

    def __init__(self, body):
        super().__init__()
        self.title = ""
        self.h1 = ""
        self.links = []
        self.lists = {}
        self.notes = {}
        self._in = None
        self._list = None
        self._item = None
        self._item_text = None
        self.feed(body.decode("utf-8"))  # strict: a page must be valid UTF-8
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("title", "h1"):
            self._in = tag
        elif tag == "ul":
            self._list = self.lists.setdefault(attrs.get("id"), [])
        elif tag == "li" and self._list is not None:
            self._item = []
            self._item_text = []
            self._list.append(self._item)
        elif tag == "a":
            self.links.append(attrs["href"])
            if self._item is not None:
                self._item.append([attrs["href"], ""])
            self._in = "a"

    def handle_endtag(self, tag):
        if tag == "ul":
            self._list = None
        elif tag == "li" and self._item is not None:
            self.notes[id(self._item)] = "".join(self._item_text)
            self._item = None
        if tag in ("title", "h1", "a"):
            self._in = None

    def handle_data(self, data):
        if self._in == "title":
            self.title += data
        elif self._in == "h1":
            self.h1 += data
        elif self._in == "a" and self._item is not None:
            self._item[-1][1] += data
        if self._item_text is not None and self._item is not None:
            self._item_text.append(data)

    def paths(self, list_id):
        """The link texts of a list, flattened (one per item for node lists)."""
        return [text for item in self.lists.get(list_id, []) for _, text in item]

    def item_paths(self, list_id):
        return [[text for _, text in item] for item in self.lists.get(list_id, [])]

    def item_note(self, list_id, index):
        return self.notes[id(self.lists[list_id][index])]


class Browse:
    """A running `ninja -t browse --no-browser --port PORT ARGS...`."""

    def __init__(self, test, *args, env=None, browser=False, host_args=()):
        self.port = free_port()
        argv = [NINJA, "-t", "browse", "--port", str(self.port)] + list(host_args)
        if not browser:
            argv.append("--no-browser")
        self.proc = subprocess.Popen(argv + list(args), cwd=test.dir, env=base_env(env),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        test.addCleanup(self._kill)
        self.banner = self._read_line(self.proc.stdout, 10)

    def _kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def _read_line(self, stream, timeout):
        data = b""
        deadline = time.time() + timeout
        while not data.endswith(b"\n"):
            ready, _, _ = select.select([stream], [], [], max(0, deadline - time.time()))
            if not ready:
                raise TimeoutError("no line from the server; got %r" % data)
            chunk = os.read(stream.fileno(), 1)
            if not chunk:
                raise EOFError("server exited: %r, stderr %r" % (data, self.proc.stderr.read()))
            data += chunk
        return data.decode()

    def request(self, method, target, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, target, headers=headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def get(self, target):
        return self.request("GET", target)

    def page(self, target):
        status, headers, body = self.get(target)
        if status != 200:
            raise AssertionError("GET %s: %d %r" % (target, status, body))
        return Page(body)

    def raw(self, data, timeout=10):
        """Sends raw bytes and returns everything the server answers."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(data)
            reply = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    return reply
                reply += chunk

    def stop(self, sig=signal.SIGINT):
        self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=10)
        return self.proc.returncode, out.decode(), err.decode()


def status_of(reply):
    return int(reply.split(b" ", 2)[1])


class BrowseOptionsTest(NinjaTestCase):
    """Help and option errors, byte for byte as Ninja's argparse prints them."""

    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)

    def browse(self, *args, binary=NINJA, env=None):
        return run(binary, ["-t", "browse"] + list(args), self.dir,
                   env=dict({"COLUMNS": None}, **(env or {})))

    def test_help(self):
        for flag in ("-h", "--help", "--he", "-hp80"):
            r = self.browse(flag)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (0, HELP_80, ""), flag)

    def test_help_follows_the_terminal_width(self):
        r = self.browse("-h", env={"COLUMNS": "60"})
        self.assertEqual(r.stdout.splitlines()[:6], [
            "usage: ninja -t browse [-h] [--port PORT]",
            "                       [--hostname HOSTNAME]",
            "                       [--no-browser]",
            "                       [--ninja-command NINJA_COMMAND]",
            "                       [-f F]",
            "                       [initial_target]"])
        self.assertIn("  initial_target        Initial target to show (default\n"
                      "                        all)\n", r.stdout)

    def test_errors(self):
        cases = [
            (["--bogus"], "unrecognized arguments: --bogus"),
            (["a", "b", "-x"], "unrecognized arguments: b -x"),
            (["-p"], "argument --port/-p: expected one argument"),
            (["-p", "--no-browser"], "argument --port/-p: expected one argument"),
            (["-p", "abc"], "argument --port/-p: invalid int value: 'abc'"),
            (["--port=it's"], "argument --port/-p: invalid int value: \"it's\""),
            (["-a"], "argument --hostname/-a: expected one argument"),
            (["--h"], "ambiguous option: --h could match --help, --hostname"),
            (["--n"], "ambiguous option: --n could match --no-browser, --ninja-command"),
            (["--no-browser=1"], "argument --no-browser: ignored explicit argument '1'"),
            (["-hx"], "argument -h/--help: ignored explicit argument 'x'"),
        ]
        for args, message in cases:
            r = self.browse(*args)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (2, "", USAGE_80 + "ninja -t browse: error: " + message + "\n"), args)

    def test_missing_manifest_is_reported_first(self):
        os.remove(self.path("build.ninja"))
        r = self.browse("-h")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "ninja: error: loading 'build.ninja': No such file or directory\n")

    @unittest.skipIf(REF_NINJA is None, SKIP_NO_REF)
    def test_same_as_reference(self):
        cases = [["-h"], ["--help"], ["--bogus"], ["-p"], ["-p", "abc"], ["--n"], ["--h"],
                 ["-hx"], ["--help=3"], ["--no-browser=x"], ["-p", "it's"],
                 ["-p", "a\tb\"'"], ["a", "b", "c"], ["-x", "-y"], ["--port="], ["-hp80"],
                 ["--", "-p", "x"], ["-p", "--", "80"], ["-a"], ["-p", "\u00fc"],
                 ["-p", "\u00a0"], ["--po", "abc"], ["-p=abc"], ["-pabc"],
                 ["--no-browser", "-p", "1_0_", "-x"], ["a", "--", "b"], ["-foo", "-x"],
                 ["-x y", "z"], ["-5", "-6"], ["--ninja", "--x"], ["--ninja-command"],
                 ["-f"], ["-ffile", "-p", "x"]]
        # Every case at the default width; the wrapping at a few others.
        runs = [(None, args) for args in cases]
        runs += [(columns, args) for columns in ("120", "60", "30", "5")
                 for args in (["-h"], ["--bogus"])]
        for columns, args in runs:
            env = {"COLUMNS": columns}
            ours = self.browse(*args, env=env)
            ref = self.browse(*args, binary=REF_NINJA, env=env)
            self.assertEqual((ours.returncode, ours.stdout, ours.stderr),
                             (ref.returncode, ref.stdout, ref.stderr), (columns, args))

    @unittest.skipIf(REF_NINJA is None, SKIP_NO_REF)
    def test_terminal_width_same_as_reference(self):
        for columns in (100, 50):
            ours = run_in_pty(NINJA, ["-t", "browse", "-h"], self.dir, env={"COLUMNS": None},
                              columns=columns)
            ref = run_in_pty(REF_NINJA, ["-t", "browse", "-h"], self.dir, env={"COLUMNS": None},
                             columns=columns)
            self.assertEqual(ours.stdout, ref.stdout, columns)


class BrowseServerTest(NinjaTestCase):

    def setUp(self):
        super().setUp()
        self.write("build.ninja", MANIFEST)

    def test_banner_and_ctrl_c(self):
        server = Browse(self, "a.o")
        self.assertEqual(server.banner,
                         "Web server running on localhost:%d, ctl-C to abort...\n" % server.port)
        self.assertEqual(server.get("/?a.o")[0], 200)
        rc, out, err = server.stop(signal.SIGINT)
        # As Ninja's script: the "^C" line is ended and the exit is clean.
        self.assertEqual((rc, out, err), (0, "\n", "Web server pid %d\n" % server.proc.pid))

    def test_sigterm_stops_it(self):
        server = Browse(self)
        rc, out, err = server.stop(signal.SIGTERM)
        self.assertEqual((rc, out), (-signal.SIGTERM, ""))
        self.assertNotIn("Traceback", err)

    def test_port_zero_reports_the_real_port(self):
        proc = subprocess.Popen([NINJA, "-t", "browse", "--no-browser", "-p", "0"], cwd=self.dir,
                                env=base_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            line = proc.stdout.readline().decode()
            port = int(line.split(":")[1].split(",")[0])
            self.assertNotEqual(port, 0)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/?prog")
            self.assertEqual(conn.getresponse().status, 200)
            conn.close()
        finally:
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=10)

    def test_port_in_use(self):
        with socket.socket() as busy:
            busy.bind(("127.0.0.1", 0))
            busy.listen()
            port = busy.getsockname()[1]
            r = self.ninja("-t", "browse", "--no-browser", "-a", "127.0.0.1", "-p", str(port))
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertEqual(r.stderr, "ninja: error: cannot listen on 127.0.0.1:%d: "
                                   "Address already in use\n" % port)

    def test_port_out_of_range(self):
        r = self.ninja("-t", "browse", "--no-browser", "-p", "70000")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "ninja: error: cannot listen on localhost:70000: "
                                 "port must be 0-65535\n"))

    def test_target_page_groups_inputs(self):
        server = Browse(self, "a.o")
        page = server.page("/?a.o")
        self.assertEqual(page.h1, "a.o")
        self.assertEqual(page.title, "a.o")
        self.assertEqual(page.paths("explicit"), ["a.c", "b.o"])
        self.assertEqual(page.paths("implicit"), ["impl.h", "zz.h"])
        self.assertEqual(page.paths("order-only"), ["order1", "a0"])
        self.assertEqual(page.paths("validations"), ["val1"])
        self.assertEqual(page.paths("outputs"), ["a.o", "x.o", "a.d"])
        self.assertIn("(implicit)", page.item_note("outputs", 2))
        self.assertNotIn("(implicit)", page.item_note("outputs", 1))
        self.assertEqual(page.item_paths("dependents"), [["prog"]])
        self.assertIn("link", page.item_note("dependents", 0))
        self.assertNotIn("validation-for", page.lists)
        # Every output of the edge shows the same edge.
        other = server.page("/?a.d")
        self.assertEqual(other.lists["explicit"], page.lists["explicit"])
        self.assertEqual(other.lists["outputs"], page.lists["outputs"])

    def test_dependents_and_validations(self):
        server = Browse(self)
        page = server.page("/?b.o")
        self.assertEqual(page.item_paths("dependents"), [["a.o", "x.o", "a.d"], ["prog"]])
        self.assertIn("explicit input", page.item_note("dependents", 0))
        page = server.page("/?order1")
        self.assertEqual(page.item_paths("dependents"), [["a.o", "x.o", "a.d"], ["prog"]])
        self.assertIn("order-only input", page.item_note("dependents", 1))
        self.assertEqual(page.paths("explicit"), [])
        page = server.page("/?val1")
        self.assertEqual(page.item_paths("validation-for"), [["a.o", "x.o", "a.d"]])
        self.assertNotIn("dependents", page.lists)
        page = server.page("/?a.c")
        self.assertEqual(page.paths("outputs"), [])
        self.assertIn("Not built by any rule", server.get("/?a.c")[2].decode())
        self.assertEqual(page.item_paths("dependents"), [["a.o", "x.o", "a.d"]])

    def test_query_syntax_as_ninja(self):
        server = Browse(self)
        self.assertEqual(server.page("/?./sub/../a.o").h1, "a.o")  # canonicalised
        self.assertEqual(server.page("/?a.c%5E").h1, "a.o")  # "a.c^": first output using it
        self.assertEqual(server.page("/?a.c^").h1, "a.o")

    def test_root_redirects_to_the_start_target(self):
        server = Browse(self)
        status, headers, _ = server.get("/")
        self.assertEqual((status, headers["Location"]), (302, "/?all"))
        self.assertEqual(server.get("/?")[1]["Location"], "/?all")

    def test_start_target_given(self):
        server = Browse(self, "we ird&#%")
        status, headers, _ = server.get("/")
        self.assertEqual((status, headers["Location"]), (302, "/?we%20ird%26%23%25"))

    def test_without_all_starts_at_the_first_default(self):
        self.write("build.ninja", MANIFEST.replace("build all: phony prog\n", ""))
        server = Browse(self)
        self.assertEqual(server.get("/")[1]["Location"], "/?prog")

    def test_every_link_works(self):
        server = Browse(self)
        start = server.get("/")[1]["Location"]
        seen = {start}
        queue = [start]
        visited = set()
        while queue:
            target = queue.pop(0)
            page = server.page(target)
            path = urllib.parse.unquote(target[2:])
            self.assertEqual(page.h1, path)
            visited.add(path)
            for link in page.links:
                self.assertTrue(link.startswith("/?"), link)
                if link not in seen:
                    seen.add(link)
                    queue.append(link)
        self.assertEqual(visited, ALL_NODES)

    def test_special_characters_round_trip(self):
        weird = "out dir/we ird&<>%#?\"'\u00fc+=;,@!$:\u20ac.txt"
        manifest = MANIFEST + (
            "rule cp\n  command = cp $in $out\n"
            "build out$ dir/we$ ird&<>%#?\"'\u00fc+=;,@!$$$:\u20ac.txt: cp a.c\n"
            "build final: cp out$ dir/we$ ird&<>%#?\"'\u00fc+=;,@!$$$:\u20ac.txt\n")
        with open(self.path("build.ninja"), "wb") as f:
            f.write(manifest.encode() + b"build raw\xffname.o: cp final\n")
        server = Browse(self)
        page = server.page("/?final")
        [[href, text]] = page.lists["explicit"][0]
        self.assertEqual(text, weird)
        self.assertRegex(href, r"^/\?[A-Za-z0-9%/._~-]+$")
        self.assertEqual(urllib.parse.unquote(href[2:]), weird)
        self.assertEqual(server.page(href).h1, weird)
        self.assertEqual(server.page("/?" + urllib.parse.quote(weird, safe="")).h1, weird)
        # '+' is not a space, and a stray '%' is kept as it is.
        self.assertEqual(server.get("/?out+dir")[0], 404)
        # Not UTF-8: shown with U+FFFD, linked by its bytes.
        [[raw_href, raw_text]] = page.lists["dependents"][0]
        self.assertEqual(raw_href, "/?raw%FFname.o")
        self.assertEqual(raw_text, "raw\ufffdname.o")
        self.assertEqual(server.page(raw_href).h1, "raw\ufffdname.o")

    def test_unknown_path_is_404(self):
        server = Browse(self)
        status, headers, body = server.get("/?nope%3Cb%3E")
        self.assertEqual(status, 404)
        self.assertEqual(headers["Content-Type"], "text/html; charset=utf-8")
        text = body.decode()
        self.assertIn("unknown target &#39;nope&lt;b&gt;&#39;", text)
        self.assertNotIn("<b>", text)
        Page(body)  # still a page
        self.assertIn("did you mean &#39;a.o&#39;?", server.get("/?a.oo")[2].decode())
        self.assertEqual(server.get("/other")[0], 404)
        self.assertEqual(server.get("/favicon.ico")[0], 404)
        self.assertEqual(server.get("/?a%00b")[0], 400)

    def test_head(self):
        server = Browse(self)
        status, headers, body = server.request("HEAD", "/?a.o")
        self.assertEqual((status, body), (200, b""))
        self.assertEqual(int(headers["Content-Length"]), len(server.get("/?a.o")[2]))

    def test_malformed_requests_and_service_goes_on(self):
        server = Browse(self)
        cases = [
            (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03garbage\r\n\r\n", 400),
            (b"GARBAGE\r\n", 400),
            (b"GET /?a.o HTTP/1.1\r\n\r\n", 400),  # no Host
            (b"GET /?a.o HTTP/1.1\r\nHost: x\r\n bad fold\r\n\r\n", 400),
            (b"GET /?\xff HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            (b"GET /?a.o HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            (b"POST /?a.o HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 405),
            (b"GET /?" + b"a" * 40000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X: y\r\n" * 200 + b"\r\n", 431),
            (b"GET http://localhost/?a.o HTTP/1.1\r\nHost: x\r\n\r\n", 200),
            (b"GET /?a.o HTTP/1.0\r\n\r\n", 200),
        ]
        for data, expected in cases:
            reply = server.raw(data)
            self.assertTrue(reply.startswith(b"HTTP/1.1 "), (data[:40], reply[:80]))
            self.assertEqual(status_of(reply), expected, data[:40])
            self.assertEqual(server.get("/?a.o")[0], 200)
        # A client that disconnects halfway.
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(b"GET /?a.o HTTP/1.1\r\nHo")
        self.assertEqual(server.get("/?a.o")[0], 200)
        self.assertIsNone(server.proc.poll())

    def test_slow_and_concurrent_clients(self):
        server = Browse(self)
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(25)]
        partial = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(10)]
        for s in partial:
            s.sendall(b"GET /?a.o HTTP/1.1\r\nHost: x\r\n")
        results = []

        def fetch(target):
            start = time.time()
            status = server.get(target)[0]
            results.append((status, time.time() - start))

        threads = [threading.Thread(target=fetch, args=("/?" + node,)) for node in ALL_NODES]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        self.assertEqual(len(results), len(ALL_NODES))
        for status, seconds in results:
            self.assertEqual(status, 200)
            self.assertLess(seconds, 5)
        # The partial requests complete when their clients finish them.
        for s in partial:
            s.sendall(b"\r\n")
            self.assertTrue(s.recv(100).startswith(b"HTTP/1.1 200 OK"))
        for s in idle + partial:
            s.close()
        self.assertEqual(server.get("/?prog")[0], 200)

    def test_dyndep_files_are_loaded(self):
        self.write("build.ninja",
                   "rule cc\n  command = cc $in -o $out\n"
                   "rule dd\n  command = gen $out\n"
                   "build out.dd: dd\n"
                   "build out: cc in || out.dd\n  dyndep = out.dd\n"
                   "build out2: cc in || missing.dd\n  dyndep = missing.dd\n"
                   "build missing.dd: dd\n")
        self.write("out.dd", "ninja_dyndep_version = 1\nbuild out | imp.out: dyndep | extra.h\n")
        server = Browse(self)
        page = server.page("/?out")
        self.assertEqual(page.paths("implicit"), ["extra.h"])
        self.assertEqual(page.paths("outputs"), ["out", "imp.out"])
        # Known from the start, whatever was visited before.
        self.assertEqual(server.page("/?extra.h").item_paths("dependents"), [["out", "imp.out"]])
        self.assertEqual(server.page("/?out2").paths("order-only"), ["missing.dd"])
        rc, out, err = server.stop()
        self.assertEqual(err, "Web server pid %d\n" % server.proc.pid)  # no warnings

    def test_opens_the_browser(self):
        record = self.path("opened")
        script = self.path("fake-browser")
        with open(script, "w") as f:
            f.write("#!/bin/sh\nprintf '%%s\\n' \"$@\" > %s.tmp && mv %s.tmp %s\n"
                    % (record, record, record))
        os.chmod(script, stat.S_IRWXU)
        server = Browse(self, "a b.o", browser=True, env={"BROWSER": script})
        deadline = time.time() + 10
        while not os.path.exists(record) and time.time() < deadline:
            time.sleep(0.05)
        with open(record) as f:
            self.assertEqual(f.read(), "http://localhost:%d/?a%%20b.o\n" % server.port)

    def test_missing_browser_is_ignored(self):
        server = Browse(self, browser=True, env={"BROWSER": "/nonexistent/browser",
                                                 "PATH": "/nonexistent"})
        self.assertEqual(server.get("/?a.o")[0], 200)
        rc, out, err = server.stop()
        self.assertEqual((rc, out, err), (0, "\n", "Web server pid %d\n" % server.proc.pid))


if __name__ == "__main__":
    unittest.main()
