#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The whole-band FM receiver on a small generated band (2.4 MS/s, 12 channels):
every detected station's WAV correlates with its own audio and not with its
neighbours', empty channels and stations below the threshold give no WAV, weak
stations above it are received; the channelizer hands the channels to the bank in
device memory by default, with the same audio as through host memory;
gpufilter_fm_band_rx's default, --host-buffers and --cpu, and its errors (one
line). Without a GPU the receiver runs its CPU fallback (with GPUFILTER_REQUIRE_GPU=1
the default backend must be on the GPU)."""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import wave

import numpy as np
from gnuradio import blocks, gpufilter, gr, gr_unittest
from gnuradio.gpufilter import fm_band_receiver as br
from gnuradio.gpufilter import fm_wide_band as wb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpufilter_test_hooks as hooks  # noqa: E402
from gpu_test_support import GPU_REQUIRED, gpu_count  # noqa: E402
from qa_fm_receiver import MIN_CORRELATION, aligned_correlation  # noqa: E402

APP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "..", "apps", "gpufilter_fm_band_rx"))
RATE = 2.4e6
HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
S = wb.Station
STATIONS = [S(-1.0e6, 35, False), S(-800e3, 40, True), S(-400e3, 30, False),
            S(0.0, 38, True), S(200e3, wb.WEAK_DB, True), S(600e3, wb.FAINT_DB, False),
            S(1.0e6, 42, False)]
RECEIVED = [0, 1, 2, 3, 4, 6]   # the faint station is below the default threshold
MAX_CROSS = 0.2


def read_wav(path):
    with wave.open(path, "rb") as w:
        assert w.getframerate() == 48000 and w.getnchannels() == 1
        return np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32768.0


class qa_fm_band_receiver(gr_unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="qa_fm_band_receiver_")
        cls.band, cls.refs, _ = wb.band_loop(RATE, STATIONS, period=1.0, seed=5)
        cls.cf32 = os.path.join(cls.tmp, "band.cf32")
        cls.band.tofile(cls.cf32)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def check_station(self, y, k, what):
        corr = [aligned_correlation(y, r) for r in self.refs]
        self.assertGreaterEqual(corr[k], MIN_CORRELATION, (what, k, corr))
        others = [c for i, c in enumerate(corr) if i != k]
        self.assertLess(max(others), MAX_CROSS, (what, k, corr))

    def test_001_plan(self):
        p = br.band_plan(RATE)
        self.assertEqual((p.nchan, p.oversample, p.channel_rate, p.decim, p.resample),
                         (12, 2, 400e3, 5, (3, 5)))
        p = br.band_plan(20e6, 100e3)
        self.assertEqual((p.nchan, p.oversample, p.channel_rate), (200, 4, 400e3))
        self.assertEqual(br.band_plan(250e3, 250e3).channel_rate, 250e3)
        for rate, spacing in ((100e3, 200e3), (2.4e6, 250e3), (2.4e6, 0), (1e6, 2e6)):
            with self.subTest(rate=rate, spacing=spacing):
                with self.assertRaises(br.rx_error):
                    br.band_plan(rate, spacing)
        self.assertEqual(br.wav_name(300e3), "station_+300.wav")
        self.assertEqual(br.wav_name(-400e3), "station_-400.wav")

    def test_002_detection(self):
        p = br.band_plan(RATE)
        found, _, _, _ = br.find_stations(self.band[:int(0.2 * RATE)], p, 10.0)
        self.assertEqual(len(found), len(RECEIVED))
        self.assertEqual([s.pilot for s in found], [STATIONS[k].pilot for k in RECEIVED])
        for s, k in zip(found, RECEIVED):
            self.assertAlmostEqual(s.offset, STATIONS[k].offset, delta=1e3)
            self.assertAlmostEqual(s.snr_db, STATIONS[k].snr_db, delta=1.5)
            # On the grid: received on its own channel, unshifted.
            self.assertEqual(s.shift, 0.0)
            self.assertEqual(br.channel_offset(p, s.channel), STATIONS[k].offset)
        # A threshold above the weak station's SNR drops it, and only it.
        found, _, _, _ = br.find_stations(self.band[:int(0.2 * RATE)], p,
                                          wb.WEAK_DB + 4)
        self.assertEqual([round(s.offset, -3) for s in found],
                         [STATIONS[k].offset for k in RECEIVED if k != 4])

    def receive(self, p, chans, backend, device_buffers=None):
        """The receiver's outputs for the stations at `chans` (Hz); self.rx is the
        receiver, self.held the bytes of device buffers its flowgraph holds."""
        tb = gr.top_block()
        rx = br.band_receiver(p, chans, backend, device_buffers=device_buffers)
        sinks = [blocks.vector_sink_f() for _ in chans]
        tb.connect(blocks.vector_source_c(self.band, False), rx)
        for i, s in enumerate(sinks):
            tb.connect((rx, i), s)
        before = hooks.device_buffer_bytes()
        tb.run()
        self.rx, self.held = rx, hooks.device_buffer_bytes() - before
        if backend == "gpu" and GPU_REQUIRED:
            self.assertTrue(rx.on_gpu())
        return [np.array(s.data()) for s in sinks]

    def test_003_backends(self):
        p = br.band_plan(RATE)
        chans = [STATIONS[i].offset for i in RECEIVED]
        backends = ("gpu", "fallback", "cpu") if gpu_count() else ("fallback", "cpu")
        for backend in backends:
            with self.subTest(backend=backend):
                for y, k in zip(self.receive(p, chans, backend), RECEIVED):
                    self.assertGreater(len(y), 0.95 * 48000)
                    self.check_station(y, k, backend)

    def test_003_device_buffers(self):
        """Channelizer and demodulator bank hand the channels over in device memory
        (emulated in host memory without a GPU), by default and with
        device_buffers=True; device_buffers=False keeps them in host memory; the
        same audio every way, and the module's switch is left as it was."""
        p = br.band_plan(RATE)
        chans = [STATIONS[i].offset for i in RECEIVED]
        backend = "gpu" if gpu_count() else "fallback"
        self.assertTrue(gpufilter.get_device_buffers())   # the module's default
        hooks.emulate_device_buffers(not gpu_count())
        outs = {}
        try:
            for what in (None, True, False):
                outs[what] = self.receive(p, chans, backend, device_buffers=what)
                on = what is not False
                self.assertEqual(self.rx.device_buffers, on, what)
                if on:
                    self.assertGreater(self.held, 0, what)
                else:
                    self.assertLessEqual(self.held, 0, what)
                self.assertTrue(gpufilter.get_device_buffers(), what)
        finally:
            hooks.emulate_device_buffers(False)
        for what in (None, True):
            for a, b in zip(outs[what], outs[False]):
                self.assertEqual(len(a), len(b))
                self.assertGreater(len(a), 0.95 * 48000)
                np.testing.assert_allclose(a, b, rtol=0, atol=1e-5)
        for y, k in zip(outs[None], RECEIVED):
            self.check_station(y, k, "device buffers")

    def run_app(self, *args):
        return subprocess.run([sys.executable, APP, *args], capture_output=True,
                              text=True, timeout=300)

    def test_004_app(self):
        """The default receiver (device buffers), --host-buffers and --cpu: the same
        WAVs, and the receiver line says which buffers ran."""
        for name, flags in (("gpu", []), ("hostbuf", ["--host-buffers"]),
                            ("cpu", ["--cpu"])):
            cpu = name == "cpu"
            out = os.path.join(self.tmp, name)
            plot = os.path.join(self.tmp, "band.png")
            run = self.run_app("--input", self.cf32, "--rate", str(RATE), "--out", out,
                               "--progress", "0", "--plot", plot, *flags)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            print(run.stdout)
            if GPU_REQUIRED and not cpu:
                self.assertIn("receiver: gr-gpufilter on ", run.stdout)
                self.assertNotIn("fallback", run.stdout)
            receiver = next(line for line in run.stdout.splitlines()
                            if line.startswith("receiver: "))
            if cpu:
                self.assertNotIn("buffers", receiver)
            elif gpu_count():
                self.assertIn("device buffers from the channelizer to the bank"
                              if name == "gpu" else "host buffers (--host-buffers)",
                              receiver)
            else:
                self.assertIn("CPU fallback", receiver)
                self.assertEqual("device buffers unused there" in receiver,
                                 name == "gpu", receiver)
            if HAVE_MATPLOTLIB:
                self.assertTrue(os.path.isfile(plot))
            else:  # the receiver says so and carries on
                self.assertIn("no plot: matplotlib is not installed", run.stdout)
            names = sorted(os.listdir(out))
            self.assertEqual(names, sorted(br.wav_name(STATIONS[k].offset)
                                           for k in RECEIVED))
            for k in RECEIVED:
                y = read_wav(os.path.join(out, br.wav_name(STATIONS[k].offset)))
                self.check_station(y, k, ("app", name))
            self.assertIn("+200", run.stdout)   # the table

    def test_005_builtin_band(self):
        out = os.path.join(self.tmp, "builtin")
        run = self.run_app("--rate", "3.2e6", "--seconds", "0.5", "--stations", "8",
                           "--out", out, "--progress", "0.2")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        stations = wb.make_stations(3.2e6, 200e3, 8, 0)
        want = sorted(br.wav_name(s.offset) for s in stations if s.snr_db > 10)
        self.assertEqual(sorted(os.listdir(out)), want)

    def test_006_errors(self):
        missing = os.path.join(self.tmp, "missing.cf32")
        cases = [
            (["--input", missing, "--rate", "2.4e6"], "does not exist"),
            (["--input", self.cf32, "--rate", "2.4e6", "--format", "cs8"],
             "unknown format 'cs8'"),
            (["--input", self.cf32], "--rate is required"),
            (["--input", self.cf32, "--rate", "2.4e6", "--spacing", "250e3"],
             "does not divide the rate"),
            (["--input", self.cf32, "--rate", "100e3"], "too low for one FM channel"),
            (["--rate", "2.4e6", "--stations", "50"], "holds at most"),
            (["--rate", "nan"], "--rate: must be a finite number"),
            (["--spacing", "0"], "--spacing: 0 is out of range"),
            (["--format", "cu8"], "--format applies to --input only"),
            (["--cpu", "--host-buffers"],
             "--host-buffers applies to the GPU receiver, not to --cpu"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                run = self.run_app(*args, "--out", os.path.join(self.tmp, "err"))
                self.assertEqual(run.returncode, 2, (args, run.stdout, run.stderr))
                self.assertIn(message, run.stderr)
                self.assertEqual(len(run.stderr.strip().splitlines()), 1, run.stderr)


if __name__ == "__main__":
    gr_unittest.run(qa_fm_band_receiver)
