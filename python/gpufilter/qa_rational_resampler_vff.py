#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.rational_resampler_vff: items of vlen floats, each lane resampled on its
own exactly as gnuradio.filter.rational_resampler_fff resamples that lane alone
(gr-filter has no vector resampler: its fff block per lane, behind
vector_to_streams and in front of streams_to_vector, is the reference)."""

import math

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import (GPU_REQUIRED, feed_for_comparison, gpu_count,
                              random_samples, run_gated_until_idle)
from resampler_test_support import (assert_same_output, end_slack, offset_tags,
                                    reference_rational,
                                    random_taps, tag_list)


class lanes_of_fff(gr.hier_block2):
    """vlen gr-filter rational_resampler_fff blocks, one per lane, as one block with
    rational_resampler_vff's ports and controls."""

    def __init__(self, vlen, *args):
        size = gr.sizeof_float * vlen
        gr.hier_block2.__init__(self, "lanes_of_fff", gr.io_signature(1, 1, size),
                                gr.io_signature(1, 1, size))
        split = blocks.vector_to_streams(gr.sizeof_float, vlen)
        self.join = blocks.streams_to_vector(gr.sizeof_float, vlen)
        self.lanes = [filter.rational_resampler_fff(*args) for _ in range(vlen)]
        self.connect(self, split)
        for k, lane in enumerate(self.lanes):
            self.connect((split, k), lane, (self.join, k))
        self.connect(self.join, self)

    def set_taps(self, taps):
        for lane in self.lanes:
            lane.set_taps(taps)

    def nitems_read(self, port):
        return self.lanes[0].nitems_read(port)

    def nitems_written(self, port):
        return self.join.nitems_written(port)


class qa_rational_resampler_vff(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2053)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def run_both(self, vlen, args, n, tags=(), **gpu_options):
        ours = gpufilter.rational_resampler_vff(vlen, *args, **gpu_options)
        theirs = lanes_of_fff(vlen, *args)
        x = random_samples(self.rng, n * vlen, False)
        tb = gr.top_block()
        src = feed_for_comparison(blocks.vector_source_f(x.tolist(), False, vlen,
                                                         list(tags)))
        got, want = blocks.vector_sink_f(vlen), blocks.vector_sink_f(vlen)
        tb.connect(src, ours, got)
        tb.connect(src, theirs, want)
        tb.run()
        if GPU_REQUIRED and gpu_options.get("device") != gpufilter.device_cpu:
            self.assertTrue(ours.on_gpu())
        lane0 = theirs.lanes[0]
        self.assertEqual(ours.interpolation(), lane0.interpolation())
        self.assertEqual(ours.decimation(), lane0.decimation())
        np.testing.assert_allclose(ours.taps(), lane0.taps(), rtol=0, atol=1e-7)
        g = np.array(got.data()).reshape(-1, vlen)
        w = np.array(want.data()).reshape(-1, vlen)
        return ours, g, w, got, want

    def check_lanes(self, g, w, slack, msg):
        self.assertLessEqual(abs(len(g) - len(w)), slack, msg)
        self.assertGreater(len(w), 0, msg)
        for lane in range(w.shape[1]):
            assert_same_output(self, "fff", g[:, lane], w[:, lane],
                               f"{msg} lane {lane}", slack)

    def test_lanes_match_rational_resampler_fff(self):
        for vlen in (1, 3, 8, 37):
            for interp, decim in ((3, 2), (2, 3), (147, 160), (1, 10), (10, 1), (4, 6)):
                for taps in ([], random_taps(self.rng, "fff", 5 * interp + 2)):
                    _, g, w, _, _ = self.run_both(vlen, (interp, decim, taps), 3001)
                    self.check_lanes(g, w, end_slack(interp, decim),
                                     f"vlen={vlen} {interp}/{decim} ntaps={len(taps)}")

    def test_tiny_streams_and_cpu_device(self):
        for n in range(1, 8):
            _, g, w, _, _ = self.run_both(4, (3, 2, random_taps(self.rng, "fff", 7)), n)
            self.assertLessEqual(abs(len(g) - len(w)), end_slack(3, 2), f"n={n}")
        ours, g, w, _, _ = self.run_both(5, (147, 160), 4001, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.check_lanes(g, w, end_slack(147, 160), "device_cpu")

    def test_tags_as_the_scalar_block(self):
        tags = offset_tags([0, 1, 7, 500, 1999, 2000])
        for interp, decim in ((3, 2), (1, 10), (147, 160)):
            _, _, _, got, want = self.run_both(6, (interp, decim), 2001, tags)
            # Each of gr-filter's lanes passes every tag on: one copy per lane.
            self.assertEqual(tag_list(got), sorted(set(tag_list(want))),
                             f"{interp}/{decim}")

    def test_set_taps_mid_stream(self):
        vlen, first = 4, 6000
        for interp, decim in ((3, 2), (1, 10), (2, 3)):
            old = random_taps(self.rng, "fff", 6 * interp)
            new = random_taps(self.rng, "fff", 9 * interp + 1)
            ours = gpufilter.rational_resampler_vff(vlen, interp, decim, old,
                                                    batch_size=1)
            theirs = lanes_of_fff(vlen, interp, decim, old)
            x = random_samples(self.rng, 15000 * vlen, False).reshape(-1, vlen)
            got, want, before = run_gated_until_idle(
                x, first, ours, theirs, lambda: blocks.vector_sink_f(vlen),
                lambda blk: blk.set_taps(new))
            slack = end_slack(interp, decim)
            lo, hi = min(before), max(before)
            msg = f"{interp}/{decim} before={before}"
            self.assertLessEqual(hi - lo, slack, msg)
            g = got.reshape(-1, vlen)
            self.assertLessEqual(abs(len(g) - len(want) // vlen), slack, msg)
            # Each lane against the definition, old taps then new: where I > D
            # gr-filter's blocks read a sample past the input they were given, at the
            # gate and wherever a call ends short (qa_rational_resampler).
            for lane in range(vlen):
                for taps, part in ((old, slice(0, lo)), (new, slice(hi, len(g)))):
                    ref = reference_rational(x[:, lane], taps, interp, decim,
                                             len(g)).real
                    assert_same_output(self, "fff", g[part, lane], ref[part],
                                       f"{msg} lane {lane}")

    def test_bad_arguments_name_themselves(self):
        errors = (ValueError, IndexError, OverflowError)
        make = gpufilter.rational_resampler_vff
        for name, args in [("vlen", (0, 3, 2)), ("vlen", (-1, 3, 2)),
                           ("interpolation", (4, 0, 2)), ("decimation", (4, 3, 0)),
                           ("fractional_bw", (4, 3, 2, [], 0.5)),
                           ("taps", (4, 3, 2, [math.nan]))]:
            with self.subTest(args=args):
                with self.assertRaisesRegex(errors, "^" + name + ": "):
                    make(*args)
        with self.assertRaisesRegex(ValueError, "^taps: "):
            make(4, 3, 2).set_taps([])


if __name__ == "__main__":
    gr_unittest.run(qa_rational_resampler_vff)
