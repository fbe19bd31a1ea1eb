#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.rational_resampler_XXX against gnuradio.filter.rational_resampler_XXX
on random data: every type and ratio with designed and given taps, exact output
lengths, tags, tiny streams, set_taps mid-stream, odd call sizes and bad arguments.
The vector block is in qa_rational_resampler_vff."""

import math

import numpy as np
from gnuradio import blocks, gpufilter, gr, gr_unittest

from gpu_test_support import gpu_count, run_gated_until_idle, skip_without_gpu
from resampler_test_support import (SINKS, TYPES, arm_gain, assert_same_output,
                                    end_slack, make_pair, offset_tags, random_input,
                                    reference_rational,
                                    random_taps, run_pair)

# (interpolation, decimation): up, down, near 1 both ways, large factors, and
# common factors (reduced by gr-filter only when it designs the taps).
RATIOS = ((1, 1), (3, 2), (2, 3), (147, 160), (160, 147), (1, 10), (10, 1), (4, 6),
          (6, 4))


def run_alone(blk, x, max_noutput):
    """Complex x through blk alone, the scheduler's calls cut to max_noutput."""
    tb = gr.top_block()
    snk = blocks.vector_sink_c()
    tb.connect(blocks.vector_source_c(x.tolist()), blk, snk)
    tb.run(max_noutput)
    return snk.data()


def tap_lengths(interpolation):
    """A multiple of the interpolation and one that is not (zero-padded by both)."""
    return (8 * interpolation, 8 * interpolation + 3)


class qa_rational_resampler(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2047)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def compare(self, suffix, interp, decim, taps, n, tags=(), fractional_bw=0.0,
                **gpu_options):
        """n random items through ours and gr-filter's; the same outputs, lengths,
        accessors and tags. Returns (ours, got tags, want tags)."""
        ours, theirs = make_pair("rational_resampler", suffix, interp, decim, taps,
                                 fractional_bw, **gpu_options)
        msg = f"{suffix} {interp}/{decim} ntaps={len(taps)} n={n}"
        self.assertEqual(ours.interpolation(), theirs.interpolation(), msg)
        self.assertEqual(ours.decimation(), theirs.decimation(), msg)
        self.assertAlmostEqual(ours.relative_rate(), theirs.relative_rate(), msg=msg)
        want_taps = np.asarray(theirs.taps())
        self.assertEqual(len(ours.taps()), len(want_taps), msg)  # padded alike
        np.testing.assert_allclose(ours.taps(), want_taps, rtol=0,
                                   atol=1e-6 * np.abs(want_taps).max(), err_msg=msg)
        x = random_input(self.rng, suffix, n, arm_gain(want_taps, theirs.interpolation()))
        got, want, got_tags, want_tags = run_pair(
            self, suffix, ours, theirs, x, tags,
            gpu_options.get("device") == gpufilter.device_cpu)
        assert_same_output(self, suffix, got, want, msg,
                           end_slack(theirs.interpolation(), theirs.decimation()))
        self.assertEqual(got_tags, want_tags, msg)
        return ours, got, want

    def test_every_type_and_ratio_with_designed_taps(self):
        for suffix in TYPES:
            for interp, decim in RATIOS:
                _, _, want = self.compare(suffix, interp, decim, [], 12347)
                self.assertGreater(len(want), 1000)

    def test_every_type_and_ratio_with_given_taps(self):
        for suffix in TYPES:
            for interp, decim in RATIOS:
                for ntaps in tap_lengths(interp):
                    taps = random_taps(self.rng, suffix, ntaps)
                    self.compare(suffix, interp, decim, taps, 12347)

    def test_designed_taps_for_each_fractional_bw(self):
        """fractional_bw designs the taps when none are given (0 or less: 0.4), and is
        ignored with given taps (as in gr-filter, even a value the design would
        refuse)."""
        for interp, decim, fbw in ((3, 2, 0.25), (2, 3, 0.1), (147, 160, 0.45),
                                   (6, 4, 0.3), (1, 10, 0.49), (3, 2, -0.1)):
            self.compare("ccf", interp, decim, [], 5003, fractional_bw=fbw)
        self.compare("fff", 3, 2, random_taps(self.rng, "fff", 25), 5003,
                     fractional_bw=0.7)

    def test_tiny_streams(self):
        for suffix in ("ccf", "fff", "fsf"):
            for interp, decim in RATIOS:
                for taps in ([], random_taps(self.rng, suffix, 2 * interp + 1)):
                    for n in range(1, 8):
                        self.compare(suffix, interp, decim, taps, n)

    def test_tags_move_with_the_relative_rate(self):
        n = 9001
        tags = offset_tags([0, 1, 2, 3, 9, 10, 11, 159, 160, 161, 4500, 8990, 8999,
                            9000])
        for interp, decim in RATIOS:
            for suffix in ("ccf", "scc"):
                self.compare(suffix, interp, decim, [], n, tags)

    def test_odd_batches_and_call_sizes(self):
        """The same stream in batches of 1, 7 and 4097 items and with the scheduler's
        calls cut to 17 and 1000 outputs: nothing lost or repeated between calls, and
        the same end of stream."""
        for interp, decim in ((3, 2), (147, 160), (1, 10), (10, 1)):
            taps = random_taps(self.rng, "ccf", 8 * interp + 5)
            for batch in (1, 7, 4097):
                for mno in (17, 1000):
                    ours, theirs = make_pair("rational_resampler", "ccf", interp, decim,
                                             taps, batch_size=batch)
                    x = random_input(self.rng, "ccf", 30011)
                    got, want = (run_alone(blk, x, mno) for blk in (ours, theirs))
                    msg = f"{interp}/{decim} batch={batch} calls={mno}"
                    self.assertLessEqual(abs(len(got) - len(want)),
                                         end_slack(interp, decim), msg)
                    # Against the definition: with calls this short gr-filter's block
                    # now and then reads a sample past its input (its forecast counts
                    # from the window's start), which changes one output.
                    ref = reference_rational(x, taps, interp, decim, len(got))
                    assert_same_output(self, "ccf", got, ref, msg)

    def test_set_taps_mid_stream(self):
        """New taps from the next work() call on, as gr-filter: both blocks get them
        once all they can compute of the first samples is out, also when the tap count
        and so the history changes. Where gr-filter's stopping point depends on its
        call sizes (end_slack) the outputs between the two stopping points differ;
        all others, before and after the change, agree."""
        first = 12000
        for suffix in ("ccf", "fsf"):
            for interp, decim in ((3, 2), (2, 3), (147, 160), (1, 10), (10, 1), (6, 4)):
                old = random_taps(self.rng, suffix, 6 * interp)
                for new_len in (6 * interp, 2 * interp + 1, 15 * interp + 2):
                    new = random_taps(self.rng, suffix, new_len)
                    ours, theirs = make_pair("rational_resampler", suffix, interp, decim,
                                             old, batch_size=1)
                    gain = max(arm_gain(old, interp), arm_gain(new, interp))
                    x = random_input(self.rng, suffix, 30000, gain)
                    got, want, before = run_gated_until_idle(
                        x, first, ours, theirs, SINKS[TYPES[suffix][1]],
                        lambda blk: blk.set_taps(new))
                    msg = f"{suffix} {interp}/{decim} new_len={new_len} before={before}"
                    slack = end_slack(interp, decim)
                    self.assertLessEqual(abs(before[0] - before[1]), slack, msg)
                    lo, hi = min(before), max(before)
                    self.assertGreater(lo, 0, msg)
                    self.assertGreater(len(want), hi + 1000, msg)
                    # Against the definition, old taps then new: where the
                    # interpolation exceeds the decimation gr-filter's block reads a
                    # sample past the input it has been given, at the gate and
                    # wherever a call ends short of the source, so its outputs there
                    # depend on stale buffer contents.
                    def ref(taps):
                        y = reference_rational(x, taps, interp, decim, len(got))
                        return np.trunc(y.real) if suffix == "fsf" else y
                    assert_same_output(self, suffix, got[:lo], ref(old)[:lo], msg)
                    if new_len >= len(old):
                        assert_same_output(self, suffix, got[hi:], ref(new)[hi:], msg)
                    # A shorter filter mid-stream: gr-filter's next window ends in
                    # samples it has read past; ours starts at the next new sample
                    # (docs/resamplers.md), so only the outputs before the change
                    # agree.
                    self.assertEqual(len(ours.taps()), len(theirs.taps()), msg)
                    np.testing.assert_allclose(ours.taps(), theirs.taps(), err_msg=msg)

    def test_set_taps_before_the_stream(self):
        for interp, decim in ((3, 2), (147, 160)):
            ours, theirs = make_pair("rational_resampler", "ccc", interp, decim, [])
            new = random_taps(self.rng, "ccc", 4 * interp + 1)
            for blk in (ours, theirs):
                blk.set_taps(new)
            x = random_input(self.rng, "ccc", 7001)
            got, want, _, _ = run_pair(self, "ccc", ours, theirs, x)
            assert_same_output(self, "ccc", got, want, f"{interp}/{decim}")

    def test_cpu_device_gives_same_results(self):
        for suffix in ("ccc", "fsf", "scc"):
            for interp, decim in ((3, 2), (147, 160), (6, 4)):
                ours, _, _ = self.compare(suffix, interp, decim, [], 9001,
                                          device=gpufilter.device_cpu)
                self.assertFalse(ours.on_gpu())
                self.assertEqual(ours.device(), gpufilter.device_cpu)
                self.assertEqual(ours.method(), "cpu")

    def test_runs_on_gpu_when_there_is_one(self):
        skip_without_gpu(self)
        blk = gpufilter.rational_resampler_ccf(3, 2)
        self.assertTrue(blk.on_gpu())
        self.assertEqual(blk.device(), 0)

    def test_bad_arguments_name_themselves(self):
        """ValueError, IndexError or OverflowError whose message starts with the
        parameter's name, as every block's (qa_argument_limits). fractional_bw matters
        only for designed taps: from 0.5 up (as gr-filter) and NaN are refused there
        (a negative one is 0.4, as 0: test_designed_taps_for_each_fractional_bw)."""
        errors = (ValueError, IndexError, OverflowError)
        for suffix in TYPES:
            make = getattr(gpufilter, "rational_resampler_" + suffix)
            taps = random_taps(self.rng, suffix, 12)
            cases = [("interpolation", (0, 2, taps)), ("decimation", (3, 0, taps)),
                     ("interpolation", (0, 2)), ("decimation", (3, 0))]
            cases += [("interpolation", (bad, 2, taps)) for bad in (-1, -3, 2**64)]
            cases += [("decimation", (3, bad)) for bad in (-1, -3, 2**64)]
            cases += [("fractional_bw", (3, 2, [], bw))
                      for bw in (0.5, 0.7, 5.0, math.nan, math.inf)]
            cases += [("taps", (3, 2, [0.5, math.nan])), ("taps", (3, 2, [math.inf])),
                      ("device", (3, 2, taps, 0.0, 99)),
                      ("batch_size", (3, 2, taps, 0.0, gpufilter.device_auto, 0)),
                      ("max_latency", (3, 2, taps, 0.0, gpufilter.device_auto, 1024,
                                       -1.0))]
            for name, args in cases:
                with self.subTest(suffix=suffix, args=args):
                    with self.assertRaisesRegex(errors, "^" + name + ": "):
                        make(*args)
            with self.assertRaisesRegex(TypeError, "^interpolation: must be an integer"):
                make(2.5, 2)
            blk = make(3, 2, taps)
            for bad in ([], [math.nan]):
                with self.assertRaisesRegex(ValueError, "^taps: "):
                    blk.set_taps(bad)
            self.assertEqual(len(blk.taps()), 12)  # a refused set_taps changes nothing


if __name__ == "__main__":
    gr_unittest.run(qa_rational_resampler)
