#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.pfb_decimator_ccf against gr-filter's
stream_to_streams -> filter.pfb_decimator_ccf, and the gpufilter.pfb wrappers against
gnuradio.filter.pfb's, on random data."""

import time

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest
from gnuradio.filter import pfb as gr_pfb
from gnuradio.gpufilter import pfb

from gpu_test_support import GPU_REQUIRED, gated_source, gpu_count, relative_error

TOLERANCE = 1e-4
FLAGS = [(r, f) for r in (True, False) for f in (True, False)]


def random_complex(rng, n):
    return (rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)).astype(np.complex64)


def reference(tb, src, decim, taps, channel, rotator, filters):
    s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, decim)
    theirs = filter.pfb_decimator_ccf(decim, taps, channel, rotator, filters)
    sink = blocks.vector_sink_c()
    tb.connect(src, s2ss)
    for i in range(decim):
        tb.connect((s2ss, i), (theirs, i))
    tb.connect(theirs, sink)
    return theirs, sink


class qa_pfb_decimator(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2029)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def taps(self, n):
        return self.rng.uniform(-1, 1, n).tolist()

    def assert_same(self, got, want, msg):
        g, w = np.array(got.data()), np.array(want.data())
        self.assertEqual(len(g), len(w), msg)
        if len(w):
            self.assertLessEqual(relative_error(g, w), TOLERANCE, msg)

    def run_channels(self, decim, taps, x, rotator, filters, channels=None, **gpu_options):
        """Every channel (or those given) of ours and gr-filter's in one flowgraph."""
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        pairs = []
        for channel in (range(decim) if channels is None else channels):
            ours = gpufilter.pfb_decimator_ccf(decim, taps, channel, rotator, filters,
                                               **gpu_options)
            got = blocks.vector_sink_c()
            tb.connect(src, ours, got)
            _, want = reference(tb, src, decim, taps, channel, rotator, filters)
            pairs.append((channel, ours, got, want))
        tb.run()
        for channel, ours, got, want in pairs:
            if GPU_REQUIRED and gpu_options.get("device") != gpufilter.device_cpu:
                self.assertTrue(ours.on_gpu())
            yield channel, got, want

    def test_every_channel_every_flag_decim_2_to_8(self):
        for decim in range(2, 9):
            for ntaps in (decim * 6 + 1, 3):
                taps = self.taps(ntaps)
                x = random_complex(self.rng, decim * 900 + 5)
                for rotator, filters in FLAGS:
                    for channel, got, want in self.run_channels(decim, taps, x, rotator,
                                                                filters):
                        self.assert_same(got, want, f"decim={decim} ntaps={ntaps} "
                                         f"channel={channel} rot={rotator} fft={filters}")

    def test_uneven_work_calls_and_tiny_streams(self):
        taps = self.taps(37)
        for rotator, filters in FLAGS:
            for n in (1, 4, 5, 40, 41, 5 * 64 + 3, 20000):
                x = random_complex(self.rng, n)
                for batch in (1, 13):
                    for channel, got, want in self.run_channels(
                            5, taps, x, rotator, filters, channels=[0, 3], batch_size=batch):
                        self.assert_same(got, want, f"n={n} batch={batch} channel={channel} "
                                         f"rot={rotator} fft={filters}")

    def test_cpu_device(self):
        x = random_complex(self.rng, 4 * 1000)
        for rotator, filters in FLAGS:
            for channel, got, want in self.run_channels(4, self.taps(25), x, rotator, filters,
                                                        device=gpufilter.device_cpu):
                self.assert_same(got, want, f"cpu channel={channel}")

    def run_gated(self, decim, taps, channel, first, x, act, rotator=True, filters=False):
        tb = gr.top_block()
        src = gated_source(x, first)
        ours = gpufilter.pfb_decimator_ccf(decim, taps, channel, rotator, filters,
                                           batch_size=1)
        got = blocks.vector_sink_c()
        tb.connect(src, ours, got)
        theirs, want = reference(tb, src, decim, taps, channel, rotator, filters)
        tb.start()
        deadline = time.time() + 30
        while time.time() < deadline and not (
                ours.nitems_written(0) == theirs.nitems_written(0) == first // decim):
            time.sleep(0.002)
        self.assertEqual(ours.nitems_written(0), first // decim)
        act(ours)
        act(theirs)
        src.release()
        tb.wait()
        return ours, theirs, got, want

    def test_set_taps_mid_stream(self):
        # With direct-form branch filters (use_fft_filters=False); gr-filter's FFT
        # branch filters re-read the history its set_taps adds, which ours does not.
        for decim, n1, n2 in ((4, 20, 45), (6, 60, 7), (3, 9, 9)):
            taps2 = self.taps(n2)
            for rotator in (True, False):
                ours, theirs, got, want = self.run_gated(
                    decim, self.taps(n1), 1, decim * 500, random_complex(self.rng, decim * 1100),
                    lambda blk: blk.set_taps(taps2), rotator=rotator)
                self.assert_same(got, want, f"decim={decim} rot={rotator}")
                self.assertEqual(ours.taps(), theirs.taps())

    def test_set_channel_mid_stream(self):
        # With the FFT rotator: gr-filter's set_channel leaves its rotation table as
        # built, so only that path follows the new channel there.
        ours, _, got, want = self.run_gated(
            5, self.taps(31), 1, 5 * 400, random_complex(self.rng, 5 * 900),
            lambda blk: blk.set_channel(4))
        self.assertEqual(ours.channel(), 4)
        self.assert_same(got, want, "set_channel")

    def test_tags_move_to_offset_over_decim(self):
        # gr-filter's pair delivers each tag decim times at offset/decim**2 (it scales
        # by 1/decim twice); ours delivers it once, at offset/decim as GNU Radio places
        # tags of any decimate-by-4 block (here gr-filter's fir_filter_ccf).
        import pmt
        x = random_complex(self.rng, 4000)
        offsets = (0, 3, 4, 101, 3993)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src"))) for off in offsets]
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False, 1, tags)
        ours = gpufilter.pfb_decimator_ccf(4, self.taps(17), 1, True, False)
        ref = filter.fir_filter_ccf(4, [1.0])
        got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
        tb.connect(src, ours, got)
        tb.connect(src, ref, want)
        tb.run()
        self.assertEqual(sorted((t.offset, pmt.to_long(t.value)) for t in got.tags()),
                         sorted((t.offset, pmt.to_long(t.value)) for t in want.tags()))
        self.assertEqual(len(got.tags()), len(offsets))

    def test_bad_parameters_name_themselves(self):
        cases = [
            (ValueError, "decim", lambda: gpufilter.pfb_decimator_ccf(0, [1.0], 0)),
            (ValueError, "decim", lambda: gpufilter.pfb_decimator_ccf(-4, [1.0], 0)),
            (ValueError, "channel", lambda: gpufilter.pfb_decimator_ccf(4, [1.0], 4)),
            (ValueError, "channel", lambda: gpufilter.pfb_decimator_ccf(4, [1.0], -1)),
            (ValueError, "taps", lambda: gpufilter.pfb_decimator_ccf(4, [], 0)),
            (ValueError, "batch_size",
             lambda: gpufilter.pfb_decimator_ccf(4, [1.0], 0, batch_size=0)),
            (IndexError, "device", lambda: gpufilter.pfb_decimator_ccf(4, [1.0], 0, device=99)),
        ]
        for exc, word, make in cases:
            with self.assertRaises(exc, msg=word) as ctx:
                make()
            self.assertIn(word, str(ctx.exception))
        blk = gpufilter.pfb_decimator_ccf(4, [1.0], 0)
        with self.assertRaises(ValueError) as ctx:
            blk.set_channel(4)
        self.assertIn("channel", str(ctx.exception))
        with self.assertRaises(ValueError):
            blk.set_taps([])


class qa_pfb_wrappers(gr_unittest.TestCase):
    """gpufilter.pfb against gnuradio.filter.pfb, designed taps included."""

    def setUp(self):
        self.rng = np.random.default_rng(2030)
        gpu_count()

    def test_channelizer_wrapper(self):
        for numchans, osr, taps in ((4, 1, None), (6, 2, None),
                                    (5, 1, self.rng.uniform(-1, 1, 23).tolist())):
            x = random_complex(self.rng, numchans * 500)
            tb = gr.top_block()
            src = blocks.vector_source_c(x.tolist())
            ours = pfb.channelizer_ccf(numchans, taps, osr)
            theirs = gr_pfb.channelizer_ccf(numchans, taps, osr)
            self.assertEqual(ours.taps(), theirs.taps())
            tb.connect(src, ours)
            tb.connect(src, theirs)
            sinks = []
            for k in range(numchans):
                g, w = blocks.vector_sink_c(), blocks.vector_sink_c()
                tb.connect((ours, k), g)
                tb.connect((theirs, k), w)
                sinks.append((g, w))
            tb.run()
            for k, (g, w) in enumerate(sinks):
                g, w = np.array(g.data()), np.array(w.data())
                self.assertGreater(len(w), 0)
                self.assertLessEqual(len(w), len(g))
                if osr == 1:
                    self.assertEqual(len(g), len(w))
                self.assertLessEqual(relative_error(g[:len(w)], w), TOLERANCE,
                                     f"numchans={numchans} port {k}")

    def test_decimator_wrapper(self):
        x = random_complex(self.rng, 8 * 2000)
        for decim, channel, flags in ((4, 1, (True, True)), (8, 5, (False, False)),
                                      (3, 2, (True, False))):
            tb = gr.top_block()
            src = blocks.vector_source_c(x.tolist())
            ours = pfb.decimator_ccf(decim, None, channel, 100, *flags)
            theirs = gr_pfb.decimator_ccf(decim, None, channel, 100, *flags)
            g, w = blocks.vector_sink_c(), blocks.vector_sink_c()
            tb.connect(src, ours, g)
            tb.connect(src, theirs, w)
            tb.run()
            self.assertEqual(len(g.data()), len(w.data()))
            self.assertLessEqual(relative_error(g.data(), w.data()), TOLERANCE)
        # gr-filter's keyword is use_fft_rotators; use_fft_rotator is accepted too.
        pfb.decimator_ccf(4, use_fft_rotators=False)
        pfb.decimator_ccf(4, use_fft_rotator=False, device=gpufilter.device_cpu)

    def test_designed_taps_are_gr_filters(self):
        theirs = gr_pfb.channelizer_ccf(8)
        self.assertEqual(pfb.design_taps(8), list(theirs._taps))


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_decimator)
