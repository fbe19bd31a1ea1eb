#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.freq_xlating_fir_filter_XXX against gnuradio.filter's block and a float64
model of gr-filter's convention (xlating_reference.py), on random data."""

import time

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

from gpu_test_support import (gpu_count, relative_error,
                              run_gated_side_by_side, run_side_by_side, skip_without_gpu)
from xlating_reference import drift_tolerance, xlating_reference

# name -> (input kind, taps complex?, vector source)
VARIANTS = {
    "ccc": ("c", True, blocks.vector_source_c),
    "ccf": ("c", False, blocks.vector_source_c),
    "fcc": ("f", True, blocks.vector_source_f),
    "fcf": ("f", False, blocks.vector_source_f),
    "scc": ("s", True, blocks.vector_source_s),
    "scf": ("s", False, blocks.vector_source_s),
}
FS = 32000.0
TOLERANCE = 1e-5  # against the float64 model: float FIR, float sincos of an exact phase


def make_pair(name, decimation, taps, center_freq, **gpu_options):
    ours = getattr(gpufilter, "freq_xlating_fir_filter_" + name)(
        decimation, taps, center_freq, FS, **gpu_options)
    theirs = getattr(filter, "freq_xlating_fir_filter_" + name)(
        decimation, taps, center_freq, FS)
    return ours, theirs


def freq_tags(sink):
    return [(t.offset, pmt.symbol_to_string(t.key), pmt.to_double(t.value))
            for t in sink.tags() if pmt.symbol_to_string(t.key) == "freq"]


class qa_freq_xlating_fir_filter(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(4040)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def samples(self, kind, n):
        if kind == "s":
            return self.rng.integers(-32768, 32768, n).astype(np.int16)
        x = self.rng.uniform(-1, 1, n)
        if kind == "c":
            return (x + 1j * self.rng.uniform(-1, 1, n)).astype(np.complex64)
        return x.astype(np.float32)

    def taps_for(self, name, n):
        taps = self.rng.uniform(-1, 1, n)
        if VARIANTS[name][1]:
            taps = taps + 1j * self.rng.uniform(-1, 1, n)
        return taps.tolist()

    def check(self, got, want, model, cf, decimation, ntaps, msg):
        got, want = np.asarray(got), np.asarray(want)
        self.assertEqual(len(got), len(want), msg)
        self.assertEqual(len(got), len(model), msg)
        if len(got):
            self.assertLessEqual(relative_error(got, model), TOLERANCE, msg)
            self.assertLessEqual(relative_error(got, want),
                                 drift_tolerance(cf, FS, decimation, len(got), ntaps), msg)

    def run_both(self, name, decimation, taps, cf, x, tags=(), **gpu_options):
        ours, theirs = make_pair(name, decimation, taps, cf, **gpu_options)
        got, want = run_side_by_side(
            self, VARIANTS[name][2](x.tolist(), False, 1, list(tags)), ours, theirs,
            blocks.vector_sink_c, gpu_options.get("device") != gpufilter.device_cpu)
        return ours, got, want

    def test_matches_gr_filter_all_types_and_decimations(self):
        for name, (kind, _, _) in VARIANTS.items():
            for ntaps, cf in ((1, 5123.25), (31, -2400.0), (64, 11000.5)):
                taps = self.taps_for(name, ntaps)
                for decimation in range(1, 8):
                    x = self.samples(kind, 12000 + decimation)
                    _, got, want = self.run_both(name, decimation, taps, cf, x)
                    model = xlating_reference(x, decimation, taps, FS, [(0, cf)])
                    self.check(got.data(), want.data(), model, cf, decimation, ntaps,
                               f"{name} ntaps={ntaps} cf={cf} D={decimation}")

    def test_tiny_streams_give_exact_output_length(self):
        taps = self.taps_for("ccf", 31)
        for n in (1, 2, 6, 7, 160, 161):
            for decimation in (1, 3, 7):
                x = self.samples("c", n)
                _, got, want = self.run_both("ccf", decimation, taps, 3000.0, x)
                model = xlating_reference(x, decimation, taps, FS, [(0, 3000.0)])
                self.assertEqual(len(got.data()), n // decimation, f"n={n} D={decimation}")
                self.check(got.data(), want.data(), model, 3000.0, decimation, 31,
                           f"n={n} D={decimation}")

    def run_gated(self, name, decimation, taps, cf, x, first, act, wait_for=None):
        """Both blocks see `first` samples, then act(block) on each, then the rest;
        with wait_for, until both have that center frequency (a message)."""
        ours, theirs = make_pair(name, decimation, taps, cf, batch_size=1)
        wait = None
        if wait_for:
            def wait(a, b):
                return a.center_freq() == b.center_freq() == wait_for
        got, want = run_gated_side_by_side(self, x, first, decimation, ours, theirs,
                                           blocks.vector_sink_c, act, wait)
        return ours, got, want

    def test_retune_mid_stream_by_call_and_by_message(self):
        new_cf = -7000.25
        actions = {
            "call": lambda b: b.set_center_freq(new_cf),
            "pair": lambda b: b._post(pmt.intern("freq"),
                                      pmt.cons(pmt.intern("freq"), pmt.from_double(new_cf))),
            "dict": lambda b: b._post(pmt.intern("freq"), pmt.dict_add(
                pmt.make_dict(), pmt.intern("freq"), pmt.from_double(new_cf))),
        }
        for how, act in actions.items():
            for name, decimation in (("ccf", 1), ("ccc", 3), ("fcf", 4), ("scc", 7)):
                kind, ntaps = VARIANTS[name][0], 33
                taps = self.taps_for(name, ntaps)
                x = self.samples(kind, 21000)
                first = 10500
                wait = None if how == "call" else new_cf
                ours, got, want = self.run_gated(name, decimation, taps, 2500.0, x, first,
                                                 act, wait)
                k_r = first // decimation
                model = xlating_reference(x, decimation, taps, FS, [(0, 2500.0), (k_r, new_cf)])
                msg = f"{how} {name} D={decimation}"
                self.assertEqual(ours.center_freq(), new_cf, msg)
                self.check(got.data(), want.data(), model, new_cf, decimation, ntaps, msg)
                self.assertEqual(freq_tags(got), [(k_r, "freq", new_cf)], msg)
                self.assertEqual(freq_tags(got), freq_tags(want), msg)
                self.assertEqual(pmt.symbol_to_string(got.tags()[0].srcid), ours.alias())

    def test_messages_gr_filter_ignores_are_ignored(self):
        """A dict whose "freq" is an integer is not a real number to pmt: no retune."""
        x = self.samples("c", 6000)
        taps = self.taps_for("ccf", 9)
        act = lambda b: b._post(pmt.intern("freq"), pmt.dict_add(  # noqa: E731
            pmt.make_dict(), pmt.intern("freq"), pmt.from_long(-7000)))
        ours, got, want = self.run_gated("ccf", 2, taps, 2500.0, x, 3000, act)
        time.sleep(0.05)
        self.assertEqual(ours.center_freq(), 2500.0)
        self.assertEqual(freq_tags(got), freq_tags(want))
        self.assertEqual(freq_tags(got), [])

    def test_set_taps_mid_stream_changes_history_like_gr_filter(self):
        for new_len in (33, 9, 100):
            for decimation in (1, 3):
                x = self.samples("c", 24000)
                taps1, taps2 = self.taps_for("ccf", 33), self.taps_for("ccf", new_len)
                ours, got, want = self.run_gated("ccf", decimation, taps1, 4000.0, x, 12000,
                                                 lambda b: b.set_taps(taps2))
                msg = f"new_len={new_len} D={decimation}"
                self.assertEqual(ours.taps(), [float(np.float32(t)) for t in taps2])
                self.assertEqual(len(got.data()), len(want.data()), msg)
                self.assertLessEqual(
                    relative_error(got.data(), want.data()),
                    drift_tolerance(4000.0, FS, decimation, len(want.data()), new_len), msg)
                # gr-filter tags every rebuild of its taps, a set_taps() too.
                self.assertEqual(freq_tags(got), freq_tags(want), msg)
                self.assertEqual(len(freq_tags(got)), 1, msg)

    def test_stream_tags_propagate_like_gr_filter(self):
        x = self.samples("c", 5000)
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src")))
                for off in (0, 1, 2, 999, 1000, 2500, 4997, 4999)]
        for decimation in (1, 3, 7):
            _, got, want = self.run_both("ccf", decimation, self.taps_for("ccf", 20), 1000.0,
                                         x, tags)
            ours = [(t.offset, pmt.to_long(t.value)) for t in got.tags()]
            theirs = [(t.offset, pmt.to_long(t.value)) for t in want.tags()]
            self.assertTrue(theirs)
            self.assertEqual(ours, theirs, f"D={decimation}")

    def test_restart_continues_the_rotation_like_gr_filter(self):
        x = self.samples("c", 3000)
        taps = self.taps_for("ccf", 25)
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        ours, theirs = make_pair("ccf", 2, taps, 6000.0)
        got, want = blocks.vector_sink_c(), blocks.vector_sink_c()
        tb.connect(src, ours, got)
        tb.connect(src, theirs, want)
        tb.run()
        src.rewind()
        tb.run()
        self.assertEqual(len(got.data()), len(want.data()))
        self.assertLessEqual(relative_error(got.data(), want.data()),
                             drift_tolerance(6000.0, FS, 2, len(want.data()), 25))

    def test_cpu_device_gives_same_results(self):
        x = self.samples("s", 8000)
        taps = self.taps_for("scf", 17)
        ours, got, want = self.run_both("scf", 3, taps, 900.0, x, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.assertEqual(ours.device(), gpufilter.device_cpu)
        model = xlating_reference(x, 3, taps, FS, [(0, 900.0)])
        self.check(got.data(), want.data(), model, 900.0, 3, 17, "device_cpu")

    def test_runs_on_gpu_when_there_is_one(self):
        skip_without_gpu(self)
        blk = gpufilter.freq_xlating_fir_filter_ccf(2, [1.0, 0.5], 100.0, FS)
        self.assertTrue(blk.on_gpu())
        self.assertEqual(blk.device(), 0)

    def test_bad_parameters_name_themselves(self):
        make = gpufilter.freq_xlating_fir_filter_ccf
        cases = [
            (ValueError, "decimation", lambda: make(0, [1.0], 0.0, FS)),
            (ValueError, "taps", lambda: make(1, [], 0.0, FS)),
            (ValueError, "sampling_freq", lambda: make(1, [1.0], 0.0, 0.0)),
            (ValueError, "sampling_freq", lambda: make(1, [1.0], 0.0, -FS)),
            (IndexError, "device", lambda: make(1, [1.0], 0.0, FS, 99)),
            (IndexError, "device", lambda: make(1, [1.0], 0.0, FS, -7)),
            (ValueError, "batch_size", lambda: make(1, [1.0], 0.0, FS, -1, 0)),
            (ValueError, "taps", lambda: gpufilter.freq_xlating_fir_filter_scc(1, [], 0.0, FS)),
        ]
        for exc, word, bad in cases:
            with self.assertRaises(exc) as ctx:
                bad()
            self.assertIn(word, str(ctx.exception))
        blk = make(1, [1.0], 0.0, FS)
        with self.assertRaises(ValueError):
            blk.set_taps([])
        self.assertEqual(blk.taps(), [1.0])


if __name__ == "__main__":
    gr_unittest.run(qa_freq_xlating_fir_filter)
