"""The source of fmt 9.1.0, a real CMake project with tests, for tests that
want more than a tree they write themselves.

It comes from Debian's source package (`apt-get source fmtlib`: the
upstream tarball with Debian's patches, which build the tests against the
system's GoogleTest), unpacked once into a cache directory and reused:
$RONIN_FMT_DIR, else $XDG_CACHE_HOME/ronin-fmt or ~/.cache/ronin-fmt.
Fetching it needs `deb-src` entries in apt's sources (misc/deps.sh's
deps_enable_sources adds them) and dpkg-dev. When it cannot be had, the
tests that use it are skipped with the reason (a failure under CI).
"""

import glob
import os
import shutil
import subprocess
import unittest

PACKAGE = "fmtlib"
_SKIP = ("SKIPPED: fmt's source could not be fetched (%s); enable deb-src entries "
         "(misc/deps.sh: deps_enable_sources) and install dpkg-dev")


def _cache_dir():
    if os.environ.get("RONIN_FMT_DIR"):
        return os.environ["RONIN_FMT_DIR"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "ronin-fmt")


def _fetch(cache):
    """Downloads and unpacks the source package into cache/src. Returns
    None, or why it could not."""
    download = os.path.join(cache, "download")
    os.makedirs(download, exist_ok=True)
    if not shutil.which("apt-get") or not shutil.which("dpkg-source"):
        return "apt-get or dpkg-source not installed"
    r = subprocess.run(["apt-get", "source", "--download-only", PACKAGE], cwd=download,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
    dsc = sorted(glob.glob(os.path.join(download, PACKAGE + "_*.dsc")))
    if not dsc:
        return "apt-get source: " + r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "no .dsc"
    staging = os.path.join(cache, "src.new")
    shutil.rmtree(staging, ignore_errors=True)
    r = subprocess.run(["dpkg-source", "--no-check", "-x", dsc[-1], staging], cwd=download,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
    if r.returncode != 0:
        return "dpkg-source: " + r.stdout.strip()[-300:]
    os.rename(staging, os.path.join(cache, "src"))
    return None


def fmt_source():
    """The unpacked tree (with CMakeLists.txt), or raises unittest.SkipTest."""
    cache = _cache_dir()
    tree = os.path.join(cache, "src")
    if not os.path.exists(os.path.join(tree, "CMakeLists.txt")):
        why = _fetch(cache)
        if why:
            raise unittest.SkipTest(_SKIP % why)
    return tree


def copy_fmt_source(destination):
    """A private copy of the tree at `destination` (tests touch its files)."""
    shutil.copytree(fmt_source(), destination, ignore=shutil.ignore_patterns("debian", ".pc"))
    return destination
