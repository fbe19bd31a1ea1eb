#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GPU blocks that hand samples to each other in device memory: the same flowgraphs
with device buffers on and off give the same outputs, transfers are counted, and
nothing changes on the CPU fallback.

Without a GPU the blocks run on the CPU fallback, where device buffers are never used;
these tests then turn on the test suite's emulation (device buffers in host memory),
so the scheduler's side (which side each end reads, transfers, windows across a
ring's end, counters, GNU Radio 3.10's replaced outputs) runs here too."""

import gc
import threading
import time

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

import gpufilter_test_hooks as hooks
from gpu_test_support import (GPU_REQUIRED, gated_source, gpu_count, random_samples,
                              relative_error)

MB = 1 << 20
CSIZE = gr.sizeof_gr_complex


class qa_device_buffers(gr_unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gpus = gpu_count()
        cls.emulated = cls.gpus == 0
        # The module's switch as the suite found it (on by default): every test sets
        # it as it needs, and each is followed by this value again.
        cls.switch = gpufilter.get_device_buffers()
        hooks.emulate_device_buffers(cls.emulated)

    @classmethod
    def tearDownClass(cls):
        hooks.emulate_device_buffers(False)
        gpufilter.set_device_buffers(cls.switch)

    def setUp(self):
        rng = np.random.default_rng(11)
        self.rng = rng
        self.x = random_samples(rng, 50000, True)
        self.taps = [random_samples(rng, n, False).tolist() for n in (31, 64, 17)]

    def tearDown(self):
        gpufilter.set_device_buffers(self.switch)

    def test_on_by_default(self):
        """A program starts with device buffers on; the switch reads back what was
        set."""
        self.assertTrue(self.switch)
        for on in (False, True):
            gpufilter.set_device_buffers(on)
            self.assertEqual(gpufilter.get_device_buffers(), on)

    # ---- helpers ----

    def fir(self, k=0, batch=4096, decimation=1):
        return gpufilter.fir_filter_ccf(decimation, self.taps[k], batch_size=batch)

    def both(self, build, check=None):
        """Runs build(tb) -> sinks with device buffers on, then off; compares every
        sink; returns the outputs with them on."""
        results = []
        for on in (True, False):
            gpufilter.set_device_buffers(on)
            tb = gr.top_block()
            sinks, gpu_blocks = build(tb)
            run_with_timeout(self, tb)
            if GPU_REQUIRED:
                for b in gpu_blocks:
                    self.assertTrue(b.on_gpu())
            if check:
                check(on, gpu_blocks)
            results.append([np.array(s.data()) for s in sinks])
        for got, want in zip(*results):
            self.assertEqual(len(got), len(want))
            self.assertLess(relative_error(got, want), 1e-5)
        return results[0]

    def reference(self, x, taps_list):
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        chain = [filter.fir_filter_ccf(1, t) for t in taps_list]
        sink = blocks.vector_sink_c()
        tb.connect(src, *chain, sink)
        tb.run()
        return np.array(sink.data())

    # ---- positions in a flowgraph ----

    def test_alone(self):
        def build(tb):
            g, s = self.fir(), blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(self.x.tolist()), g, s)
            return [s], [g]
        got, = self.both(build)
        self.assertLess(relative_error(got, self.reference(self.x, self.taps[:1])), 1e-5)

    def test_first_middle_last(self):
        def build(tb):
            src = blocks.vector_source_c(self.x.tolist())
            g1, g2, g3 = self.fir(0), self.fir(1), self.fir(2)
            h1, h2 = filter.fir_filter_ccf(1, self.taps[1]), filter.fir_filter_ccf(
                1, self.taps[0])
            s = blocks.vector_sink_c()
            # GPU first, host, GPU in the middle, host, GPU last
            tb.connect(src, g1, h1, g2, h2, g3, s)
            return [s], [g1, g2, g3]
        got, = self.both(build)
        want = self.reference(self.x, [self.taps[0], self.taps[1], self.taps[1],
                                       self.taps[0], self.taps[2]])
        self.assertLess(relative_error(got, want), 1e-5)

    def test_chain_of_three(self):
        def build(tb):
            gs = [self.fir(k) for k in range(3)]
            s = blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(self.x.tolist()), *gs, s)
            self.before = hooks.device_buffer_bytes()
            return [s], gs

        def check(on, gs):
            # g1 -> g2 and g2 -> g3 live in device memory, g3 -> sink on the host
            grown = hooks.device_buffer_bytes() - self.before
            if on:
                self.assertGreaterEqual(grown, 2 * 4096 * 8)
            else:
                self.assertLessEqual(grown, 0)  # earlier flowgraphs may go meanwhile
        got, = self.both(build, check)
        self.assertLess(relative_error(got, self.reference(self.x, self.taps)), 1e-5)

    def test_decimating_chain(self):
        def build(tb):
            g1 = self.fir(0, decimation=3)
            g2 = gpufilter.fir_filter_ccc(2, np.array(self.taps[1], np.complex64).tolist(),
                                          batch_size=4096)
            s = blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(self.x.tolist()), g1, g2, s)
            return [s], [g1, g2]
        got, = self.both(build)
        self.assertEqual(len(got), len(self.x) // 6)

    # ---- fan-out and fan-in ----

    def test_fan_out_to_gpu_and_host(self):
        """One GPU output read by two GPU blocks and a host block: the buffer is read
        on the host by all three (one download), outputs unchanged."""
        def build(tb):
            g1, g2, g3 = self.fir(0), self.fir(1), self.fir(2)
            h = filter.fir_filter_ccf(1, self.taps[1])
            sinks = [blocks.vector_sink_c() for _ in range(4)]
            tb.connect(blocks.vector_source_c(self.x.tolist()), g1)
            tb.connect(g1, g2, sinks[0])
            tb.connect(g1, h, sinks[1])
            tb.connect(g1, g3, sinks[2])
            tb.connect(g1, sinks[3])
            return sinks, [g1, g2, g3]
        got = self.both(build)
        ref1 = self.reference(self.x, self.taps[:1])
        self.assertLess(relative_error(got[3], ref1), 1e-5)
        self.assertLess(relative_error(got[0], self.reference(ref1, self.taps[1:2])), 1e-5)

    def test_fan_out_gpu_only(self):
        """A GPU output read by two GPU blocks only: stays in device memory."""
        def build(tb):
            g1, g2, g3 = self.fir(0), self.fir(1), self.fir(2)
            s2, s3 = blocks.vector_sink_c(), blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(self.x.tolist()), g1)
            tb.connect(g1, g2, s2)
            tb.connect(g1, g3, s3)
            return [s2, s3], [g1, g2, g3]

        def check(on, gs):
            if on and self.gpus:  # one upload (g1's input), nothing between
                self.assertEqual(gs[0].bytes_from_device(), 0)
                self.assertEqual(sum(g.bytes_to_device() for g in gs), self.x.nbytes)
        self.both(build, check)

    def test_host_source_fanned_out_to_gpu_blocks(self):
        """GNU Radio 3.10.5 replaces a host output's buffer once per GPU reader and
        hangs; the device buffer is shared instead (also with a host reader)."""
        for with_host_reader in (False, True):
            def build(tb):
                src = blocks.vector_source_c(self.x.tolist())
                g1, g2 = self.fir(0), self.fir(1)
                sinks = [blocks.vector_sink_c() for _ in range(3)]
                if with_host_reader:
                    tb.connect(src, sinks[2])  # connected before the GPU readers
                tb.connect(src, g1, sinks[0])
                tb.connect(src, g2, sinks[1])
                if not with_host_reader:
                    tb.connect(src, sinks[2])  # connected after them
                return sinks, [g1, g2]
            got = self.both(build)
            self.assertLess(relative_error(got[0], self.reference(self.x, self.taps[:1])),
                            1e-5)
            self.assertLess(relative_error(got[1],
                                           self.reference(self.x, self.taps[1:2])), 1e-5)
            np.testing.assert_array_equal(got[2], self.x)

    def test_fan_in(self):
        """A two-input GPU block (NLMS: x, d) fed by two GPU filters."""
        xr = random_samples(self.rng, 40000, False)
        taps = [random_samples(self.rng, n, False).tolist() for n in (21, 12)]

        def build(tb):
            src = blocks.vector_source_f(xr.tolist())
            gx = gpufilter.fir_filter_fff(1, taps[0], batch_size=4096)
            gd = gpufilter.fir_filter_fff(1, taps[1], batch_size=4096)
            nlms = gpufilter.nlms_filter_ff(16, 0.2, batch_size=4096)
            s = blocks.vector_sink_f()
            tb.connect(src, gx, (nlms, 0))
            tb.connect(src, gd, (nlms, 1))
            tb.connect(nlms, s)
            return [s], [gx, gd, nlms]
        got, = self.both(build)
        self.assertEqual(len(got), len(xr))

    # ---- stream properties ----

    def test_tags_through_a_chain(self):
        offsets = [0, 1, 999, 4096, 20000, 49999]
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern("k"), pmt.from_long(o),
                                            pmt.intern("src"))) for o in offsets]

        def build(tb):
            src = blocks.vector_source_c(self.x.tolist(), False, 1, tags)
            gs = [self.fir(k) for k in range(3)]
            s = blocks.vector_sink_c()
            tb.connect(src, *gs, s)
            self.sink = s
            return [s], gs
        self.both(build)
        self.assertEqual(sorted(t.offset for t in self.sink.tags()), offsets)

    def test_tagged_stream_sink(self):
        """A tagged-stream block (tsb_vector_sink) reads a GPU chain's output."""
        def build(tb):
            src = blocks.vector_source_c(self.x[:48000].tolist())
            tsb = blocks.stream_to_tagged_stream(CSIZE, 1, 1000, "len")
            g1, g2 = self.fir(0), self.fir(1)
            s = blocks.tsb_vector_sink_c(1, "len")
            tb.connect(src, tsb, g1, g2, s)
            self.sink = s
            return [], [g1, g2]
        packets = []
        for on in (True, False):
            gpufilter.set_device_buffers(on)
            tb = gr.top_block()
            build(tb)
            run_with_timeout(self, tb)
            packets.append([np.array(p) for p in self.sink.data()])
        self.assertEqual(len(packets[0]), 48)
        self.assertEqual(len(packets[0]), len(packets[1]))
        for a, b in zip(*packets):
            self.assertLess(relative_error(a, b), 1e-5)

    def test_set_taps_mid_stream(self):
        new_taps = random_samples(self.rng, 90, False).tolist()
        outs = []
        for on in (True, False):
            gpufilter.set_device_buffers(on)
            tb = gr.top_block()
            src = gated_source(self.x, 20000)
            g1, g2 = self.fir(0, batch=1), self.fir(1, batch=1)
            s = blocks.vector_sink_c()
            tb.connect(src, g1, g2, s)
            tb.start()
            deadline = time.time() + 30
            while time.time() < deadline and g2.nitems_written(0) < 20000:
                time.sleep(0.002)
            self.assertEqual(g2.nitems_written(0), 20000)
            g2.set_taps(new_taps)
            src.release()
            tb.wait()
            outs.append(np.array(s.data()))
        self.assertEqual(len(outs[0]), len(outs[1]))
        self.assertLess(relative_error(outs[0], outs[1]), 1e-5)

    def test_start_stop_restart(self):
        def build(tb):
            src = blocks.vector_source_c(self.x.tolist(), True)
            head = blocks.head(CSIZE, 30000)
            gs = [self.fir(k) for k in range(3)]
            s = blocks.vector_sink_c()
            tb.connect(src, head, *gs, s)
            self.parts = (src, head, s)
            return [s], gs
        for on in (True, False):
            gpufilter.set_device_buffers(on)
            tb = gr.top_block()
            build(tb)
            src, head, s = self.parts
            outs = []
            for _ in range(3):
                src.rewind()
                head.reset()
                s.reset()
                tb.start()
                tb.wait()
                tb.stop()
                outs.append(np.array(s.data()))
            for o in outs:
                self.assertEqual(len(o), 30000)
                self.assertLess(relative_error(o, outs[0]), 1e-6)

    def test_tiny_streams(self):
        for n in (1, 2, 3):
            def build(tb):
                src = blocks.vector_source_c(self.x.tolist())
                head = blocks.head(CSIZE, n)
                gs = [self.fir(k, batch=8192) for k in range(3)]
                s = blocks.vector_sink_c()
                tb.connect(src, head, *gs, s)
                return [s], gs
            got, = self.both(build)
            self.assertEqual(len(got), n)
            self.assertLess(relative_error(got, self.reference(self.x[:n], self.taps)),
                            1e-5)

    def test_end_of_stream_flush(self):
        """Every output is produced when the stream ends mid-batch."""
        x = self.x[:12345]

        def build(tb):
            gs = [self.fir(k, batch=1 << 14) for k in range(3)]
            s = blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(x.tolist()), *gs, s)
            return [s], gs
        got, = self.both(build)
        self.assertEqual(len(got), len(x))

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
        """Device buffers keep the chain's calls whole batches (no small calls)."""
        x = random_samples(self.rng, 1 << 20, True)
        batch = 1 << 16
        gpufilter.set_device_buffers(True)
        tb = gr.top_block()
        gs = [gpufilter.fir_filter_ccf(1, self.taps[k], batch_size=batch)
              for k in range(3)]
        tb.connect(blocks.vector_source_c(x.tolist()), *gs, blocks.null_sink(CSIZE))
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



class qa_device_buffers_in_gpu_granules(qa_device_buffers):
    """Every test again with emulated rings in a GPU's 2 MiB granules, far larger than
    the buffers GNU Radio asks for (on a GPU the rings are those already): writers are
    held to GNU Radio's size, and every flowgraph still gives the same output."""

    def setUp(self):
        if not self.emulated:
            self.skipTest("on a GPU the rings are in its granules already")
        super().setUp()
        hooks.emulated_ring_granularity(2 * MB)

    def tearDown(self):
        hooks.emulated_ring_granularity(0)
        super().tearDown()

def run_with_timeout(testcase, tb, seconds=60):
    """tb.run(), but a hang fails the test instead of blocking the suite."""
    tb.start()
    done = threading.Event()
    t = threading.Thread(target=lambda: (tb.wait(), done.set()), daemon=True)
    t.start()
    if not done.wait(seconds):
        tb.stop()
        testcase.fail(f"flowgraph did not finish within {seconds} s")


if __name__ == "__main__":
    gr_unittest.run(qa_device_buffers)
