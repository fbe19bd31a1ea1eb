#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.fir_filter_2d_fff/ccf/ccc against a float64 reference built with SciPy, on
random data. The block's output rows are rows 0 .. R-1 of
scipy.signal.convolve2d(rows, kernel, 'full'), columns cropped as mode='same' (from
(kw-1)//2 on): causal along the stream, centred along a row. Covered: odd and even
kernel sizes up to 25x25, kernels wider than a row, vlen 1 and 1024, each method
forced (separable with rank-one and full-rank kernels), the CPU and a GPU, odd chunks
and small batches, set_taps mid-stream with a new kernel size, tags, restarts, delay()
and bad arguments. Tolerance: qa_convolve2d.RTOL, relative to sum |k||x| per output."""

import time

import numpy as np
import pmt
from gnuradio import blocks, gpufilter, gr, gr_unittest
try:
    from scipy import signal
except ImportError:  # the same semantics in NumPy (a GNU Radio runtime without SciPy)
    import fir2d_reference as signal

from gpu_test_support import GPU_REQUIRED, gated_source, gpu_count, skip_without_gpu
from qa_convolve2d import assert_within, random_array, rank_one

# name -> (input complex?, taps complex?, item type, vector source, vector sink)
VARIANTS = {
    "fff": (False, False, np.float32, blocks.vector_source_f, blocks.vector_sink_f),
    "ccf": (True, False, np.complex64, blocks.vector_source_c, blocks.vector_sink_c),
    "ccc": (True, True, np.complex64, blocks.vector_source_c, blocks.vector_sink_c),
}
DEVICES = (gpufilter.device_auto, gpufilter.device_cpu)
KERNEL_SIZES = ((1, 1), (3, 3), (4, 6), (7, 2), (9, 9), (25, 25))
GPU_METHODS = ("direct", "separable", "fft")
CHUNKS = (1, 37, 2, 1000, 3, 129, 5)


def stream_reference(x, k):
    """The block's output for rows x (R, vlen) streamed from a zero history, in float64,
    and sum |k||x| of each output (the tolerance's scale)."""
    rows, vlen = x.shape
    c0 = (k.shape[1] - 1) // 2
    want = signal.convolve2d(x.astype(np.complex128), k.astype(np.complex128), "full")
    scale = signal.convolve2d(np.abs(x), np.abs(k), "full")
    return want[:rows, c0:c0 + vlen], scale[:rows, c0:c0 + vlen]


class chunked_rows(gr.sync_block):
    """Rows of `data` (items of vlen values) in work() calls of the given sizes, cycled,
    so that the block after it sees uneven calls."""

    def __init__(self, data, sizes):
        vlen = data.shape[1]
        item = data.dtype if vlen == 1 else (data.dtype, vlen)
        gr.sync_block.__init__(self, "chunked_rows", None, [item])
        self.data = data[:, 0] if vlen == 1 else data
        self.sizes, self.pos, self.call = sizes, 0, 0

    def work(self, input_items, output_items):
        if self.pos >= len(self.data):
            return -1
        n = min(len(output_items[0]), self.sizes[self.call % len(self.sizes)],
                len(self.data) - self.pos)
        self.call += 1
        output_items[0][:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


def make_block(name, vlen, taps, *args, **options):
    return getattr(gpufilter, "fir_filter_2d_" + name)(vlen, taps, *args, **options)


def tag_list(sink):
    return [(t.offset, pmt.symbol_to_string(t.key), pmt.to_long(t.value))
            for t in sink.tags()]


class qa_fir_filter_2d(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2077)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def rows(self, name, n, vlen):
        return random_array(self.rng, (n, vlen), VARIANTS[name][0], VARIANTS[name][2])

    def kernel(self, name, shape, rank1=False):
        c = VARIANTS[name][1]
        k = rank_one(self.rng, *shape, c) if rank1 else random_array(self.rng, shape, c)
        return k.astype(np.complex64 if c else np.float32)

    def filter(self, name, x, taps, sizes=None, tags=(), runs=1, **options):
        """x (rows, vlen) through a new block (to the end, `runs` times from a rewound
        source); returns the block, its output rows and the sink."""
        _, _, _, source, sink = VARIANTS[name]
        vlen = x.shape[1]
        blk = make_block(name, vlen, taps, **options)
        if sizes:
            src = chunked_rows(x, sizes)
        else:
            src = source(x.ravel().tolist(), False, vlen, list(tags))
        snk = sink(vlen)
        tb = gr.top_block()
        tb.connect(src, blk, snk)
        for run in range(runs):
            if run:
                src.rewind()
            tb.run()
        if GPU_REQUIRED and options.get("device") != gpufilter.device_cpu:
            self.assertTrue(blk.on_gpu())
        return blk, np.array(snk.data()).reshape(-1, vlen), snk

    def check(self, name, x, k, msg, **options):
        blk, got, _ = self.filter(name, x, k, **options)
        want, scale = stream_reference(x, k)
        assert_within(self, got, want, scale, f"{name} vlen={x.shape[1]} "
                      f"kernel={k.shape} {options} {msg}")
        return blk

    def test_matches_scipy_all_types_and_kernel_sizes(self):
        for device in DEVICES:
            for name in VARIANTS:
                for shape in KERNEL_SIZES:
                    k = self.kernel(name, shape)
                    blk = self.check(name, self.rows(name, 150, 37), k, "", device=device)
                    self.assertEqual(blk.vlen(), 37)
                    self.assertEqual(blk.delay(), (shape[0] - 1) // 2)
                    np.testing.assert_allclose(np.array(blk.taps()), k, rtol=0, atol=1e-7)

    def test_same_mode_delayed_by_delay(self):
        """The block's output is convolve2d(image, kernel, 'same') delayed by delay()
        rows: the other way of reading its alignment."""
        for shape in KERNEL_SIZES:
            x, k = self.rows("ccf", 120, 16), self.kernel("ccf", shape)
            blk, got, _ = self.filter("ccf", x, k)
            d = blk.delay()
            same = signal.convolve2d(x.astype(np.complex128), k, "same")
            scale = signal.convolve2d(np.abs(x), np.abs(k), "same")
            assert_within(self, got[d:], same[:len(x) - d], scale[:len(x) - d],
                          f"kernel={shape} delay={d}")

    def test_vlen_1_and_1024_and_kernels_wider_than_a_row(self):
        cases = [(1, (1, 1), 300), (1, (5, 1), 300), (1, (3, 3), 300), (1, (4, 6), 300),
                 (8, (3, 21), 200), (8, (2, 8), 200), (8, (1, 9), 200),
                 (1024, (1, 1), 30), (1024, (9, 9), 30), (1024, (4, 6), 30)]
        for device in DEVICES:
            for name in VARIANTS:
                for vlen, shape, n in cases:
                    x, k = self.rows(name, n, vlen), self.kernel(name, shape)
                    self.check(name, x, k, "", device=device)

    def test_each_method_forced_on_a_gpu(self):
        """direct, separable and fft, each with a rank-one and a full-rank kernel (the
        separable method computes a full-rank kernel as the exact sum of its rank-one
        parts, up to 32 of them, and refuses a kernel that needs more, naming
        `method`), whole and in odd chunks with small batches (FFT tiles across
        calls)."""
        skip_without_gpu(self)
        cases = [(64, (5, 5), 120), (37, (4, 6), 120), (8, (3, 21), 120),
                 (1, (7, 1), 300), (1024, (25, 25), 60)]
        for name in VARIANTS:
            for method in GPU_METHODS + ("auto",):
                for vlen, shape, n in cases:
                    for rank1 in (True, False):
                        k = self.kernel(name, shape, rank1)
                        x = self.rows(name, n, vlen)
                        terms = min(shape) * (2 if name == "ccc" else 1)
                        if method == "separable" and not rank1 and terms > 32:
                            with self.assertRaises(ValueError) as ctx:
                                make_block(name, vlen, k, method=method)
                            self.assertIn("method", str(ctx.exception))
                            continue
                        for chunked in (False, True):
                            extra = dict(sizes=(1, 29, 2, 64, 3),
                                         batch_size=24 * vlen) if chunked else {}
                            blk = self.check(name, x, k, f"rank1={rank1}", method=method,
                                             **extra)
                            if method == "auto":
                                self.assertIn(blk.method(), GPU_METHODS)
                            else:
                                self.assertEqual(blk.method(), method)

    def test_methods_on_the_cpu(self):
        for name in VARIANTS:
            for method in GPU_METHODS + ("auto",):
                blk = self.check(name, self.rows(name, 90, 13), self.kernel(name, (5, 4)),
                                 "", method=method, device=gpufilter.device_cpu)
                self.assertFalse(blk.on_gpu())
                self.assertEqual(blk.method(), "cpu")
                self.assertEqual(blk.device(), gpufilter.device_cpu)
        method = gpufilter.filter_method.separable  # the enum works as the string does
        blk = make_block("fff", 4, np.ones((2, 2)), method=method)
        self.assertIn(blk.method(), ("separable", "cpu"))

    def test_odd_chunks_and_small_batches(self):
        for device in DEVICES:
            for name in ("fff", "ccc"):
                x, k = self.rows(name, 2000, 19), self.kernel(name, (9, 4))
                for batch_size in (1, 7 * 19, 262144):
                    self.check(name, x, k, f"batch_size={batch_size}", sizes=CHUNKS,
                               batch_size=batch_size, device=device)

    def test_set_taps_mid_stream(self):
        """New taps of another size at a known row: rows before it from the old
        kernel, then the new kernel over the same rows. As gr-filter's FIRs, the
        history follows the kernel's height in GNU Radio's window, so the stream
        shifts by the change d = new height - old height: the first output after the
        switch ends at row first + d (d rows are not output when the kernel grows,
        -d rows are output again when it shrinks)."""
        vlen, n, first = 23, 800, 301
        switches = [((3, 3), (9, 5)), ((9, 9), (2, 2)), ((4, 6), (4, 6)),
                    ((1, 1), (25, 3))]
        for device in DEVICES:
            for i, (old_shape, new_shape) in enumerate(switches):
                name = list(VARIANTS)[i % len(VARIANTS)]
                x = self.rows(name, n, vlen)
                old, new = self.kernel(name, old_shape), self.kernel(name, new_shape)
                blk = make_block(name, vlen, old, device=device)
                src, snk = gated_source(x, first), VARIANTS[name][4](vlen)
                tb = gr.top_block()
                tb.connect(src, blk, snk)
                tb.start()
                deadline = time.time() + 30
                while blk.nitems_written(0) < first and time.time() < deadline:
                    time.sleep(0.002)
                self.assertEqual(blk.nitems_written(0), first)
                blk.set_taps(new.tolist() if i % 2 else new)  # lists of rows, or arrays
                src.release()
                tb.wait()
                if GPU_REQUIRED and device != gpufilter.device_cpu:
                    self.assertTrue(blk.on_gpu())
                got = np.array(snk.data()).reshape(-1, vlen)
                want_old, scale_old = stream_reference(x, old)
                want_new, scale_new = stream_reference(x, new)
                msg = f"{name} {old_shape} -> {new_shape} device={device}"
                d = new_shape[0] - old_shape[0]
                self.assertEqual(len(got), n - d, msg)
                assert_within(self, got[:first], want_old[:first], scale_old[:first], msg)
                assert_within(self, got[first:], want_new[first + d:],
                              scale_new[first + d:], msg)
                self.assertEqual(blk.delay(), (new_shape[0] - 1) // 2)
                np.testing.assert_allclose(np.array(blk.taps()), new, rtol=0, atol=1e-7)

    def test_set_taps_before_start(self):
        x = self.rows("ccf", 200, 10)
        blk = make_block("ccf", 10, np.ones((3, 3)))
        k = self.kernel("ccf", (6, 5))
        blk.set_taps(k)
        self.assertEqual(np.array(blk.taps()).shape, (6, 5))
        self.assertEqual(blk.delay(), 2)
        tb, snk = gr.top_block(), blocks.vector_sink_c(10)
        tb.connect(blocks.vector_source_c(x.ravel().tolist(), False, 10), blk, snk)
        tb.run()
        # The history grows from 3 to 6 rows at the first work() call, as gr-filter's
        # FIRs' does: the first 3 rows are only history.
        want, scale = stream_reference(x, k)
        assert_within(self, np.array(snk.data()).reshape(-1, 10), want[3:], scale[3:],
                      "set_taps before start")

    def test_tags_pass_one_to_one(self):
        offsets = (0, 1, 2, 57, 499, 500, 998, 999)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("row"), pmt.from_long(off),
                                            pmt.intern("src"))) for off in offsets]
        for device in DEVICES:
            for name in VARIANTS:
                x = self.rows(name, 1000, 12)
                _, _, snk = self.filter(name, x, self.kernel(name, (5, 3)), tags=tags,
                                        device=device)
                self.assertEqual(tag_list(snk), [(off, "row", off) for off in offsets])

    def test_restart_starts_from_zero_history(self):
        for device in DEVICES:
            x, k = self.rows("ccf", 300, 9), self.kernel("ccf", (7, 3))
            _, got, _ = self.filter("ccf", x, k, runs=2, device=device)
            want, scale = stream_reference(x, k)
            self.assertEqual(len(got), 2 * len(x))
            for run in range(2):
                part = slice(run * len(x), (run + 1) * len(x))
                assert_within(self, got[part], want, scale, f"run {run} device={device}")

    def test_taps_as_arrays_and_lists_of_rows(self):
        k = np.arange(12.0).reshape(3, 4) / 7
        for taps in (k, k.astype(np.float32), k.tolist(), [list(r) for r in k]):
            blk = make_block("fff", 5, taps, device=gpufilter.device_cpu)
            np.testing.assert_allclose(np.array(blk.taps()), k, rtol=1e-7)
            self.assertEqual(len(blk.taps()), 3)
            self.assertEqual(len(blk.taps()[0]), 4)
        kc = k + 1j * k[::-1]
        for taps in (kc, kc.astype(np.complex64), kc.tolist()):
            blk = make_block("ccc", 5, taps, device=gpufilter.device_cpu)
            np.testing.assert_allclose(np.array(blk.taps()), kc, rtol=1e-6)

    def test_gpu_options(self):
        blk = make_block("ccf", 16, np.ones((3, 3)), gpufilter.device_cpu, 4096,
                         "direct", 0.02)
        self.assertEqual(blk.batch_size(), 4096)
        self.assertAlmostEqual(blk.max_latency(), 0.02)
        self.assertEqual(blk.device(), gpufilter.device_cpu)
        blk.set_max_latency(0.005)
        self.assertAlmostEqual(blk.max_latency(), 0.005)

    def test_bad_arguments_name_themselves(self):
        errors = (ValueError, OverflowError)  # a negative vlen may not convert
        k = np.ones((3, 3))
        cases = [
            (ValueError, "vlen", lambda: make_block("fff", 0, k)),
            (errors, "vlen", lambda: make_block("ccf", -4, k)),
            (ValueError, "taps", lambda: make_block("ccf", 8, [])),
            (ValueError, "taps", lambda: make_block("fff", 8, [[]])),
            (ValueError, "taps", lambda: make_block("ccc", 8, [[1.0, 2.0], [3.0]])),
            (ValueError, "method", lambda: make_block("fff", 8, k, method="winograd")),
            (ValueError, "batch_size", lambda: make_block("fff", 8, k, batch_size=0)),
            (IndexError, "device", lambda: make_block("ccf", 8, k, device=99)),
            (IndexError, "device", lambda: make_block("ccf", 8, k, device=-7)),
        ]
        for exc, word, make in cases:
            with self.subTest(parameter=word):
                with self.assertRaises(exc) as ctx:
                    make()
                self.assertIn(word, str(ctx.exception))
        blk = make_block("ccf", 8, k)
        for bad in ([], [[]], [[1.0], [1.0, 2.0]]):
            with self.assertRaises(ValueError) as ctx:
                blk.set_taps(bad)
            self.assertIn("taps", str(ctx.exception))
        # A refused kernel changes nothing.
        np.testing.assert_allclose(np.array(blk.taps()), k)


if __name__ == "__main__":
    gr_unittest.run(qa_fir_filter_2d)
