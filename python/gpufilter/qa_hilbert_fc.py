#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.hilbert_fc against gnuradio.filter.hilbert_fc and a float64 model."""

import numpy as np
import pmt
from gnuradio import blocks, fft, filter, gpufilter, gr, gr_unittest

from gpu_test_support import (gpu_count, relative_error, run_side_by_side,
                              skip_without_gpu)

TOLERANCE = 1e-5
WINDOWS = (  # (window, param) as a flowgraph would pass them
    (fft.window.WIN_HAMMING, 6.76),
    (fft.window.WIN_KAISER, 3.0),
    (fft.window.WIN_RECTANGULAR, 6.76),
    (fft.window.WIN_BLACKMAN, 6.76),
)


def hilbert_reference(x, ntaps, window, param):
    """Analytic signal as gr-filter's hilbert_fc defines it, in float64: real part
    the input delayed by n//2 (n = ntaps | 1), imaginary part the Hilbert FIR."""
    n = ntaps | 1
    h = np.asarray(filter.firdes.hilbert(n, window, param), dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    delayed = np.concatenate([np.zeros(n // 2), x])[:len(x)]
    return delayed + 1j * np.convolve(x, h)[:len(x)]


class qa_hilbert_fc(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(77)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def run_both(self, x, *args, tags=(), **gpu_options):
        ours = gpufilter.hilbert_fc(*args, **gpu_options)
        got, want = run_side_by_side(
            self, blocks.vector_source_f(x.tolist(), False, 1, list(tags)), ours,
            filter.hilbert_fc(*args), blocks.vector_sink_c,
            gpu_options.get("device") != gpufilter.device_cpu)
        return ours, np.asarray(got.data()), np.asarray(want.data()), got, want

    def check(self, ours, got, want, x, ntaps, window, param, msg):
        self.assertEqual(len(got), len(want), msg)
        self.assertEqual(len(got), len(x), msg)
        # The real part is the delayed input itself, on the GPU too (taps 1 and 0).
        np.testing.assert_array_equal(got.real, want.real, msg)
        self.assertLessEqual(relative_error(got, want), TOLERANCE, msg)
        model = hilbert_reference(x, ntaps, window, param)
        self.assertLessEqual(relative_error(got, model), TOLERANCE, msg)
        if not ours.on_gpu():  # gr-filter's own kernel: the very same floats
            np.testing.assert_array_equal(got, want, msg)

    def test_matches_gr_filter_over_tap_counts_and_windows(self):
        x = self.rng.uniform(-1, 1, 20000).astype(np.float32)
        for ntaps in (2, 3, 10, 64, 65, 257, 1000):
            for window, param in WINDOWS:
                ours, got, want, _, _ = self.run_both(x, ntaps, window, param)
                self.check(ours, got, want, x, ntaps, window, param,
                           f"ntaps={ntaps} window={window}")

    def test_defaults_are_gr_filters(self):
        x = self.rng.uniform(-1, 1, 5000).astype(np.float32)
        ours, got, want, _, _ = self.run_both(x, 65)
        self.check(ours, got, want, x, 65, fft.window.WIN_HAMMING, 6.76, "defaults")
        design = filter.firdes.hilbert(65, fft.window.WIN_HAMMING, 6.76)
        self.assertEqual(ours.taps(), [float(np.float32(t)) for t in design])

    def test_tiny_streams_give_exact_output_length(self):
        for n in (1, 2, 31, 32, 33, 100):
            x = self.rng.uniform(-1, 1, n).astype(np.float32)
            ours, got, want, _, _ = self.run_both(x, 65, batch_size=7)
            self.check(ours, got, want, x, 65, fft.window.WIN_HAMMING, 6.76, f"n={n}")

    def test_long_stream_in_batches(self):
        x = self.rng.uniform(-1, 1, 300_001).astype(np.float32)
        ours, got, want, _, _ = self.run_both(x, 129, batch_size=65536)
        self.check(ours, got, want, x, 129, fft.window.WIN_HAMMING, 6.76, "long")

    def test_tags_propagate_like_gr_filter(self):
        x = self.rng.uniform(-1, 1, 5000).astype(np.float32)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src")))
                for off in (0, 1, 31, 32, 33, 2500, 4999)]
        _, _, _, got, want = self.run_both(x, 65, tags=tags)
        ours = [(t.offset, pmt.to_long(t.value)) for t in got.tags()]
        theirs = [(t.offset, pmt.to_long(t.value)) for t in want.tags()]
        self.assertTrue(theirs)
        self.assertEqual(ours, theirs)

    def test_cpu_device_gives_same_results(self):
        x = self.rng.uniform(-1, 1, 4000).astype(np.float32)
        ours, got, want, _, _ = self.run_both(x, 33, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.assertEqual(ours.device(), gpufilter.device_cpu)
        np.testing.assert_array_equal(got, want)

    def test_runs_on_gpu_when_there_is_one(self):
        skip_without_gpu(self)
        blk = gpufilter.hilbert_fc(65)
        self.assertTrue(blk.on_gpu())
        self.assertEqual(blk.device(), 0)

    def test_bad_parameters_name_themselves(self):
        cases = [
            (ValueError, "ntaps", lambda: gpufilter.hilbert_fc(0)),
            (IndexError, "device", lambda: gpufilter.hilbert_fc(65, device=99)),
            (IndexError, "device", lambda: gpufilter.hilbert_fc(65, device=-7)),
            (ValueError, "batch_size", lambda: gpufilter.hilbert_fc(65, batch_size=0)),
        ]
        for exc, word, bad in cases:
            with self.assertRaises(exc) as ctx:
                bad()
            self.assertIn(word, str(ctx.exception))
        # Refused where gr-filter takes them: one tap (firdes.hilbert(1) is [nan],
        # which makes every output NaN) and a window param that makes NaN taps.
        refused = [
            (ValueError, "ntaps", lambda: gpufilter.hilbert_fc(1)),
            (ValueError, "param",
             lambda: gpufilter.hilbert_fc(65, fft.window.WIN_KAISER, float("nan"))),
            # gr-filter's binding gives a TypeError listing its signature for these.
            (ValueError, "ntaps: must not be negative", lambda: gpufilter.hilbert_fc(-3)),
            (OverflowError, "ntaps", lambda: gpufilter.hilbert_fc(2**40)),
            (OverflowError, "batch_size",
             lambda: gpufilter.hilbert_fc(65, batch_size=10**12)),
            (TypeError, "ntaps: must be an integer", lambda: gpufilter.hilbert_fc(6.5)),
        ]
        for exc, word, bad in refused:
            with self.assertRaises(exc) as ctx:
                bad()
            self.assertIn(word, str(ctx.exception))
            self.assertNotIn("incompatible", str(ctx.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_hilbert_fc)
