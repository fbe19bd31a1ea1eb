#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Property-based tests (Hypothesis) over the blocks' constructors and setters with
random values: NaN and infinite taps or frequencies, empty and enormous tap vectors,
zero, negative and huge integers, wrong types. Each call either works, and the block
then gives finite output equal to gr-filter's on a short random input, or raises
ValueError, IndexError, TypeError or OverflowError with a message that names the
parameter; never a crash or a hang (flowgraphs run under a timeout). NaN taps are
taken as gr-filter takes them (NaN outputs, where gr-filter's are NaN); NaN in the
samples passes through as in gr-filter. Derandomized, few examples: CI reproduces."""

import math

import numpy as np
from gnuradio import filter, gpufilter, gr_unittest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import block_table
from gpu_test_support import gpu_count

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
ALLOWED = (ValueError, IndexError, TypeError, OverflowError)
WRONG = st.sampled_from(["abc", None, [1, "x"], object(), 1.5j])
INTS = st.one_of(st.integers(-3, 9), st.sampled_from([0, -1, -2**31, 2**31 - 1, 2**31,
                                                      2**63, 10**6]), WRONG)
FLOATS = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([math.nan, math.inf, -math.inf,
                                                          0.0, -0.0, 1e300]), WRONG)
TAP = st.one_of(st.floats(-2, 2), st.sampled_from([math.nan, math.inf]))
TAPS = st.one_of(st.lists(TAP, max_size=80),
                 st.integers(10000, 70000).map(lambda n: [0.001] * n),  # enormous
                 WRONG)
N = 300


def outputs(e, args, x):
    """Runs ours (made by e.ours) and gr-filter's (e.theirs) made with the same args."""
    return block_table.run(e, x, args, timeout=60)


def check(testcase, names, make, run=None):
    """make() either works, or raises an allowed error naming one of `names`."""
    try:
        blk = make()
    except ALLOWED as err:
        msg = str(err)
        testcase.assertTrue(any(n in msg for n in names), f"{type(err).__name__}: {msg}")
        return None
    return blk


class qa_properties(gr_unittest.TestCase):
    def setUp(self):
        gpu_count()
        self.rng = np.random.default_rng(1)

    def compare(self, e, args):
        x = e.inputs(self.rng, N)
        try:
            ours, got, want = block_table.run(e, x, args, timeout=60)
        except ALLOWED:
            raise
        for g, w in zip(got, want):
            self.assertEqual(len(g), len(w), e.name)
            # Finite wherever gr-filter's is (taps that are NaN, or that firdes makes
            # NaN, give NaN outputs in both, as users of gr-filter know them).
            np.testing.assert_array_equal(np.isfinite(g), np.isfinite(w), e.name)
            ok = np.isfinite(w)
            self.assertLessEqual(block_table.relative_error(g[ok], w[ok]), 1e-3, e.name)

    @SETTINGS
    @given(decimation=INTS, taps=TAPS)
    def test_fir_filter(self, decimation, taps):
        blk = check(self, ["decimation", "taps"],
                    lambda: gpufilter.fir_filter_ccf(decimation, taps))
        if blk is None or decimation > 1000:
            return
        e = block_table.entry("fir", "c", "c",
                              lambda t, **o: gpufilter.fir_filter_ccf(decimation, t, **o),
                              lambda t: filter.fir_filter_ccf(decimation, t))
        self.compare(e, taps)

    @SETTINGS
    @given(decimation=st.integers(1, 5), taps=TAPS, center_freq=FLOATS,
           sampling_freq=FLOATS, new_freq=FLOATS, new_taps=TAPS)
    def test_freq_xlating(self, decimation, taps, center_freq, sampling_freq, new_freq,
                          new_taps):
        names = ["taps", "center_freq", "sampling_freq"]
        blk = check(self, names, lambda: gpufilter.freq_xlating_fir_filter_ccf(
            decimation, taps, center_freq, sampling_freq))
        if blk is None:
            return
        check(self, ["center_freq"], lambda: blk.set_center_freq(new_freq))
        check(self, ["taps"], lambda: blk.set_taps(new_taps))
        e = block_table.entry(
            "xlating", "c", "c",
            lambda t, **o: gpufilter.freq_xlating_fir_filter_ccf(
                decimation, t, center_freq, sampling_freq, **o),
            lambda t: filter.freq_xlating_fir_filter_ccf(decimation, t, center_freq,
                                                         sampling_freq))
        if abs(center_freq / sampling_freq) < 1e3:  # gr-filter's float angle: same taps
            self.compare(e, taps)

    @SETTINGS
    @given(ntaps=INTS, batch_size=INTS, device=INTS)
    def test_hilbert_and_gpu_options(self, ntaps, batch_size, device):
        blk = check(self, ["ntaps", "batch_size", "device"],
                    lambda: gpufilter.hilbert_fc(ntaps, batch_size=batch_size,
                                                 device=device))
        if blk is None or ntaps > 5000 or batch_size > 1 << 20:
            return
        e = block_table.entry("hilbert", "f", "c",
                              lambda t, **o: gpufilter.hilbert_fc(
                                  ntaps, batch_size=batch_size, device=device),
                              lambda t: filter.hilbert_fc(ntaps))
        self.compare(e, None)

    @SETTINGS
    @given(numchans=INTS, taps=TAPS, oversample=FLOATS, channel_map=st.one_of(
        st.lists(st.integers(-2, 10), max_size=6), WRONG))
    def test_pfb_channelizer(self, numchans, taps, oversample, channel_map):
        blk = check(self, ["numchans", "taps", "oversample_rate"],
                    lambda: gpufilter.pfb_channelizer_ccf(numchans, taps, oversample))
        if blk is None:
            return
        check(self, ["channel_map"], lambda: blk.set_channel_map(channel_map))
        if oversample == 1.0 and numchans <= 16:
            e = block_table.entry(
                "chan", "c", "c",
                lambda t, **o: gpufilter.pfb_channelizer_ccf(numchans, t, 1.0, **o),
                lambda t: block_table._split_channelizer(
                    numchans, filter.pfb_channelizer_ccf(numchans, t, 1.0), numchans),
                nout=numchans)
            self.compare(e, taps)

    @SETTINGS
    @given(decim=INTS, taps=TAPS, channel=INTS, new_channel=INTS)
    def test_pfb_decimator(self, decim, taps, channel, new_channel):
        blk = check(self, ["decim", "taps", "channel"],
                    lambda: gpufilter.pfb_decimator_ccf(decim, taps, channel))
        if blk is None:
            return
        check(self, ["channel"], lambda: blk.set_channel(new_channel))

    @SETTINGS
    @given(ntaps=INTS, mu=FLOATS, nfilters=INTS, eps=FLOATS, new_mu=FLOATS, k=INTS,
           new_taps=TAPS)
    def test_nlms(self, ntaps, mu, nfilters, eps, new_mu, k, new_taps):
        blk = check(self, ["ntaps", "mu", "nfilters", "eps"],
                    lambda: gpufilter.nlms_filter_ff(ntaps, mu, nfilters, eps))
        if blk is None:
            return
        check(self, ["mu"], lambda: blk.set_mu(new_mu))
        check(self, ["taps", "k"], lambda: blk.set_taps(new_taps, k))

    @SETTINGS
    @given(decimation=INTS, taps=TAPS, nthreads=INTS, new_nthreads=INTS)
    def test_fft_filter(self, decimation, taps, nthreads, new_nthreads):
        blk = check(self, ["decimation", "taps", "nthreads"],
                    lambda: gpufilter.fft_filter_ccc(decimation, taps, nthreads))
        if blk is None:
            return
        check(self, ["nthreads", "n"], lambda: blk.set_nthreads(new_nthreads))

    def test_nan_samples_pass_through_as_in_gr_filter(self):
        """NaN in the samples is data, not a parameter: it comes out where gr-filter's
        output has it (every output whose window holds it), the rest unchanged."""
        e = {x.name: x for x in block_table.available()}["fir_filter_ccf"]
        x = e.inputs(self.rng, 2000)
        x[0][[5, 700, 1500]] = np.nan
        ours, got, want = block_table.run(e, x, e.taps(self.rng), batch_size=512)
        g, w = got[0], want[0]
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        self.assertTrue(np.isnan(w).any())
        ok = ~np.isnan(w)
        self.assertLessEqual(block_table.relative_error(g[ok], w[ok]), 1e-4)


if __name__ == "__main__":
    gr_unittest.run(qa_properties)
