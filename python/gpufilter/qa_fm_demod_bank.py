#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.fm_demod_bank_vcf against gr-analog's and gr-filter's chain per channel
(quadrature_demod_cf -> fir_filter_fff -> fm_deemph): on the CPU fallback always, on
the GPU when there is one."""

import math

import numpy as np
from gnuradio import analog, blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import gpu_count, skip_without_gpu

# Both compute gr's fast_atan2f; the conjugate product's rounding (volk or not) and
# the FIR's summation order differ, then the de-emphasis (double) carries them on.
TOLERANCE = 2e-5


def random_channels(rng, n, nchan):
    """n vectors of nchan channels: phasors with random steps within +-2.5 rad (away
    from the +-pi wrap, where a rounding would flip the angle by 2 pi) and a varying
    amplitude."""
    steps = rng.uniform(-2.5, 2.5, (n, nchan))
    amp = 0.5 + rng.uniform(0, 1, (n, nchan))
    return (amp * np.exp(1j * np.cumsum(steps, axis=0))).astype(np.complex64)


def deemph_taps(rate, tau):
    w_ca = 2.0 * rate * math.tan(1.0 / tau / (2.0 * rate))
    k = -w_ca / (2.0 * rate)
    p1 = (1.0 + k) / (1.0 - k)
    b0 = -k / (1.0 - k)
    return [b0, b0], [1.0, -p1]


def gr_chain(decim, taps, rate, deviation, tau):
    """GNU Radio's blocks for one channel: demodulator, FIR, de-emphasis (tau > 0)."""
    chain = [analog.quadrature_demod_cf(rate / (2 * math.pi * deviation)),
             filter.fir_filter_fff(decim, taps)]
    if tau > 0:
        chain.append(filter.iir_filter_ffd(*deemph_taps(rate / decim, tau), False))
    return chain


def reference(x, chans, decim, taps, rate, deviation, tau):
    """Each channel through GNU Radio's blocks: a list of float arrays."""
    tb = gr.top_block()
    sinks = []
    for c in chans:
        sinks.append(blocks.vector_sink_f())
        tb.connect(blocks.vector_source_c(x[:, c].tolist(), False),
                   *gr_chain(decim, taps, rate, deviation, tau), sinks[-1])
    tb.run()
    return [np.array(s.data()) for s in sinks]


def bank_flowgraph(x, chans, decim, taps, rate, deviation, tau, device):
    """vector source of x -> the block -> vector sink: (tb, source, block, sink)."""
    nchan = x.shape[1]
    tb = gr.top_block()
    src = blocks.vector_source_c(x.ravel().tolist(), False, nchan)
    blk = gpufilter.fm_demod_bank_vcf(nchan, chans, decim, taps, rate, deviation, tau,
                                      device, 4099)
    sink = blocks.vector_sink_f(len(chans))
    tb.connect(src, blk, sink)
    return tb, src, blk, sink


def bank(x, chans, decim, taps, rate, deviation, tau, device):
    tb, _, blk, sink = bank_flowgraph(x, chans, decim, taps, rate, deviation, tau, device)
    tb.run()
    return np.array(sink.data()).reshape(-1, len(chans)), blk


def run_restart(x1, x2, chans, decim, taps, rate, deviation, tau, device):
    """x1, then x2 after a stop/wait/start/wait, through the block and through
    GNU Radio's blocks per channel in the same flowgraph: (block's vectors, list of
    gr's float arrays)."""
    nchan = x1.shape[1]
    tb, src, _, got = bank_flowgraph(x1, chans, decim, taps, rate, deviation, tau,
                                     device)
    split = blocks.vector_to_streams(gr.sizeof_gr_complex, nchan)
    tb.connect(src, split)
    for k in range(nchan):
        if k not in chans:
            tb.connect((split, k), blocks.null_sink(gr.sizeof_gr_complex))
    sinks = []
    for c in chans:
        sinks.append(blocks.vector_sink_f())
        tb.connect((split, c), *gr_chain(decim, taps, rate, deviation, tau), sinks[-1])
    tb.start()
    tb.wait()
    tb.stop()
    tb.wait()
    src.set_data(x2.ravel().tolist())
    tb.start()
    tb.wait()
    return np.array(got.data()).reshape(-1, len(chans)), [np.array(s.data()) for s in sinks]


class qa_fm_demod_bank(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(11)

    def compare(self, device):
        x = random_channels(self.rng, 30011, 5)
        for decim, ntaps, chans, tau in ((1, 1, [0], 75e-6), (3, 17, [4, 0, 2], 75e-6),
                                         (5, 64, [1, 3], 0.0), (7, 333, [2, 2, 4], 50e-6)):
            with self.subTest(decim=decim, ntaps=ntaps, chans=chans, tau=tau):
                taps = (self.rng.uniform(-1, 1, ntaps) / ntaps).astype(np.float32).tolist()
                want = reference(x, chans, decim, taps, 400e3, 75e3, tau)
                got, blk = bank(x, chans, decim, taps, 400e3, 75e3, tau, device)
                self.assertEqual(list(blk.channels()), chans)
                self.assertEqual(got.shape[0], len(want[0]))
                for i in range(len(chans)):
                    err = np.linalg.norm(got[:, i] - want[i]) / np.linalg.norm(want[i])
                    self.assertLess(err, TOLERANCE, (decim, ntaps, chans[i]))
                return_device = blk.on_gpu()
        return return_device

    def test_001_cpu_fallback_matches_gnuradio(self):
        self.assertFalse(self.compare(gpufilter.device_cpu))

    def test_002_gpu_matches_gnuradio(self):
        if gpu_count() == 0:
            skip_without_gpu(self)
        self.assertTrue(self.compare(gpufilter.device_auto))

    def restart(self, device):
        """GNU Radio's restart gives gr's blocks fresh zeroed buffers: the demodulator
        starts again from a zero previous sample, the FIR from a zero window at phase
        0 (the items of an unfinished decimation are dropped), while iir_filter_ffd
        keeps its state. The block must do the same."""
        for decim, ntaps, chans, tau in ((3, 17, [4, 0, 2], 75e-6), (5, 64, [1, 1, 3], 0.0),
                                         (7, 40, [2], 50e-6)):
            with self.subTest(decim=decim, ntaps=ntaps, chans=chans, tau=tau):
                x1 = random_channels(self.rng, 7013, 5)
                x2 = random_channels(self.rng, 5009, 5)
                taps = (self.rng.uniform(-1, 1, ntaps) / ntaps).astype(np.float32).tolist()
                got, want = run_restart(x1, x2, chans, decim, taps, 400e3, 75e3, tau,
                                        device)
                self.assertEqual(got.shape[0], 7013 // decim + 5009 // decim)
                for i in range(len(chans)):
                    self.assertEqual(len(want[i]), got.shape[0])
                    err = np.linalg.norm(got[:, i] - want[i]) / np.linalg.norm(want[i])
                    self.assertLess(err, TOLERANCE, (decim, ntaps, chans[i]))

    def test_004_cpu_fallback_restarts_like_gnuradio(self):
        self.restart(gpufilter.device_cpu)

    def test_005_gpu_restarts_like_gnuradio(self):
        if gpu_count() == 0:
            skip_without_gpu(self)
        self.restart(gpufilter.device_auto)

    def test_003_bad_parameters(self):
        taps = [1.0]
        make = gpufilter.fm_demod_bank_vcf
        with self.assertRaisesRegex(ValueError, "nchan"):
            make(0, [0], 1, taps, 400e3)
        with self.assertRaisesRegex(IndexError, "channels"):
            make(4, [4], 1, taps, 400e3)
        with self.assertRaisesRegex(IndexError, "channels"):
            make(4, [-1], 1, taps, 400e3)
        with self.assertRaisesRegex(ValueError, "channels"):
            make(4, [], 1, taps, 400e3)
        with self.assertRaisesRegex(ValueError, "decimation"):
            make(4, [0], 0, taps, 400e3)
        with self.assertRaisesRegex(ValueError, "taps"):
            make(4, [0], 1, [], 400e3)
        with self.assertRaisesRegex(ValueError, "channel_rate"):
            make(4, [0], 1, taps, 0.0)
        with self.assertRaisesRegex(ValueError, "deviation"):
            make(4, [0], 1, taps, 400e3, float("nan"))
        with self.assertRaisesRegex(ValueError, "tau"):
            make(4, [0], 1, taps, 400e3, 75e3, -1.0)
        with self.assertRaisesRegex(ValueError, "batch_size"):
            make(4, [0], 1, taps, 400e3, 75e3, 75e-6, gpufilter.device_cpu, -1)

    def test_006_batch_size_counts_vectors(self):
        taps = [1.0]
        make = gpufilter.fm_demod_bank_vcf
        # The default (0): the vectors of default_batch_size samples.
        for nchan in (1, 100, 4096, 1 << 20):
            blk = make(nchan, [0], 1, taps, 400e3, device=gpufilter.device_cpu)
            self.assertEqual(blk.batch_size(),
                             max(1, gpufilter.default_batch_size // nchan))
        blk = make(100, [0], 1, taps, 400e3, 75e3, 75e-6, gpufilter.device_cpu, 777)
        self.assertEqual(blk.batch_size(), 777)


if __name__ == "__main__":
    gr_unittest.run(qa_fm_demod_bank)
