#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.fft_filter_XXX against gnuradio.filter.fft_filter_XXX on random data."""

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr_unittest

from gpu_test_support import gpu_count, random_samples, relative_error, run_side_by_side

# name -> (input complex?, taps complex?, vector source, vector sink)
VARIANTS = {
    "ccc": (True, True, blocks.vector_source_c, blocks.vector_sink_c),
    "ccf": (True, False, blocks.vector_source_c, blocks.vector_sink_c),
    "fff": (False, False, blocks.vector_source_f, blocks.vector_sink_f),
}
# The FFT path's bound against float64 (docs/kernels.md); gr-filter's FFTW is float too.
TOLERANCE = 1e-4


class qa_fft_filter(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(11)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def run_both(self, name, decimation, taps, x, **gpu_options):
        in_c, _, source, sink = VARIANTS[name]
        ours = getattr(gpufilter, "fft_filter_" + name)(decimation, taps, **gpu_options)
        theirs = getattr(filter, "fft_filter_" + name)(decimation, taps)
        got, want = run_side_by_side(self, source(x.tolist()), ours, theirs, sink,
                                     gpu_options.get("device") != gpufilter.device_cpu)
        return ours, np.array(got.data()), np.array(want.data())

    def check(self, name, decimation, ntaps, n, **gpu_options):
        in_c, taps_c, _, _ = VARIANTS[name]
        taps = random_samples(self.rng, ntaps, taps_c).tolist()
        x = random_samples(self.rng, n, in_c)
        ours, got, want = self.run_both(name, decimation, taps, x, **gpu_options)
        msg = f"{name} ntaps={ntaps} decimation={decimation} n={n}"
        # gr-filter's block leaves out the stream's last outputs that do not fill its
        # FFT block; ours gives every output, as fir_filter does: compare the prefix.
        self.assertEqual(len(got), n // decimation, msg)  # as fir_filter: floor(n/D)
        self.assertLessEqual(len(want), len(got), msg)
        self.assertGreater(len(want), 0, msg)
        self.assertLessEqual(relative_error(got[:len(want)], want), TOLERANCE, msg)
        return ours

    def test_matches_gr_filter_all_types_and_decimations(self):
        for name in VARIANTS:
            for ntaps in (1, 31, 256, 1500):
                for decimation in (1, 2, 5):
                    self.check(name, decimation, ntaps, 60000 + decimation)

    def test_long_filters_match_gr_filter(self):
        # Longer than the largest one-block transform holds: on sm_90 and later the
        # cluster kernel at decimation 1 (up to 16384 taps), the partitioned path
        # otherwise.
        for name in VARIANTS:
            for decimation, ntaps in ((1, 10000), (1, 16384), (3, 10000)):
                self.check(name, decimation, ntaps, 70000 + decimation)

    def test_each_method_and_the_cpu(self):
        for method in ("fft", "direct", "auto", gpufilter.filter_method.fft):
            ours = self.check("ccf", 3, 200, 40000, method=method)
            if ours.on_gpu():
                want = method if isinstance(method, str) else "fft"
                if want != "auto":
                    self.assertEqual(ours.method(), want)
        ours = self.check("fff", 2, 100, 30000, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.assertEqual(ours.method(), "cpu")

    def test_defaults_and_nthreads(self):
        blk = gpufilter.fft_filter_ccc(1, [1.0 + 0.5j, 0.25])
        self.assertEqual(blk.nthreads(), 1)
        blk.set_nthreads(4)
        self.assertEqual(blk.nthreads(), 4)
        self.assertEqual(blk.taps(), [1.0 + 0.5j, 0.25])
        if blk.on_gpu():
            self.assertEqual(blk.method(), "fft")  # the default, as the name says

    def test_set_taps_mid_stream_matches_fir_filter(self):
        # The same rule as gpufilter.fir_filter (gr-filter's fir_filter): new taps
        # from the next work() call, history from GNU Radio's window.
        from gpu_test_support import run_gated_side_by_side
        x = random_samples(self.rng, 50000, True)
        t1 = random_samples(self.rng, 64, False).tolist()
        t2 = random_samples(self.rng, 301, False).tolist()
        ours = gpufilter.fft_filter_ccf(1, t1, batch_size=1)
        theirs = filter.fir_filter_ccf(1, t1)
        got, want = run_gated_side_by_side(self, x, 20000, 1, ours, theirs,
                                           blocks.vector_sink_c,
                                           lambda blk: blk.set_taps(t2))
        self.assertEqual(len(got.data()), len(want.data()))
        self.assertLessEqual(relative_error(got.data(), want.data()), TOLERANCE)
        self.assertEqual(ours.taps(), t2)

    def test_bad_parameters_name_themselves(self):
        for call, name in (
                (lambda: gpufilter.fft_filter_ccf(0, [1.0]), "decimation"),
                (lambda: gpufilter.fft_filter_ccf(1, []), "taps"),
                (lambda: gpufilter.fft_filter_ccf(1, [1.0], 0), "nthreads"),
                (lambda: gpufilter.fft_filter_fff(1, [1.0], 1, method="winograd"), "method")):
            with self.assertRaises(ValueError) as ctx:
                call()
            self.assertIn(name, str(ctx.exception))
        blk = gpufilter.fft_filter_fff(1, [1.0])
        with self.assertRaises(ValueError):
            blk.set_nthreads(0)


if __name__ == "__main__":
    gr_unittest.run(qa_fft_filter)
