#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.freq_xlating_fft_filter_ccc against gr-filter's on random data (several
decimations, centre frequencies, real and complex taps, set_center_freq and set_taps
before and during a run), and gr-filter's own QA tests for it with filter. ->
gpufilter."""

import cmath
import math
import time

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import GPU_REQUIRED, gated_source, random_samples, relative_error

TOLERANCE = 2e-5


# gr-filter's qa_freq_xlating_fft_filter.py (GNU Radio 3.10.5), filter. -> gpufilter.
def fir_filter(x, taps, decim=1):
    y = []
    x2 = (len(taps) - 1) * [0, ] + x
    for i in range(0, len(x), decim):
        yi = 0
        for j in range(len(taps)):
            yi += taps[len(taps) - 1 - j] * x2[i + j]
        y.append(yi)
    return y


def sig_source_c(samp_rate, freq, amp, N):
    t = [float(x) / samp_rate for x in range(N)]
    y = [math.cos(2. * math.pi * freq * x) +
         1j * math.sin(2. * math.pi * freq * x) for x in t]
    return y


def mix(lo, data):
    y = [lo_i * data_i for lo_i, data_i in zip(lo, data)]
    return y


class test_freq_xlating_filter(gr_unittest.TestCase):
    def setUp(self):
        self.tb = gr.top_block()

    def tearDown(self):
        self.tb = None

    def generate_ccf_source(self):
        self.fs = fs = 1
        self.fc = fc = 0.3
        self.bw = bw = 0.1
        self.taps = filter.firdes.low_pass(1, fs, bw, bw / 4)
        times = list(range(1024))
        self.src_data = [
            cmath.exp(-2j * cmath.pi * fc / fs * (t / 100.0)) for t in times]

    def generate_ccc_source(self):
        self.fs = fs = 1
        self.fc = fc = 0.3
        self.bw = bw = 0.1
        self.taps = filter.firdes.complex_band_pass(
            1, fs, -bw / 2, bw / 2, bw / 4)
        times = list(range(1024))
        self.src_data = [
            cmath.exp(-2j * cmath.pi * fc / fs * (t / 100.0)) for t in times]

    def assert_fft_ok(self, expected_result, result_data):
        expected_result = expected_result[:len(result_data)]
        self.assertComplexTuplesAlmostEqual(expected_result, result_data,
                                            places=5)

    def check(self, decim):
        lo = sig_source_c(self.fs, -self.fc, 1, len(self.src_data))
        despun = mix(lo, self.src_data)
        expected_data = fir_filter(despun, self.taps, decim)
        src = blocks.vector_source_c(self.src_data)
        op = gpufilter.freq_xlating_fft_filter_ccc(decim, self.taps, self.fc, self.fs)
        dst = blocks.vector_sink_c()
        self.tb.connect(src, op, dst)
        self.tb.run()
        self.assert_fft_ok(expected_data, dst.data())

    def test_fft_filter_ccf_001(self):
        self.generate_ccf_source()
        self.check(1)

    def test_fft_filter_ccf_002(self):
        self.generate_ccf_source()
        self.check(4)

    def test_fft_filter_ccc_001(self):
        self.generate_ccc_source()
        self.check(1)

    def test_fft_filter_ccc_002(self):
        self.generate_ccc_source()
        self.check(4)


class qa_freq_xlating_fft_filter(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(7)

    def taps(self, n, complex_taps):
        return random_samples(self.rng, n, complex_taps).tolist()

    def compare(self, got, want, what):
        got, want = np.asarray(got), np.asarray(want)
        # gr-filter's FFT filter leaves out the outputs that do not fill its FFT block
        self.assertGreaterEqual(len(got), len(want), what)
        self.assertGreater(len(want), 100, what)
        err = relative_error(got[:len(want)], want)
        self.assertLess(err, TOLERANCE, f"{what}: relative error {err:.3g}")

    def run_both(self, x, args, before=None, **gpu_options):
        ours = gpufilter.freq_xlating_fft_filter_ccc(*args, **gpu_options)
        theirs = filter.freq_xlating_fft_filter_ccc(*args)
        for blk in (ours, theirs):
            if before:
                before(blk)
        tb = gr.top_block()
        src = blocks.vector_source_c(x)
        got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
        tb.connect(src, ours, got)
        tb.connect(src, theirs, want)
        tb.run()
        if GPU_REQUIRED and gpu_options.get("device") != gpufilter.device_cpu:
            self.assertTrue(ours.on_gpu())
        self.assertEqual(len(got.data()), len(x) // args[0])
        return got.data(), want.data()

    def test_001_decimations_and_center_freqs(self):
        x = random_samples(self.rng, 40000, True)
        fs = 250e3
        for decim in (1, 2, 3, 4, 5, 7, 10):
            for fc, ntaps, complex_taps in ((31.25e3, 63, False), (-87.1e3, 200, True),
                                            (0.0, 17, False), (124e3, 128, True)):
                with self.subTest(decim=decim, fc=fc, ntaps=ntaps):
                    args = (decim, self.taps(ntaps, complex_taps), fc, fs)
                    got, want = self.run_both(x, args)
                    self.compare(got, want, f"decim {decim} fc {fc}")

    def test_002_methods_and_cpu(self):
        x = random_samples(self.rng, 20000, True)
        args = (3, self.taps(101, True), -20e3, 100e3)
        for options in (dict(method="direct"),
                        dict(method=gpufilter.filter_method.automatic),
                        dict(device=gpufilter.device_cpu), dict(batch_size=1000)):
            with self.subTest(**{k: str(v) for k, v in options.items()}):
                got, want = self.run_both(x, args, **options)
                self.compare(got, want, str(options))

    def test_003_setters_before_run(self):
        x = random_samples(self.rng, 30000, True)
        args = (4, self.taps(64, True), 10e3, 100e3)
        new_taps = self.taps(64, False)
        for name, act in (("set_center_freq", lambda b: b.set_center_freq(-33.3e3)),
                          ("set_taps", lambda b: b.set_taps(new_taps)),
                          ("set_nthreads", lambda b: b.set_nthreads(2))):
            with self.subTest(setter=name):
                got, want = self.run_both(x, args, before=act)
                self.compare(got, want, name)

    def test_004_set_center_freq_while_running(self):
        """A retune mid-stream, at a point where both have produced the same outputs
        (gr-filter's FFT filter gives whole FFT blocks of 128 - 64 + 1 outputs): the
        rotator keeps its phase and steps by the new frequency, as gr-filter's."""
        decim, ntaps, fs = 3, 64, 100e3
        first = decim * 65 * 40
        x = random_samples(self.rng, first + 30000, True)
        args = (decim, self.taps(ntaps, True), 12e3, fs)
        for retune in (-27e3, 12e3 + 1.0, 49e3):
            with self.subTest(retune=retune):
                ours = gpufilter.freq_xlating_fft_filter_ccc(*args)
                theirs = filter.freq_xlating_fft_filter_ccc(*args)
                tb = gr.top_block()
                src = gated_source(x, first)
                got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
                tb.connect(src, ours, got)
                tb.connect(src, theirs, want)
                tb.start()
                deadline = time.time() + 30
                while time.time() < deadline and not (
                        len(got.data()) == len(want.data()) == first // decim):
                    time.sleep(0.002)
                self.assertEqual(len(want.data()), first // decim)
                self.assertEqual(len(got.data()), first // decim)
                for blk in (ours, theirs):
                    blk.set_center_freq(retune)
                src.release()
                tb.wait()
                got, want = np.asarray(got.data()), np.asarray(want.data())
                k = first // decim
                self.compare(got[:k], want[:k], "before the retune")
                # gr-filter's FFT filter restarts its overlap tail on new taps, so its
                # outputs after a retune whose taps reach back before it (about
                # (ntaps-1)/decim) filter zeros for the past input; ours keeps the
                # past input (as fir_filter). After those the two agree.
                self.compare(got[k + ntaps:], want[k + ntaps:], "after the retune")
                self.assertEqual(ours.center_freq, retune)

    def test_005_gr_filter_attributes_and_options(self):
        taps = self.taps(11, True)
        blk = gpufilter.freq_xlating_fft_filter_ccc(2, taps, 1e3, 8e3,
                                                    device=gpufilter.device_cpu,
                                                    max_latency=0.02)
        self.assertEqual((blk.decim, blk.taps, blk.center_freq, blk.samp_rate),
                         (2, taps, 1e3, 8e3))
        self.assertFalse(blk.on_gpu())
        self.assertAlmostEqual(blk.max_latency(), 0.02)
        blk.set_nthreads(3)
        self.assertEqual(blk.nthreads(), 3)
        blk.declare_sample_delay(5)
        blk.set_max_latency(0.0)
        self.assertEqual(blk.max_latency(), 0.0)

    def test_006_bad_arguments(self):
        for call, name in (
                (lambda: gpufilter.freq_xlating_fft_filter_ccc(0, [1.0], 0, 1),
                 "decimation"),
                (lambda: gpufilter.freq_xlating_fft_filter_ccc(1, [], 0, 1), "taps"),
                (lambda: gpufilter.freq_xlating_fft_filter_ccc(1, [1.0], 0, 0),
                 "samp_rate")):
            with self.subTest(parameter=name):
                with self.assertRaises(ValueError) as raised:
                    call()
                self.assertIn(name, str(raised.exception))


if __name__ == "__main__":
    gr_unittest.main()
