#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.quadrature_demod_cf against gnuradio.analog.quadrature_demod_cf and a
float64 model."""

import numpy as np
import pmt
from gnuradio import analog, blocks, gpufilter, gr, gr_unittest

from gpu_test_support import (GPU_REQUIRED, gpu_count, random_samples,
                              run_gated_side_by_side, run_side_by_side, skip_without_gpu)

# Both compute gr's fast_atan2f step by step; they can differ only in the rounding of
# the conjugate product (volk with or without FMA): about 1e-7 rad. Angles are
# compared modulo 2*pi (a product on the negative real axis may round to +-pi).
TO_GR = 5e-7
# fast_atan2f against the exact angle: 1.53e-6 rad at most (engine tests).
TO_MODEL = 2e-6


def angle_error(got, want, gain):
    d = (np.asarray(got, np.float64) - np.asarray(want, np.float64)) / gain
    return np.max(np.abs(np.remainder(d + np.pi, 2 * np.pi) - np.pi), initial=0.0)


def model(x, gain):
    """gain * arg(x[i] * conj(x[i-1])) in float64, x[-1] = 0 (GNU Radio's history):
    the first output is 0, as gr's fast_atan2f(0, 0) (numpy's angle of -0+0j is pi)."""
    x = np.asarray(x, np.complex128)
    prev = np.concatenate([[0], x[:-1]])
    y = gain * np.angle(x * np.conj(prev))
    y[0] = 0.0
    return y


def nonzero_samples(rng, n):
    x = random_samples(rng, n, True)
    x[x == 0] = 0.5 - 0.25j
    return x


class chunked_source(gr.sync_block):
    """The samples in work() calls of the given sizes (cycled): odd chunks."""

    def __init__(self, data, sizes):
        gr.sync_block.__init__(self, "chunked_source", None, [data.dtype])
        self.data, self.sizes, self.pos, self.call = data, sizes, 0, 0

    def work(self, input_items, output_items):
        if self.pos >= len(self.data):
            return -1
        n = min(len(output_items[0]), self.sizes[self.call % len(self.sizes)],
                len(self.data) - self.pos)
        self.call += 1
        output_items[0][:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


class qa_quadrature_demod(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(1234)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def run_both(self, x, gain, source=None, **gpu_options):
        ours = gpufilter.quadrature_demod_cf(gain, **gpu_options)
        src = source or blocks.vector_source_c(x.tolist())
        got, want = run_side_by_side(
            self, src, ours, analog.quadrature_demod_cf(gain), blocks.vector_sink_f,
            gpu_options.get("device") != gpufilter.device_cpu)
        return ours, np.asarray(got.data()), np.asarray(want.data()), got, want

    def check(self, ours, got, want, x, gain, msg):
        self.assertEqual(len(got), len(want), msg)
        self.assertEqual(len(got), len(x), msg)
        self.assertFalse(np.isnan(got).any(), msg)
        self.assertLessEqual(angle_error(got, want, gain), TO_GR, msg)
        self.assertLessEqual(angle_error(got, model(x, gain), gain), TO_MODEL, msg)
        if not ours.on_gpu():  # gr-analog's own arithmetic: the very same floats
            np.testing.assert_array_equal(got, want, msg)
        return int(np.sum(got == want))

    def test_matches_gr_analog_over_gains_lengths_and_batches(self):
        same = total = 0
        for gain in (1.0, -0.5, 240e3 / (2 * np.pi * 75e3), 1000.0):
            for n in (1, 2, 7, 4099, 100003):
                for batch in (1, 13, gpufilter.default_batch_size):
                    x = nonzero_samples(self.rng, n)
                    ours, got, want, _, _ = self.run_both(x, gain, batch_size=batch)
                    same += self.check(ours, got, want, x, gain,
                                       f"gain={gain} n={n} batch={batch}")
                    total += n
        print(f"\nquadrature_demod_cf: {same} of {total} outputs equal gr-analog's bit "
              f"for bit ({'GPU' if ours.on_gpu() else 'CPU'})")

    def test_odd_chunk_sizes(self):
        x = nonzero_samples(self.rng, 300001)
        src = chunked_source(x, [1, 4099, 17, 3, 65537, 2, 999])
        ours, got, want, _, _ = self.run_both(x, 0.8, source=src, batch_size=5000)
        self.check(ours, got, want, x, 0.8, "chunks")

    def test_set_gain_mid_stream(self):
        x = nonzero_samples(self.rng, 40000)
        first = 15000
        ours = gpufilter.quadrature_demod_cf(1.5, batch_size=1)
        theirs = analog.quadrature_demod_cf(1.5)
        got, want = run_gated_side_by_side(self, x, first, 1, ours, theirs,
                                           blocks.vector_sink_f,
                                           lambda blk: blk.set_gain(-0.25))
        got, want = np.asarray(got.data()), np.asarray(want.data())
        self.assertAlmostEqual(ours.gain(), -0.25)
        self.assertEqual(len(got), len(want))
        self.assertLessEqual(angle_error(got[:first], want[:first], 1.5), TO_GR)
        self.assertLessEqual(angle_error(got[first:], want[first:], -0.25), TO_GR)
        self.assertLessEqual(angle_error(got[first:], model(x, -0.25)[first:], -0.25),
                             TO_MODEL)

    def test_tags_propagate_like_gr_analog(self):
        x = nonzero_samples(self.rng, 5000)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src")))
                for off in (0, 1, 2, 31, 2500, 4999)]
        src = blocks.vector_source_c(x.tolist(), False, 1, tags)
        _, _, _, got, want = self.run_both(x, 2.0, source=src)
        ours = [(t.offset, pmt.to_long(t.value)) for t in got.tags()]
        theirs = [(t.offset, pmt.to_long(t.value)) for t in want.tags()]
        self.assertTrue(theirs)
        self.assertEqual(ours, theirs)

    def test_cpu_device_gives_same_results(self):
        x = nonzero_samples(self.rng, 20011)
        ours, got, want, _, _ = self.run_both(x, 0.3, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.assertEqual(ours.device(), gpufilter.device_cpu)
        self.assertEqual(ours.method(), "cpu")
        np.testing.assert_array_equal(got, want)

    def test_runs_on_gpu_when_there_is_one(self):
        skip_without_gpu(self)
        blk = gpufilter.quadrature_demod_cf(1.0)
        self.assertTrue(blk.on_gpu())
        self.assertEqual(blk.device(), 0)
        self.assertEqual(blk.method(), "quadrature_demod")

    def test_bad_parameters_name_themselves(self):
        cases = [
            (ValueError, "gain", lambda: gpufilter.quadrature_demod_cf(float("nan"))),
            (ValueError, "gain", lambda: gpufilter.quadrature_demod_cf(float("inf"))),
            (ValueError, "gain", lambda: gpufilter.quadrature_demod_cf(-float("inf"))),
            (IndexError, "device", lambda: gpufilter.quadrature_demod_cf(1.0, device=99)),
            (ValueError, "batch_size",
             lambda: gpufilter.quadrature_demod_cf(1.0, batch_size=0)),
        ]
        for exc, word, bad in cases:
            with self.assertRaises(exc) as ctx:
                bad()
            self.assertIn(word, str(ctx.exception))
        blk = gpufilter.quadrature_demod_cf(2.0, device=gpufilter.device_cpu)
        with self.assertRaises(ValueError) as ctx:
            blk.set_gain(float("nan"))
        self.assertIn("gain", str(ctx.exception))
        self.assertEqual(blk.gain(), 2.0)


if __name__ == "__main__":
    gr_unittest.run(qa_quadrature_demod)
