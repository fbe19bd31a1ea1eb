#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.pfb_interpolator_ccf against gnuradio.filter.pfb_interpolator_ccf on
random data: every interpolation from 1 to 8 and larger ones, odd and even tap counts,
odd chunk sizes, set_taps mid-stream, tags, the CPU fallback and bad parameters."""

import time

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import (GPU_REQUIRED, gated_source, gpu_count, random_samples,
                              relative_error, run_side_by_side)

TOLERANCE = 1e-5  # relative error (float32 sums of up to a few hundred products)


class qa_pfb_interpolator(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(4711)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def taps(self, n):
        return self.rng.uniform(-1, 1, n).tolist()

    def compare(self, interp, taps, x, msg, **gpu_options):
        ours = gpufilter.pfb_interpolator_ccf(interp, taps, **gpu_options)
        theirs = filter.pfb_interpolator_ccf(interp, taps)
        got, want = run_side_by_side(self, blocks.vector_source_c(x.tolist()), ours,
                                     theirs, blocks.vector_sink_c,
                                     gpu_options.get("device") != gpufilter.device_cpu)
        g, w = np.array(got.data()), np.array(want.data())
        self.assertEqual(len(g), len(w), msg)
        self.assertEqual(len(g), len(x) * interp, msg)
        self.assertLessEqual(relative_error(g, w), TOLERANCE, msg)
        return ours, theirs

    def test_matches_gr_filter_every_interpolation(self):
        for interp in (1, 2, 3, 4, 5, 6, 7, 8, 16, 64):
            for ntaps in (1, interp, interp + 1, 6 * interp - 1, 11 * interp + 3):
                x = random_samples(self.rng, 3001, True)
                ours, theirs = self.compare(interp, self.taps(ntaps), x,
                                            f"interp={interp} ntaps={ntaps}")
                self.assertEqual(ours.taps(), theirs.taps())

    def test_odd_chunk_sizes(self):
        taps = self.taps(45)
        for n in (1, 2, 7, 13, 1001, 40000):
            for batch in (1, 7, 4096):
                self.compare(5, taps, random_samples(self.rng, n, True),
                             f"n={n} batch={batch}", batch_size=batch)

    def test_cpu_device(self):
        for interp in (1, 3, 8):
            ours, _ = self.compare(interp, self.taps(4 * interp + 1),
                                   random_samples(self.rng, 2000, True), f"cpu {interp}",
                                   device=gpufilter.device_cpu)
            self.assertFalse(ours.on_gpu())
            self.assertEqual(ours.method(), "cpu")

    def test_set_taps_mid_stream(self):
        for interp, n1, n2 in ((4, 20, 45), (3, 31, 7), (7, 7, 7), (16, 100, 300)):
            taps2 = self.taps(n2)
            x = random_samples(self.rng, 3000, True)
            first = 1234
            tb = gr.top_block()
            src = gated_source(x, first)
            taps1 = self.taps(n1)
            ours = gpufilter.pfb_interpolator_ccf(interp, taps1, batch_size=1)
            theirs = filter.pfb_interpolator_ccf(interp, taps1)
            got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
            tb.connect(src, ours, got)
            tb.connect(src, theirs, want)
            tb.start()
            deadline = time.time() + 30
            while time.time() < deadline and not (
                    ours.nitems_written(0) == theirs.nitems_written(0) == first * interp):
                time.sleep(0.002)
            self.assertEqual(ours.nitems_written(0), first * interp)
            ours.set_taps(taps2)
            theirs.set_taps(taps2)
            src.release()
            tb.wait()
            g, w = np.array(got.data()), np.array(want.data())
            msg = f"interp={interp} {n1}->{n2}"
            self.assertEqual(len(g), len(w), msg)
            self.assertLessEqual(relative_error(g, w), TOLERANCE, msg)
            self.assertEqual(ours.taps(), theirs.taps())
            if GPU_REQUIRED:
                self.assertTrue(ours.on_gpu())

    def test_tags_as_gr_filter(self):
        x = random_samples(self.rng, 3000, True)
        offsets = (0, 1, 2, 999, 2999)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src"))) for off in offsets]
        taps = self.taps(23)
        got, want = run_side_by_side(self, blocks.vector_source_c(x.tolist(), False, 1, tags),
                                     gpufilter.pfb_interpolator_ccf(4, taps),
                                     filter.pfb_interpolator_ccf(4, taps),
                                     blocks.vector_sink_c)
        self.assertEqual(sorted((t.offset, pmt.to_long(t.value)) for t in got.tags()),
                         sorted((t.offset, pmt.to_long(t.value)) for t in want.tags()))
        self.assertEqual(len(got.tags()), len(offsets))

    def test_bad_parameters_name_themselves(self):
        nan = float("nan")
        cases = [
            (ValueError, "interp", lambda: gpufilter.pfb_interpolator_ccf(0, [1.0])),
            (ValueError, "interp", lambda: gpufilter.pfb_interpolator_ccf(-2, [1.0])),
            (ValueError, "taps", lambda: gpufilter.pfb_interpolator_ccf(4, [])),
            (ValueError, "taps", lambda: gpufilter.pfb_interpolator_ccf(4, [1.0, nan])),
            (ValueError, "taps",
             lambda: gpufilter.pfb_interpolator_ccf(4, [float("inf")])),
            (ValueError, "batch_size",
             lambda: gpufilter.pfb_interpolator_ccf(4, [1.0], batch_size=0)),
            (IndexError, "device", lambda: gpufilter.pfb_interpolator_ccf(4, [1.0], device=99)),
        ]
        for exc, word, make in cases:
            with self.assertRaises(exc, msg=word) as ctx:
                make()
            self.assertIn(word, str(ctx.exception))
        blk = gpufilter.pfb_interpolator_ccf(4, [1.0])
        for bad in ([], [nan]):
            with self.assertRaises(ValueError) as ctx:
                blk.set_taps(bad)
            self.assertIn("taps", str(ctx.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_interpolator)
