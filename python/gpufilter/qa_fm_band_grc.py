#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""apps/fm_band_receiver.grc: grcc compiles it against this module's grc/ blocks, and
the generated script runs to its end and writes one WAV per station, each with its
own station's audio."""

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

FLOWGRAPH = os.path.join(ROOT, "apps", "fm_band_receiver.grc")
STATIONS = (-600e3, -200e3, 400e3, 800e3)   # as set in the .grc


class qa_fm_band_grc(grcc_test_case):
    def test_001_compile_and_run(self):
        script, _ = self.compile(FLOWGRAPH, [
            "fm_band_source(", "gpufilter.pfb_channelizer_vcf(",
            "gpufilter.fm_demod_bank_vcf(", "blocks.vector_to_streams("])
        prefix = os.path.join(self.tmp, "station")
        run = subprocess.run([sys.executable, script, "--out", prefix, "--seconds", "1"],
                             capture_output=True, text=True, timeout=180)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        _, refs, _ = fm_band.band_references(2.4e6, STATIONS, pilot=True, seed=0,
                                             period=2.0)
        for k, f in enumerate(STATIONS):
            with wave.open(f"{prefix}_{round(f / 1e3):+d}.wav", "rb") as w:
                self.assertEqual(w.getframerate(), 48000)
                self.assertGreater(w.getnframes(), 47000)
                y = np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32768.0
            corr = [aligned_correlation(y, r) for r in refs]
            print(f"fm_band_receiver.grc at {f / 1e3:+g} kHz: correlation "
                  + " ".join(f"{c:.3f}" for c in corr))
            self.assertGreaterEqual(corr[k], MIN_CORRELATION)
            self.assertLess(max(c for i, c in enumerate(corr) if i != k), 0.5)


if __name__ == "__main__":
    gr_unittest.run(qa_fm_band_grc)
