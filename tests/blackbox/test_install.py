"""Installing ronin: `cmake --install` of the build tree that holds $NINJA,
the man page, the bash and zsh completions, and the Debian package that
`cpack -G DEB` makes from the same tree (cmake/install.cmake)."""

import os
import pty
import re
import select
import shutil
import struct
import subprocess
import tempfile
import time
import unittest
import fcntl
import termios

import harness

BUILD_DIR = os.path.dirname(harness.NINJA)
IS_CMAKE_BUILD = os.path.isfile(os.path.join(BUILD_DIR, "CMakeCache.txt"))
SKIP_NOT_CMAKE = "SKIPPED: %s is not in a CMake build tree (nothing to install)" % harness.NINJA
HELLO = os.path.join(harness.REPO, "examples", "hello")


def require(test, command, package):
    if not shutil.which(command):
        test.skipTest("SKIPPED: %s not installed (apt-get install %s)" % (command, package))


def check_output(args, **kwargs):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          **kwargs).stdout.decode()


def usage_text(ninja):
    return harness.run(ninja, ["-h"], cwd="/").stderr


def long_options(ninja):
    """Every long option `ninja -h` names, ronin's own included."""
    return sorted(set(re.findall(r"(?:^ +|, )(--[a-z][-a-z0-9]*)", usage_text(ninja), re.M)))


def ronin_options(ninja):
    block = usage_text(ninja).split("\nronin options", 1)[1]
    return re.findall(r"^  (--[a-z][-a-z0-9]*)", block, re.M)


def list_names(ninja, flag):
    """The entries of `ninja -t list` / `-d list` / `-w list`, read here independently of
    the completion scripts: lines after the heading that hold a name and a description."""
    out = harness.run(ninja, [flag, "list"], cwd="/")
    names = []
    for line in (out.stdout + out.stderr).splitlines()[1:]:
        m = re.match(r"^ *([a-z][-a-z]*)(=\{([a-z,]+)\})?  +\S", line)
        if m and not line.startswith("multiple"):
            values = m.group(3).split(",") if m.group(3) else [None]
            names += [m.group(1) + ("=" + v if v else "") for v in values]
    return names


def is_static(binary):
    out = subprocess.run(["ldd", binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = out.stdout.decode()
    return "statically linked" in text or "not a dynamic executable" in text


class InstalledTree:
    """`cmake --install BUILD_DIR --prefix <temp>`, done once for the module."""
    prefix = None

    @classmethod
    def get(cls):
        if cls.prefix is None:
            cls.tmp = tempfile.TemporaryDirectory(prefix="ronin-install-")
            cls.prefix = os.path.join(cls.tmp.name, "prefix")
            check_output(["cmake", "--install", BUILD_DIR, "--prefix", cls.prefix])
        return cls.prefix


def tearDownModule():
    if InstalledTree.prefix is not None:
        InstalledTree.tmp.cleanup()


@unittest.skipUnless(IS_CMAKE_BUILD, SKIP_NOT_CMAKE)
class InstallTreeTest(unittest.TestCase):
    def setUp(self):
        self.prefix = InstalledTree.get()

    def installed(self, rel):
        return os.path.join(self.prefix, rel)

    def test_installs_binary_man_page_and_completions(self):
        for rel in ("bin/ninja", "share/man/man1/ninja.1",
                    "share/bash-completion/completions/ninja",
                    "share/zsh/site-functions/_ninja"):
            self.assertTrue(os.path.isfile(self.installed(rel)), rel)
        self.assertTrue(os.access(self.installed("bin/ninja"), os.X_OK))
        # The completion tests below run the scripts of the source tree.
        for rel, source in (("share/bash-completion/completions/ninja", "ninja.bash"),
                            ("share/zsh/site-functions/_ninja", "_ninja")):
            with open(self.installed(rel)) as installed, \
                    open(os.path.join(harness.REPO, "misc", "completion", source)) as original:
                self.assertEqual(installed.read(), original.read(), rel)
        out = harness.run(self.installed("bin/ninja"), ["--version"], cwd="/")
        self.assertEqual((out.returncode, out.stdout), (0, "1.13.2\n"))

    def test_installs_the_user_guide(self):
        for rel, source in (("share/doc/ronin/manual.md", "doc/manual.md"), ("share/doc/ronin/README.md", "README.md"),
                            ("share/doc/ronin/report-example.png", "doc/report-example.png")):
            with open(self.installed(rel), "rb") as installed, open(os.path.join(harness.REPO, source), "rb") as original:
                self.assertEqual(installed.read(), original.read(), rel)
        # The pictures the guide shows are beside it.
        with open(self.installed("share/doc/ronin/manual.md")) as f:
            for picture in re.findall(r"!\[[^]]*\]\(([^)]+)\)", f.read()):
                self.assertTrue(os.path.isfile(self.installed("share/doc/ronin/" + picture)), picture)

    def test_bash_completion_finds_the_installed_script(self):
        loader = "/usr/share/bash-completion/bash_completion"
        if not os.path.isfile(loader):
            self.skipTest("SKIPPED: bash-completion not installed (apt-get install bash-completion)")
        # bash-completion looks for completions/<command> under each
        # $XDG_DATA_DIRS entry, and loads it on the first Tab.
        script = ('source %s; __load_completion ninja && complete -p ninja; '
                  'COMP_WORDS=(ninja -t comp); COMP_CWORD=2; _ninja; echo "${COMPREPLY[@]}"' % loader)
        out = subprocess.run(["bash", "--norc", "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=self.prefix,
                             env=dict(os.environ, XDG_DATA_DIRS=self.installed("share"),
                                      PATH=self.installed("bin") + ":" + os.environ["PATH"]))
        self.assertEqual(out.stdout.decode(), "complete -F _ninja ninja\ncompdb compdb-targets\n",
                         out.stderr.decode())

    def test_man_page_is_lint_clean(self):
        require(self, "mandoc", "mandoc")
        page = self.installed("share/man/man1/ninja.1")
        out = subprocess.run(["mandoc", "-Tlint", "-W", "all", page],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.assertEqual((out.returncode, out.stdout.decode()), (0, ""))

    def test_man_page_has_a_name_line_for_whatis(self):
        require(self, "lexgrog", "man-db")
        out = check_output(["lexgrog", self.installed("share/man/man1/ninja.1")])
        self.assertIn('"ninja - a small build system', out)

    def test_man_renders_every_option_without_warnings(self):
        require(self, "man", "man-db")
        # --nh: no hyphenation, so that every word can be found whole.
        page = self.installed("share/man/man1/ninja.1")
        out = subprocess.run(["man", "--warnings", "--nh", "-l", page],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
        self.assertEqual((out.returncode, out.stderr.decode()), (0, ""))
        text = re.sub(r".\x08", "", out.stdout.decode())
        self.assertIn("RONIN OPTIONS", text)
        for option in long_options(harness.NINJA) + ["-C dir", "-t tool", "-d mode", "-w flag"]:
            self.assertIn(option, text)
        # Subtools, modes and warning flags are written by hand: a new one
        # must be added to doc/ninja.1.in too.
        for tool in list_names(harness.NINJA, "-t"):
            self.assertRegex(text, r"\n       %s\b" % re.escape(tool))
        for name in list_names(harness.NINJA, "-d") + list_names(harness.NINJA, "-w"):
            self.assertRegex(text, r"\b%s\b" % re.escape(name))

    def test_every_ronin_option_has_a_section_of_its_own(self):
        require(self, "man", "man-db")
        page = self.installed("share/man/man1/ninja.1")
        out = subprocess.run(["man", "--nh", "--nj", "-l", page], stdout=subprocess.PIPE,
                             env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
        text = re.sub(r".\x08", "", out.stdout.decode())
        section = text.split("RONIN OPTIONS", 1)[1].split("\nSUBTOOLS", 1)[0]
        # Each option's tag (indented 7), then its text (indented 14) up to the next tag.
        entries = []
        for line in section.splitlines():
            tag = re.match(r"^ {7}(--[a-z-]+)", line)
            if tag:
                entries.append((tag.group(1), ""))
            elif entries and line.startswith(" " * 14):
                entries[-1] = (entries[-1][0], entries[-1][1] + line + "\n")
        self.assertEqual([name for name, _ in entries], ronin_options(harness.NINJA))
        block = usage_text(harness.NINJA).split("\nronin options", 1)[1]
        help_words = {m.group(1): len(m.group(2).split()) for m in re.finditer(r"^  (--[a-z-]+)\S* +(.*)$", block, re.M)}
        for name, body in entries:
            self.assertGreater(len(body.split()), 2 * help_words[name], "%s has no more than its line of help:\n%s"
                               % (name, body))


FAKE_RONIN_OPTIONS = ("  --cache-size=SIZE         limit the cache; 4G or 512M\n"
                      "  --trace[=FILE]            write a trace (default .ninja_trace)\n"
                      "  --dots                    a \\ backslash and 'quotes'\n")


def write_fake_ninja(path):
    """A ninja whose -h lists ronin options that take values; anything else
    goes to the real binary."""
    with open(path, "w") as f:
        f.write("#!/bin/sh\nif [ \"$1\" = -h ]; then\n  cat >&2 <<'EOF'\nusage: ninja [options]\n\n"
                "ronin options (also read from the RONIN_FLAGS environment variable):\n"
                + FAKE_RONIN_OPTIONS + "EOF\n  exit 1\nfi\nexec %s \"$@\"\n" % harness.NINJA)
    os.chmod(path, 0o755)


class ManPageGeneratorTest(unittest.TestCase):
    """cmake/man-page.cmake on a stand-in ninja whose -h lists awkward options."""

    def test_options_with_values_and_roff_characters(self):
        require(self, "mandoc", "mandoc")
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "ninja")
            write_fake_ninja(fake)
            page = os.path.join(tmp, "ninja.1")
            check_output(["cmake", "-DNINJA=" + fake,
                          "-DINPUT=" + os.path.join(harness.REPO, "doc", "ninja.1.in"),
                          "-DOUTPUT=" + page, "-DVERSION=9.9", "-P",
                          os.path.join(harness.REPO, "cmake", "man-page.cmake")])
            with open(page) as f:
                roff = f.read()
            self.assertIn(".TP\n\\fB\\-\\-cache\\-size\\fR=\\fISIZE\\fR\nlimit the cache; 4G or 512M\n",
                          roff)
            self.assertIn("\\fB\\-\\-trace\\fR[=\\fIFILE\\fR]\n", roff)
            self.assertIn("a \\e backslash and 'quotes'", roff)
            self.assertNotIn("@", roff)
            lint = subprocess.run(["mandoc", "-Tlint", "-W", "all", page],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            self.assertEqual(lint.stdout.decode(), "")

    def generate(self, tmp, options_doc):
        fake = os.path.join(tmp, "ninja")
        write_fake_ninja(fake)
        doc = os.path.join(tmp, "options.roff")
        with open(doc, "w") as f:
            f.write(options_doc)
        return subprocess.run(["cmake", "-DNINJA=" + fake, "-DINPUT=" + os.path.join(harness.REPO, "doc", "ninja.1.in"),
                               "-DOUTPUT=" + os.path.join(tmp, "ninja.1"), "-DOPTIONS_DOC=" + doc, "-DVERSION=9.9",
                               "-P", os.path.join(harness.REPO, "cmake", "man-page.cmake")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)

    def test_an_option_gets_its_entry_of_the_options_document(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = self.generate(tmp, ".\\\" a comment\n.\\\" --cache-size\nThe limit.\n.IP\nMore; with a semicolon.\n")
            self.assertEqual(out.returncode, 0, out.stderr)
            with open(os.path.join(tmp, "ninja.1")) as f:
                roff = f.read()
            self.assertIn(".TP\n\\fB\\-\\-cache\\-size\\fR=\\fISIZE\\fR\nThe limit.\n.IP\nMore; with a semicolon.\n",
                          roff)
            self.assertIn("\\fB\\-\\-trace\\fR[=\\fIFILE\\fR]\nwrite a trace", roff)  # no entry: its help

    def test_an_entry_for_an_option_the_binary_lacks_fails_the_build(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = self.generate(tmp, ".\\\" --long-gone\nText.\n")
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("documents --long-gone", out.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "ninja.1")))

    def test_a_binary_without_ronin_options_fails_the_build(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(["cmake", "-DNINJA=/bin/true", "-DINPUT=/dev/null",
                                  "-DOUTPUT=" + os.path.join(tmp, "x"), "-P",
                                  os.path.join(harness.REPO, "cmake", "man-page.cmake")],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("printed no block of ronin options", out.stderr.decode())
            self.assertFalse(os.path.exists(os.path.join(tmp, "x")))


def cache_value(name):
    with open(os.path.join(BUILD_DIR, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    return None


@unittest.skipUnless(IS_CMAKE_BUILD, SKIP_NOT_CMAKE)
class DebPackageTest(unittest.TestCase):
    """`cpack -G DEB` of the build tree, checked with dpkg-deb and by running the
    packaged binary from a `dpkg -x` root."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="ronin-deb-")
        cls.deb = None
        if not shutil.which("dpkg-deb") or not cls.has_shlibdeps():
            return
        check_output(["cpack", "-G", "DEB", "--config", os.path.join(BUILD_DIR, "CPackConfig.cmake"),
                      "-B", cls.tmp.name])
        debs = [f for f in os.listdir(cls.tmp.name) if f.endswith(".deb")]
        cls.deb = os.path.join(cls.tmp.name, debs[0]) if len(debs) == 1 else debs

    @staticmethod
    def has_shlibdeps():
        """A dynamic binary's Depends come from dpkg-shlibdeps."""
        return is_static(harness.NINJA) or shutil.which("dpkg-shlibdeps")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        require(self, "dpkg-deb", "dpkg")
        if not self.has_shlibdeps():
            require(self, "dpkg-shlibdeps", "dpkg-dev")
        self.assertIsInstance(self.deb, str, "expected one .deb, got %r" % (self.deb,))

    def control(self):
        fields = {}
        for line in check_output(["dpkg-deb", "-f", self.deb]).splitlines():
            if line and not line.startswith(" "):
                name, value = line.split(":", 1)
                fields[name] = value.strip()
        return fields

    def test_file_name_has_package_version_and_architecture(self):
        arch = check_output(["dpkg", "--print-architecture"]).strip()
        self.assertEqual(os.path.basename(self.deb),
                         "ronin_%s_%s.deb" % (cache_value("CMAKE_PROJECT_VERSION"), arch))

    def test_stands_in_for_debians_ninja_build(self):
        fields = self.control()
        self.assertEqual(fields["Package"], "ronin")
        self.assertEqual(fields["Provides"], "ninja-build (= 1.13.2)")
        self.assertEqual(fields["Conflicts"], "ninja-build")
        self.assertEqual(fields["Replaces"], "ninja-build")
        info = check_output(["dpkg-deb", "-I", self.deb])
        self.assertIn(" Package: ronin\n", info)

    def test_a_real_description_and_maintainer(self):
        info = check_output(["dpkg-deb", "-f", self.deb, "Description", "Maintainer"])
        description = info.split("Maintainer:")[0]
        lines = description.splitlines()
        self.assertEqual(lines[0], "Description: fast build system, a drop-in replacement for Ninja 1.13.2")
        body = [line[1:] for line in lines[1:]]
        self.assertNotIn(lines[0].split(": ", 1)[1], body, "the summary is not repeated")
        self.assertEqual(body.count("."), 2, "paragraphs")
        for word in ("--content-hash", "--cache", "ninja-build", "user guide"):
            self.assertIn(word, description)
        maintainer = self.control()["Maintainer"]
        self.assertRegex(maintainer, r"^[^<>]+ <[^@<>]+@[^@<>]+\.[a-z]+>$")
        self.assertNotIn("localhost", maintainer)

    def test_depends_follow_how_the_binary_is_linked(self):
        fields = self.control()
        if is_static(harness.NINJA):
            self.assertNotIn("Depends", fields)
        else:
            self.assertRegex(fields.get("Depends", ""), r"(^|, )libc6 \(>= [0-9.]+\)")

    def test_contents(self):
        listing = check_output(["dpkg-deb", "-c", self.deb])
        files = sorted(re.findall(r"^-\S+ root/root +\d+ \S+ \S+ \./(\S+)$", listing, re.M))
        self.assertEqual(files, ["usr/bin/ninja",
                                 "usr/share/bash-completion/completions/ninja",
                                 "usr/share/doc/ronin/README.md",
                                 "usr/share/doc/ronin/copyright",
                                 "usr/share/doc/ronin/manual.md",
                                 "usr/share/doc/ronin/report-example.png",
                                 "usr/share/man/man1/ninja.1",
                                 "usr/share/zsh/site-functions/_ninja"])
        self.assertRegex(listing, r"(?m)^-rwxr-xr-x root/root .* \./usr/bin/ninja$")

    def test_extracted_binary_builds_the_example(self):
        root = os.path.join(self.tmp.name, "root")
        check_output(["dpkg", "-x", self.deb, root])
        ninja = os.path.join(root, "usr", "bin", "ninja")
        project = os.path.join(self.tmp.name, "hello")
        shutil.copytree(HELLO, project, ignore=shutil.ignore_patterns("out", "hello", ".ninja_*"))
        first = harness.run(ninja, [], cwd=project)
        self.assertEqual(first.returncode, 0, first)
        self.assertIn("[3/3]", first.stdout)
        self.assertEqual(check_output([os.path.join(project, "hello")]), "hello, ronin\n")
        again = harness.run(ninja, [], cwd=project)
        self.assertEqual((again.returncode, again.stdout), (0, "ninja: no work to do.\n"))


TARGETS_TREE = {"build.ninja": "rule cp\n  command = cp $in $out\n"
                               "build out/alpha.o: cp src.c\nbuild beta: cp src.c\n"
                               "build all-the-things: phony out/alpha.o beta\n",
                "src.c": ""}


class CompletionCase(unittest.TestCase):
    """Completes with the script in the source tree, run against $NINJA."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ronin-completion-")
        self.root = self.tmp.name
        self.bin = os.path.join(self.root, "bin")
        os.makedirs(self.bin)
        os.symlink(harness.NINJA, os.path.join(self.bin, "ninja"))
        harness.write_tree(os.path.join(self.root, "proj"), TARGETS_TREE)

    def tearDown(self):
        self.tmp.cleanup()

    def use_fake_ninja(self):
        os.unlink(os.path.join(self.bin, "ninja"))
        write_fake_ninja(os.path.join(self.bin, "ninja"))


class BashCompletionTest(CompletionCase):
    SCRIPT = os.path.join(harness.REPO, "misc", "completion", "ninja.bash")

    def complete(self, *words):
        """The words bash offers for the last of `words` (the word being typed)."""
        script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ninja; '
                  'printf "%s\\n" "${COMPREPLY[@]}"')
        out = subprocess.run(["bash", "--norc", "-c", script, "bash", self.SCRIPT, "ninja"] +
                             list(words), cwd=self.root, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE,
                             env=dict(os.environ, PATH=self.bin + ":" + os.environ["PATH"]))
        self.assertEqual(out.stderr.decode(), "")
        return sorted(filter(None, out.stdout.decode().split("\n")))

    def test_subtools_debug_modes_and_warning_flags(self):
        for flag in ("-t", "-d", "-w"):
            expected = sorted(list_names(harness.NINJA, flag))
            self.assertGreater(len(expected), 0)
            self.assertEqual(self.complete(flag, ""), expected)
        self.assertEqual(self.complete("-t", "comp"), ["compdb", "compdb-targets"])
        self.assertEqual(self.complete("-w", "phony"), ["phonycycle=err", "phonycycle=warn"])

    def test_options_include_ronin_long_options(self):
        offered = self.complete("-")
        for option in long_options(harness.NINJA) + ["-C", "-f", "-j", "-t", "-d", "-w"]:
            # Options that take a value are offered as "--name=".
            self.assertTrue(option in offered or option + "=" in offered, option)
        self.assertGreater(len(ronin_options(harness.NINJA)), 0)
        for option in ronin_options(harness.NINJA):
            self.assertIn(option, [o.rstrip("=") for o in self.complete("--")])

    def test_long_options_that_take_values(self):
        self.use_fake_ninja()
        self.assertEqual(self.complete("--"), ["--cache-size=", "--dots", "--trace"])
        self.assertEqual(self.complete("-t", "comp"), ["compdb", "compdb-targets"])

    def test_values_of_options_that_list_them(self):
        # bash splits "--progress=li" at '=' (COMP_WORDBREAKS), or not.
        self.assertEqual(self.complete("--progress", "=", ""), ["classic", "live"])
        self.assertEqual(self.complete("--progress", "=", "l"), ["live"])
        self.assertEqual(self.complete("--job-reaper", "=", ""), ["off", "on"])
        self.assertEqual(self.complete("--job-reaper=of"), ["--job-reaper=off"])
        self.assertEqual(self.complete("--progress", ""), ["classic", "live"])
        # A placeholder (SIZE, DIR|URL) has nothing to offer.
        self.assertNotIn("SIZE", self.complete("--cache-size", "=", ""))

    def test_targets_of_the_manifest_chosen_by_dash_c(self):
        self.assertEqual(self.complete("-C", "proj", ""),
                         ["all-the-things", "beta", "out/alpha.o"])
        self.assertEqual(self.complete("-C", "proj", "out/"), ["out/alpha.o"])
        self.assertEqual(self.complete("-C", "nowhere", ""), [])

    def test_dash_c_completes_directories(self):
        self.assertEqual(self.complete("-C", "pr"), ["proj"])


class ZshSession:
    """An interactive zsh on a pseudo-terminal with compinit and the completion
    function loaded; `complete(line)` types the line and a Tab and returns what
    the terminal shows."""

    def __init__(self, fpath_dir, path_dir, cwd):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 500, 200, 0, 0))
        env = {"PATH": path_dir + ":/usr/bin:/bin", "TERM": "dumb", "HOME": cwd, "ZDOTDIR": cwd}
        self.proc = subprocess.Popen(["zsh", "-f", "-i"], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=cwd, env=env, start_new_session=True)
        os.close(slave)
        self.master, self.pending, self.syncs = master, b"", 0
        self.type("PS1='> '; fpath=(%s $fpath); autoload -Uz compinit; compinit -u -D; "
                  "zstyle ':completion:*' list-prompt ''; LISTMAX=10000\n" % fpath_dir)
        self.sync()

    def type(self, text):
        os.write(self.master, text.encode())

    def read_until(self, token, timeout=30):
        deadline = time.time() + timeout
        while token not in self.pending:
            if time.time() > deadline:
                raise TimeoutError("zsh did not print %r: %r" % (token, self.pending[-400:]))
            if select.select([self.master], [], [], 0.2)[0]:
                self.pending += os.read(self.master, 65536)
        text, self.pending = self.pending.split(token, 1)
        return text.decode("utf-8", "replace")

    def sync(self):
        """Clears the line and waits for a marker and the next prompt (keys typed
        before zle is back would not complete), returning what came before."""
        self.syncs += 1
        self.type("\x15echo SYNC$((%d+1))\n" % (self.syncs * 1000))
        text = self.read_until(b"SYNC%d" % (self.syncs * 1000 + 1))
        self.read_until(b"> ")
        return text

    def complete(self, line):
        self.type(line + "\t")
        # The listing (or the completed word) comes before the marker's echo.
        return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", self.sync())

    def close(self):
        self.type("exit\n")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


class ZshCompletionTest(CompletionCase):
    def setUp(self):
        require(self, "zsh", "zsh")
        super().setUp()
        self.zsh = ZshSession(os.path.join(harness.REPO, "misc", "completion"), self.bin,
                              self.root)

    def tearDown(self):
        self.zsh.close()
        super().tearDown()

    def test_subtools_with_descriptions(self):
        shown = self.zsh.complete("ninja -t ")
        for tool in list_names(harness.NINJA, "-t"):
            self.assertRegex(shown, r"\n%s +-- \S" % re.escape(tool))

    def test_debug_modes_and_warning_flags(self):
        shown = self.zsh.complete("ninja -d ")
        for mode in list_names(harness.NINJA, "-d"):
            self.assertRegex(shown, r"\n%s +-- \S" % re.escape(mode))
        shown = self.zsh.complete("ninja -w phonycycle=")
        self.assertIn("phonycycle=err", shown)
        self.assertIn("phonycycle=warn", shown)

    def test_options_include_ronin_long_options(self):
        shown = self.zsh.complete("ninja -")
        for option in long_options(harness.NINJA) + ["-C", "-f", "-j", "-t", "-d", "-w"]:
            self.assertRegex(shown, r"\n%s\b" % re.escape(option))
        for option in ronin_options(harness.NINJA):
            self.assertRegex(shown, r"\n%s +-- \S" % re.escape(option))

    def test_long_options_that_take_values(self):
        self.use_fake_ninja()
        shown = self.zsh.complete("ninja --")
        self.assertRegex(shown, r"\n--cache-size +-- limit the cache; 4G or 512M")
        self.assertRegex(shown, r"\n--trace +-- write a trace \(default \.ninja_trace\)")
        self.assertRegex(shown, r"\n--dots +-- a \\ backslash and 'quotes'")
        self.assertIn("ninja --cache-size=", self.zsh.complete("ninja --ca"))

    def test_values_of_options_that_list_them(self):
        shown = self.zsh.complete("ninja --progress=")
        self.assertRegex(shown, r"\nclassic +live")
        self.assertIn("ninja --job-reaper=off ", self.zsh.complete("ninja --job-reaper=of"))

    def test_targets_of_the_manifest_chosen_by_dash_c(self):
        shown = self.zsh.complete("ninja -C proj ")
        self.assertRegex(shown, r"all-the-things +beta +out/alpha\.o *\r?\n")
        self.assertIn("ninja -C proj out/alpha.o ", self.zsh.complete("ninja -C proj out/"))


if __name__ == "__main__":
    unittest.main()
