#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.pfb_arb_resampler_ccf/fff/ccc against gnuradio.filter's, and the
gpufilter.pfb.arb_resampler_ccf/fff wrappers against gnuradio.filter.pfb's, on long
random streams cut into calls of many sizes."""

import math

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest
from gnuradio.filter import pfb as gr_pfb
from gnuradio.gpufilter import pfb

from block_table import run_with_timeout
from gpu_test_support import (GPU_REQUIRED, gpu_count, random_samples, relative_error,
                              run_gated_until_idle)

TOLERANCE = 1e-5
RATES = (2.3421, 0.75, 1 / 3.7, 1.0)


def turned(taps, cycles=0.125):
    """Real taps turned into complex ones (the low-pass moved by `cycles` turns per
    32 taps, a band-pass): the ccc block's taps, whose imaginary parts matter."""
    k = np.arange(len(taps))
    return (np.asarray(taps) * np.exp(2j * np.pi * cycles * k / 32)).tolist()


def positions(rate, nfilts, ntaps, n):
    """Input position of every output at a position < n: gr-filter's float recurrence
    (float32 throughout, as its kernel)."""
    f32 = np.float32
    q = f32(nfilts) / f32(rate)
    dec = int(np.floor(q))
    flt = f32(q - f32(dec))
    j, acc, p, out = (ntaps // 2) % nfilts, f32(0), 0, []
    while p < n:
        while j < nfilts:
            out.append(p)
            acc = f32(acc + flt)
            j += dec + int(np.floor(acc))
            acc = f32(np.fmod(acc, f32(1)))
        p += j // nfilts
        j %= nfilts
    return out


def make_pair(suffix, rate, taps, nfilts, **gpu_options):
    """Ours and gr-filter's pfb_arb_resampler_<suffix> ("ccf", "fff" or "ccc")."""
    theirs = getattr(filter, "pfb_arb_resampler_" + suffix)(rate, taps, nfilts)
    ours = getattr(gpufilter, "pfb_arb_resampler_" + suffix)(rate, taps, nfilts,
                                                             **gpu_options)
    return ours, theirs


class qa_pfb_arb_resampler(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2031)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def run_pair(self, suffix, rate, taps, x, nfilts=32, max_noutput=None, tags=(),
                 **gpu_options):
        """x through ours and gr-filter's in two flowgraphs (each its own scheduler)."""
        cplx = suffix != "fff"
        results = []
        for which in (0, 1):
            tb = gr.top_block()
            src = (blocks.vector_source_c if cplx else blocks.vector_source_f)(
                x.tolist(), False, 1, list(tags))
            blk = make_pair(suffix, rate, taps, nfilts, **gpu_options)[which]
            snk = (blocks.vector_sink_c if cplx else blocks.vector_sink_f)()
            tb.connect(src, blk, snk)
            if max_noutput:
                tb.run(max_noutput)
            else:
                tb.run()
            if which == 0 and GPU_REQUIRED and gpu_options.get("device") != \
                    gpufilter.device_cpu:
                self.assertTrue(blk.on_gpu())
            results.append((np.array(snk.data()), snk.tags(), blk))
        return results

    def check_stream(self, got, want, rate, ntaps, n, nfilts=32, msg=""):
        """Same samples; the same length where gr-filter's own length does not depend
        on its call sizes (output_multiple 1 with one input per output at most, or a
        whole rate), else within the inputs its forecast can leave unread."""
        m = min(len(got), len(want))
        self.assertGreater(m, 0, msg)
        self.assertLessEqual(relative_error(got[:m], want[:m]), TOLERANCE, msg)
        computable = len(positions(rate, nfilts, ntaps, n))
        self.assertLessEqual(len(got), computable, msg)  # nothing invented at the end
        if rate == 0.75 or rate == 1.0:
            self.assertEqual(len(got), len(want), msg)
        else:
            om = max(int(rate), nfilts) if rate >= 1 else 1
            unread = int(om / rate) + 1
            self.assertGreaterEqual(len(got), computable - math.ceil(unread * rate) - 1,
                                    msg)

    def test_rates_long_random_streams_ccf_fff(self):
        taps = filter.firdes.low_pass_2(32, 32, 0.4, 0.1, 60)
        n = 200003
        for suffix in ("ccf", "fff"):
            x = random_samples(self.rng, n, suffix == "ccf")
            for rate in RATES:
                (got, _, ours), (want, _, theirs) = self.run_pair(suffix, rate, taps, x)
                self.check_stream(got, want, rate, len(taps), n,
                                  msg=f"rate={rate} {suffix}")
                self.assertEqual(ours.decimation_rate(), theirs.decimation_rate())
                self.assertEqual(ours.fractional_rate(), theirs.fractional_rate())
                self.assertEqual(ours.interpolation_rate(), theirs.interpolation_rate())
                self.assertEqual(ours.taps_per_filter(), theirs.taps_per_filter())
                self.assertEqual(ours.group_delay(), theirs.group_delay())
                self.assertEqual(ours.phase_offset(1000.0, 48000.0),
                                 theirs.phase_offset(1000.0, 48000.0))
                if len(got) == len(want):
                    self.assertEqual(ours.phase(), theirs.phase())  # the arm at the end
                self.assertEqual(ours.history(), theirs.history())
                self.assertAlmostEqual(ours.relative_rate(), theirs.relative_rate())
                self.assertEqual(ours.taps(), theirs.taps())

    def test_odd_calls_batches_and_filter_sizes(self):
        # The same stream through small and odd batches and scheduler call sizes: the
        # samples never change, nothing is lost or repeated between calls. (Where the
        # stride passes more input samples than an arm has taps, gr-filter's block can
        # consume past its input: docs/pfb.md. Those shapes are left out here.)
        n = 60007
        for rate in RATES:
            for nfilts, ntaps in ((32, 301), (7, 50), (1, 9), (64, 320)):
                taps = self.rng.uniform(-1, 1, ntaps).tolist()
                x = random_samples(self.rng, n, True)
                for batch, mno in ((1, 17), (100, 1000), (4097, None), (262144, 333)):
                    (got, _, _), (want, _, _) = self.run_pair(
                        "ccf", rate, taps, x, nfilts, max_noutput=mno, batch_size=batch)
                    self.check_stream(got, want, rate, ntaps, n, nfilts,
                                      msg=f"rate={rate} N={nfilts} ntaps={ntaps} "
                                      f"batch={batch} max_noutput={mno}")

    def test_set_rate_set_phase_and_set_taps_before_and_mid_stream(self):
        taps = filter.firdes.low_pass_2(32, 32, 0.4, 0.1, 60)
        x = random_samples(self.rng, 50021, True)
        for suffix in ("ccf", "fff"):
            cplx = suffix == "ccf"
            xs = x if cplx else x.real.copy()
            outs = []
            for which in (0, 1):
                blk = make_pair(suffix, 2.3421, taps, 32)[which]
                blk.set_rate(0.61)
                blk.set_phase(2.0)
                outs.append(blk)
            ours, theirs = outs
            self.assertEqual(ours.phase(), theirs.phase())
            self.assertEqual(ours.decimation_rate(), theirs.decimation_rate())
            self.assertEqual(ours.fractional_rate(), theirs.fractional_rate())
            results = []
            for blk in outs:
                tb = gr.top_block()
                src = (blocks.vector_source_c if cplx else blocks.vector_source_f)(
                    xs.tolist())
                snk = (blocks.vector_sink_c if cplx else blocks.vector_sink_f)()
                tb.connect(src, blk, snk)
                tb.run()
                results.append(np.array(snk.data()))
            m = min(map(len, results))
            self.assertGreater(m, 0)
            self.assertLessEqual(relative_error(results[0][:m], results[1][:m]),
                                 TOLERANCE)
            self.assertLessEqual(abs(len(results[0]) - len(results[1])), 4)

    def test_set_rate_and_set_taps_mid_stream(self):
        taps = filter.firdes.low_pass_2(32, 32, 0.4, 0.1, 60)
        new_taps = filter.firdes.low_pass_2(32, 32, 0.3, 0.1, 80)
        self.assertNotEqual(len(taps), len(new_taps))
        x = random_samples(self.rng, 40000, True)
        cases = [("ccf", 2.3421, lambda b: b.set_rate(0.75)),
                 ("ccf", 0.75, lambda b: b.set_rate(2.3421)),
                 ("ccf", 1 / 3.7, lambda b: b.set_rate(1.0)),
                 ("ccf", 0.75, lambda b: b.set_taps(new_taps)),
                 ("ccf", 1.0, lambda b: b.set_taps(new_taps)),
                 ("ccf", 2.3421, lambda b: b.set_phase(1.0)),
                 ("ccc", 0.75, lambda b: b.set_taps(turned(new_taps, -0.2))),
                 ("ccc", 1.0, lambda b: b.set_taps(turned(new_taps, -0.2))),
                 ("ccc", 2.3421, lambda b: b.set_rate(0.75))]
        for suffix, rate, act in cases:
            ours, theirs = make_pair(suffix, rate, taps if suffix == "ccf" else
                                     turned(taps), 32, batch_size=1)
            got, want, before = run_gated_until_idle(x, 20000, ours, theirs,
                                                     blocks.vector_sink_c, act)
            msg = f"{suffix} rate={rate} before={before}"
            if rate < 1 or rate == 1.0:
                # Both stop where every window the first samples complete ends (or,
                # at rate 1, at a multiple of 32): the change hits the same output.
                self.assertEqual(before[0], before[1], msg)
                m = min(len(got), len(want))
            else:
                # Above rate 1 each stops with fewer than its forecast's 13 samples
                # unread, where depends on its call sizes (as gr-filter's own end of
                # stream): compare up to the change.
                self.assertLessEqual(abs(before[0] - before[1]), 40, msg)
                m = min(before)
            self.assertGreater(m, 0, msg)
            self.assertLessEqual(relative_error(got[:m], want[:m]), TOLERANCE, msg)
            self.assertLessEqual(abs(len(got) - len(want)), 40, msg)
            self.assertEqual(ours.taps(), theirs.taps())
            self.assertEqual(ours.decimation_rate(), theirs.decimation_rate())

    def test_complex_taps_ccc(self):
        """pfb_arb_resampler_ccc: complex taps at every rate, through odd batches and
        call sizes, with gr-filter's accessors."""
        taps = turned(filter.firdes.low_pass_2(32, 32, 0.4, 0.1, 60))
        n = 60013
        x = random_samples(self.rng, n, True)
        for rate in RATES:
            for options, mno in (({}, None), ({"batch_size": 1}, 17),
                                 ({"batch_size": 4097}, 333)):
                (got, _, ours), (want, _, theirs) = self.run_pair(
                    "ccc", rate, taps, x, max_noutput=mno, **options)
                self.check_stream(got, want, rate, len(taps), n,
                                  msg=f"rate={rate} {options} max_noutput={mno}")
            self.assertEqual(ours.taps(), theirs.taps())
            self.assertEqual(ours.taps_per_filter(), theirs.taps_per_filter())
            self.assertEqual(ours.group_delay(), theirs.group_delay())
            self.assertEqual(ours.history(), theirs.history())
            self.assertAlmostEqual(ours.relative_rate(), theirs.relative_rate())
        (got, _, ours), (want, _, _) = self.run_pair(
            "ccc", 0.75, taps, x, device=gpufilter.device_cpu)
        self.assertFalse(ours.on_gpu())
        self.check_stream(got, want, 0.75, len(taps), n, msg="device_cpu")

    def test_tags_move_to_offset_times_rate(self):
        taps = filter.firdes.low_pass_2(32, 32, 0.4, 0.1, 60)
        n = 30011
        x = random_samples(self.rng, n, True)
        offsets = [0, 1, 5, 999, 4096, 12345, 29999]
        tags = [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                            pmt.intern("src"))) for off in offsets]
        cases = [("ccf", r) for r in RATES] + [("ccc", 0.75), ("ccc", 2.3421)]
        for suffix, rate in cases:
            (_, got_tags, _), (_, want_tags, _) = self.run_pair(
                suffix, rate, taps, x, tags=tags, batch_size=1000)
            key = lambda ts: sorted((t.offset, pmt.to_long(t.value)) for t in ts)
            # Above rate 1 where each block stops reading depends on its call sizes
            # (test_set_rate_and_set_taps_mid_stream): a tag among the last 40 samples may be passed
            # on by one and not the other; a tag both pass on is at the same offset.
            end = n - 40
            early = lambda ts: [k for k in key(ts) if k[1] < end]
            self.assertEqual(early(got_tags), early(want_tags), f"rate={rate}")
            late_got = {v: o for o, v in key(got_tags) if v >= end}
            late_want = {v: o for o, v in key(want_tags) if v >= end}
            for v in late_got.keys() & late_want.keys():
                self.assertEqual(late_got[v], late_want[v], f"rate={rate}, tag {v}")
            self.assertGreaterEqual(len(got_tags), len(offsets) - 1)

    def test_bad_parameters_raise_value_error_naming_them(self):
        taps = [0.5] * 64
        for cls in (gpufilter.pfb_arb_resampler_ccf, gpufilter.pfb_arb_resampler_fff,
                    gpufilter.pfb_arb_resampler_ccc):
            for rate in (0.0, -1.0, float("nan"), float("inf"), float("-inf")):
                with self.assertRaisesRegex(ValueError, "rate"):
                    cls(rate, taps, 32)
            with self.assertRaisesRegex(ValueError, "taps"):
                cls(1.5, [], 32)
            for size in (0, -3):
                with self.assertRaisesRegex(ValueError, "filter_size"):
                    cls(1.5, taps, size)
            with self.assertRaisesRegex(ValueError, "batch_size"):
                cls(1.5, taps, 32, batch_size=0)
            blk = cls(1.5, taps, 32)
            for rate in (0.0, float("nan")):
                with self.assertRaisesRegex(ValueError, "rate"):
                    blk.set_rate(rate)
            for ph in (-0.1, 7.0):
                with self.assertRaises(ValueError):
                    blk.set_phase(ph)
            with self.assertRaisesRegex(ValueError, "taps"):
                blk.set_taps([])

    def test_extreme_rates_finish_and_match_gr_filter(self):
        """Rates from 1e-7 to 1e5: the stream finishes (at 1e-6 it once never did: the
        inputs for the outputs the scheduler offered overflowed an int in forecast()
        and general_work()), without a batch's worth of outputs per input (from rate
        ~4000 on, std::bad_alloc), with gr-filter's outputs. At 1e-6 and below
        gr-filter's own forecast overflows: its scheduler stops it at once with no
        output ("ninput_items required is -2147483648"), so there ours is checked
        against the computable outputs: all of them, but those whose 1 / rate inputs
        (gr-filter's forecast) the stream's end cuts short. Each block in its own
        flowgraph, under a timeout; a short random pattern repeated, so long inputs
        cost no Python list."""
        taps = filter.firdes.low_pass_2(32, 32, 0.4, 0.1, 60)
        pattern = random_samples(self.rng, 4099, True)

        def run(block, n):
            tb = gr.top_block()
            src = blocks.vector_source_c(pattern.tolist(), True)
            snk = blocks.vector_sink_c()
            tb.connect(src, blocks.head(gr.sizeof_gr_complex, n), block, snk)
            run_with_timeout(tb, 60, f"rate {block.relative_rate():g}")
            return np.array(snk.data())

        for rate, n in ((1e-7, 400_000), (1e-6, 2_100_000), (1e-5, 300_000),
                        (1e-3, 60_000), (0.7, 20_000), (1.3, 20_000), (100.0, 2_000),
                        (4000.0, 100), (1e4, 40), (1e5, 8)):
            msg = f"rate={rate:g}"
            ours, theirs = make_pair("ccf", rate, taps, 32)
            got = run(ours, n)
            computable = len(positions(rate, 32, len(taps), n))
            self.assertLessEqual(len(got), computable, msg)
            # As check_stream: the stream's end may leave gr-filter's forecast short.
            om = max(int(rate), 32) if rate >= 1 else 1
            unread = int(om / rate) + 1
            self.assertGreaterEqual(len(got), computable - math.ceil(unread * rate) - 1,
                                    msg)
            if rate < 1e-5:
                continue
            want = run(theirs, n)
            self.assertLessEqual(abs(len(got) - len(want)), int(2 * max(rate, 32)) + 8,
                                 msg)
            m = min(len(got), len(want))
            self.assertGreater(m, 0, msg)
            self.assertLessEqual(relative_error(got[:m], want[:m]), TOLERANCE, msg)

    def test_rates_beyond_2_to_the_24_are_refused(self):
        """A rate whose buffers (twice the inputs of one output, or the outputs of one
        input) exceed 2^24 samples is refused, naming the rate, at make() and
        set_rate(); 2^-24 and 2^24 themselves are taken."""
        taps = [0.5] * 64
        for cls in (gpufilter.pfb_arb_resampler_ccf, gpufilter.pfb_arb_resampler_fff):
            for rate in (2.0**-25, 1e-9, 2.0**25, 1e9, 1e30):
                with self.assertRaisesRegex(ValueError, "rate: must be in"):
                    cls(rate, taps, 32)
            blk = cls(2.0**-24, taps, 32)
            cls(2.0**24, [0.5] * 512, 256)
            with self.assertRaisesRegex(ValueError, "rate: must be in"):
                blk.set_rate(1e9)
            # gr-filter's arithmetic bounds the rate by filter_size as well.
            with self.assertRaisesRegex(ValueError,
                                        r"rate: must be in \(filter_size / 4e9, 1e5 \* "
                                        r"filter_size\) = \(8e-09, 3.2e\+06\) for "
                                        r"filter_size = 32, got 4e\+06"):
                cls(4e6, taps, 32)

    def test_pfb_wrappers_design_taps_as_gr_filter(self):
        for rate in (2.3421, 0.75):
            for cplx, ours_cls, theirs_cls in (
                    (True, pfb.arb_resampler_ccf, gr_pfb.arb_resampler_ccf),
                    (False, pfb.arb_resampler_fff, gr_pfb.arb_resampler_fff)):
                ours, theirs = ours_cls(rate), theirs_cls(rate)
                self.assertEqual(list(ours._taps), list(theirs._taps))
                x = random_samples(self.rng, 20011, cplx)
                outs = []
                for blk in (ours, theirs):
                    tb = gr.top_block()
                    src = (blocks.vector_source_c if cplx else blocks.vector_source_f)(
                        x.tolist())
                    snk = (blocks.vector_sink_c if cplx else blocks.vector_sink_f)()
                    tb.connect(src, blk, snk)
                    tb.run()
                    outs.append(np.array(snk.data()))
                m = min(map(len, outs))
                self.assertGreater(m, 0)
                self.assertLessEqual(relative_error(outs[0][:m], outs[1][:m]), TOLERANCE)
                ours.set_rate(1.5)
                ours.set_taps(ours._taps)


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_arb_resampler)
