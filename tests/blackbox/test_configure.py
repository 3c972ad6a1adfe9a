"""configure.py, the build without CMake: its --bootstrap (the README's quick
start) shows a status line per step while it compiles the first ronin, not
one line for two minutes."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import harness

# A compiler that only writes what it is asked for: a .o, or for the link a
# "ninja" that does nothing, so the bootstrap's steps take no time.
FAKE_CXX = """#!/bin/sh
while [ $# -gt 0 ]; do
  [ "$1" = -o ] && out=$2
  shift
done
printf '#!/bin/sh\\nexit 0\\n' > "$out"
chmod +x "$out"
"""


class BootstrapTest(unittest.TestCase):
    def test_progress_of_every_step(self):
        with tempfile.TemporaryDirectory(prefix="ronin-configure-") as root:
            shutil.copy(os.path.join(harness.REPO, "configure.py"), root)
            shutil.copytree(os.path.join(harness.REPO, "src"), os.path.join(root, "src"))
            cxx = os.path.join(root, "fake-c++")
            with open(cxx, "w") as f:
                f.write(FAKE_CXX)
            os.chmod(cxx, 0o755)
            r = subprocess.run([sys.executable, "configure.py", "--bootstrap", "--cxx", cxx, "--ldflags="],
                               cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(root, "src", "sources.txt")) as f:
                sources = [line.split("#")[0].strip() for line in f]
            # A platform pair's Windows file is not built on POSIX (configure.py).
            sources = [s for s in sources if s and s != "[cold]" and not s.endswith("_win.cc")]
            count = len(sources) + 1  # and main.cc
            steps = re.findall(r"^\[(\d+)/(\d+)\] (CXX src/\S+|LINK out/bootstrap/ninja)$", r.stdout, re.M)
            self.assertEqual([int(n) for n, _, _ in steps], list(range(1, count + 2)), r.stdout)
            self.assertEqual({int(total) for _, total, _ in steps}, {count + 1})
            self.assertEqual(steps[-1][2], "LINK out/bootstrap/ninja")
            self.assertEqual(sorted(text for _, _, text in steps[:-1]),
                             sorted("CXX src/" + s for s in ["main.cc"] + sources))


if __name__ == "__main__":
    unittest.main()
