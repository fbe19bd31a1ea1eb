# SPDX-License-Identifier: GPL-3.0-or-later
"""What the device-buffer tests share (qa_device_buffers, qa_device_buffer_memory): the
module switch set and put back around each test, emulated device buffers without a
GPU, flowgraphs run with the buffers on and off and compared, and a run that fails
instead of hanging."""


import threading

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr, gr_unittest

import gpufilter_test_hooks as hooks
from gpu_test_support import GPU_REQUIRED, gpu_count, random_samples, relative_error

MB = 1 << 20
CSIZE = gr.sizeof_gr_complex



class device_buffer_case(gr_unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gpus = gpu_count()
        cls.emulated = cls.gpus == 0
        # The module's switch as the suite found it (on by default): every test sets
        # it as it needs, and each is followed by this value again.
        cls.switch = gpufilter.get_device_buffers()
        hooks.emulate_device_buffers(cls.emulated)

    @classmethod
    def tearDownClass(cls):
        hooks.emulate_device_buffers(False)
        gpufilter.set_device_buffers(cls.switch)

    def setUp(self):
        rng = np.random.default_rng(11)
        self.rng = rng
        self.x = random_samples(rng, 50000, True)
        self.taps = [random_samples(rng, n, False).tolist() for n in (31, 64, 17)]

    def tearDown(self):
        gpufilter.set_device_buffers(self.switch)

    # ---- helpers ----

    def fir(self, k=0, batch=4096, decimation=1):
        return gpufilter.fir_filter_ccf(decimation, self.taps[k], batch_size=batch)

    def both(self, build, check=None):
        """Runs build(tb) -> sinks with device buffers on, then off; compares every
        sink; returns the outputs with them on."""
        results = []
        for on in (True, False):
            gpufilter.set_device_buffers(on)
            tb = gr.top_block()
            sinks, gpu_blocks = build(tb)
            run_with_timeout(self, tb)
            if GPU_REQUIRED:
                for b in gpu_blocks:
                    self.assertTrue(b.on_gpu())
            if check:
                check(on, gpu_blocks)
            results.append([np.array(s.data()) for s in sinks])
        for got, want in zip(*results):
            self.assertEqual(len(got), len(want))
            self.assertLess(relative_error(got, want), 1e-5)
        return results[0]

    def reference(self, x, taps_list):
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        chain = [filter.fir_filter_ccf(1, t) for t in taps_list]
        sink = blocks.vector_sink_c()
        tb.connect(src, *chain, sink)
        tb.run()
        return np.array(sink.data())


class in_gpu_granules:
    """Mixed in before a device_buffer_case: every test again with emulated rings in a
    GPU's 2 MiB granules, far larger than the buffers GNU Radio asks for (on a GPU the
    rings are those already): writers are held to GNU Radio's size, and every
    flowgraph still gives the same output."""

    def setUp(self):
        if not self.emulated:
            self.skipTest("on a GPU the rings are in its granules already")
        super().setUp()
        hooks.emulated_ring_granularity(2 * MB)

    def tearDown(self):
        hooks.emulated_ring_granularity(0)
        super().tearDown()


def run_with_timeout(testcase, tb, seconds=60):
    """tb.run(), but a hang fails the test instead of blocking the suite."""
    tb.start()
    done = threading.Event()
    t = threading.Thread(target=lambda: (tb.wait(), done.set()), daemon=True)
    t.start()
    if not done.wait(seconds):
        tb.stop()
        testcase.fail(f"flowgraph did not finish within {seconds} s")
