#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stream that ends mid-batch: every block (block_table) flushes what it has and
ends, never waits for a batch that cannot come. With a head of 1, 2, 3, batch-1 and
batch+1 items, ours gives gr-filter's output: the same length and samples (for the
arbitrary resamplers, whose end gr-filter's call sizes move, within a few outputs)."""

import numpy as np
from gnuradio import gr_unittest

import block_table
from gpu_test_support import GPU_REQUIRED, gpu_count

BATCH = 4096


class qa_stream_ends(gr_unittest.TestCase):
    def setUp(self):
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def test_every_block_every_short_end(self):
        rng = np.random.default_rng(11)
        for e in block_table.available():
            taps = e.taps(rng)
            inputs = e.inputs(rng, BATCH + 64)
            for n in (1, 2, 3, BATCH - 1, BATCH + 1):
                with self.subTest(block=e.name, head=n):
                    ours, got, want = block_table.run(e, inputs, taps, head=n,
                                                      batch_size=BATCH, timeout=60)
                    if GPU_REQUIRED:
                        self.assertTrue(ours.on_gpu())
                    for q, (g, w) in enumerate(zip(got, want)):
                        self.assertLessEqual(abs(len(g) - len(w)), e.length_slack,
                                             f"port {q}: {len(g)} vs {len(w)} outputs")
                        m = min(len(g), len(w))
                        self.assertLessEqual(block_table.relative_error(g[:m], w[:m]),
                                             e.tolerance, f"port {q}")


if __name__ == "__main__":
    gr_unittest.run(qa_stream_ends)
