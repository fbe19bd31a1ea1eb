#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.nlms_filter_ff and gpufilter.nlms_batch against the float64 update,
sample by sample, on the GPU (when there is one) and on the CPU fallback."""

import numpy as np
from gnuradio import blocks, gpufilter, gr, gr_unittest

from gpu_test_support import GPU_REQUIRED, gpu_count
from nlms_reference import echo_path, erle_db, float_bound, nlms_reference, relative_to

DEVICES = (gpufilter.device_auto, gpufilter.device_cpu)


class chunky_source(gr.sync_block):
    """Emits rows of `data` (items of vlen floats) in chunks of the given sizes, in
    turn, so the block after it sees uneven work() calls."""

    def __init__(self, data, sizes):
        vlen = data.shape[1]
        sig = np.float32 if vlen == 1 else (np.float32, vlen)
        gr.sync_block.__init__(self, "chunky_source", None, [sig])
        self.data = data[:, 0] if vlen == 1 else data
        self.sizes, self.pos, self.call = sizes, 0, 0

    def work(self, input_items, output_items):
        if self.pos >= len(self.data):
            return -1
        out = output_items[0]
        n = min(len(out), self.sizes[self.call % len(self.sizes)],
                len(self.data) - self.pos)
        self.call += 1
        out[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


def run_block(blk, x, d, sizes=None):
    """x, d: (filters, samples). Runs them through blk; returns e (filters, samples)."""
    nf = x.shape[0]
    xi = np.ascontiguousarray(x.T)
    di = np.ascontiguousarray(d.T)
    if sizes:
        srcx, srcd = chunky_source(xi, sizes), chunky_source(di, sizes[::-1])
    else:
        srcx = blocks.vector_source_f(xi.ravel().tolist(), False, nf)
        srcd = blocks.vector_source_f(di.ravel().tolist(), False, nf)
    sink = blocks.vector_sink_f(nf)
    tb = gr.top_block()
    tb.connect(srcx, (blk, 0))
    tb.connect(srcd, (blk, 1))
    tb.connect(blk, sink)
    tb.run()
    return np.asarray(sink.data(), dtype=np.float32).reshape(-1, nf).T


class qa_nlms_filter(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2024)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def signals(self, nf, length, echo_taps=48):
        x = self.rng.uniform(-1, 1, (nf, length)).astype(np.float32)
        d = np.stack([np.convolve(x[k], echo_path(echo_taps, self.rng))[:length]
                      for k in range(nf)]).astype(np.float32)
        return x, d

    def check_against_reference(self, e, taps, x, d, ntaps, mus, eps=1e-6, msg=""):
        for k in range(x.shape[0]):
            mu = mus[k] if np.ndim(mus) else mus
            want_e, want_w = nlms_reference(x[k], d[k], ntaps, mu, eps)
            bound = float_bound(ntaps, x.shape[1])
            self.assertLessEqual(relative_to(e[k], want_e, d[k]), bound, f"{msg} k={k}")
            self.assertLessEqual(
                relative_to(taps[k], want_w, want_w if np.any(want_w) else 1.0), bound,
                f"{msg} taps k={k}")

    def expect_device(self, blk, device):
        if GPU_REQUIRED and device != gpufilter.device_cpu:
            self.assertTrue(blk.on_gpu())
        if device == gpufilter.device_cpu:
            self.assertFalse(blk.on_gpu())

    def test_block_matches_reference_over_tap_counts_and_steps(self):
        for device in DEVICES:
            for ntaps, length in ((1, 3000), (2, 3000), (33, 3000), (256, 3000),
                                  (1000, 2000), (8192, 600)):
                for mu in (0.05, 0.5, 1.0):
                    x, d = self.signals(1, length)
                    blk = gpufilter.nlms_filter_ff(ntaps, mu, device=device)
                    self.expect_device(blk, device)
                    e = run_block(blk, x, d)
                    self.assertEqual(e.shape, x.shape)
                    self.check_against_reference(
                        e, [blk.taps()], x, d, ntaps, mu,
                        msg=f"device={device} ntaps={ntaps} mu={mu}")

    def test_many_filters_as_vectors_in_uneven_calls(self):
        for device in DEVICES:
            for nf in (1, 2, 7, 64):
                x, d = self.signals(nf, 2500)
                mu = 0.4
                blk = gpufilter.nlms_filter_ff(40, mu, nf, device=device, batch_size=300)
                self.assertEqual(blk.nfilters(), nf)
                e = run_block(blk, x, d, sizes=[1, 7, 300, 1024, 5])
                self.assertEqual(e.shape, x.shape)
                self.check_against_reference(
                    e, [blk.taps(k) for k in range(nf)], x, d, 40, mu,
                    msg=f"device={device} nf={nf}")

    def test_controls_before_a_run(self):
        for device in DEVICES:
            x, d = self.signals(2, 2000)
            blk = gpufilter.nlms_filter_ff(16, 0.5, 2, eps=1e-3, device=device)
            self.assertEqual((blk.ntaps(), blk.nfilters(), blk.eps()), (16, 2, 1e-3))
            w0 = list(np.linspace(-0.2, 0.3, 16).astype(np.float32))
            blk.set_taps(w0, 1)
            self.assertEqual(blk.taps(1), w0)
            self.assertEqual(blk.taps(0), [0.0] * 16)
            blk.set_mu(0.25)
            self.assertEqual(blk.mu(), 0.25)
            e = run_block(blk, x, d)
            for k, w in ((0, None), (1, w0)):
                want_e, want_w = nlms_reference(x[k], d[k], 16, 0.25, 1e-3, w)
                bound = float_bound(16, 2000)
                self.assertLessEqual(relative_to(e[k], want_e, d[k]), bound)
                self.assertLessEqual(relative_to(blk.taps(k), want_w, want_w), bound)
            blk.reset()
            self.assertEqual(blk.taps(0), [0.0] * 16)
            self.assertEqual(blk.taps(1), [0.0] * 16)

    def test_converges_to_an_echo_path(self):
        x = self.rng.uniform(-1, 1, 40000).astype(np.float32)
        h = echo_path(200, self.rng)
        d = np.convolve(x, h)[:len(x)].astype(np.float32)
        for device in DEVICES:
            blk = gpufilter.nlms_filter_ff(256, 0.5, device=device)
            e = run_block(blk, x[None, :], d[None, :])[0]
            self.assertGreaterEqual(erle_db(d[-10000:], e[-10000:]), 25.0)
            w = np.asarray(blk.taps())
            self.assertLessEqual(np.linalg.norm(w[:200] - h) / np.linalg.norm(h), 0.06)
            self.assertLessEqual(np.linalg.norm(w[200:]), 0.06 * np.linalg.norm(h))

    def test_norm_follows_a_40_db_drop_in_a_long_stream(self):
        """x.x is a running sum on the CPU (re-anchored every ntaps samples) and summed
        afresh on the GPU: after 150000 loud samples the quiet part must still be
        normalised by its own power, as the float64 update does."""
        n = 150000
        x = np.concatenate([self.rng.uniform(-1, 1, n),
                            1e-2 * self.rng.uniform(-1, 1, n)]).astype(np.float32)
        d = (0.7 * np.roll(x, 2)).astype(np.float32)
        d[:2] = 0
        want_e, _ = nlms_reference(x, d, 8, 0.05, 1e-6)
        for device in DEVICES:
            e, _ = gpufilter.nlms_batch(x, d, 8, 0.05, device=device)
            quiet = slice(n, 2 * n)
            self.assertLessEqual(relative_to(e[quiet], want_e[quiet], d[quiet]),
                                 float_bound(8, 2 * n), f"device={device}")

    def test_named_errors(self):
        cases = (
            ("ntaps", lambda: gpufilter.nlms_filter_ff(0, 0.5)),
            ("ntaps", lambda: gpufilter.nlms_filter_ff(gpufilter.nlms_max_taps + 1, 0.5)),
            ("mu", lambda: gpufilter.nlms_filter_ff(8, 0.0)),
            ("mu", lambda: gpufilter.nlms_filter_ff(8, -1.0)),
            ("mu", lambda: gpufilter.nlms_filter_ff(8, float("nan"))),
            ("mu", lambda: gpufilter.nlms_filter_ff(8, float("inf"))),
            ("nfilters", lambda: gpufilter.nlms_filter_ff(8, 0.5, 0)),
            ("eps", lambda: gpufilter.nlms_filter_ff(8, 0.5, 1, 0.0)),
            ("eps", lambda: gpufilter.nlms_filter_ff(8, 0.5, 1, float("nan"))),
            ("batch_size", lambda: gpufilter.nlms_filter_ff(8, 0.5, batch_size=0)),
        )
        for name, make in cases:
            with self.assertRaises(ValueError, msg=name) as cm:
                make()
            self.assertIn(name, str(cm.exception))
        for device in DEVICES:
            blk = gpufilter.nlms_filter_ff(8, 0.5, 2, device=device)
            with self.assertRaisesRegex(ValueError, "taps"):
                blk.set_taps([0.0] * 7)
            with self.assertRaisesRegex(ValueError, "mu"):
                blk.set_mu(float("nan"))
            self.assertEqual(blk.mu(), 0.5)
            with self.assertRaisesRegex(IndexError, "k"):
                blk.taps(2)
            with self.assertRaisesRegex(IndexError, "k"):
                blk.set_taps([0.0] * 8, -1)

    def test_batch_matches_reference(self):
        for device in DEVICES:
            x, d = self.signals(9, 3001)
            mus = np.linspace(0.1, 1.0, 9)
            e, taps = gpufilter.nlms_batch(x, d, 33, mus, device=device)
            self.assertEqual(e.shape, x.shape)
            self.assertEqual(taps.shape, (9, 33))
            self.assertEqual(e.dtype, np.float32)
            self.check_against_reference(e, taps, x, d, 33, mus, msg=f"device={device}")
            e1, t1 = gpufilter.nlms_batch(x[3], d[3], 33, mus[3], device=device)
            self.assertEqual(e1.shape, (3001,))
            self.assertEqual(t1.shape, (33,))
            self.check_against_reference(e1[None], t1[None], x[3:4], d[3:4], 33,
                                         mus[3], msg=f"1-D device={device}")

    def test_batch_converges_and_errors(self):
        x, d = self.signals(4, 30000, echo_taps=100)
        e, taps = gpufilter.nlms_batch(x, d, 128, 0.5, eps=1e-4)
        for k in range(4):
            self.assertGreaterEqual(erle_db(d[k, -8000:], e[k, -8000:]), 25.0)
        for name, call in (
                ("d", lambda: gpufilter.nlms_batch(x, d[:, :-1], 8, 0.5)),
                ("mu", lambda: gpufilter.nlms_batch(x, d, 8, [0.5, 0.5])),
                ("mu", lambda: gpufilter.nlms_batch(x, d, 8, -0.5)),
                ("mu", lambda: gpufilter.nlms_batch(x, d, 8, [0.5, 0.5, float("nan"), 1])),
                ("ntaps", lambda: gpufilter.nlms_batch(x, d, 0, 0.5)),
                ("eps", lambda: gpufilter.nlms_batch(x, d, 8, 0.5, eps=-1.0)),
                ("x", lambda: gpufilter.nlms_batch(x[None], d[None], 8, 0.5))):
            with self.assertRaises(ValueError, msg=name) as cm:
                call()
            self.assertIn(name, str(cm.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_nlms_filter)
