#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/soak.py in miniature (4*10^6 samples, a retune every 2*10^5, new taps every
10^6), so that the soak's reference and counting stay right between GPU-host runs."""

import os
import subprocess
import sys

from gnuradio import gr_unittest

SOAK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                    "soak.py")


class qa_soak_smoke(gr_unittest.TestCase):
    def test_soak_smoke(self):
        run = subprocess.run([sys.executable, SOAK, "--samples", "4000003",
                              "--retune-every", "2e5", "--taps-every", "1e6",
                              "--checkpoint-every", "1e4"], capture_output=True,
                             text=True, timeout=300)
        print(run.stdout)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        for chain in ("xlating", "fir_chain", "channelizer"):
            self.assertIn(f"{chain}: PASS", run.stdout)


if __name__ == "__main__":
    gr_unittest.run(qa_soak_smoke)
