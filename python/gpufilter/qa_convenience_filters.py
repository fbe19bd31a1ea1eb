#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.low_pass_filter, high_pass_filter, band_pass_filter, band_reject_filter
and root_raised_cosine_filter against gr-filter's blocks with the same firdes taps (as
gr-filter's GRC convenience filters make them), on random data, for every kind; the
setters against gr-filter's set_taps before and during a run; bad arguments."""

import time

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest
from gnuradio.fft import window

from gpu_test_support import GPU_REQUIRED, gated_source, relative_error

firdes = filter.firdes
FS = 48e3
# design: (class, design parameters after gain, new values for the setters)
DESIGNS = {
    "low_pass": (gpufilter.low_pass_filter,
                 dict(samp_rate=FS, cutoff_freq=5e3, transition_width=2e3,
                      window=window.WIN_HAMMING, beta=6.76),
                 dict(samp_rate=40e3, cutoff_freq=8e3, transition_width=1e3,
                      window=window.WIN_KAISER, beta=4.0, gain=2.5)),
    "high_pass": (gpufilter.high_pass_filter,
                  dict(samp_rate=FS, cutoff_freq=9e3, transition_width=3e3,
                       window=window.WIN_HANN, beta=6.76),
                  dict(cutoff_freq=4e3, transition_width=1.5e3,
                       window=window.WIN_BLACKMAN, gain=0.5)),
    "band_pass": (gpufilter.band_pass_filter,
                  dict(samp_rate=FS, low_cutoff_freq=3e3, high_cutoff_freq=9e3,
                       transition_width=2e3, window=window.WIN_HAMMING, beta=6.76),
                  dict(low_cutoff_freq=5e3, high_cutoff_freq=12e3,
                       transition_width=1e3, window=window.WIN_KAISER, beta=8.0)),
    "band_reject": (gpufilter.band_reject_filter,
                    dict(samp_rate=FS, low_cutoff_freq=4e3, high_cutoff_freq=8e3,
                         transition_width=2e3, window=window.WIN_HAMMING, beta=6.76),
                    dict(low_cutoff_freq=2e3, high_cutoff_freq=10e3,
                         transition_width=3e3, gain=3.0)),
    "root_raised_cosine": (gpufilter.root_raised_cosine_filter,
                           dict(samp_rate=FS, symbol_rate=6e3, alpha=0.35, ntaps=88),
                           dict(symbol_rate=4.8e3, alpha=0.5, ntaps=45, gain=2.0)),
}
COMPLEX_CUTOFFS = dict(low_cutoff_freq=-7e3, high_cutoff_freq=2e3)
TOLERANCE = 1e-5
ITEM = {"c": (np.complex64, blocks.vector_source_c, blocks.vector_sink_c),
        "f": (np.float32, blocks.vector_source_f, blocks.vector_sink_f)}


def grfilter_taps(design, kind, gain, params):
    """What gr-filter's GRC block computes: firdes.<fcn>(gain, ...), fcn from the type."""
    fcn = design
    if kind[-1] == "c" and design in ("band_pass", "band_reject"):
        fcn = "complex_" + design
    return list(getattr(firdes, fcn)(gain, *params.values()))


def grfilter_block(kind, factor, taps):
    return getattr(filter, kind)(factor, taps)


def random_input(rng, kind, n):
    x = rng.uniform(-1, 1, n)
    if kind[-3] == "c":
        x = x + 1j * rng.uniform(-1, 1, n)
    return x.astype(ITEM[kind[-3]][0])


def params_for(design, kind):
    params = dict(DESIGNS[design][1])
    if kind[-1] == "c" and "low_cutoff_freq" in params:
        params.update(COMPLEX_CUTOFFS)  # the complex designs take negative cutoffs
    return params


def factor_for(kind):
    return 3 if kind.startswith("interp") else 2


class qa_convenience_filters(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(42)

    def assert_close(self, got, want, kind, what=""):
        got, want = np.asarray(got), np.asarray(want)
        if kind.startswith("fft_filter"):  # gr-filter's FFT filter leaves out a tail
            self.assertGreaterEqual(len(got), len(want))
            got = got[:len(want)]
        self.assertEqual(len(got), len(want), what)
        self.assertGreater(len(want), 100, what)
        err = relative_error(got, want)
        self.assertLess(err, TOLERANCE, f"{what}: relative error {err:.3g}")

    def run_pair(self, ours, theirs, x, kind):
        _, source, sink = ITEM[kind[-3]]
        _, _, out_sink = ITEM[kind[-2]]
        tb = gr.top_block()
        src = source(x)
        got, want = out_sink(), out_sink()
        tb.connect(src, ours, got)
        tb.connect(src, theirs, want)
        tb.run()
        if GPU_REQUIRED:
            self.assertTrue(ours.on_gpu())
        return got.data(), want.data()

    def test_001_every_design_and_kind(self):
        """Output and taps equal gr-filter's block with the GRC block's firdes taps."""
        x_len = 6000
        for design, (cls, _, _) in DESIGNS.items():
            kinds = [k for k in gpufilter.convenience_filters.KINDS
                     if design in ("band_pass", "band_reject") or
                     k not in ("fir_filter_ccc", "interp_fir_filter_ccc",
                               "fir_filter_fcc", "interp_fir_filter_fcc")]
            for kind in kinds:
                with self.subTest(design=design, kind=kind):
                    params = params_for(design, kind)
                    factor = factor_for(kind)
                    ours = cls(kind, factor, 1.5, *params.values())
                    taps = grfilter_taps(design, kind, 1.5, params)
                    self.assertGreaterEqual(len(ours.taps()), len(taps))  # interp: padded
                    np.testing.assert_allclose(ours.taps()[:len(taps)], taps, rtol=0,
                                               atol=1e-7)
                    self.assertEqual(ours.kind(), kind)
                    x = random_input(self.rng, kind, x_len)
                    got, want = self.run_pair(ours, grfilter_block(kind, factor, taps),
                                              x, kind)
                    self.assert_close(got, want, kind, f"{design} {kind}")

    def test_002_setters_before_run(self):
        """Each setter redesigns as gr-filter's GRC callback set_taps(firdes...) does."""
        for design, (cls, params, changes) in DESIGNS.items():
            for kind in ("fir_filter_ccf", "fft_filter_fff"):
                for name, value in changes.items():
                    with self.subTest(design=design, kind=kind, setter=name):
                        ours = cls(kind, 2, 1.0, *params.values())
                        getattr(ours, "set_" + name)(value)
                        self.assertEqual(getattr(ours, name)(), value)
                        new = dict(params, **{name: value})
                        gain = new.pop("gain", 1.0)
                        taps = grfilter_taps(design, kind, gain, new)
                        np.testing.assert_allclose(ours.taps(), taps, rtol=0, atol=1e-7)
                        # gr-filter's block, made with the old taps, gets the new ones
                        # as GRC's callback gives them; a new tap count moves the
                        # history. gpufilter's FFT filter takes new taps by
                        # fir_filter's rule (gr-filter's restarts its FFT tail).
                        ref_kind = kind.replace("fft_filter", "fir_filter")
                        theirs = grfilter_block(ref_kind, 2, grfilter_taps(
                            design, kind, 1.0, params))
                        theirs.set_taps(taps)
                        x = random_input(self.rng, kind, 3000)
                        got, want = self.run_pair(ours, theirs, x, kind)
                        self.assert_close(got, want, kind, f"{design}.set_{name}")

    def test_003_setters_while_running(self):
        """A setter called mid-stream changes the taps from the next samples on, as
        gr-filter's set_taps with the new firdes taps does at the same point."""
        kind, decim, first = "fir_filter_ccf", 2, 3000
        for design, (cls, params, changes) in DESIGNS.items():
            name, value = next(iter(changes.items()))
            with self.subTest(design=design, setter=name):
                ours = cls(kind, decim, 1.0, *params.values(), batch_size=1)
                theirs = grfilter_block(kind, decim, grfilter_taps(design, kind, 1.0,
                                                                   params))
                new = dict(params, **{name: value})
                new_taps = grfilter_taps(design, kind, new.pop("gain", 1.0), new)
                x = random_input(self.rng, kind, 8000)
                tb = gr.top_block()
                src = gated_source(x, first)
                got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
                tb.connect(src, ours, got)
                tb.connect(src, theirs, want)
                tb.start()
                deadline = time.time() + 30
                while time.time() < deadline and not (
                        len(got.data()) == len(want.data()) == first // decim):
                    time.sleep(0.002)
                self.assertEqual(len(got.data()), first // decim)
                getattr(ours, "set_" + name)(value)
                theirs.set_taps(new_taps)
                src.release()
                tb.wait()
                self.assert_close(got.data(), want.data(), kind, f"{design} mid-run")
                np.testing.assert_allclose(ours.taps(), new_taps, rtol=0, atol=1e-7)

    def test_004_complex_band_pass_takes_negative_cutoffs(self):
        """Complex-taps kinds use firdes.complex_band_pass: an asymmetric band."""
        f = gpufilter.band_pass_filter("fir_filter_ccc", 1, 1.0, FS, -9e3, -2e3, 1e3)
        want = firdes.complex_band_pass(1.0, FS, -9e3, -2e3, 1e3)
        np.testing.assert_allclose(f.taps(), want, rtol=0, atol=1e-7)
        self.assertTrue(any(abs(complex(t).imag) > 1e-3 for t in f.taps()))

    def test_005_gpu_options(self):
        f = gpufilter.low_pass_filter("fir_filter_fff", 1, 1.0, FS, 5e3, 1e3,
                                      device=gpufilter.device_cpu, batch_size=4096,
                                      max_latency=0.02)
        self.assertFalse(f.on_gpu())
        self.assertEqual(f.device(), gpufilter.device_cpu)
        self.assertEqual(f.batch_size(), 4096)
        self.assertAlmostEqual(f.max_latency(), 0.02)
        f.set_max_latency(0.0)
        self.assertEqual(f.max_latency(), 0.0)
        f.declare_sample_delay(3)

    def test_006_bad_arguments_name_the_parameter(self):
        lp = gpufilter.low_pass_filter
        bp = gpufilter.band_pass_filter
        rrc = gpufilter.root_raised_cosine_filter
        cases = [
            ("kind", lambda: lp("fir_filter_xyz", 1, 1, FS, 5e3, 1e3)),
            ("kind", lambda: lp("fir_filter_ccc", 1, 1, FS, 5e3, 1e3)),
            ("factor", lambda: lp("fir_filter_ccf", 0, 1, FS, 5e3, 1e3)),
            ("factor", lambda: lp("interp_fir_filter_ccf", 1.5, 1, FS, 5e3, 1e3)),
            ("samp_rate", lambda: lp("fir_filter_ccf", 1, 1, 0, 5e3, 1e3)),
            ("cutoff_freq", lambda: lp("fir_filter_ccf", 1, 1, FS, 30e3, 1e3)),
            ("cutoff_freq", lambda: gpufilter.high_pass_filter(
                "fir_filter_fff", 1, 1, FS, 0, 1e3)),
            ("transition_width", lambda: lp("fir_filter_ccf", 1, 1, FS, 5e3, 0)),
            ("low_cutoff_freq", lambda: bp("fir_filter_ccf", 1, 1, FS, -1e3, 5e3, 1e3)),
            ("low_cutoff_freq", lambda: bp("fir_filter_ccc", 1, 1, FS, -30e3, 5e3, 1e3)),
            ("low_cutoff_freq", lambda: bp("fir_filter_ccf", 1, 1, FS, 6e3, 5e3, 1e3)),
            ("high_cutoff_freq", lambda: gpufilter.band_reject_filter(
                "fir_filter_fff", 1, 1, FS, 1e3, 25e3, 1e3)),
            ("symbol_rate", lambda: rrc("fir_filter_ccf", 1, 1, FS, 0, 0.35, 45)),
            ("alpha", lambda: rrc("fir_filter_ccf", 1, 1, FS, 6e3, 0, 45)),
            ("ntaps", lambda: rrc("fir_filter_ccf", 1, 1, FS, 6e3, 0.35, 0)),
        ]
        for name, make in cases:
            with self.subTest(parameter=name):
                with self.assertRaises(ValueError) as raised:
                    make()
                self.assertIn(name, str(raised.exception))

    def test_007_bad_setter_changes_nothing(self):
        f = gpufilter.low_pass_filter("fir_filter_ccf", 1, 1.0, FS, 5e3, 1e3,
                                      device=gpufilter.device_cpu)
        taps = f.taps()
        with self.assertRaises(ValueError) as raised:
            f.set_cutoff_freq(FS)
        self.assertIn("cutoff_freq", str(raised.exception))
        self.assertEqual(f.cutoff_freq(), 5e3)
        self.assertEqual(f.taps(), taps)
        with self.assertRaises(ValueError):
            f.set_samp_rate(8e3)  # the cutoff 5e3 is then above 8e3/2
        self.assertEqual(f.samp_rate(), FS)

    def test_008_rrc_ntaps_made_odd(self):
        f = gpufilter.root_raised_cosine_filter("fir_filter_fff", 1, 1.0, 8.0, 1.0,
                                                0.35, 44, device=gpufilter.device_cpu)
        self.assertEqual(len(f.taps()), 45)


if __name__ == "__main__":
    gr_unittest.run(qa_convenience_filters)
