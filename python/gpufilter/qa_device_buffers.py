#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GPU blocks that hand samples to each other in device memory: the same flowgraphs
with device buffers on and off give the same outputs, transfers are counted, and
nothing changes on the CPU fallback.

Without a GPU the blocks run on the CPU fallback, where device buffers are never used;
these tests then turn on the test suite's emulation (device buffers in host memory),
so the scheduler's side (which side each end reads, transfers, windows across a
ring's end, counters, GNU Radio 3.10's replaced outputs) runs here too."""
import time

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

import gpufilter_test_hooks as hooks
from device_buffer_case import CSIZE, device_buffer_case, in_gpu_granules, run_with_timeout
from gpu_test_support import gated_source, random_samples, relative_error


class qa_device_buffers(device_buffer_case):
    def test_on_by_default(self):
        """A program starts with device buffers on; the switch reads back what was
        set."""
        self.assertTrue(self.switch)
        for on in (False, True):
            gpufilter.set_device_buffers(on)
            self.assertEqual(gpufilter.get_device_buffers(), on)

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


class qa_device_buffers_in_gpu_granules(in_gpu_granules, qa_device_buffers):
    """Every test above again in a GPU's granules (in_gpu_granules)."""


if __name__ == "__main__":
    gr_unittest.run(qa_device_buffers)
