"""A short run of the chaos soak (chaos_soak.py; run it by hand for long soaks)."""

import os
import subprocess
import sys
import unittest

import harness

HERE = os.path.dirname(os.path.abspath(__file__))


@unittest.skipUnless(harness.REF_NINJA, harness.SKIP_NO_REF)
class ChaosSoakTest(unittest.TestCase):

    def test_thirty_rounds(self):
        r = subprocess.run([sys.executable, os.path.join(HERE, "chaos_soak.py"), "--rounds", "30", "--seed", "7"],
                           env=harness.base_env({"NINJA": harness.NINJA}), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, timeout=900)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("30 rounds", r.stdout)


if __name__ == "__main__":
    unittest.main()
