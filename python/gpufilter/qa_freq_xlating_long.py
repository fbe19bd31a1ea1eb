#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The frequency-translating filter's output phase stays exact over 10^9 samples.

Input 1+0j at every sample, taps [1.0], centre frequency f, decimation D: by
gr-filter's convention the band-pass tap is 1*exp(j*0*w) = 1 and the rotator starts
at phase -w*(1-1)/2 = 0, so output k is exactly exp(-j*2*pi*f/fs*D*k). The expected
phase is computed with exact rational arithmetic; the block's must stay within 1e-3
rad of it at the end. (gr-filter's float rotator drifts: the CPU test prints by how
much, for comparison; that is no assertion.)
"""

import math
import time
from fractions import Fraction

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import gpu_count, skip_without_gpu

FS = 1_000_000.0
FREQ = 123_456.789  # no short period: every output has a different phase
DECIMATION = 10
MAX_PHASE_ERROR = 1e-3  # rad


def expected_phase(k):
    """-2*pi*frac(f*D*k/fs) for output k, from the exact values of the doubles."""
    cycles = Fraction(FREQ) * DECIMATION * k / Fraction(FS)
    return -2 * math.pi * float(cycles - math.floor(cycles))


def run_constant_input(nsamples, every, module=gpufilter, **gpu_options):
    """Streams nsamples of 1+0j through the block; returns (outputs k, values) of
    every `every`-th output (the last one included when nsamples/D is a multiple)."""
    tb = gr.top_block()
    src = blocks.vector_source_c([1 + 0j] * 65536, True)
    head = blocks.head(gr.sizeof_gr_complex, nsamples)
    xlat = module.freq_xlating_fir_filter_ccf(DECIMATION, [1.0], FREQ, FS, **gpu_options)
    keep = blocks.keep_one_in_n(gr.sizeof_gr_complex, every)
    sink = blocks.vector_sink_c()
    tb.connect(src, head, xlat, keep, sink)
    start = time.time()
    tb.run()
    seconds = time.time() - start
    values = np.asarray(sink.data())
    ks = every * np.arange(1, len(values) + 1) - 1
    return xlat, ks, values, seconds


class qa_freq_xlating_long(gr_unittest.TestCase):
    def setUp(self):
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def phase_errors(self, nsamples, every, **options):
        xlat, ks, values, seconds = run_constant_input(nsamples, every, **options)
        nout = nsamples // DECIMATION
        self.assertEqual(xlat.nitems_written(0), nout)
        self.assertEqual(ks[-1], nout - 1)
        errors = np.array([abs(math.remainder(np.angle(v) - expected_phase(int(k)), 2 * math.pi))
                           for k, v in zip(ks, values)])
        return xlat, ks, values, seconds, errors

    def check_phase(self, nsamples, every, **gpu_options):
        xlat, ks, values, seconds, errors = self.phase_errors(nsamples, every, **gpu_options)
        print(f"\n{nsamples} samples ({'GPU' if xlat.on_gpu() else 'CPU'}) in {seconds:.1f} s "
              f"({nsamples / seconds / 1e6:.0f} MS/s): final phase error {errors[-1]:.3e} rad "
              f"at output {ks[-1]}, largest {errors.max():.3e} rad over {len(ks)} checkpoints")
        self.assertLessEqual(errors.max(), MAX_PHASE_ERROR)
        np.testing.assert_allclose(np.abs(values), 1.0, rtol=1e-5)
        return xlat

    def test_phase_exact_after_1e9_samples_on_gpu(self):
        skip_without_gpu(self)  # on a CPU this would take many minutes
        xlat = self.check_phase(1_000_000_000, 1_000_000)
        self.assertTrue(xlat.on_gpu())

    def test_phase_exact_after_2e6_samples_on_cpu(self):
        """The same check, short enough for the CPU fallback (same phase derivation)."""
        self.check_phase(2_000_000, 10_000, device=gpufilter.device_cpu)
        *_, theirs = self.phase_errors(2_000_000, 10_000, module=filter)
        print(f"gr-filter's float rotator, same stream: final phase error {theirs[-1]:.3e} rad")


if __name__ == "__main__":
    gr_unittest.run(qa_freq_xlating_long)
