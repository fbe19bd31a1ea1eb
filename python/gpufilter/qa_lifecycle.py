#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A radio runs for weeks: start/stop cycles and flowgraphs made and destroyed must
give back host memory, page-locked registrations and device memory."""

import gc
import os

import numpy as np
from gnuradio import blocks, gpufilter, gr, gr_unittest

import gpufilter_test_hooks
from gpu_test_support import GPU_REQUIRED, gpu_count, random_samples

MB = 1 << 20
CYCLES = int(os.environ.get("GPUFILTER_LIFECYCLE_CYCLES", "1000"))
FLOWGRAPHS = int(os.environ.get("GPUFILTER_LIFECYCLE_FLOWGRAPHS", "200"))


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class qa_lifecycle(gr_unittest.TestCase):
    def setUp(self):
        self.gpus = gpu_count()
        rng = np.random.default_rng(5)
        self.x = random_samples(rng, 1 << 14, True)
        self.taps = random_samples(rng, 63, False).tolist()

    def chain(self, tb, src):
        """A FIR and a frequency-translating filter after src, into a null sink."""
        fir = gpufilter.fir_filter_ccf(1, self.taps, batch_size=8192)
        xlate = gpufilter.freq_xlating_fir_filter_ccf(2, self.taps, 1e3, 48e3,
                                                      batch_size=8192)
        tb.connect(src, fir, xlate, blocks.null_sink(gr.sizeof_gr_complex))
        return fir

    def state(self):
        gc.collect()
        dev = gpufilter.cuda_device_free_memory(0) if self.gpus else 0
        return rss_bytes(), gpufilter_test_hooks.page_locked_ranges(), dev

    def assert_returned(self, before, after, what):
        rss0, locked0, dev0 = before
        rss1, locked1, dev1 = after
        msg = (f"{what}: RSS {rss0 / MB:.1f} -> {rss1 / MB:.1f} MB, page-locked ranges "
               f"{locked0} -> {locked1}, device free {dev0 / MB:.1f} -> {dev1 / MB:.1f} MB")
        print(msg)
        self.assertLess(rss1 - rss0, 1 * MB, msg)
        self.assertEqual(locked1, locked0, msg)
        self.assertLess(abs(dev1 - dev0), 1 * MB, msg)

    def test_start_stop_cycles(self):
        tb = gr.top_block()
        fir = self.chain(tb, blocks.vector_source_c(self.x.tolist(), True))
        for _ in range(20):  # warm-up: allocators, plans, first registrations
            tb.start()
            tb.stop()
            tb.wait()
        before = self.state()
        for _ in range(CYCLES):
            tb.start()
            tb.stop()
            tb.wait()
        self.assert_returned(before, self.state(), f"{CYCLES} start/stop/wait cycles")
        if GPU_REQUIRED:
            self.assertTrue(fir.on_gpu())

    def test_flowgraphs_made_and_destroyed(self):
        def one():
            tb = gr.top_block()
            src = blocks.vector_source_c(self.x.tolist(), True)
            head = blocks.head(gr.sizeof_gr_complex, 50000)
            tb.connect(src, head)
            self.chain(tb, head)
            tb.run()

        for _ in range(10):
            one()
        before = self.state()
        for _ in range(FLOWGRAPHS):
            one()
        self.assert_returned(before, self.state(), f"{FLOWGRAPHS} flowgraphs")


if __name__ == "__main__":
    gr_unittest.run(qa_lifecycle)
