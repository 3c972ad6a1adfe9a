"""ronin's HTML in a real browser: headless Chromium loads the build report
(`-t report`) and the pages of `-t browse`, and the tests check the DOM it
built, a screenshot of what it drew, and that it logged no console message.

Each page is one Chromium launch (~10 s on a loaded machine), so the pages
are few. Skipped, loudly, without Chromium (apt-get install chromium).

  NINJA=<our ninja> python3 -m unittest -v test_browser
"""

import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import urllib.parse
import zlib

from build_timing import Tree, write_log
from harness import REPO, NinjaTestCase
from test_browse import MANIFEST as BROWSE_MANIFEST, Browse, Page
from test_trace_report import Tables

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SKIP_NO_CHROMIUM = "SKIPPED: chromium not installed (apt-get install chromium)"
CONSOLE = re.compile(r":CONSOLE(?::\d+)?\] (.*)")


def decode_png(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xff
            elif kind == 2:
                line[i] = (line[i] + up) & 0xff
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xff
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xff
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


class Loaded:
    """What Chromium made of one page."""

    def __init__(self, dom, png, console):
        self.dom = dom
        self.png = png
        self.console = console  # every console message it logged

    def colours(self):
        counts = {}
        for row in decode_png(self.png)[2]:
            for pixel in row:
                counts[pixel] = counts.get(pixel, 0) + 1
        return counts


@unittest.skipUnless(CHROMIUM, SKIP_NO_CHROMIUM)
class BrowserTestCase(NinjaTestCase):

    def load(self, url, size=(1280, 1400)):
        shot = os.path.join(self.dir, "shot.png")
        profile = tempfile.mkdtemp(prefix="ronin-chromium-")
        self.addCleanup(shutil.rmtree, profile, True)
        proc = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
             "--window-size=%d,%d" % size, "--screenshot=" + shot, "--dump-dom", url],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=180)
        self.assertEqual(0, proc.returncode, proc.stderr[-2000:])
        with open(shot, "rb") as f:
            png = f.read()
        os.remove(shot)
        console = CONSOLE.findall(proc.stderr.decode("utf-8", "replace"))
        return Loaded(proc.stdout.decode("utf-8"), png, console)

    def assertNotBlank(self, loaded, must_show=(), min_ink=1 / 50):
        """More than `min_ink` of the pixels are not white, in more than a
        few colours, and each of `must_show` ("#rrggbb") is drawn."""
        colours = loaded.colours()
        total = sum(colours.values())
        white = colours.get((255, 255, 255), 0)
        self.assertGreater(len(colours), 8, "too few colours: a blank page?")
        self.assertGreater(total - white, total * min_ink, "almost all white")
        for hex_colour in must_show:
            want = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
            near = sum(n for c, n in colours.items() if max(abs(a - b) for a, b in zip(c, want)) <= 8)
            self.assertGreater(near, 20, "colour %s not drawn" % hex_colour)

    def assertReportRendered(self, loaded):
        self.assertEqual([], loaded.console)
        tables = Tables(loaded.dom)
        for id in ("summary", "timeline-svg", "parallelism-svg", "critical-path", "slowest", "rules"):
            self.assertIn(id, tables.ids)
        self.assertIn('class="job"', loaded.dom)
        self.assertIn('class="critical"', loaded.dom)
        # Bars in rule colours, the critical path in red, the parallelism area.
        self.assertNotBlank(loaded, must_show=("#4c78a8", "#d62728"))
        return tables


class ConsoleCheckTest(BrowserTestCase):

    def test_console_errors_are_seen(self):
        """The console check itself: a page with a script error is caught."""
        self.write("bad.html", "<p>x</p><script>console.error('boom'); missing();</script>")
        loaded = self.load("file://" + self.path("bad.html"), size=(200, 200))
        self.assertTrue(any("boom" in line for line in loaded.console), loaded.console)
        self.assertTrue(any("Uncaught ReferenceError" in line for line in loaded.console), loaded.console)


class ReportInBrowserTest(BrowserTestCase):

    def test_report_of_a_5000_command_build(self):
        tree = Tree(5000, seed=7)
        self.write("build.ninja", tree.manifest())
        write_log(self.path(".ninja_log"), tree.simulate(jobs=16))
        self.assertEqual(0, self.ninja("-t", "report").returncode)
        tables = self.assertReportRendered(self.load("file://" + self.path("ninja_report.html")))
        total, chain = tree.critical_path()
        self.assertEqual(chain, [row[1] for row in tables.tables["critical-path"]])
        self.assertEqual(20, len(tables.tables["slowest"]))

    def test_report_of_the_example_project(self):
        if not shutil.which("cc"):
            self.skipTest("SKIPPED: no C compiler (apt-get install g++)")
        project = os.path.join(self.dir, "hello")
        shutil.copytree(os.path.join(REPO, "examples", "hello"), project)
        self.assertEqual(0, self.ninja("-C", project).returncode)
        result = self.ninja("-C", project, "-t", "report")
        self.assertEqual("out/ninja_report.html\n", result.stdout)
        loaded = self.load("file://" + os.path.join(project, "out", "ninja_report.html"))
        tables = self.assertReportRendered(loaded)
        self.assertEqual(["hello", "out/greet.o", "out/main.o"],
                         sorted(row[0] for row in tables.tables["slowest"]))
        self.assertEqual("hello", tables.tables["critical-path"][-1][1])


class BrowseInBrowserTest(BrowserTestCase):

    def test_pages_follow_from_one_to_the_next(self):
        self.write("build.ninja", BROWSE_MANIFEST)
        server = Browse(self)
        base = "http://localhost:%d" % server.port
        # The start page (redirected to the default target), then along the
        # input links twice: all -> prog -> a.o.
        loaded = self.load(base + "/", size=(800, 600))
        expected = ["all", "prog", "a.o"]
        for step, name in enumerate(expected):
            self.assertEqual([], loaded.console)
            page = Page(loaded.dom.encode("utf-8"))
            self.assertEqual(name, page.h1)
            self.assertNotBlank(loaded, min_ink=1 / 1000)  # text on white
            if step + 1 < len(expected):
                links = [href for href in page.links
                         if urllib.parse.unquote(href[2:]) == expected[step + 1]]
                self.assertTrue(links, "no link to %s on %s" % (expected[step + 1], name))
                loaded = self.load(base + links[0], size=(800, 600))


if __name__ == "__main__":
    unittest.main()
