#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.pfb_channelizer_ccf / _vcf against gr-filter's
stream_to_streams -> filter.pfb_channelizer_ccf on random data."""

import time

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import GPU_REQUIRED, gated_source, gpu_count, relative_error

TOLERANCE = 1e-4  # per output port, relative to the port's norm


class chunky_source(gr.sync_block):
    """Emits data in work() calls of the given sizes, cycled: uneven calls downstream."""

    def __init__(self, data, sizes):
        gr.sync_block.__init__(self, "chunky_source", None, [data.dtype])
        self.data, self.sizes, self.pos, self.call = data, sizes, 0, 0

    def work(self, input_items, output_items):
        if self.pos >= len(self.data):
            return -1
        out = output_items[0]
        n = min(len(out), self.sizes[self.call % len(self.sizes)], len(self.data) - self.pos)
        self.call += 1
        out[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


def random_complex(rng, n):
    return (rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)).astype(np.complex64)


def rate_ratio(numchans, oversample_rate):
    return int(round(numchans / oversample_rate))


def complete_steps(n, numchans, oversample_rate):
    """Outputs per port of our block for n input samples: whole work() calls of
    m steps (m*R a multiple of numchans, gr-filter's output_multiple)."""
    r = rate_ratio(numchans, oversample_rate)
    m = 1
    while (m * r) % numchans:
        m += 1
    return n // (m * r) * m


class qa_pfb_channelizer(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2027)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def taps(self, n):
        self._last_taps = self.rng.uniform(-1, 1, n).tolist()
        return self._last_taps

    def reference(self, tb, src, numchans, taps, oversample_rate, nports, channel_map=None):
        s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, numchans)
        theirs = filter.pfb_channelizer_ccf(numchans, taps, oversample_rate)
        if channel_map is not None:
            theirs.set_channel_map(channel_map)
        tb.connect(src, s2ss)
        sinks = []
        for i in range(numchans):
            tb.connect((s2ss, i), (theirs, i))
        for k in range(nports):
            sinks.append(blocks.vector_sink_c())
            tb.connect((theirs, k), sinks[-1])
        return theirs, sinks

    def run_both(self, numchans, taps, oversample_rate, x, nports=None, channel_map=None,
                 source=None, tags=(), **gpu_options):
        nports = numchans if nports is None else nports
        tb = gr.top_block()
        src = source or blocks.vector_source_c(x.tolist(), False, 1, list(tags))
        ours = gpufilter.pfb_channelizer_ccf(numchans, taps, oversample_rate, **gpu_options)
        if channel_map is not None:
            ours.set_channel_map(channel_map)
        got = [blocks.vector_sink_c() for _ in range(nports)]
        tb.connect(src, ours)
        for k in range(nports):
            tb.connect((ours, k), got[k])
        _, want = self.reference(tb, src, numchans, taps, oversample_rate, nports,
                                 channel_map)
        tb.run()
        if GPU_REQUIRED and gpu_options.get("device") != gpufilter.device_cpu:
            self.assertTrue(ours.on_gpu())
        return ours, got, want

    def check_ports(self, got, want, n, numchans, oversample_rate, msg):
        """Same samples as gr-filter on every port. At oversample_rate 1 the same
        length; above it, gr-filter's scheduler may stop short of the stream's last
        whole steps (its forecast asks for noutput items of every input stream while
        it consumes noutput/oversample_rate), which ours outputs."""
        for k, (g, w) in enumerate(zip(got, want)):
            g, w = np.array(g.data()), np.array(w.data())
            if oversample_rate == 1:
                self.assertEqual(len(g), len(w), f"{msg} port {k}")
            else:
                self.assertEqual(len(g), complete_steps(n, numchans, oversample_rate),
                                 f"{msg} port {k}")
                self.assertLessEqual(len(w), len(g), f"{msg} port {k}")
                g = g[:len(w)]
            if len(w):
                self.assertLessEqual(relative_error(g, w), TOLERANCE, f"{msg} port {k}")

    def test_matches_gr_filter_channel_counts_and_rates(self):
        cases = [(n, 1.0) for n in (2, 3, 4, 5, 8, 16, 36, 64)]
        cases += [(n, 2.0) for n in (2, 4, 8, 16, 64)]
        cases += [(4, 4.0), (36, 36 / 25), (16, 16 / 12)]
        for numchans, osr in cases:
            for ntaps in (1, numchans * 5 + 3):
                x = random_complex(self.rng, numchans * 250 + 11)
                taps = self.taps(ntaps)
                _, got, want = self.run_both(numchans, taps, osr, x)
                self.check_ports(got, want, len(x), numchans, osr,
                                 f"numchans={numchans} os={osr:.4f} ntaps={ntaps}")

    def test_channel_maps_that_reorder_and_drop(self):
        # gr-filter's channelizer runs only with every output connected (its one-to-one
        # tag policy needs as many outputs as inputs), so ours with a map is checked
        # against its unmapped channels: our port k is its channel map[k].
        for numchans, osr, cmap, nports in ((8, 1.0, [5, 2, 7], 3),
                                            (8, 2.0, [7, 6, 5, 4, 3, 2, 1, 0], 8),
                                            (5, 1.0, [1, 1, 0, 4], 2),
                                            (5, 1.0, [4, 4, 0, 2, 1, 3], 5),
                                            (36, 36 / 25, [35, 0, 17], 3)):
            x = random_complex(self.rng, numchans * 300 + 3)
            tb = gr.top_block()
            src = blocks.vector_source_c(x.tolist())
            ours = gpufilter.pfb_channelizer_ccf(numchans, self.taps(numchans * 4 + 1), osr)
            ours.set_channel_map(cmap)
            got = [blocks.vector_sink_c() for _ in range(nports)]
            tb.connect(src, ours)
            for k in range(nports):
                tb.connect((ours, k), got[k])
            _, want = self.reference(tb, src, numchans, self._last_taps, osr, numchans)
            tb.run()
            self.assertEqual(list(ours.channel_map()), cmap)
            self.check_ports(got, [want[c] for c in cmap[:nports]], len(x), numchans, osr,
                             f"map={cmap}")

    def test_full_length_map_as_gr_filter(self):
        cmap = [3, 1, 2, 0, 3, 6, 5, 4]
        x = random_complex(self.rng, 8 * 300)
        ours, got, want = self.run_both(8, self.taps(33), 1.0, x, channel_map=cmap)
        self.check_ports(got, want, len(x), 8, 1.0, f"map={cmap}")

    def test_fewer_outputs_than_channels_take_the_first_channels(self):
        x = random_complex(self.rng, 16 * 200)
        taps = self.taps(16 * 3)
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        ours = gpufilter.pfb_channelizer_ccf(16, taps)
        got = [blocks.vector_sink_c() for _ in range(3)]
        tb.connect(src, ours)
        for k in range(3):
            tb.connect((ours, k), got[k])
        _, want = self.reference(tb, src, 16, taps, 1.0, 16)
        tb.run()
        self.check_ports(got, want[:3], len(x), 16, 1.0, "3 of 16 outputs")

    def test_uneven_work_calls(self):
        for numchans, osr in ((4, 1.0), (8, 2.0), (36, 36 / 25)):
            x = random_complex(self.rng, numchans * 400 + 5)
            taps = self.taps(numchans * 6 + 2)
            for batch in (1, 7, 100):
                _, got, want = self.run_both(numchans, taps, osr, x, batch_size=batch)
                self.check_ports(got, want, len(x), numchans, osr, f"batch={batch}")
            src = chunky_source(x, [1, 37, 1000, 3, 4097, 250])
            _, got, want = self.run_both(numchans, taps, osr, x, source=src,
                                         batch_size=64)
            self.check_ports(got, want, len(x), numchans, osr, "chunky source")

    def test_tiny_streams_give_gr_filters_whole_output(self):
        for numchans in (3, 8):
            taps = self.taps(numchans * 4 + 1)
            for n in (1, numchans - 1, numchans, numchans + 1, 5 * numchans - 1,
                      5 * numchans, 40 * numchans + 2):
                x = random_complex(self.rng, n)
                _, got, want = self.run_both(numchans, taps, 1.0, x)
                self.check_ports(got, want, n, numchans, 1.0, f"n={n}")
        x = random_complex(self.rng, 25 * 36 * 2 + 24)
        _, got, want = self.run_both(36, self.taps(100), 36 / 25, x)
        self.check_ports(got, want, len(x), 36, 36 / 25, "36 channels, 2 periods")

    def test_set_taps_mid_stream(self):
        for numchans, ntaps1, ntaps2 in ((4, 17, 40), (8, 64, 9), (5, 5, 5)):
            taps1, taps2 = self.taps(ntaps1), self.taps(ntaps2)
            first = numchans * 300
            x = random_complex(self.rng, first * 2 + numchans * 7)
            tb = gr.top_block()
            src = gated_source(x, first)
            ours = gpufilter.pfb_channelizer_ccf(numchans, taps1, batch_size=1)
            got = [blocks.vector_sink_c() for _ in range(numchans)]
            tb.connect(src, ours)
            for k in range(numchans):
                tb.connect((ours, k), got[k])
            theirs, want = self.reference(tb, src, numchans, taps1, 1.0, numchans)
            tb.start()
            deadline = time.time() + 30
            while time.time() < deadline and not (
                    ours.nitems_written(0) == theirs.nitems_written(0) == first // numchans):
                time.sleep(0.002)
            self.assertEqual(ours.nitems_written(0), first // numchans)
            ours.set_taps(taps2)
            theirs.set_taps(taps2)
            src.release()
            tb.wait()
            self.check_ports(got, want, len(x), numchans, 1.0, f"numchans={numchans}")
            self.assertEqual(ours.taps(), theirs.taps())

    def test_tags_follow_gr_filter(self):
        numchans = 4
        x = random_complex(self.rng, 4000)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src"))) for off in (0, 3, 4, 999, 3997)]
        _, got, want = self.run_both(numchans, self.taps(20), 1.0, x, tags=tags)
        for k in range(numchans):
            g = sorted((t.offset, pmt.to_long(t.value)) for t in got[k].tags())
            w = sorted((t.offset, pmt.to_long(t.value)) for t in want[k].tags())
            self.assertEqual(g, w, f"port {k}")
            self.assertEqual(len(g), 5)

    def test_cpu_device(self):
        x = random_complex(self.rng, 8 * 100)
        ours, got, want = self.run_both(8, self.taps(30), 2.0, x, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.assertEqual(ours.method(), "cpu")
        self.check_ports(got, want, len(x), 8, 2.0, "device_cpu")

    def test_taps_as_gr_filter_splits_them(self):
        taps = self.taps(23)
        ours = gpufilter.pfb_channelizer_ccf(5, taps)
        theirs = filter.pfb_channelizer_ccf(5, taps, 1.0)
        self.assertEqual(len(ours.taps()), 5)
        for a, b in zip(ours.taps(), theirs.taps()):
            self.assertFloatTuplesAlmostEqual(a, b, 6)

    def test_bad_parameters_name_themselves(self):
        cases = [
            (ValueError, "numchans", lambda: gpufilter.pfb_channelizer_ccf(0, [1.0])),
            (ValueError, "numchans", lambda: gpufilter.pfb_channelizer_ccf(-2, [1.0])),
            (ValueError, "numchans", lambda: gpufilter.pfb_channelizer_vcf(0, [1.0])),
            (ValueError, "taps", lambda: gpufilter.pfb_channelizer_ccf(4, [])),
            (ValueError, "oversample_rate", lambda: gpufilter.pfb_channelizer_ccf(4, [1.0], 3.0)),
            (ValueError, "oversample_rate", lambda: gpufilter.pfb_channelizer_ccf(4, [1.0], 0.5)),
            (ValueError, "oversample_rate", lambda: gpufilter.pfb_channelizer_ccf(4, [1.0], 0.0)),
            (ValueError, "oversample_rate", lambda: gpufilter.pfb_channelizer_vcf(36, [1.0], 1.4)),
            (ValueError, "batch_size",
             lambda: gpufilter.pfb_channelizer_ccf(4, [1.0], 1.0, batch_size=0)),
            (IndexError, "device", lambda: gpufilter.pfb_channelizer_ccf(4, [1.0], 1.0, 99)),
            (ValueError, "input_format",
             lambda: gpufilter.pfb_channelizer_vcf(4, [1.0], 1.0, "int12")),
        ]
        for exc, word, make in cases:
            with self.assertRaises(exc, msg=word) as ctx:
                make()
            self.assertIn(word, str(ctx.exception))
        gpufilter.pfb_channelizer_ccf(36, [1.0], 36 / 25)  # accepted
        blk = gpufilter.pfb_channelizer_ccf(4, [1.0])
        for bad in ([0, 4], [-1], [1, 2, 7]):
            with self.assertRaises(ValueError) as ctx:
                blk.set_channel_map(bad)
            self.assertIn("channel_map", str(ctx.exception))
        with self.assertRaises(ValueError):
            blk.set_taps([])
        blk.set_channel_map([])  # ignored, as in gr-filter
        self.assertEqual(list(blk.channel_map()), [0, 1, 2, 3])


# input_format -> (numpy type of one IQ component, GNU Radio source, item view, scaling)
FORMATS = {
    "int8": (np.int8, blocks.vector_source_s, np.int16, lambda v: v / 128.0),
    "uint8": (np.uint8, blocks.vector_source_s, np.int16, lambda v: (v - 127.5) / 127.5),
    "int16": (np.int16, blocks.vector_source_i, np.int32, lambda v: v / 32768.0),
}


class qa_pfb_channelizer_vcf(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2028)
        gpu_count()

    def run_vector(self, numchans, taps, osr, source, input_format, x_complex,
                   **gpu_options):
        tb = gr.top_block()
        ours = gpufilter.pfb_channelizer_vcf(numchans, taps, osr, input_format, **gpu_options)
        got = blocks.vector_sink_c(numchans)
        tb.connect(source, ours, got)
        ref_src = blocks.vector_source_c(x_complex.tolist())
        s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, numchans)
        theirs = filter.pfb_channelizer_ccf(numchans, taps, osr)
        tb.connect(ref_src, s2ss)
        want = []
        for i in range(numchans):
            tb.connect((s2ss, i), (theirs, i))
            want.append(blocks.vector_sink_c())
            tb.connect((theirs, i), want[-1])
        tb.run()
        if GPU_REQUIRED and gpu_options.get("device") != gpufilter.device_cpu:
            self.assertTrue(ours.on_gpu())
        g = np.array(got.data()).reshape(-1, numchans)
        return ours, g, [np.array(w.data()) for w in want]

    def check(self, g, want, n, numchans, osr, msg, skip=0):
        self.assertEqual(len(g), complete_steps(n, numchans, osr), msg)
        for c, w in enumerate(want):
            if osr == 1:
                self.assertEqual(len(g), len(w), msg)
            if len(w) > skip:
                self.assertLessEqual(relative_error(g[skip:len(w), c], w[skip:]), TOLERANCE,
                                     f"{msg} channel {c}")

    def test_complex_input_matches_gr_filter(self):
        for numchans, osr in ((4, 1.0), (64, 2.0), (36, 36 / 25), (256, 1.0)):
            x = (self.rng.uniform(-1, 1, numchans * 120 + 3)
                 + 1j * self.rng.uniform(-1, 1, numchans * 120 + 3)).astype(np.complex64)
            taps = self.rng.uniform(-1, 1, numchans * 4 + 1).tolist()
            for batch in (gpufilter.default_batch_size, 50):
                ours, g, want = self.run_vector(numchans, taps, osr,
                                                blocks.vector_source_c(x.tolist()),
                                                "complex", x, batch_size=batch)
                self.assertEqual(ours.input_format(), "complex")
                self.check(g, want, len(x), numchans, osr, f"numchans={numchans}")

    def test_integer_iq_as_scaled_complex(self):
        for fmt, (comp, source, view, scale) in FORMATS.items():
            for numchans, osr in ((8, 1.0), (16, 2.0)):
                n = numchans * 150 + 1
                info = np.iinfo(comp)
                iq = self.rng.integers(info.min, info.max, size=2 * n, endpoint=True,
                                       dtype=comp)
                iq[:2] = [info.min, info.max]  # full scale both ways
                x = (scale(iq[0::2].astype(np.float64))
                     + 1j * scale(iq[1::2].astype(np.float64))).astype(np.complex64)
                items = iq.view(view)
                taps = self.rng.uniform(-1, 1, numchans * 3).tolist()
                for device in (gpufilter.device_auto, gpufilter.device_cpu):
                    ours, g, want = self.run_vector(numchans, taps, osr,
                                                    source(items.tolist()), fmt, x,
                                                    device=device, batch_size=100)
                    self.assertEqual(ours.input_format(), fmt)
                    # The stream starts from GNU Radio's zero-filled history: zero
                    # words, which are -1-1j in offset binary. The first outputs, whose
                    # filters reach back before sample 0, differ from a complex stream
                    # starting from 0 there; the rest must match.
                    r = rate_ratio(numchans, osr)
                    skip = -(-len(taps) // r) + 1 if fmt == "uint8" else 0
                    self.check(g, want, n, numchans, osr,
                               f"{fmt} numchans={numchans} device={device}", skip)

    def test_set_taps_mid_stream(self):
        numchans = 16
        taps1 = self.rng.uniform(-1, 1, 40).tolist()
        taps2 = self.rng.uniform(-1, 1, 100).tolist()
        first = numchans * 200
        x = (self.rng.uniform(-1, 1, first * 2)
             + 1j * self.rng.uniform(-1, 1, first * 2)).astype(np.complex64)
        tb = gr.top_block()
        src = gated_source(x, first)
        ours = gpufilter.pfb_channelizer_vcf(numchans, taps1, batch_size=1)
        vec = gpufilter.pfb_channelizer_ccf(numchans, taps1, batch_size=1)
        got = blocks.vector_sink_c(numchans)
        tb.connect(src, ours, got)
        tb.connect(src, vec)
        want = [blocks.vector_sink_c() for _ in range(numchans)]
        for k in range(numchans):
            tb.connect((vec, k), want[k])
        tb.start()
        deadline = time.time() + 30
        while time.time() < deadline and not (
                ours.nitems_written(0) == vec.nitems_written(0) == first // numchans):
            time.sleep(0.002)
        ours.set_taps(taps2)
        vec.set_taps(taps2)
        src.release()
        tb.wait()
        g = np.array(got.data()).reshape(-1, numchans)
        for c in range(numchans):
            w = np.array(want[c].data())
            self.assertEqual(len(g), len(w))
            self.assertLessEqual(relative_error(g[:, c], w), TOLERANCE)


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_channelizer)
