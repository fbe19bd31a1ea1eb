#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.complex_to_real against gnuradio.blocks.complex_to_real: exactly."""

import numpy as np
import pmt
from gnuradio import blocks, gpufilter, gr, gr_unittest

from gpu_test_support import gpu_count, random_samples, run_side_by_side, skip_without_gpu
from qa_quadrature_demod import chunked_source


class qa_complex_to_real(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(4321)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def run_both(self, x, vlen, source=None, tags=(), **gpu_options):
        ours = gpufilter.complex_to_real(vlen, **gpu_options)
        src = source or blocks.vector_source_c(x.tolist(), False, vlen, list(tags))
        got, want = run_side_by_side(
            self, src, ours, blocks.complex_to_real(vlen),
            lambda: blocks.vector_sink_f(vlen),
            gpu_options.get("device") != gpufilter.device_cpu)
        return ours, np.asarray(got.data()), np.asarray(want.data()), got, want

    def test_matches_gr_blocks_over_vlen_lengths_and_batches(self):
        for vlen in (1, 3, 8, 1024):
            for items in (1, 5, 4099, 60001 // vlen + 1):
                for batch in (1, 13, gpufilter.default_batch_size):
                    x = random_samples(self.rng, items * vlen, True)
                    ours, got, want, _, _ = self.run_both(x, vlen, batch_size=batch)
                    msg = f"vlen={vlen} items={items} batch={batch}"
                    self.assertEqual(len(got), items * vlen, msg)
                    np.testing.assert_array_equal(got, want, msg)
                    np.testing.assert_array_equal(got, x.real, msg)

    def test_odd_chunk_sizes(self):
        x = random_samples(self.rng, 250003, True)
        src = chunked_source(x, [1, 4099, 17, 3, 65537, 2, 999])
        _, got, want, _, _ = self.run_both(x, 1, source=src, batch_size=5000)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got, x.real)

    def test_tags_propagate_like_gr_blocks(self):
        x = random_samples(self.rng, 3 * 2000, True)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src")))
                for off in (0, 1, 2, 999, 1999)]
        _, _, _, got, want = self.run_both(x, 3, tags=tags)
        ours = [(t.offset, pmt.to_long(t.value)) for t in got.tags()]
        theirs = [(t.offset, pmt.to_long(t.value)) for t in want.tags()]
        self.assertTrue(theirs)
        self.assertEqual(ours, theirs)

    def test_cpu_device_gives_same_results(self):
        x = random_samples(self.rng, 4 * 3001, True)
        ours, got, want, _, _ = self.run_both(x, 4, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.assertEqual(ours.vlen(), 4)
        np.testing.assert_array_equal(got, want)

    def test_runs_on_gpu_when_there_is_one(self):
        skip_without_gpu(self)
        blk = gpufilter.complex_to_real()
        self.assertTrue(blk.on_gpu())
        self.assertEqual(blk.method(), "complex_to_real")

    def test_bad_parameters_name_themselves(self):
        cases = [
            (ValueError, "vlen", lambda: gpufilter.complex_to_real(0)),
            (ValueError, "vlen", lambda: gpufilter.complex_to_real(-2)),
            (IndexError, "device", lambda: gpufilter.complex_to_real(1, device=99)),
            (ValueError, "batch_size", lambda: gpufilter.complex_to_real(1, batch_size=0)),
        ]
        for exc, word, bad in cases:
            with self.assertRaises(exc) as ctx:
                bad()
            self.assertIn(word, str(ctx.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_real)
