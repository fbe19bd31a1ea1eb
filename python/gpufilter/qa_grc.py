#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compile qa_grc_flowgraph.grc with grcc against this module's grc/ blocks and run it."""

import os
import shutil
import subprocess
import sys
import tempfile

from gnuradio import gr, gr_unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_GRC_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "grc"))
# GNU Radio's own blocks: ctest sets GR_DONT_LOAD_PREFS, so grcc would not find them.
STOCK_GRC_DIR = os.path.join(gr.prefix(), "share", "gnuradio", "grc", "blocks")
FLOWGRAPH = os.path.join(HERE, "qa_grc_flowgraph.grc")


class qa_grc(gr_unittest.TestCase):
    def setUp(self):
        self.grcc = shutil.which("grcc")
        if self.grcc is None:
            self.skipTest("grcc (GNU Radio Companion) is not installed")
        self.tmp = tempfile.mkdtemp(prefix="qa_grc_")
        self.env = dict(os.environ)
        paths = [SOURCE_GRC_DIR, STOCK_GRC_DIR]
        if self.env.get("GRC_BLOCKS_PATH"):
            paths.append(self.env["GRC_BLOCKS_PATH"])
        self.env["GRC_BLOCKS_PATH"] = os.pathsep.join(paths)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_001_compile_and_run(self):
        grcc = subprocess.run([self.grcc, "-o", self.tmp, FLOWGRAPH], env=self.env,
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(grcc.returncode, 0, grcc.stdout + grcc.stderr)
        script = os.path.join(self.tmp, "qa_grc_flowgraph.py")
        self.assertTrue(os.path.isfile(script), grcc.stdout + grcc.stderr)
        with open(script) as f:
            self.assertIn("gpufilter.fir_filter_", f.read())

        # The flowgraph ends by itself (blocks_head); the timeout only guards a hang.
        run = subprocess.run([sys.executable, script], env=os.environ.copy(),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


if __name__ == "__main__":
    gr_unittest.run(qa_grc)
