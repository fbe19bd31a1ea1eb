#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What gr-filter's module offers besides blocks is there after ``from gnuradio import
gpufilter``, so that replacing ``filter.`` with ``gpufilter.`` works for taps designed
with firdes, optfir, pm_remez and window, and for ``filter.pfb``."""

import subprocess
import sys

from gnuradio import fft, filter, gr_unittest

from gnuradio import gpufilter


class qa_module_attributes(gr_unittest.TestCase):

    def test_design_tools_are_gr_filters(self):
        self.assertIs(gpufilter.firdes, filter.firdes)
        self.assertIs(gpufilter.optfir, filter.optfir)
        self.assertIs(gpufilter.file_taps_loader, filter.file_taps_loader)
        self.assertIs(gpufilter.pm_remez, filter.pm_remez)
        self.assertIs(gpufilter.window, fft.window)
        self.assertEqual(
            list(gpufilter.firdes.low_pass(1.0, 48e3, 5e3, 1e3, gpufilter.window.WIN_HANN)),
            list(filter.firdes.low_pass(1.0, 48e3, 5e3, 1e3, fft.window.WIN_HANN)))

    def test_pfb_is_an_attribute_after_the_plain_import(self):
        # A fresh interpreter: this test module's own imports must not hide a miss.
        code = ("from gnuradio import gpufilter\n"
                "c = gpufilter.pfb.channelizer_ccf(4, device=gpufilter.device_cpu)\n"
                "print(type(c).__name__)")
        run = subprocess.run([sys.executable, "-c", code], capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        # (GNU Radio may log to standard output before it.)
        self.assertEqual(run.stdout.strip().splitlines()[-1], "channelizer_ccf")


if __name__ == "__main__":
    gr_unittest.run(qa_module_attributes)
