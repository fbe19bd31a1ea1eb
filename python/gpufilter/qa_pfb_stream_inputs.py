#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gr-filter's input layout on gpufilter.pfb_channelizer_ccf and pfb_decimator_ccf:
the wideband stream split by blocks.stream_to_streams over one input per polyphase
arm, as gr-filter's blocks take it. Against gr-filter's block fed the same way, and
against our block's one wideband input (the same output), on random data."""

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import gpu_count, random_samples, relative_error

TOLERANCE = 1e-4  # against gr-filter (float arithmetic in another order)
SAME = 1e-6       # our two layouts: the same computation


def split(tb, src, arms, block):
    """src -> stream_to_streams(arms) -> block's inputs 0..arms-1."""
    s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, arms)
    tb.connect(src, s2ss)
    for i in range(arms):
        tb.connect((s2ss, i), (block, i))
    return s2ss


class qa_pfb_stream_inputs(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(3301)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def taps(self, n):
        return self.rng.uniform(-1, 1, n).tolist()

    def channelizers(self, numchans, taps, oversample, x, tags=(), **gpu_options):
        """Outputs of gr-filter's, ours on streams and ours on one input, per port."""
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False, 1, list(tags))
        made = [filter.pfb_channelizer_ccf(numchans, taps, oversample),
                gpufilter.pfb_channelizer_ccf(numchans, taps, oversample, **gpu_options),
                gpufilter.pfb_channelizer_ccf(numchans, taps, oversample, **gpu_options)]
        split(tb, src, numchans, made[0])
        split(tb, src, numchans, made[1])
        tb.connect(src, made[2])
        sinks = []
        for block in made:
            sinks.append([blocks.vector_sink_c() for _ in range(numchans)])
            for k, sink in enumerate(sinks[-1]):
                tb.connect((block, k), sink)
        tb.run()
        return made, sinks

    def test_channelizer_streams_match_gr_filter_and_one_input(self):
        for numchans, oversample in ((2, 1.0), (4, 1.0), (5, 1.0), (8, 2.0), (6, 1.5),
                                     (16, 1.0), (16, 4.0)):
            taps = self.taps(numchans * 6 + 3)
            x = random_samples(self.rng, numchans * 700 + 5, True)
            made, (theirs, streams, one) = self.channelizers(numchans, taps, oversample, x)
            self.assertEqual(made[1].on_gpu(), gpu_count() > 0)
            for k in range(numchans):
                msg = f"numchans {numchans}, oversample {oversample}, port {k}"
                w, s, o = (np.array(v[k].data()) for v in (theirs, streams, one))
                self.assertGreater(len(w), 600, msg)
                self.assertEqual(len(s), len(o), msg)
                # gr-filter stops up to a step short when oversampling (its tail).
                self.assertGreaterEqual(len(s), len(w), msg)
                self.assertLessEqual(relative_error(s[:len(w)], w), TOLERANCE, msg)
                self.assertLessEqual(relative_error(s, o), SAME, msg)

    def test_channelizer_streams_in_small_batches(self):
        numchans = 8
        taps = self.taps(8 * 9)
        x = random_samples(self.rng, 8 * 3000, True)
        _, (theirs, streams, _) = self.channelizers(numchans, taps, 1.0, x, batch_size=40)
        for k in range(numchans):
            w, s = np.array(theirs[k].data()), np.array(streams[k].data())
            self.assertEqual(len(s), len(w))
            self.assertLessEqual(relative_error(s, w), TOLERANCE, f"port {k}")

    def test_channelizer_stream_tags_follow_gr_filter(self):
        numchans = 4
        x = random_samples(self.rng, 4000, True)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src")))
                for off in (0, 3, 4, 999, 3997)]
        _, (theirs, streams, _) = self.channelizers(numchans, self.taps(20), 1.0, x, tags)
        for k in range(numchans):
            w = sorted((t.offset, pmt.to_long(t.value)) for t in theirs[k].tags())
            s = sorted((t.offset, pmt.to_long(t.value)) for t in streams[k].tags())
            self.assertEqual(s, w, f"port {k}")
            self.assertGreater(len(w), 0)

    def test_decimator_streams_match_gr_filter_and_one_input(self):
        for decim in range(2, 9):
            taps = self.taps(decim * 7 + decim // 2)
            x = random_samples(self.rng, decim * 900 + 3, True)
            for channel in {0, decim // 2, decim - 1}:
                for rotator, filters in ((True, False), (False, False), (True, True)):
                    tb = gr.top_block()
                    src = blocks.vector_source_c(x.tolist())
                    theirs = filter.pfb_decimator_ccf(decim, taps, channel, rotator,
                                                      filters)
                    streams, one = (gpufilter.pfb_decimator_ccf(
                        decim, taps, channel, rotator, filters) for _ in range(2))
                    split(tb, src, decim, theirs)
                    split(tb, src, decim, streams)
                    tb.connect(src, one)
                    sinks = [blocks.vector_sink_c() for _ in range(3)]
                    for block, sink in zip((theirs, streams, one), sinks):
                        tb.connect(block, sink)
                    tb.run()
                    w, s, o = (np.array(v.data()) for v in sinks)
                    msg = f"decim {decim}, channel {channel}, flags {rotator} {filters}"
                    self.assertGreater(len(w), 0, msg)
                    self.assertEqual(len(s), len(w), msg)
                    self.assertEqual(len(o), len(w), msg)
                    self.assertLessEqual(relative_error(s, w), TOLERANCE, msg)
                    self.assertLessEqual(relative_error(s, o), SAME, msg)

    def test_decimator_stream_tags_land_on_their_samples(self):
        decim = 4
        x = random_samples(self.rng, 4000, True)
        offsets = (0, 3, 4, 999, 3001)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src"))) for off in offsets]
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False, 1, tags)
        ours = gpufilter.pfb_decimator_ccf(decim, self.taps(24), 1)
        s2ss = split(tb, src, decim, ours)
        streams = [blocks.vector_sink_c() for _ in range(decim)]
        for i, stream in enumerate(streams):
            tb.connect((s2ss, i), stream)
        sink = blocks.vector_sink_c()
        tb.connect(ours, sink)
        tb.run()
        got = sorted((t.offset, pmt.to_long(t.value)) for t in sink.tags())
        # Each stream's copy of a tag (stream_to_streams gives every stream one) on the
        # output sample of the same index: the decimator's streams run 1:1.
        want = sorted((t.offset, pmt.to_long(t.value)) for stream in streams
                      for t in stream.tags() if t.offset < len(sink.data()))
        self.assertEqual(len(want), decim * len(offsets))
        self.assertEqual(got, want)

    def test_other_input_counts_are_refused(self):
        for make, arms in ((lambda: gpufilter.pfb_channelizer_ccf(4, [1.0] * 8, 1.0), 4),
                           (lambda: gpufilter.pfb_decimator_ccf(4, [1.0] * 8, 0), 4)):
            tb = gr.top_block()
            src = blocks.vector_source_c([1j] * 64)
            block = make()
            s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, arms - 1)
            tb.connect(src, s2ss)
            for i in range(arms - 1):
                tb.connect((s2ss, i), (block, i))
            tb.connect(block, blocks.null_sink(gr.sizeof_gr_complex))
            with self.assertRaisesRegex(RuntimeError, "check topology failed"):
                tb.run()


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_stream_inputs)
