# SPDX-License-Identifier: GPL-3.0-or-later
"""A test case that compiles .grc flowgraphs with grcc against this module's grc/ blocks
(shared by the GRC tests; skipped where GNU Radio Companion is not installed)."""

import os
import shutil
import subprocess
import tempfile

from gnuradio import gr, gr_unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SOURCE_GRC_DIR = os.path.join(ROOT, "grc")
# GNU Radio's own blocks: ctest sets GR_DONT_LOAD_PREFS, so grcc would not find them.
STOCK_GRC_DIR = os.path.join(gr.prefix(), "share", "gnuradio", "grc", "blocks")


class grcc_test_case(gr_unittest.TestCase):
    def setUp(self):
        self.grcc = shutil.which("grcc")
        if self.grcc is None:
            self.skipTest("grcc (GNU Radio Companion) is not installed")
        self.tmp = tempfile.mkdtemp(prefix="qa_grcc_")
        self.env = dict(os.environ)
        paths = [SOURCE_GRC_DIR, STOCK_GRC_DIR]
        if self.env.get("GRC_BLOCKS_PATH"):
            paths.append(self.env["GRC_BLOCKS_PATH"])
        self.env["GRC_BLOCKS_PATH"] = os.pathsep.join(paths)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def compile(self, flowgraph, expected_calls):
        """grcc's Python script for `flowgraph`, checked to contain expected_calls:
        returns (path, text)."""
        grcc = subprocess.run([self.grcc, "-o", self.tmp, flowgraph], env=self.env,
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(grcc.returncode, 0, grcc.stdout + grcc.stderr)
        name = os.path.splitext(os.path.basename(flowgraph))[0]
        script = os.path.join(self.tmp, name + ".py")
        self.assertTrue(os.path.isfile(script), grcc.stdout + grcc.stderr)
        with open(script) as f:
            generated = f.read()
        for call in expected_calls:
            self.assertIn(call, generated)
        return script, generated
