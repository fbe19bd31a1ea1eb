#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A CUDA error in the middle of a stream stops the flowgraph with CUDA's message."""

import os
import subprocess
import sys
import textwrap

from gnuradio import gr_unittest

from gpu_test_support import skip_without_gpu

FLOWGRAPH = textwrap.dedent("""
    from gnuradio import blocks, gpufilter, gr
    import gpufilter_test_hooks  # the test build's fault injection
    gpufilter_test_hooks.fail_gpu_after(3)
    tb = gr.top_block()
    src = blocks.vector_source_c([1j, 2, 3], True)
    head = blocks.head(gr.sizeof_gr_complex, 50_000_000)
    fir = gpufilter.fir_filter_ccf(1, [0.5, 0.5], batch_size=4096)
    sink = blocks.null_sink(gr.sizeof_gr_complex)
    tb.connect(src, head, fir, sink)
    tb.run()
    print("written", fir.nitems_written(0))
""")


class qa_gpu_failure(gr_unittest.TestCase):
    def test_cuda_error_stops_flowgraph_with_message(self):
        skip_without_gpu(self)
        # The message goes through GNU Radio's logger; make sure it is on and on stderr
        # whatever the machine's GNU Radio configuration says.
        env = dict(os.environ,
                   GR_CONF_LOG_LOG_LEVEL="info", GR_CONF_LOG_LOG_FILE="stderr")
        result = subprocess.run([sys.executable, "-c", FLOWGRAPH], env=env,
                                capture_output=True, text=True, timeout=120)
        output = result.stdout + result.stderr
        self.assertEqual(result.returncode, 0, output)
        self.assertIn("GPU filtering failed", output)
        self.assertIn("cudaErrorInvalidValue", output)  # CUDA's own words
        written = int(result.stdout.split("written")[1])
        self.assertLess(written, 50_000_000)  # it stopped, and did not pretend otherwise


if __name__ == "__main__":
    gr_unittest.run(qa_gpu_failure)
