#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Live streams: with default arguments every block answers a throttled 48 kS/s
stream within a fraction of a second (a block that gathered a whole batch first held
5.5 s), batches follow the input rate, a fast source gets whole batches when the buffer in
front holds them, and
max_latency is checked and settable. Behaviour with wide margins, not speed: the
measured figures are in docs/benchmarks.md (apps/bench_latency.py)."""

import math
import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpufilter
import gpu_test_support as gts
from gnuradio.gpufilter import live_latency

RATE = 48000
TAPS = [0.02 * (k % 7 - 3) + 0.1 for k in range(64)]
# Without a budget a block answered a 48 kS/s stream after 5.5 s; gr-filter's blocks
# answer in 0.1-0.2 s (the throttle's chunks); a second leaves room for a loaded test
# machine.
FIRST_OUTPUT_BOUND_S = 1.0


class qa_latency(gr_unittest.TestCase):

    def setUp(self):
        gts.gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def test_every_family_answers_a_live_stream_within_a_second(self):
        results = live_latency.measure(live_latency.all_cases(), RATE, 1.6,
                                       references=False)
        self.assertEqual(len(results), len(live_latency.all_cases()))
        late = [f"{r.name}: {r.first_output_s:.2f} s" for r in results
                if not r.first_output_s < FIRST_OUTPUT_BOUND_S]
        self.assertEqual(late, [], "first output later than 1 s at 48 kS/s")
        for r in results:
            self.assertGreater(r.outputs, 0, r.name)
            self.assertEqual(r.on_gpu, gts.gpu_count() > 0, r.name)

    def test_a_budget_sets_the_batch_from_the_input_rate(self):
        blk = gpufilter.fir_filter_fff(1, TAPS)
        self.assertAlmostEqual(blk.max_latency(), gpufilter.default_max_latency)
        probe = self._throttled(blk, 1.2)
        # ~48000 S/s measured; 10 ms of it is ~480 samples a call, not 262144.
        self.assertGreater(blk.input_rate(), RATE / 2)
        self.assertLess(blk.input_rate(), RATE * 2)
        self.assertGreaterEqual(blk.current_batch_size(), 100)
        self.assertLessEqual(blk.current_batch_size(), 2000)
        self.assertGreater(probe.nitems_written(0), RATE // 2)

    def test_an_infinite_budget_waits_for_whole_batches(self):
        held = gpufilter.fir_filter_fff(1, TAPS, batch_size=RATE,
                                        max_latency=math.inf)
        live = gpufilter.fir_filter_fff(1, TAPS, batch_size=RATE)
        results = live_latency.measure(
            [live_latency.case("held", "f", lambda d: (held, held, 1.0, [], 1), None),
             live_latency.case("live", "f", lambda d: (live, live, 1.0, [], 1), None)],
            RATE, 1.6, references=False)
        first = {r.name: r.first_output_s for r in results}
        # A batch of one second of input: nothing before most of it has arrived.
        self.assertGreater(first["held"], 0.6)
        self.assertLess(first["live"], 0.6)
        self.assertEqual(held.current_batch_size(), RATE)
        self.assertGreaterEqual(held.largest_batch(), RATE)

    def test_a_fast_source_gets_whole_batches_its_buffer_holds(self):
        """From a fast source whose buffer holds a batch (its min output buffer), or
        with an infinite budget, calls are whole batches; with the source's stock
        buffer they are what that buffer holds, as at gr-filter's block."""
        n = 1 << 21
        batch = 1 << 15
        stock = 16384  # GNU Radio's default buffer: 64 KiB, of floats
        x = np.random.default_rng(5).uniform(-1, 1, n).astype(np.float32).tolist()
        for setup in ("stock", "source buffer", "infinite budget"):
            src = blocks.vector_source_f(x)
            if setup == "source buffer":
                src.set_min_output_buffer(2 * batch)
            latency = math.inf if setup == "infinite budget" else \
                gpufilter.default_max_latency
            blk = gpufilter.fir_filter_fff(1, TAPS, batch_size=batch, max_latency=latency)
            sink = blocks.null_sink(gr.sizeof_float)
            tb = gr.top_block()
            tb.connect(src, blk, sink)
            tb.run()
            self.assertEqual(sink.nitems_read(0), n, setup)
            if setup == "stock":
                self.assertLess(blk.largest_batch(), stock, setup)
            else:
                self.assertGreaterEqual(blk.largest_batch(), batch // 2, setup)

    def test_set_max_latency(self):
        blk = gpufilter.fir_filter_ccf(1, TAPS, max_latency=0.05)
        self.assertAlmostEqual(blk.max_latency(), 0.05)
        blk.set_max_latency(0.0)
        self.assertEqual(blk.max_latency(), 0.0)
        blk.set_max_latency(math.inf)
        self.assertEqual(blk.max_latency(), math.inf)

    def test_bad_max_latency_names_the_parameter(self):
        for bad in (-0.001, math.nan):
            with self.assertRaisesRegex(ValueError, "max_latency"):
                gpufilter.fir_filter_fff(1, TAPS, max_latency=bad)
            with self.assertRaisesRegex(ValueError, "max_latency"):
                gpufilter.pfb_arb_resampler_ccf(0.5, TAPS, max_latency=bad)
            blk = gpufilter.quadrature_demod_cf(1.0)
            with self.assertRaisesRegex(ValueError, "max_latency"):
                blk.set_max_latency(bad)
            self.assertEqual(blk.max_latency(), gpufilter.default_max_latency)

    def _throttled(self, blk, seconds):
        tb = gr.top_block()
        src = blocks.vector_source_f(
            np.random.default_rng(3).uniform(-1, 1, 4096).astype(np.float32).tolist(),
            True)
        thr = blocks.throttle(gr.sizeof_float, RATE)
        probe = blocks.copy(gr.sizeof_float)  # counts the block's output
        tb.connect(src, thr, blk, probe, blocks.null_sink(gr.sizeof_float))
        tb.start()
        time.sleep(seconds)
        tb.stop()
        tb.wait()
        return probe


if __name__ == "__main__":
    gr_unittest.run(qa_latency)
