#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.pfb_synthesizer_ccf against gnuradio.filter.pfb_synthesizer_ccf on
random data (twox false and true, channel maps, fewer inputs than channels, odd chunk
sizes, set_taps and set_channel_map mid-stream, tags), gr-filter's own sinusoid test,
and the channelizer -> synthesizer chain against gr-filter's and as an inverse."""

import math
import time

import numpy as np
import pmt
from gnuradio import blocks, fft, filter, gpufilter, gr, gr_unittest

from gpu_test_support import (GPU_REQUIRED, gated_source, gpu_count, random_samples,
                              relative_error)

TOLERANCE = 2e-5  # relative error (float32 FFT and branch sums)


class qa_pfb_synthesizer(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(5077)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def taps(self, n):
        return self.rng.uniform(-1, 1, n).tolist()

    def run_pair(self, numchans, taps, twox, inputs, ours_options=None, cmap=None,
                 gate=None, act=None):
        """inputs: one array per connected input. Both blocks get the same inputs; with
        gate, act(block) runs on both after `gate` steps. Returns (ours, theirs, got,
        want) as arrays."""
        ours = gpufilter.pfb_synthesizer_ccf(numchans, taps, twox, **(ours_options or {}))
        theirs = filter.pfb_synthesizer_ccf(numchans, taps, twox)
        if cmap is not None:
            ours.set_channel_map(cmap)
            theirs.set_channel_map(cmap)
        tb = gr.top_block()
        got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
        sources = []
        for k, x in enumerate(inputs):
            src = gated_source(x, gate) if gate is not None else \
                blocks.vector_source_c(x.tolist())
            sources.append(src)
            tb.connect(src, (ours, k))
            tb.connect(src, (theirs, k))
        tb.connect(ours, got)
        tb.connect(theirs, want)
        if gate is None:
            tb.run()
        else:
            tb.start()
            deadline = time.time() + 30
            target = gate * numchans
            while time.time() < deadline and not (
                    ours.nitems_written(0) == theirs.nitems_written(0) == target):
                time.sleep(0.002)
            self.assertEqual(ours.nitems_written(0), target)
            act(ours)
            act(theirs)
            for src in sources:
                src.release()
            tb.wait()
        if GPU_REQUIRED and (ours_options or {}).get("device") != gpufilter.device_cpu:
            self.assertTrue(ours.on_gpu())
        return ours, theirs, np.array(got.data()), np.array(want.data())

    def assert_same(self, got, want, msg):
        self.assertEqual(len(got), len(want), msg)
        self.assertGreater(len(want), 0, msg)
        self.assertLessEqual(relative_error(got, want), TOLERANCE, msg)

    def test_matches_gr_filter(self):
        for twox in (False, True):
            for numchans in (1, 2, 3, 4, 5, 8, 16, 36):
                if twox and numchans % 2:
                    continue
                for ntaps in (1, numchans + 1, 6 * numchans - 1, 12 * numchans):
                    inputs = [random_samples(self.rng, 700, True) for _ in range(numchans)]
                    ours, theirs, got, want = self.run_pair(numchans, self.taps(ntaps),
                                                            twox, inputs)
                    msg = f"numchans={numchans} ntaps={ntaps} twox={twox}"
                    self.assert_same(got, want, msg)
                    self.assertEqual(ours.taps(), [list(t) for t in theirs.taps()], msg)
                    self.assertEqual(ours.channel_map(), list(theirs.channel_map()), msg)

    def test_fewer_inputs_and_channel_maps(self):
        for twox in (False, True):
            taps = self.taps(8 * 5 + 3)
            for cmap, ninputs in (([3, 0, 7], 3), ([5, 1], 2), ([2, 2, 6, 1], 4),
                                  (None, 5)):
                if twox and cmap is not None:
                    cmap = [c + 8 if i % 2 else c for i, c in enumerate(cmap)]
                inputs = [random_samples(self.rng, 1000, True) for _ in range(ninputs)]
                _, _, got, want = self.run_pair(8, taps, twox, inputs, cmap=cmap)
                self.assert_same(got, want, f"map={cmap} twox={twox}")

    def test_odd_chunk_sizes(self):
        taps = self.taps(6 * 7)
        for twox in (False, True):
            for n in (1, 3, 17, 1001, 30000):
                for batch in (1, 5, 4096):
                    inputs = [random_samples(self.rng, n, True) for _ in range(6)]
                    _, _, got, want = self.run_pair(6, taps, twox, inputs,
                                                    {"batch_size": batch})
                    self.assert_same(got, want, f"n={n} batch={batch} twox={twox}")

    def test_cpu_device(self):
        for twox in (False, True):
            inputs = [random_samples(self.rng, 500, True) for _ in range(4)]
            ours, _, got, want = self.run_pair(4, self.taps(29), twox, inputs,
                                               {"device": gpufilter.device_cpu})
            self.assertFalse(ours.on_gpu())
            self.assert_same(got, want, f"cpu twox={twox}")

    def test_set_taps_mid_stream(self):
        for twox in (False, True):
            for gate in (301, 302):  # both parities of the 2x mode's state
                taps2 = self.taps(4 * 9 - 1)
                inputs = [random_samples(self.rng, 900, True) for _ in range(4)]
                ours, theirs, got, want = self.run_pair(
                    4, self.taps(4 * 5), twox, inputs, {"batch_size": 1}, gate=gate,
                    act=lambda blk: blk.set_taps(taps2))
                self.assert_same(got, want, f"twox={twox} gate={gate}")
                self.assertEqual(ours.taps(), [list(t) for t in theirs.taps()])

    def test_set_channel_map_mid_stream(self):
        for twox in (False, True):
            new_map = [3, 1, 0] if not twox else [7, 1, 4]
            inputs = [random_samples(self.rng, 900, True) for _ in range(3)]
            ours, _, got, want = self.run_pair(4, self.taps(4 * 5), twox, inputs,
                                               {"batch_size": 1}, gate=401,
                                               act=lambda blk: blk.set_channel_map(new_map))
            self.assert_same(got, want, f"twox={twox}")
            self.assertEqual(ours.channel_map(), new_map)

    def test_tags_as_gr_filter(self):
        offsets = (0, 1, 5, 299)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src"))) for off in offsets]
        taps = self.taps(17)
        ours = gpufilter.pfb_synthesizer_ccf(4, taps)
        theirs = filter.pfb_synthesizer_ccf(4, taps)
        tb = gr.top_block()
        got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
        for k in range(4):
            x = random_samples(self.rng, 300, True).tolist()
            src = blocks.vector_source_c(x, False, 1, tags if k in (0, 2) else [])
            tb.connect(src, (ours, k))
            tb.connect(src, (theirs, k))
        tb.connect(ours, got)
        tb.connect(theirs, want)
        tb.run()
        self.assertEqual(sorted((t.offset, pmt.to_long(t.value)) for t in got.tags()),
                         sorted((t.offset, pmt.to_long(t.value)) for t in want.tags()))
        self.assertEqual(len(got.tags()), 2 * len(offsets))

    def test_gr_filter_sinusoids(self):
        # gr-filter's own qa_pfb_synthesizer test_000, with our block.
        N, M, fs = 10000, 5, 1000
        ofs = M * fs
        taps = filter.firdes.low_pass_2(M, ofs, fs / 2, fs / 10, attenuation_dB=80,
                                        window=fft.window.WIN_BLACKMAN_hARRIS)
        tb = gr.top_block()
        pfb = gpufilter.pfb_synthesizer_ccf(M, taps)
        snk = blocks.vector_sink_c()
        for i, freq in enumerate([0, 100, 200, -200, -100]):
            data = [complex(math.cos(2 * math.pi * freq * k / fs),
                            math.sin(2 * math.pi * freq * k / fs)) for k in range(N)]
            tb.connect(blocks.vector_source_c(data), (pfb, i))
        tb.connect(pfb, snk)
        tb.run()
        phases = [2 * math.pi * p / M for p in (3, 4, 0, 1, 2)]
        freqs = [-2200, -1100, 0, 1100, 2200]
        t = np.arange(2000, 3000) / ofs
        expected = sum(np.exp(1j * (2 * math.pi * f * t + p)) for f, p in zip(freqs, phases))
        self.assertComplexTuplesAlmostEqual(expected, snk.data()[2000:3000], 4)

    def chain(self, numchans, taps, x, ours):
        """channelizer -> synthesizer, ours (gpufilter) or gr-filter's."""
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        snk = blocks.vector_sink_c()
        if ours:
            chan = gpufilter.pfb_channelizer_ccf(numchans, taps, 1.0)
            synth = gpufilter.pfb_synthesizer_ccf(numchans, taps)
            tb.connect(src, chan)
        else:
            s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, numchans)
            chan = filter.pfb_channelizer_ccf(numchans, taps, 1.0)
            synth = filter.pfb_synthesizer_ccf(numchans, taps)
            tb.connect(src, s2ss)
            for k in range(numchans):
                tb.connect((s2ss, k), (chan, k))
        for k in range(numchans):
            tb.connect((chan, k), (synth, k))
        tb.connect(synth, snk)
        tb.run()
        if ours and GPU_REQUIRED:
            self.assertTrue(chan.on_gpu() and synth.on_gpu())
        return np.array(snk.data())

    def test_channelizer_then_synthesizer_reconstructs(self):
        M = 8
        taps = filter.firdes.low_pass_2(1, M, 0.5, 0.2, 100,
                                        fft.window.WIN_BLACKMAN_hARRIS)
        n = M * 4096
        k = np.arange(n)
        amps = self.rng.uniform(0.2, 1.0, M)
        x = sum(a * np.exp(2j * np.pi * (c * k / M + self.rng.uniform()))
                for c, a in enumerate(amps)).astype(np.complex64)
        y = self.chain(M, taps, x, ours=True)
        self.assert_same(y, self.chain(M, taps, x, ours=False), "chain as gr-filter's")
        # Every channel-centred tone comes back at its frequency with the same gain
        # (1/M with unit-gain taps) and nothing else appears: the synthesizer inverts
        # the channelizer, up to the filters' delay and per-channel phase.
        seg = y[n // 2:n // 2 + M * 1024]
        spectrum = np.abs(np.fft.fft(seg)) / len(seg)
        bins = [c * 1024 for c in range(M)]
        np.testing.assert_allclose(spectrum[bins] / amps, 1.0 / M, rtol=1e-3)
        self.assertLess(np.delete(spectrum, bins).max(), 1e-4)

    def test_bad_parameters_name_themselves(self):
        nan = float("nan")
        make = gpufilter.pfb_synthesizer_ccf
        cases = [
            (ValueError, "numchans", lambda: make(0, [1.0])),
            (ValueError, "numchans", lambda: make(-3, [1.0])),
            (ValueError, "numchans", lambda: make(3, [1.0], True)),  # odd with twox
            (ValueError, "taps", lambda: make(4, [])),
            (ValueError, "taps", lambda: make(4, [1.0, nan])),
            (ValueError, "batch_size", lambda: make(4, [1.0], batch_size=0)),
            (IndexError, "device", lambda: make(4, [1.0], device=99)),
        ]
        for exc, word, mk in cases:
            with self.assertRaises(exc, msg=word) as ctx:
                mk()
            self.assertIn(word, str(ctx.exception))
        blk = make(4, [1.0])
        for bad in ([], [float("inf")]):
            with self.assertRaises(ValueError) as ctx:
                blk.set_taps(bad)
            self.assertIn("taps", str(ctx.exception))
        for bad in ([4], [0, -1]):
            with self.assertRaises(ValueError) as ctx:
                blk.set_channel_map(bad)
            self.assertIn("channel_map", str(ctx.exception))
        blk.set_channel_map([])  # ignored, as gr-filter
        self.assertEqual(blk.channel_map(), [0, 1, 2, 3])


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_synthesizer)
