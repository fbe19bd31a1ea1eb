#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Device buffers' memory: windows across a ring's end, large calls, no device memory
for the buffers, granules, item sizes with large odd factors, max_output_buffer, the
PCIe counters, the CPU fallback, and device memory given back when flowgraphs go.
Without a GPU, on emulated device buffers (device_buffer_case)."""

import gc
import time

import numpy as np
from gnuradio import blocks, gpufilter, gr, gr_unittest

import gpufilter_test_hooks as hooks
from device_buffer_case import CSIZE, MB, device_buffer_case, in_gpu_granules, run_with_timeout
from gpu_test_support import random_samples, relative_error


class qa_device_buffer_memory(device_buffer_case):
    def test_windows_across_the_ring_end(self):
        """Small rings (a page when emulated, 2 MiB on a GPU) wrapped again and again: a
        GPU output in device memory read by two GPU filters with different histories,
        their outputs read on the host. Every window that runs past the end of a ring
        reads the ring's start through the second mapping."""
        n = 50000 if self.emulated else 3 * (1 << 18) + 12345
        x = random_samples(self.rng, n, True)

        def build(tb):
            g1, g2, g3 = (self.fir(k, batch=300) for k in range(3))
            for g in (g1, g2, g3):
                g.set_max_output_buffer(0, 700)
            s2, s3 = blocks.vector_sink_c(), blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(x.tolist()), g1, g2, s2)
            tb.connect(g1, g3, s3)
            return [s2, s3], [g1, g2, g3]

        def check(on, gs):
            if on:  # g1's ring is in device memory (emulated: host memory)
                self.assertGreater(hooks.device_buffer_bytes(), 0)
        got2, got3 = self.both(build, check)
        ref1 = self.reference(x, self.taps[:1])
        self.assertLess(relative_error(got2, self.reference(ref1, self.taps[1:2])), 1e-5)
        self.assertLess(relative_error(got3, self.reference(ref1, self.taps[2:3])), 1e-5)

    def test_large_calls_in_a_chain(self):
        """Device buffers keep the chain's calls whole batches (no small calls), once
        the host block in front hands the first block whole batches (its min output
        buffer: feed_whole_batches)."""
        x = random_samples(self.rng, 1 << 20, True)
        batch = 1 << 16
        gpufilter.set_device_buffers(True)
        tb = gr.top_block()
        gs = [gpufilter.fir_filter_ccf(1, self.taps[k], batch_size=batch)
              for k in range(3)]
        src = gpufilter.feed_whole_batches(blocks.vector_source_c(x.tolist()), batch)
        tb.connect(src, *gs, blocks.null_sink(CSIZE))
        run_with_timeout(self, tb)
        for g in gs:
            self.assertGreaterEqual(g.largest_batch(), batch)

    # ---- device memory short or awkward ----

    def chain_of_three(self, tb):
        gs = [self.fir(k) for k in range(3)]
        s = blocks.vector_sink_c()
        tb.connect(blocks.vector_source_c(self.x.tolist()), *gs, s)
        self.before = hooks.device_buffer_bytes()
        return [s], gs

    def test_no_device_memory_for_the_buffers(self):
        """Device rings that cannot be made (as with no device memory left): the chain
        runs through host memory instead, with the same output, and does not hang."""
        def check(on, gs):
            self.assertLessEqual(hooks.device_buffer_bytes() - self.before, 0)
        hooks.fail_device_buffer_memory(True)
        try:
            got, = self.both(self.chain_of_three, check)
        finally:
            hooks.fail_device_buffer_memory(False)
        self.assertLess(relative_error(got, self.reference(self.x, self.taps)), 1e-5)

    def test_rings_in_gpu_sized_granules(self):
        """Emulated rings in 2 MiB granules, as on a GPU (rings far larger than GNU
        Radio asked for): the same output."""
        if not self.emulated:
            self.skipTest("a GPU's own rings are tested by the other tests")
        hooks.emulated_ring_granularity(2 * MB)
        try:
            got, = self.both(self.chain_of_three)
        finally:
            hooks.emulated_ring_granularity(0)
        self.assertLess(relative_error(got, self.reference(self.x, self.taps)), 1e-5)

    def test_item_size_with_a_large_odd_factor(self):
        """A 1001-channel channelizer's vectors are 8008 bytes: in 2 MiB granules a
        ring would take 2 GiB, so that buffer stays in host memory (pages, as GNU
        Radio's own), and the channelizer -> FM demodulator bank chain gives the same
        output."""
        nchan, channels = 1001, [0, 7, 500, 1000]
        x = random_samples(self.rng, nchan * 40, True)
        taps = random_samples(self.rng, 2 * nchan, False).tolist()
        audio = random_samples(self.rng, 5, False).tolist()

        def build(tb):
            chan = gpufilter.pfb_channelizer_vcf(nchan, taps, 1.0, "complex",
                                                 batch_size=nchan * 8)
            bank = gpufilter.fm_demod_bank_vcf(nchan, channels, 1, audio, 1e5,
                                               batch_size=8)
            s = blocks.vector_sink_f(len(channels))
            tb.connect(blocks.vector_source_c(x.tolist()), chan, bank, s)
            self.before = hooks.device_buffer_bytes()
            return [s], [chan, bank]

        def check(on, gs):
            self.assertLess(hooks.device_buffer_bytes() - self.before, 64 * MB)
        if self.emulated:
            hooks.emulated_ring_granularity(2 * MB)
        try:
            got, = self.both(build, check)
        finally:
            hooks.emulated_ring_granularity(0)
        self.assertEqual(len(got), 40 * len(channels))
        self.assertTrue(np.all(np.isfinite(got)))

    def test_max_output_buffer_bounds_a_gpu_output(self):
        """set_max_output_buffer() bounds what a GPU block's output holds, as with
        GNU Radio's own buffers, even where the ring is rounded up to 2 MiB granules:
        a slow host reader never sees more than that waiting (latency a live radio
        would feel)."""
        class slow_sink(gr.sync_block):
            def __init__(self):
                gr.sync_block.__init__(self, "slow_sink", [np.complex64], None)
                self.most, self.got = 0, []

            def work(self, input_items, output_items):
                self.most = max(self.most, len(input_items[0]))
                self.got.append(np.array(input_items[0]))
                time.sleep(0.001)
                return len(input_items[0])

        gpufilter.set_device_buffers(True)
        tb = gr.top_block()
        g = self.fir(0, batch=512)
        g.set_max_output_buffer(0, 4096)
        sink = slow_sink()
        tb.connect(blocks.vector_source_c(self.x.tolist()), g, sink)
        run_with_timeout(self, tb)
        got = np.concatenate(sink.got)
        self.assertLessEqual(sink.most, 4096)
        self.assertLess(relative_error(got, self.reference(self.x, self.taps[:1])), 1e-5)

    # ---- transfers ----

    def test_pcie_counters(self):
        """Three chained filters between a host source and sink: with device buffers
        the input is uploaded once and the output downloaded once; without, three
        times each (on a GPU; the CPU fallback moves nothing)."""
        for on in (True, False):
            gpufilter.set_device_buffers(on)
            tb = gr.top_block()
            gs = [self.fir(k) for k in range(3)]
            s = blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(self.x.tolist()), *gs, s)
            run_with_timeout(self, tb)
            up = sum(g.bytes_to_device() for g in gs)
            down = sum(g.bytes_from_device() for g in gs)
            nbytes = self.x.nbytes
            if not self.gpus:
                self.assertEqual((up, down), (0, 0))
            elif on:
                self.assertEqual((up, down), (nbytes, nbytes))
                self.assertEqual(gs[0].bytes_to_device(), nbytes)
                self.assertEqual(gs[2].bytes_from_device(), nbytes)
            else:
                self.assertEqual((up, down), (3 * nbytes, 3 * nbytes))

    def test_cpu_fallback_unchanged(self):
        """Blocks on the CPU fallback never declare device buffers (no emulation),
        even with the switch on."""
        gpufilter.set_device_buffers(True)
        hooks.emulate_device_buffers(False)
        try:
            before = hooks.device_buffer_bytes()
            tb = gr.top_block()
            gs = [gpufilter.fir_filter_ccf(1, t, device=gpufilter.device_cpu)
                  for t in self.taps]
            s = blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(self.x.tolist()), *gs, s)
            tb.run()
            self.assertEqual(hooks.device_buffer_bytes(), before)
            for g in gs:
                self.assertFalse(g.on_gpu())
                self.assertEqual((g.bytes_to_device(), g.bytes_from_device()), (0, 0))
            np.testing.assert_array_equal(np.array(s.data()),
                                          self.reference(self.x, self.taps))
        finally:
            hooks.emulate_device_buffers(self.emulated)

    def test_flowgraphs_give_back_device_memory(self):
        def one():
            tb = gr.top_block()
            src = blocks.vector_source_c(self.x.tolist(), True)
            head = blocks.head(CSIZE, 20000)
            gs = [self.fir(k) for k in range(3)]
            tb.connect(src, head, *gs, blocks.null_sink(CSIZE))
            tb.run()

        def state():
            gc.collect()
            dev = gpufilter.cuda_device_free_memory(0) if self.gpus else 0
            return hooks.device_buffer_bytes(), dev

        gpufilter.set_device_buffers(True)
        for _ in range(5):
            one()
        live0, free0 = state()
        for _ in range(40):
            one()
        live1, free1 = state()
        self.assertEqual(live1, live0)
        self.assertLess(abs(free1 - free0), 1 * MB)


class qa_device_buffer_memory_in_gpu_granules(in_gpu_granules, qa_device_buffer_memory):
    """Every test above again in a GPU's granules (in_gpu_granules)."""


if __name__ == "__main__":
    gr_unittest.run(qa_device_buffer_memory)
