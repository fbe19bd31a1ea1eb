#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The whole-band FM receiver finds stations wherever they are: on and off the channel
grid (25 and 50 kHz off, half a channel off), 200 kHz apart, a weak station beside a
strong one; each is found once (never its own sidebands as a neighbour), at its
frequency (within 1 kHz) with its SNR, and received with its own audio (correlation
against the transmitted audio, not only a count); a band of noise gives no station and
a clear message. Without a GPU the receiver runs its CPU fallback (with
GPUFILTER_REQUIRE_GPU=1 the default backend must be on the GPU)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio.gpufilter import fm_band
from gnuradio.gpufilter import fm_band_receiver as br
from gnuradio.gpufilter import fm_wide_band as wb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_test_support import GPU_REQUIRED, gpu_count  # noqa: E402
from qa_fm_band_receiver import APP, read_wav  # noqa: E402
from qa_fm_receiver import MIN_CORRELATION, aligned_correlation  # noqa: E402

RATE = 2.4e6
S = wb.Station
MAX_CROSS = 0.2
FREQUENCY_TOLERANCE = 1e3
SNR_TOLERANCE = 1.5
# On the 200 kHz grid, 50, 25 and 0 kHz off it; 250 and 450 kHz are 200 kHz apart.
OFF_GRID = [S(-950e3, 30, False), S(-575e3, 35, True), S(-225e3, 30, False),
            S(0.0, 38, False), S(250e3, 33, True), S(450e3, 30, False),
            S(800e3, 40, False)]
# A weak station (16 dB) 200 kHz beside a strong one (45 dB), both half a channel off
# the grid, and another 225 kHz beside a strong one, 25 kHz off the grid.
STRONG_WEAK = [S(-300e3, 45, False), S(-100e3, wb.WEAK_DB, False),
               S(400e3, 42, False), S(625e3, wb.WEAK_DB, True)]


def backend():
    return "gpu" if gpu_count() else "fallback"


class qa_fm_band_stations(gr_unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="qa_fm_band_stations_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def check_found(self, found, want, what):
        """Each true station (offset, snr_db or None) found once, in order."""
        self.assertEqual(len(found), len(want),
                         (what, [round(s.offset) for s in found], want))
        for s, (f, snr) in zip(found, want):
            print(f"{what}: {f / 1e3:+g} kHz found at {s.offset / 1e3:+.2f} kHz, "
                  f"SNR {s.snr_db:.1f} dB, channel "
                  f"{br.channel_offset(self.plan, s.channel) / 1e3:+g} kHz, shift "
                  f"{s.shift / 1e3:+.2f} kHz")
            self.assertLess(abs(s.offset - f), FREQUENCY_TOLERANCE, (what, f, s))
            if snr is not None:
                self.assertLess(abs(s.snr_db - snr), SNR_TOLERANCE, (what, f, s))
            # The station sits at its channel's centre once the band is shifted.
            centre = br.channel_offset(self.plan, s.channel) + s.shift
            self.assertLess(abs(((s.offset - centre) + RATE / 2) % RATE - RATE / 2),
                            3e3, (what, f, s))

    def receive(self, band, p, stations, backend_name):
        tb = gr.top_block()
        rx = br.band_receiver(p, stations, backend_name)
        sinks = [blocks.vector_sink_f() for _ in stations]
        tb.connect(blocks.vector_source_c(band, False), rx)
        for i, s in enumerate(sinks):
            tb.connect((rx, i), s)
        tb.run()
        if backend_name == "gpu" and GPU_REQUIRED:
            self.assertTrue(rx.on_gpu())
        self.rx = rx
        return [np.array(s.data()) for s in sinks]

    def check_audio(self, outs, refs, what):
        for k, y in enumerate(outs):
            corr = [aligned_correlation(y, r) for r in refs]
            print(f"{what}: station {k} correlation " + " ".join(f"{c:.3f}" for c in corr))
            self.assertGreater(len(y), 0.95 * 48000, (what, k))
            self.assertGreaterEqual(corr[k], MIN_CORRELATION, (what, k, corr))
            self.assertLess(max(c for i, c in enumerate(corr) if i != k), MAX_CROSS,
                            (what, k, corr))

    def band_case(self, stations, seed, what, spacing=200e3, backends=None):
        band, refs, _ = wb.band_loop(RATE, stations, period=1.0, seed=seed)
        self.plan = p = br.band_plan(RATE, spacing)
        found = br.find_stations(band[:int(br.ANALYSIS_SECONDS * RATE)], p)[0]
        self.check_found(found, [(s.offset, s.snr_db) for s in stations], what)
        for name in backends or (backend(),):
            self.check_audio(self.receive(band, p, found, name), refs, (what, name))
        return found

    def test_001_off_grid(self):
        found = self.band_case(OFF_GRID, 3, "off grid")
        # One channelizer per distinct offset from the grid: 0, +50, +25, -25 kHz.
        self.assertEqual(len(self.rx.tunings), 4)
        for s, st in zip(found, OFF_GRID):
            if st.offset % 200e3 == 0:
                self.assertEqual(s.shift, 0.0, st)

    def test_002_off_grid_gr_filter(self):
        """The same through gr-filter's and gr-analog's blocks (--cpu)."""
        self.band_case(OFF_GRID[:4], 3, "off grid, gr-filter", backends=("cpu",))

    def test_003_strong_beside_weak(self):
        self.band_case(STRONG_WEAK, 4, "strong beside weak")

    def test_004_finer_grid(self):
        """On a 100 kHz grid, stations 50 kHz off it and 200 kHz apart."""
        stations = [S(-650e3, 32, False), S(-450e3, 30, True), S(150e3, 36, False)]
        self.band_case(stations, 6, "100 kHz grid", spacing=100e3)

    def test_005_tone_band_half_channel_off(self):
        """gpufilter_fm_rx's band (tones and sweeps, stations at -600, -200, +300 and
        +700 kHz): the two stations half a channel off the 200 kHz grid are found and
        received once each, whole; and a 1.2 MS/s band of two stations on a 100 kHz grid
        gives two stations, not their sidebands as four more."""
        for rate, stations, spacing in ((RATE, fm_band.DEFAULT_STATIONS, 200e3),
                                        (1.2e6, (300e3, -400e3), 100e3)):
            with self.subTest(rate=rate):
                x, refs = fm_band.band_samples(1.0, rate, stations, snr_db=30.0)
                self.plan = p = br.band_plan(rate, spacing)
                found = br.find_stations(x[:int(br.ANALYSIS_SECONDS * rate)], p)[0]
                order = np.argsort(stations)
                self.check_found(found, [(stations[k], 30.0) for k in order],
                                 ("tones", rate))
                outs = self.receive(x, p, found, backend())
                self.check_audio(outs, [refs[k] for k in order], ("tones", rate))

    def test_006_noise_only(self):
        band, _, _ = wb.band_loop(RATE, [], period=0.5, seed=7)
        p = br.band_plan(RATE)
        head = band[:int(br.ANALYSIS_SECONDS * RATE)]
        self.assertEqual(br.find_stations(head, p)[0], [])
        with self.assertRaisesRegex(br.rx_error, "no station stands 10 dB above"):
            br.band_receiver(p, head=head)
        path = os.path.join(self.tmp, "noise.cf32")
        band.tofile(path)
        out = os.path.join(self.tmp, "noise_out")
        run = subprocess.run([sys.executable, APP, "--input", path, "--rate", str(RATE),
                              "--out", out, "--progress", "0"],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("no station found: nothing stands 10 dB above the noise floor",
                      run.stdout)
        self.assertFalse(os.path.exists(out) and os.listdir(out))

    def test_007_threshold(self):
        """The threshold: a constructor argument of band_receiver (which then finds the
        stations itself) and the app's --threshold-db."""
        band, refs, _ = wb.band_loop(RATE, STRONG_WEAK, period=1.0, seed=4)
        p = br.band_plan(RATE)
        head = band[:int(br.ANALYSIS_SECONDS * RATE)]
        for threshold, want in ((10.0, [0, 1, 2, 3]), (wb.WEAK_DB + 4, [0, 2])):
            with self.subTest(threshold=threshold):
                rx = br.band_receiver(p, head=head, threshold_db=threshold,
                                      backend="fallback")
                self.assertEqual(len(rx.stations), len(want))
                for s, k in zip(rx.stations, want):
                    self.assertLess(abs(s.offset - STRONG_WEAK[k].offset),
                                    FREQUENCY_TOLERANCE)
        path = os.path.join(self.tmp, "strong_weak.cf32")
        band.tofile(path)
        out = os.path.join(self.tmp, "strong_weak_out")
        run = subprocess.run([sys.executable, APP, "--input", path, "--rate", str(RATE),
                              "--out", out, "--progress", "0", "--threshold-db", "25"],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        print(run.stdout)
        self.assertEqual(sorted(os.listdir(out)),
                         sorted(br.wav_name(STRONG_WEAK[k].offset) for k in (0, 2)))
        listed = re.findall(r"station at ([-+0-9.]+) kHz, SNR ([0-9.]+) dB", run.stdout)
        self.assertEqual(len(listed), 2, run.stdout)
        for (f, snr), k in zip(listed, (0, 2)):
            self.assertLess(abs(float(f) * 1e3 - STRONG_WEAK[k].offset),
                            FREQUENCY_TOLERANCE)
            self.assertLess(abs(float(snr) - STRONG_WEAK[k].snr_db), SNR_TOLERANCE)
        self.assertIn("after a shift of", run.stdout)   # -300 kHz is off the grid
        for k in (0, 2):
            y = read_wav(os.path.join(out, br.wav_name(STRONG_WEAK[k].offset)))
            self.assertGreaterEqual(aligned_correlation(y, refs[k]), MIN_CORRELATION)


if __name__ == "__main__":
    gr_unittest.run(qa_fm_band_stations)
