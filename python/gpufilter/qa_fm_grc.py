#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""apps/fm_receiver.grc: grcc compiles it against this module's grc/ blocks, and the
generated script runs to its end and writes the station's audio."""

import os
import subprocess
import sys
import wave

import numpy as np
from gnuradio import gr_unittest
from gnuradio.gpufilter import fm_band

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grcc_support import ROOT, grcc_test_case  # noqa: E402
from qa_fm_receiver import MIN_CORRELATION, aligned_correlation  # noqa: E402

FLOWGRAPH = os.path.join(ROOT, "apps", "fm_receiver.grc")


class qa_fm_grc(grcc_test_case):
    def test_001_compile_and_run(self):
        script, _ = self.compile(FLOWGRAPH, [
            "fm_band_source(", "gpufilter.freq_xlating_fir_filter_ccc(",
            "gpufilter.hilbert_fc(", "gpufilter.fir_filter_fff("])
        out = os.path.join(self.tmp, "fm.wav")
        # The flowgraph ends by itself (head); the timeout only guards a hang.
        run = subprocess.run([sys.executable, script, "--out", out, "--seconds", "1",
                              "--offset=-200e3"], capture_output=True, text=True,
                             timeout=180)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        with wave.open(out, "rb") as w:
            self.assertEqual((w.getframerate(), w.getnframes()), (48000, 48000))
            y = np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32768.0
        # The flowgraph's band: the block's defaults as set in the .grc.
        _, refs, _ = fm_band.band_references(2.4e6, (-600e3, -200e3, 300e3, 700e3),
                                             pilot=True, seed=0, period=2.0)
        corr = [aligned_correlation(y, r) for r in refs]
        print("fm_receiver.grc at -200 kHz: correlation " + " ".join(f"{c:.3f}" for c in corr))
        self.assertGreaterEqual(corr[1], MIN_CORRELATION)


if __name__ == "__main__":
    gr_unittest.run(qa_fm_grc)
