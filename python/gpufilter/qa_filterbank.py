#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.analysis_filterbank and synthesis_filterbank against gr-filter's
(gnuradio.filter.filterbank) on random data, and gpufilter.filterbank as an attribute
after the plain import, as filter.filterbank is."""

import numpy as np
from gnuradio import blocks, fft, filter, gpufilter, gr, gr_unittest

from gpu_test_support import gpu_count, random_samples, relative_error

TOLERANCE = 1e-4


class qa_filterbank(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(4242)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def taps(self, n):
        return self.rng.uniform(-1, 1, n).tolist()

    def test_analysis_matches_gr_filter(self):
        for mpoints, ntaps in ((2, 8), (4, 21), (8, 64)):
            taps = self.taps(ntaps)
            x = random_samples(self.rng, mpoints * 600, True)
            tb = gr.top_block()
            src = blocks.vector_source_c(x.tolist())
            ours = gpufilter.analysis_filterbank(mpoints, taps)
            theirs = filter.analysis_filterbank(mpoints, tuple(taps))  # it pads tuples only
            tb.connect(src, ours)
            tb.connect(src, theirs)
            sinks = [[blocks.vector_sink_c() for _ in range(mpoints)] for _ in range(2)]
            for block, row in zip((ours, theirs), sinks):
                for k, sink in enumerate(row):
                    tb.connect((block, k), sink)
            tb.run()
            for k in range(mpoints):
                got, want = (np.array(row[k].data()) for row in sinks)
                msg = f"mpoints {mpoints}, taps {ntaps}, output {k}"
                # gr-filter's fft_filter_ccc leaves a finite stream's last partial
                # FFT block out; ours computes it.
                self.assertEqual(len(got), 600, msg)
                self.assertGreater(len(want), 500, msg)
                self.assertLessEqual(relative_error(got[:len(want)], want), TOLERANCE, msg)

    def test_synthesis_matches_gr_filter_arithmetic(self):
        # gr-filter's synthesis_filterbank connects its output once per subband and
        # fails to build for mpoints > 1, so the reference is its flowgraph, connected once.
        for mpoints, ntaps in ((2, 8), (4, 21)):
            taps = self.taps(ntaps)
            xs = [random_samples(self.rng, 700, True) for _ in range(mpoints)]
            sub = [list(taps) + [0.0] * (-len(taps) % mpoints)]
            sub = [sub[0][i::mpoints] for i in range(mpoints)]
            tb = gr.top_block()
            ours = gpufilter.synthesis_filterbank(mpoints, taps)
            ss2v = blocks.streams_to_vector(gr.sizeof_gr_complex, mpoints)
            ifft = fft.fft_vcc(mpoints, False, [])
            v2ss = blocks.vector_to_streams(gr.sizeof_gr_complex, mpoints)
            ss2s = blocks.streams_to_stream(gr.sizeof_gr_complex, mpoints)
            tb.connect(ss2v, ifft, v2ss)
            for i, x in enumerate(xs):
                src = blocks.vector_source_c(x.tolist())
                tb.connect(src, (ours, i))
                tb.connect(src, (ss2v, i))
                tb.connect((v2ss, i), filter.fft_filter_ccc(1, sub[i]), (ss2s, i))
            got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
            tb.connect(ours, got)
            tb.connect(ss2s, want)
            tb.run()
            g, w = np.array(got.data()), np.array(want.data())
            # gr-filter's fft_filter_ccc leaves the last partial FFT block of a finite
            # stream out; ours computes it.
            self.assertEqual(len(g), mpoints * 700)
            self.assertGreater(len(w), mpoints * 600)
            self.assertLessEqual(relative_error(g[:len(w)], w), TOLERANCE,
                                 f"mpoints {mpoints}")

    def test_no_taps_is_a_clear_error(self):
        with self.assertRaisesRegex(ValueError, "taps"):
            gpufilter.analysis_filterbank(4)

    def test_filterbank_is_an_attribute(self):
        self.assertTrue(hasattr(gpufilter, "filterbank"))
        self.assertIs(gpufilter.analysis_filterbank,
                      gpufilter.filterbank.analysis_filterbank)


if __name__ == "__main__":
    gr_unittest.run(qa_filterbank)
