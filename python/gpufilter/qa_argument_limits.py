#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The blocks' arguments at their limits: integers beyond the C++ parameter's type name
themselves, what gr-filter takes and we refuse on purpose (qa_properties has the list),
and random valid arguments only, where every example must give gr-filter's output.
NaN in the samples is data and passes through as in gr-filter."""

import math

import numpy as np
from gnuradio import filter, gpufilter, gr_unittest
from hypothesis import given
from hypothesis import strategies as st

import block_table
from property_support import FINITE_TAPS, VALID, property_case


class qa_argument_limits(property_case):
    def test_every_integer_argument_out_of_range_names_itself(self):
        """Integers beyond the C++ parameter's type (10**12 for an int, -3 for an
        unsigned; 10**400 for a real number): ValueError, OverflowError or IndexError
        naming the parameter, where pybind11 alone gives a TypeError listing the
        signature."""
        t = [0.5, 0.25]
        makers = {  # name: (factory, arguments with an integer, its positions)
            "fir_filter_ccf": (gpufilter.fir_filter_ccf, [2, t, -1, 1024], [0, 2, 3]),
            "fft_filter_ccc": (gpufilter.fft_filter_ccc, [2, t, 1, -1, 1024],
                               [0, 2, 3, 4]),
            "freq_xlating_fir_filter_ccf": (gpufilter.freq_xlating_fir_filter_ccf,
                                            [2, t, 0.0, 1.0, -1, 1024], [0, 4, 5]),
            "hilbert_fc": (gpufilter.hilbert_fc, [65], [0]),
            "nlms_filter_ff": (gpufilter.nlms_filter_ff, [8, 0.5, 1], [0, 2]),
            "pfb_channelizer_ccf": (gpufilter.pfb_channelizer_ccf, [4, t], [0]),
            "pfb_channelizer_vcf": (gpufilter.pfb_channelizer_vcf, [4, t], [0]),
            "pfb_decimator_ccf": (gpufilter.pfb_decimator_ccf, [4, t, 0], [0, 2]),
            "pfb_interpolator_ccf": (gpufilter.pfb_interpolator_ccf, [4, t], [0]),
            "pfb_synthesizer_ccf": (gpufilter.pfb_synthesizer_ccf, [4, t], [0]),
            "pfb_arb_resampler_ccf": (gpufilter.pfb_arb_resampler_ccf, [1.5, t, 32],
                                      [2]),
            "pfb_arb_resampler_fff": (gpufilter.pfb_arb_resampler_fff, [1.5, t, 32],
                                      [2]),
            "fm_demod_bank_vcf": (gpufilter.fm_demod_bank_vcf, [4, [0], 1, t, 400e3],
                                  [0, 2]),
            "quadrature_demod_cf": (gpufilter.quadrature_demod_cf, [1.0, -1, 1024],
                                    [1, 2]),
            "complex_to_real": (gpufilter.complex_to_real, [1, -1, 1024], [0, 1, 2]),
        }
        for name, (make, args, where) in makers.items():
            for pos in where:
                for bad in (10**12, -10**12, 2**64, -3):
                    with self.subTest(block=name, position=pos, value=bad):
                        a = list(args)
                        a[pos] = bad
                        with self.assertRaises((ValueError, OverflowError,
                                                IndexError)) as ctx:
                            make(*a)
                        msg = str(ctx.exception)
                        self.assertNotIn("incompatible", msg)
                        self.assertRegex(msg, r"^\w+: ", msg)
        blk = gpufilter.nlms_filter_ff(8, 0.5, 2)
        for call in (lambda: blk.taps(10**12), lambda: blk.set_taps([0.0] * 8, -10**12)):
            with self.assertRaisesRegex((ValueError, OverflowError, IndexError), "^k: "):
                call()
        dec = gpufilter.pfb_decimator_ccf(4, t, 0)
        with self.assertRaisesRegex(ValueError, "^channel: must not be negative"):
            dec.set_channel(-1)
        with self.assertRaisesRegex(IndexError, "^channels: entry 0"):
            gpufilter.fm_demod_bank_vcf(4, [-1], 1, t, 400e3)
        with self.assertRaisesRegex(OverflowError, "^n: "):  # gr-filter's name
            gpufilter.fft_filter_ccc(1, t).set_nthreads(2**40)
        with self.assertRaisesRegex(OverflowError, "^ntaps: "):
            gpufilter.nlms_batch(np.zeros(16, np.float32), np.zeros(16, np.float32),
                                 10**12, 0.5)
        with self.assertRaisesRegex(TypeError, "^decimation: must be an integer"):
            gpufilter.fir_filter_ccf(2.5, t)
        # Real-number arguments too: an int beyond a double, a string.
        with self.assertRaisesRegex(OverflowError, "^max_latency: too large"):
            gpufilter.fir_filter_ccf(1, t, max_latency=10**400)
        with self.assertRaisesRegex(OverflowError, "^rate: too large"):
            gpufilter.pfb_arb_resampler_ccf(10**400, t)
        with self.assertRaisesRegex(TypeError, "^center_freq: must be a number"):
            gpufilter.freq_xlating_fir_filter_ccf(1, t, "x", 1.0)
        with self.assertRaisesRegex(ValueError, "^rate: must be in"):
            gpufilter.pfb_arb_resampler_ccf(10**300, t)  # a double, not a float

    def test_refused_where_gr_filter_takes_them(self):
        """Deliberate differences from gr-filter, each refused naming the parameter:
        NaN or infinite taps at make() and set_taps(), mu outside (0, 2]."""
        bad_taps = ([0.5, math.nan], [math.inf], [0.1, -math.inf, 0.2])
        makers = [
            lambda t: gpufilter.fir_filter_ccf(1, t),
            lambda t: gpufilter.fir_filter_fff(1, t),
            lambda t: gpufilter.fir_filter_ccc(1, [complex(v, 0) for v in t]),
            lambda t: gpufilter.fft_filter_fff(1, t),
            lambda t: gpufilter.fft_filter_ccc(1, [complex(0, v) for v in t]),
            lambda t: gpufilter.freq_xlating_fir_filter_ccf(1, t, 0.0, 1.0),
            lambda t: gpufilter.pfb_channelizer_ccf(2, t),
            lambda t: gpufilter.pfb_channelizer_vcf(2, t),
            lambda t: gpufilter.pfb_decimator_ccf(2, t, 0),
            lambda t: gpufilter.pfb_interpolator_ccf(2, t),
            lambda t: gpufilter.pfb_synthesizer_ccf(2, t),
            lambda t: gpufilter.pfb_arb_resampler_ccf(1.5, t, 2),
            lambda t: gpufilter.pfb_arb_resampler_fff(1.5, t, 2),
            lambda t: gpufilter.fm_demod_bank_vcf(4, [0], 1, t, 400e3),
        ]
        for k, make in enumerate(makers):
            for taps in bad_taps:
                with self.subTest(block=k, taps=taps):
                    with self.assertRaisesRegex(ValueError, "^taps: tap \\d+ is"):
                        make(taps)
            blk = make([0.5, 0.25])
            if hasattr(blk, "set_taps"):
                with self.assertRaisesRegex(ValueError, "^taps: tap 1 is"):
                    blk.set_taps([0.5, math.nan])
        nlms = gpufilter.nlms_filter_ff(4, 0.5)
        with self.assertRaisesRegex(ValueError, "^taps: tap 2 is"):
            nlms.set_taps([0.0, 0.0, math.nan, 0.0])
        for mu in (0.0, -0.1, 2.0001, 5.0, math.inf, math.nan):
            with self.assertRaisesRegex(ValueError, "^mu: must be in \\(0, 2\\]"):
                gpufilter.nlms_filter_ff(16, mu)
            with self.assertRaisesRegex(ValueError, "^mu: must be in \\(0, 2\\]"):
                nlms.set_mu(mu)
            with self.assertRaisesRegex(ValueError, "^mu: must be in \\(0, 2\\]"):
                gpufilter.nlms_batch(np.zeros(16, np.float32), np.zeros(16, np.float32),
                                     4, mu)
        gpufilter.nlms_filter_ff(16, 2.0)  # the bound itself is stable
        with self.assertRaisesRegex(ValueError, "^ntaps: must be >= 2"):
            gpufilter.hilbert_fc(1)

    # ---- valid values only: the output must equal gr-filter's ----
    # The tests above spend most examples on values a block must refuse; these draw
    # only values it must take, so that every example compares outputs.

    @VALID
    @given(decimation=st.integers(1, 8), taps=FINITE_TAPS)
    def test_valid_fir_filter(self, decimation, taps):
        self.compare(block_table.entry(
            "fir", "c", "c", lambda t, **o: gpufilter.fir_filter_ccf(decimation, t, **o),
            lambda t: filter.fir_filter_ccf(decimation, t)), taps)

    @VALID
    @given(decimation=st.integers(1, 6), taps=FINITE_TAPS,
           center_freq=st.floats(-20e3, 20e3))
    def test_valid_freq_xlating(self, decimation, taps, center_freq):
        self.compare(block_table.entry(
            "xlating", "c", "c",
            lambda t, **o: gpufilter.freq_xlating_fir_filter_ccf(
                decimation, t, center_freq, 48e3, **o),
            lambda t: filter.freq_xlating_fir_filter_ccf(decimation, t, center_freq,
                                                         48e3), tolerance=3e-4), taps)

    @VALID
    @given(ntaps=st.integers(2, 300))  # hilbert_fc(1): gr-filter's taps are [nan]
    def test_valid_hilbert(self, ntaps):
        self.compare(block_table.entry(
            "hilbert", "f", "c", lambda t, **o: gpufilter.hilbert_fc(ntaps, **o),
            lambda t: filter.hilbert_fc(ntaps)), None)

    @VALID
    @given(numchans=st.integers(1, 8), taps=FINITE_TAPS)
    def test_valid_pfb_channelizer(self, numchans, taps):
        self.compare(block_table.entry(
            "chan", "c", "c",
            lambda t, **o: gpufilter.pfb_channelizer_ccf(numchans, t, 1.0, **o),
            lambda t: block_table._split_channelizer(
                numchans, filter.pfb_channelizer_ccf(numchans, t, 1.0), numchans),
            nout=numchans), taps)

    @VALID
    @given(decim=st.integers(1, 8), taps=FINITE_TAPS, data=st.data())
    def test_valid_pfb_decimator(self, decim, taps, data):
        channel = data.draw(st.integers(0, decim - 1))
        fft_filters = data.draw(st.booleans())
        self.compare(block_table.entry(
            "decim", "c", "c",
            lambda t, **o: gpufilter.pfb_decimator_ccf(decim, t, channel, True,
                                                       fft_filters, **o),
            lambda t: block_table._split_channelizer(
                decim, filter.pfb_decimator_ccf(decim, t, channel, True, fft_filters),
                1)), taps)

    @VALID
    @given(interp=st.integers(1, 16), taps=FINITE_TAPS)
    def test_valid_pfb_interpolator(self, interp, taps):
        self.compare(block_table.entry(
            "interp", "c", "c",
            lambda t, **o: gpufilter.pfb_interpolator_ccf(interp, t, **o),
            lambda t: filter.pfb_interpolator_ccf(interp, t)), taps)

    @VALID
    @given(half=st.integers(1, 4), taps=FINITE_TAPS, twox=st.booleans(),
           odd=st.booleans())
    def test_valid_pfb_synthesizer(self, half, taps, twox, odd):
        numchans = 2 * half + (1 if odd and not twox else 0)  # 2x needs an even count
        self.compare(block_table.entry(
            "synth", "c", "c",
            lambda t, **o: gpufilter.pfb_synthesizer_ccf(numchans, t, twox, **o),
            lambda t: filter.pfb_synthesizer_ccf(numchans, t, twox), nin=numchans),
            taps)

    @VALID
    @given(rate=st.floats(0.2, 5.0), filter_size=st.integers(1, 64),
           taps_per_arm=st.integers(3, 12))
    def test_valid_pfb_arb_resampler(self, rate, filter_size, taps_per_arm):
        taps = self.rng.uniform(-1, 1, taps_per_arm * filter_size).tolist()
        self.compare(block_table.entry(
            "arb", "c", "c",
            lambda t, **o: gpufilter.pfb_arb_resampler_ccf(rate, t, filter_size, **o),
            lambda t: filter.pfb_arb_resampler_ccf(rate, t, filter_size),
            length_slack=int(2 * max(rate, filter_size)) + 8), taps)

    def test_nan_samples_pass_through_as_in_gr_filter(self):
        """NaN in the samples is data, not a parameter: every output whose window holds
        it is NaN, as in gr-filter, the rest unchanged. gr-filter's VOLK kernels
        (taps zero-padded in front for alignment, 0 x NaN = NaN) may also mark an
        output whose window just misses it; ours on the GPU do not, so ours are NaN
        exactly on the windows, and never where gr-filter's are not."""
        e = {x.name: x for x in block_table.available()}["fir_filter_ccf"]
        x = e.inputs(self.rng, 2000)
        nan_at = [5, 700, 1500]
        x[0][nan_at] = np.nan
        taps = e.taps(self.rng)
        ours, got, want = block_table.run(e, x, taps, batch_size=512)
        g, w = got[0], want[0]
        decim = len(x[0]) // len(w)
        # Output j reads x[decim * j - k], k < ntaps (zeros before the stream).
        window = np.zeros(len(x[0]), bool)
        window[nan_at] = True
        exact = np.convolve(window, np.ones(len(taps)))[:len(x[0])][::decim] > 0
        exact = exact[:len(g)]
        self.assertTrue(exact.any())
        self.assertTrue(np.all(np.isnan(g)[exact]), "a window holding NaN gave a number")
        self.assertTrue(np.all(np.isnan(w)[exact]))
        self.assertFalse(np.any(np.isnan(g) & ~np.isnan(w)),
                         "NaN where gr-filter's output has a number")
        ok = ~np.isnan(w) & ~np.isnan(g)
        self.assertLessEqual(block_table.relative_error(g[ok], w[ok]), 1e-4)


if __name__ == "__main__":
    gr_unittest.run(qa_argument_limits)
