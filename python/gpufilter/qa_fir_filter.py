#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.fir_filter_XXX against gnuradio.filter.fir_filter_XXX on random data."""


import math
import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import (gpu_count, random_samples, relative_error,
                              run_gated_side_by_side, run_side_by_side, skip_without_gpu)
import resampler_test_support as int16_types

# name -> (input complex?, taps complex?, vector source, vector sink)
VARIANTS = {
    "fff": (False, False, blocks.vector_source_f, blocks.vector_sink_f),
    "ccf": (True, False, blocks.vector_source_c, blocks.vector_sink_c),
    "ccc": (True, True, blocks.vector_source_c, blocks.vector_sink_c),
    "fcc": (False, True, blocks.vector_source_f, blocks.vector_sink_c),
}
TOLERANCE = 1e-5


def make_pair(name, decimation, taps, **gpu_options):
    ours = getattr(gpufilter, "fir_filter_" + name)(decimation, taps, **gpu_options)
    theirs = getattr(filter, "fir_filter_" + name)(decimation, taps)
    return ours, theirs


class qa_fir_filter(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2026)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def run_both(self, name, decimation, taps, x, tags=(), **gpu_options):
        _, _, source, sink = VARIANTS[name]
        ours, theirs = make_pair(name, decimation, taps, **gpu_options)
        got, want = run_side_by_side(
            self, source(x.tolist(), False, 1, list(tags)), ours, theirs, sink,
            gpu_options.get("device") != gpufilter.device_cpu)
        return ours, got, want

    def taps_for(self, name, n):
        return random_samples(self.rng, n, VARIANTS[name][1]).tolist()

    def test_matches_gr_filter_all_types_and_decimations(self):
        for name, (in_c, _, _, _) in VARIANTS.items():
            for ntaps in (1, 16, 63, 256):
                taps = self.taps_for(name, ntaps)
                for decimation in range(1, 8):
                    x = random_samples(self.rng, 20000 + decimation, in_c)
                    _, got, want = self.run_both(name, decimation, taps, x)
                    msg = f"{name} ntaps={ntaps} decimation={decimation}"
                    self.assertEqual(len(got.data()), len(want.data()), msg)
                    self.assertLessEqual(relative_error(got.data(), want.data()), TOLERANCE, msg)

    def test_int16_types_fsf_and_scc(self):
        """fir_filter_fsf (int16 output, within one count: the input scaled so that
        no output leaves int16) and fir_filter_scc (int16 input), every decimation to
        7, with tags, and on the CPU."""
        tags = int16_types.offset_tags([0, 1, 2, 999, 1000, 4997, 4999])
        for suffix in ("fsf", "scc"):
            for ntaps in (1, 16, 63, 256):
                taps = int16_types.random_taps(self.rng, suffix, ntaps)
                for decimation in range(1, 8):
                    for options in ({}, {"device": gpufilter.device_cpu}):
                        ours, theirs = int16_types.make_pair(
                            "fir_filter", suffix, decimation, taps, **options)
                        x = int16_types.random_input(self.rng, suffix, 5003,
                                                     int16_types.arm_gain(taps, 1))
                        got, want, got_tags, want_tags = int16_types.run_pair(
                            self, suffix, ours, theirs, x, tags, bool(options))
                        msg = f"{suffix} ntaps={ntaps} D={decimation} {options}"
                        self.assertEqual(len(got), 5003 // decimation, msg)
                        int16_types.assert_same_output(self, suffix, got, want, msg)
                        self.assertEqual(got_tags, want_tags, msg)

    def test_tiny_streams_give_gr_filters_whole_output(self):
        for n in (1, 2, 6, 7, 160, 161):
            for decimation in (1, 3, 7):
                x = random_samples(self.rng, n, True)
                _, got, want = self.run_both("ccf", decimation, self.taps_for("ccf", 31), x)
                self.assertEqual(len(got.data()), n // decimation, f"n={n} D={decimation}")
                self.assertEqual(len(got.data()), len(want.data()))
                if n // decimation:
                    self.assertLessEqual(relative_error(got.data(), want.data()), TOLERANCE)

    def test_tags_propagate_like_gr_filter(self):
        x = random_samples(self.rng, 5000, True)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off), pmt.intern("src")))
                for off in (0, 1, 2, 999, 1000, 1001, 2500, 4997, 4998, 4999)]
        for decimation in (1, 2, 3, 7):
            _, got, want = self.run_both("ccf", decimation, self.taps_for("ccf", 40), x, tags)
            ours = [(t.offset, pmt.to_long(t.value)) for t in got.tags()]
            theirs = [(t.offset, pmt.to_long(t.value)) for t in want.tags()]
            self.assertTrue(len(theirs) > 0)
            self.assertEqual(ours, theirs, f"D={decimation}")

    def test_set_taps_mid_stream(self):
        """Both blocks get new taps at the same stream position; outputs must agree,
        also when the tap count (and so the history) changes."""
        for new_len in (40, 9, 120):
            for decimation in (1, 3):
                x = random_samples(self.rng, 30000, True)
                first = 12000
                taps1, taps2 = self.taps_for("ccf", 40), self.taps_for("ccf", new_len)
                ours, theirs = make_pair("ccf", decimation, taps1, batch_size=1)
                got, want = run_gated_side_by_side(
                    self, x, first, decimation, ours, theirs, blocks.vector_sink_c,
                    lambda blk: blk.set_taps(taps2))
                msg = f"new_len={new_len} D={decimation}"
                self.assertEqual(ours.taps(), theirs.taps())
                self.assertEqual(len(got.data()), len(want.data()), msg)
                self.assertLessEqual(relative_error(got.data(), want.data()), TOLERANCE, msg)

    def test_call_sizes_follow_the_buffer_in_front(self):
        """With stock neighbours a call takes at most what the buffer in front holds,
        as gr-filter's block does (a larger buffer would let a throttle in front
        release larger chunks). A larger min output buffer on the block in front, or
        an infinite budget, gives large batches; the output length is exact always."""
        n = 3_000_000 + 5
        batch = 1 << 18
        stock = 8192  # GNU Radio's default buffer: 64 KiB, of complex samples
        for setup in ("stock", "source buffer", "infinite budget"):
            tb = gr.top_block()
            src = blocks.vector_source_c(random_samples(self.rng, 4096, True).tolist(),
                                         True)
            head = blocks.head(gr.sizeof_gr_complex, n)
            if setup == "source buffer":
                head.set_min_output_buffer(2 * batch)
            latency = math.inf if setup == "infinite budget" else \
                gpufilter.default_max_latency
            ours = gpufilter.fir_filter_ccf(4, self.taps_for("ccf", 64), batch_size=batch,
                                            max_latency=latency)
            sink = blocks.null_sink(gr.sizeof_gr_complex)
            tb.connect(src, head, ours, sink)
            tb.run()
            self.assertEqual(ours.nitems_written(0), n // 4, setup)
            if setup == "stock":
                self.assertLess(ours.largest_batch(), stock, setup)
            else:
                # Not always a whole batch in one call: a call with less room in its
                # output buffer than a batch is cut short and the next completes the
                # batch (one run in eight on an H100: 262112 of 262144).
                self.assertGreater(ours.largest_batch(), batch // 2, setup)

    def test_restart_starts_from_zero_history_like_gr_filter(self):
        x = random_samples(self.rng, 3000, True)
        taps = self.taps_for("ccf", 50)
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        ours, theirs = make_pair("ccf", 2, taps)
        got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
        tb.connect(src, ours, got)
        tb.connect(src, theirs, want)
        tb.run()
        src.rewind()
        tb.run()
        self.assertEqual(len(got.data()), len(want.data()))
        self.assertLessEqual(relative_error(got.data(), want.data()), TOLERANCE)

    def test_cpu_device_gives_same_results(self):
        x = random_samples(self.rng, 10000, True)
        taps = self.taps_for("ccc", 33)
        ours, got, want = self.run_both("ccc", 3, taps, x, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.assertEqual(ours.device(), gpufilter.device_cpu)
        self.assertEqual(ours.method(), "cpu")
        self.assertLessEqual(relative_error(got.data(), want.data()), TOLERANCE)

    def test_fir_method_is_the_deprecated_name_of_method(self):
        cpu = gpufilter.device_cpu
        for blk in (gpufilter.fir_filter_ccf(1, [1.0, 0.5], device=cpu),
                    gpufilter.pfb_channelizer_ccf(4, [1.0] * 8, device=cpu),
                    gpufilter.pfb.arb_resampler_ccf(1.5, device=cpu)):
            with self.subTest(block=blk.name()):
                self.assertEqual(blk.method(), "cpu")
                self.assertEqual(blk.fir_method(), blk.method())

    def test_runs_on_gpu_when_there_is_one(self):
        skip_without_gpu(self)
        blk = gpufilter.fir_filter_ccf(1, [1.0, 0.5])
        self.assertTrue(blk.on_gpu())
        self.assertEqual(blk.device(), 0)
        self.assertIn("sm_", gpufilter.cuda_device_name(0))

    def test_each_algorithm_matches_gr_filter(self):
        # Forced direct form and FFT overlap-save, long enough for both to matter,
        # across stream lengths that end mid-segment; the FFT path is held to 1e-4.
        skip_without_gpu(self)
        for name in ("ccf", "fff", "ccc"):
            for method, tolerance in (("direct", TOLERANCE), ("fft", 1e-4)):
                for decimation in (1, 5):
                    x = random_samples(self.rng, 150001, VARIANTS[name][0])
                    taps = self.taps_for(name, 1500)
                    ours, got, want = self.run_both(
                        name, decimation, taps, x, method=method)
                    self.assertEqual(ours.method(), method)
                    self.assertEqual(len(got.data()), len(want.data()))
                    self.assertLessEqual(
                        relative_error(got.data(), want.data()), tolerance,
                        f"{name} {method} D={decimation}")

    def test_default_method_forces_automatic_blocks_only(self):
        # The module-wide default replaces `automatic` in blocks made afterwards; a
        # block made with its own method keeps it. Restored whatever happens.
        self.assertEqual(gpufilter.get_default_filter_method(),
                         gpufilter.filter_method.automatic)
        try:
            gpufilter.set_default_filter_method(gpufilter.filter_method.fft)
            self.assertEqual(gpufilter.get_default_filter_method(),
                             gpufilter.filter_method.fft)
            if gpu_count() == 0:
                return
            taps = self.taps_for("ccf", 8)  # automatic would take the direct form
            self.assertEqual(gpufilter.fir_filter_ccf(1, taps).method(), "fft")
            self.assertEqual(
                gpufilter.fir_filter_ccf(1, taps, method="direct").method(), "direct")
        finally:
            gpufilter.set_default_filter_method(gpufilter.filter_method.automatic)
        self.assertEqual(gpufilter.fir_filter_ccf(1, [1.0] * 8).method(),
                         "cpu" if gpu_count() == 0 else "direct")

    def test_gpu_blocks_sharing_buffers(self):
        # One buffer feeds three GPU filters of different lengths, and one filter feeds
        # another: each page-locks the buffers it copies from, and blocks stop at
        # different times, so none may unlock a buffer another still copies from.
        x = random_samples(self.rng, 600000, True)
        for _ in range(3):
            tb = gr.top_block()
            src = blocks.vector_source_c(x.tolist(), False)
            taps = [self.taps_for("ccf", n) for n in (7, 300, 2000)]
            pairs = []
            for t in taps:
                ours = gpufilter.fir_filter_ccf(1, t)
                second = gpufilter.fir_filter_ccf(3, taps[0])
                theirs = filter.fir_filter_ccf(1, t)
                theirs2 = filter.fir_filter_ccf(3, taps[0])
                got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
                tb.connect(src, ours, second, got)
                tb.connect(src, theirs, theirs2, want)
                pairs.append((got, want))
            tb.run()
            for got, want in pairs:
                self.assertEqual(len(got.data()), len(want.data()))
                self.assertLessEqual(relative_error(got.data(), want.data()), 1e-4)

    def test_bad_parameters_name_themselves(self):
        cases = [
            (ValueError, "decimation", lambda: gpufilter.fir_filter_ccf(0, [1.0])),
            (ValueError, "decimation", lambda: gpufilter.fir_filter_fff(-3, [1.0])),
            (ValueError, "taps", lambda: gpufilter.fir_filter_ccf(1, [])),
            (ValueError, "decimation", lambda: gpufilter.fir_filter_fsf(0, [1.0])),
            (ValueError, "taps", lambda: gpufilter.fir_filter_scc(1, [])),
            (IndexError, "device", lambda: gpufilter.fir_filter_fsf(1, [1.0], 99)),
            (IndexError, "device", lambda: gpufilter.fir_filter_ccf(1, [1.0], 99)),
            (IndexError, "device", lambda: gpufilter.fir_filter_ccf(1, [1.0], -7)),
            (ValueError, "batch_size", lambda: gpufilter.fir_filter_ccf(1, [1.0], -1, 0)),
            (ValueError, "method",
             lambda: gpufilter.fir_filter_ccf(1, [1.0], -1, 1024, "winograd")),
            (IndexError, "device", lambda: gpufilter.cuda_device_name(99)),
        ]
        for exc, word, make in cases:
            with self.assertRaises(exc) as ctx:
                make()
            self.assertIn(word, str(ctx.exception))
        blk = gpufilter.fir_filter_ccf(1, [1.0])
        with self.assertRaises(ValueError):
            blk.set_taps([])


if __name__ == "__main__":
    gr_unittest.run(qa_fir_filter)
