#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.interp_fir_filter_XXX against gnuradio.filter.interp_fir_filter_XXX on
random data: every type, interpolations 1 to 7, tap counts that are and are not
multiples of the interpolation, tags, tiny streams, set_taps mid-stream, odd call
sizes and bad arguments."""

import math

import numpy as np
from gnuradio import blocks, gpufilter, gr, gr_unittest

from gpu_test_support import gpu_count, run_gated_until_idle, skip_without_gpu
from resampler_test_support import (SINKS, TYPES, arm_gain, assert_same_output,
                                    make_pair, offset_tags, random_input, random_taps,
                                    run_pair)


class qa_interp_fir_filter(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2039)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def compare(self, suffix, interp, taps, n, tags=(), **gpu_options):
        """n random items through ours and gr-filter's: the same outputs (exactly
        n * interpolation of them, a sync interpolator's), taps and tags."""
        ours, theirs = make_pair("interp_fir_filter", suffix, interp, taps,
                                 **gpu_options)
        msg = f"{suffix} I={interp} ntaps={len(taps)} n={n}"
        self.assertEqual(len(ours.taps()), len(theirs.taps()), msg)  # padded alike
        np.testing.assert_allclose(ours.taps(), theirs.taps(), err_msg=msg)
        self.assertEqual(ours.history(), theirs.history(), msg)
        x = random_input(self.rng, suffix, n, arm_gain(taps, interp))
        got, want, got_tags, want_tags = run_pair(
            self, suffix, ours, theirs, x, tags,
            gpu_options.get("device") == gpufilter.device_cpu)
        self.assertEqual(len(got), n * interp, msg)
        assert_same_output(self, suffix, got, want, msg)
        self.assertEqual(got_tags, want_tags, msg)
        return ours

    def test_every_type_and_interpolation(self):
        for suffix in TYPES:
            for interp in range(1, 8):
                lengths = [1, 13, 31, 8 * interp] + ([64, 256] if interp == 4 else [])
                for ntaps in lengths:
                    self.compare(suffix, interp, random_taps(self.rng, suffix, ntaps),
                                 5003)

    def test_tiny_streams(self):
        for suffix in ("ccf", "fsf"):
            for interp in (1, 3, 7):
                taps = random_taps(self.rng, suffix, 2 * interp + 1)
                for n in range(1, 8):
                    self.compare(suffix, interp, taps, n)

    def test_tags_move_to_offset_times_interpolation(self):
        tags = offset_tags([0, 1, 2, 3, 999, 1000, 2500, 4997, 4998, 4999])
        for suffix in ("ccf", "scc"):
            for interp in (1, 2, 3, 7):
                self.compare(suffix, interp, random_taps(self.rng, suffix, 40), 5000,
                             tags)

    def test_odd_batches_and_call_sizes(self):
        x = random_input(self.rng, "ccc", 20011)
        for interp in (2, 5):
            taps = random_taps(self.rng, "ccc", 8 * interp + 3)
            for batch in (1, 7, 4099):
                for mno in (17, 1000):
                    outs = []
                    for blk in make_pair("interp_fir_filter", "ccc", interp, taps,
                                         batch_size=batch):
                        tb = gr.top_block()
                        snk = blocks.vector_sink_c()
                        tb.connect(blocks.vector_source_c(x.tolist()), blk, snk)
                        tb.run(mno)
                        outs.append(snk.data())
                    assert_same_output(self, "ccc", *outs,
                                       f"I={interp} batch={batch} calls={mno}")

    def test_set_taps_mid_stream(self):
        """New taps from the next work() call on, as gr-filter's, also when the tap
        count and so the history changes: the outputs agree throughout (and so does
        their count, which a shorter history makes longer than n * interpolation: the
        scheduler hands the block the items it no longer keeps as history again)."""
        first = 12000
        for suffix in ("ccf", "fsf", "scc"):
            for interp in (1, 4, 7):
                old = random_taps(self.rng, suffix, 6 * interp)
                for new_len in (6 * interp, 2 * interp + 1, 15 * interp + 2):
                    new = random_taps(self.rng, suffix, new_len)
                    ours, theirs = make_pair("interp_fir_filter", suffix, interp, old,
                                             batch_size=1)
                    gain = max(arm_gain(old, interp), arm_gain(new, interp))
                    x = random_input(self.rng, suffix, 30000, gain)
                    got, want, before = run_gated_until_idle(
                        x, first, ours, theirs, SINKS[TYPES[suffix][1]],
                        lambda blk: blk.set_taps(new), read_slack=0)
                    msg = f"{suffix} I={interp} new_len={new_len} before={before}"
                    self.assertEqual(before, (first * interp, first * interp), msg)
                    assert_same_output(self, suffix, got, want, msg)
                    np.testing.assert_allclose(ours.taps(), theirs.taps(), err_msg=msg)

    def test_cpu_device_gives_same_results(self):
        for suffix in ("ccc", "fsf", "scc"):
            ours = self.compare(suffix, 4, random_taps(self.rng, suffix, 33), 7001,
                                device=gpufilter.device_cpu)
            self.assertFalse(ours.on_gpu())
            self.assertEqual(ours.device(), gpufilter.device_cpu)
            self.assertEqual(ours.method(), "cpu")

    def test_runs_on_gpu_when_there_is_one(self):
        skip_without_gpu(self)
        blk = gpufilter.interp_fir_filter_ccf(4, [1.0] * 64)
        self.assertTrue(blk.on_gpu())
        self.assertEqual(blk.device(), 0)

    def test_bad_arguments_name_themselves(self):
        errors = (ValueError, IndexError, OverflowError)
        for suffix in TYPES:
            make = getattr(gpufilter, "interp_fir_filter_" + suffix)
            taps = random_taps(self.rng, suffix, 12)
            cases = [("interpolation", (bad, taps)) for bad in (0, -1, -3, 2**64)]
            cases += [("taps", (3, [])), ("taps", (3, [0.5, math.nan])),
                      ("device", (3, taps, 99)), ("device", (3, taps, -7)),
                      ("batch_size", (3, taps, gpufilter.device_auto, 0)),
                      ("max_latency", (3, taps, gpufilter.device_auto, 1024, -1.0))]
            for name, args in cases:
                with self.subTest(suffix=suffix, args=args):
                    with self.assertRaisesRegex(errors, "^" + name + ": "):
                        make(*args)
            blk = make(3, taps)
            for bad in ([], [math.inf]):
                with self.assertRaisesRegex(ValueError, "^taps: "):
                    blk.set_taps(bad)
            self.assertEqual(len(blk.taps()), 12)


if __name__ == "__main__":
    gr_unittest.run(qa_interp_fir_filter)
