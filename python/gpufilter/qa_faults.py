#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Faults a user sees clearly: a GPU too full for a block's batch fails make() with
the block's name and the size, and a CUDA error at run time stops the flowgraph with
a message on stderr even when GNU Radio's logger is switched off. (Streams that end
mid-batch: qa_stream_ends.py.)"""

import os
import subprocess
import sys
import textwrap

from gnuradio import gpufilter, gr_unittest

import gpufilter_test_hooks
from gpu_test_support import skip_without_gpu

MB = 1 << 20

FAILING_FLOWGRAPH = textwrap.dedent("""
    from gnuradio import blocks, gpufilter, gr
    import gpufilter_test_hooks
    gpufilter_test_hooks.fail_gpu_after(3)
    tb = gr.top_block()
    src = blocks.vector_source_c([1j, 2, 3], True)
    head = blocks.head(gr.sizeof_gr_complex, 50_000_000)
    fir = gpufilter.freq_xlating_fir_filter_ccf(2, [0.5, 0.5], 1e3, 1e5, batch_size=4096)
    tb.connect(src, head, fir, blocks.null_sink(gr.sizeof_gr_complex))
    tb.run()
    print("written", fir.nitems_written(0))
""")


class qa_faults(gr_unittest.TestCase):
    def test_full_gpu_fails_make_naming_block_and_size(self):
        skip_without_gpu(self)
        # Leave 64 MiB: a batch of 2^24 complex samples needs far more (three slots of
        # input and output buffers).
        gpufilter_test_hooks.hold_device_memory(0, 64 * MB)
        try:
            with self.assertRaises(RuntimeError) as ctx:
                gpufilter.fir_filter_ccf(1, [0.5] * 31, batch_size=1 << 24)
            msg = str(ctx.exception)
            print(msg)
            self.assertIn("gpu_fir_filter_ccf", msg)
            self.assertIn("batch_size 16777216", msg)
            self.assertIn("bytes", msg)  # the failed allocation's size
            self.assertIn("cudaErrorMemoryAllocation", msg)
        finally:
            gpufilter_test_hooks.release_device_memory()
        # And with the memory back, the same block can be made.
        self.assertTrue(gpufilter.fir_filter_ccf(1, [0.5] * 31,
                                                 batch_size=1 << 24).on_gpu())

    def test_cuda_error_visible_with_logger_off(self):
        skip_without_gpu(self)
        env = dict(os.environ, GR_CONF_LOG_LOG_LEVEL="off")
        result = subprocess.run([sys.executable, "-c", FAILING_FLOWGRAPH], env=env,
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("GPU filtering failed", result.stderr)
        self.assertIn("cudaErrorInvalidValue", result.stderr)
        self.assertEqual(result.stderr.count("GPU filtering failed"), 1, result.stderr)
        self.assertLess(int(result.stdout.split("written")[1]), 25_000_000)

    def test_huge_batch_on_cpu_fallback_runs(self):
        """No GPU memory on the CPU fallback: a huge batch_size must not matter."""
        from gnuradio import blocks, gr
        tb = gr.top_block()
        blk = gpufilter.fir_filter_ccf(1, [0.5, 0.5], device=gpufilter.device_cpu,
                                       batch_size=1 << 28)
        sink = blocks.vector_sink_c()
        tb.connect(blocks.vector_source_c([1j] * 1000), blk, sink)
        tb.run()
        self.assertEqual(len(sink.data()), 1000)


if __name__ == "__main__":
    gr_unittest.run(qa_faults)
