#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compile qa_grc_flowgraph.grc with grcc against this module's grc/ blocks and run it."""

import os
import subprocess
import sys

from gnuradio import gr_unittest

from grcc_support import HERE, grcc_test_case

FLOWGRAPH = os.path.join(HERE, "qa_grc_flowgraph.grc")
XLATING_FLOWGRAPH = os.path.join(HERE, "qa_grc_xlating_flowgraph.grc")
NLMS_FLOWGRAPH = os.path.join(HERE, "qa_grc_nlms_flowgraph.grc")
PFB_FLOWGRAPH = os.path.join(HERE, "qa_grc_pfb_flowgraph.grc")
FIR2D_FLOWGRAPH = os.path.join(HERE, "qa_grc_fir2d_flowgraph.grc")
XLATING_DRIVER = """
import importlib.util, time
spec = importlib.util.spec_from_file_location("fg", "{script}")
fg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fg)
tb = fg.qa_grc_xlating_flowgraph()
tb.start()
deadline = time.time() + 60
while tb.blocks_head_0.nitems_written(0) < 100000 and time.time() < deadline:
    time.sleep(0.01)
time.sleep(0.05)  # the strobe fires every 10 ms
tb.stop()
tb.wait()
print("written", tb.blocks_head_0.nitems_written(0))
print("center_freq", tb.gpufilter_freq_xlating_fir_filter_xxx_0.center_freq())
"""


class qa_grc(grcc_test_case):
    def test_001_compile_and_run(self):
        # The block's GPU options, Max Latency included, reach make().
        script, _ = self.compile(FLOWGRAPH, ["gpufilter.fir_filter_ccf(4, taps, (-1), 4096",
                                             "max_latency=0.02)"])
        # The flowgraph ends by itself (blocks_head); the timeout only guards a hang.
        run = subprocess.run([sys.executable, script], env=os.environ.copy(),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_002_xlating_and_hilbert_compile_and_run(self):
        script, generated = self.compile(
            XLATING_FLOWGRAPH,
            ["gpufilter.hilbert_fc(65, window.WIN_HAMMING",
             "gpufilter.freq_xlating_fir_filter_ccf(4, taps, 3000",
             "(self.gpufilter_freq_xlating_fir_filter_xxx_0, 'freq')",
             "gpufilter.quadrature_demod_cf(demod_gain, (-1), 4096, max_latency=0.01)",
             "gpufilter.complex_to_real(1, (-1), 4096, max_latency=0.01)"])
        self.assertIn("set_taps(self.taps)", generated)  # the setter callbacks
        self.assertIn("set_gain(self.demod_gain)", generated)
        # A message source never finishes, so GNU Radio would wait for it forever
        # (gr-filter's block too): run the generated top block until head is done.
        driver = XLATING_DRIVER.format(script=script)
        run = subprocess.run([sys.executable, "-c", driver], env=os.environ.copy(),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("center_freq 2500.0", run.stdout, run.stdout + run.stderr)
    def test_003_nlms_compile_and_run(self):
        script, generated = self.compile(
            NLMS_FLOWGRAPH, ["gpufilter.nlms_filter_ff(64, mu, 1, (1e-6), (-1), 4096, max_latency=0.01)"])
        self.assertIn("set_mu(self.mu)", generated)  # the setter callback
        run = subprocess.run([sys.executable, script], env=os.environ.copy(),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


    def test_004_pfb_blocks_compile_and_run(self):
        script, generated = self.compile(
            PFB_FLOWGRAPH,
            ["gpufilter.pfb_channelizer_ccf(4, taps, 2.0, (-1), 4096,",
             "set_channel_map([2, 0])",
             'gpufilter.pfb_channelizer_vcf(8, taps, 2.0, "complex", (-1)',
             'gpufilter.pfb_channelizer_vcf(8, taps, 1.0, "uint8", (-1)',
             "gpufilter.pfb_decimator_ccf(4, taps, 1, True, False, (-1), 4096,",
             "gpufilter.pfb_interpolator_ccf(3, taps, (-1), 4096,",
             "gpufilter.pfb_synthesizer_ccf(4, taps, True, (-1), 4096,",
             "set_channel_map([1, 6])",
             "gpufilter_pfb.arb_resampler_ccf(", "gpufilter_pfb.arb_resampler_fff("])
        self.assertIn("set_taps(self.taps)", generated)
        run = subprocess.run([sys.executable, script], env=os.environ.copy(),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_005_fir_2d_compile_and_run(self):
        script, generated = self.compile(
            FIR2D_FLOWGRAPH,
            ["gpufilter.fir_filter_2d_fff(64, numpy.atleast_2d(kernel), (-1), 4096,",
             "fir_filter_2d_ccc(16, numpy.atleast_2d([[1, 0.5j, 0.25], [0.5, 1j, -1]])",
             "gpufilter.filter_method.separable, max_latency=0.01)",
             "fir_filter_2d_ccf(16, numpy.atleast_2d([0.25, 0.5, 0.25]), (-1), 1024,"])
        self.assertIn("set_taps(numpy.atleast_2d(self.kernel))", generated)
        run = subprocess.run([sys.executable, script], env=os.environ.copy(),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


if __name__ == "__main__":
    gr_unittest.run(qa_grc)
