#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every grc/*.block.yml as GNU Radio Companion loads it (GNU Radio's own GRC
Platform): each parameter with a drop-down has one label per option, the Device
drop-down says what each choice does, and every option GRC offers makes a block
(the block's `make` template, rendered by GRC, is run)."""

import glob
import os
import types
import unittest

from gnuradio import gpufilter, gr, gr_unittest
try:  # GNU Radio Companion's own loader; a GPU machine may have the runtime alone
    from gnuradio.grc.core.platform import Platform
except ImportError:
    Platform = None

from grcc_support import SOURCE_GRC_DIR, STOCK_GRC_DIR

# Values for the parameters that have no usable default, so that `make` can run.
# The FM band source gets a short, narrow band: it computes its loop at construction.
PARAM_VALUES = {
    "taps": "[1.0, 0.5, 0.25]",
    "samp_rate": "480e3",
    "stations": "[0.0]",
    "period": "0.05",
    # The convenience filters' design (gr-filter's defaults leave these empty).
    "cutoff_freq": "48e3",
    "width": "10e3",
    "low_cutoff_freq": "20e3",
    "high_cutoff_freq": "60e3",
    "ntaps": "45",
}


def load_platform():
    platform = Platform(name="GNU Radio Companion (gr-gpufilter test)", prefs=gr.prefs(),
                        version=gr.version(),
                        version_parts=(gr.major_version(), gr.api_version(),
                                       gr.minor_version()))
    # GNU Radio's own blocks are needed too: GRC refuses to start without "options".
    platform.build_library([SOURCE_GRC_DIR, STOCK_GRC_DIR])
    return platform


def device_label(value):
    if value == gpufilter.device_auto:
        return "Auto (first GPU, else CPU)"
    if value == gpufilter.device_cpu:
        return "CPU"
    return f"GPU {value}"


class qa_grc_blocks(gr_unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if Platform is None:
            raise unittest.SkipTest("GNU Radio Companion (gnuradio.grc) is not installed")
        cls.platform = load_platform()
        files = sorted(glob.glob(os.path.join(SOURCE_GRC_DIR, "*.block.yml")))
        cls.block_classes = {}
        for key, block_class in cls.platform.blocks.items():
            loaded = os.path.abspath(getattr(block_class, "loaded_from", "") or "")
            if loaded in files:
                cls.block_classes[key] = block_class
        cls.files = files

    def enum_params(self, block_class):
        """The raw parameter data (as GRC read the YAML) of every drop-down parameter
        that this module's file defines."""
        return [d for d in block_class.parameters_data
                if "options" in d and d["id"] not in ("affinity", "alias", "comment")
                and d.get("category") != "Advanced"]

    def test_001_every_file_loads(self):
        loaded = {os.path.abspath(c.loaded_from) for c in self.block_classes.values()}
        self.assertEqual(sorted(loaded), self.files)

    def test_002_one_label_per_option(self):
        for key, block_class in self.block_classes.items():
            for d in self.enum_params(block_class):
                with self.subTest(block=key, param=d["id"]):
                    options = d["options"]
                    labels = d.get("option_labels", options)
                    self.assertEqual(
                        len(labels), len(options),
                        f"{key}.{d['id']}: {len(options)} options {options} but "
                        f"{len(labels)} labels {labels} (a comma inside a label splits it "
                        f"unless the label is quoted)")
                    self.assertEqual(len(set(labels)), len(labels), labels)
                    for attr, values in d.get("option_attributes", {}).items():
                        self.assertEqual(len(values), len(options), f"attribute {attr}")

    def test_003_device_options(self):
        """Each Device choice is device_auto, device_cpu or an index >= 0, and its
        label says which (what GRC shows is what the block gets)."""
        seen = 0
        for key, block_class in self.block_classes.items():
            for d in self.enum_params(block_class):
                if d["id"] != "device":
                    continue
                seen += 1
                shown = self.make_block(key).params["device"].options
                for option, label in shown.items():
                    with self.subTest(block=key, option=option):
                        value = int(option)
                        self.assertTrue(value in (gpufilter.device_auto,
                                                  gpufilter.device_cpu) or value >= 0,
                                        f"device option {value}")
                        self.assertEqual(label, device_label(value))
                self.assertEqual(d["default"], str(gpufilter.device_auto))
        # every GPU block: fir, fft, xlating, hilbert, nlms, pfb x5
        self.assertGreaterEqual(seen, 10)

    def test_004_every_option_makes_a_block(self):
        """For every drop-down option, GRC's rendered `make` runs and the block takes
        the value (device indices of GPUs this machine lacks are checked above)."""
        ndev = gpufilter.cuda_device_count()
        for key, block_class in self.block_classes.items():
            for d in self.enum_params(block_class):
                for option in d["options"]:
                    if d["id"] == "device" and int(option) >= ndev:
                        continue
                    with self.subTest(block=key, param=d["id"], option=option):
                        block = self.make_block(key, {d["id"]: option})
                        self.run_make(block)

    def make_block(self, key, values=None):
        flow_graph = self.platform.make_flow_graph()
        block = flow_graph.new_block(key)
        block.params["id"].set_value("blk")
        for name, value in PARAM_VALUES.items():
            if name in block.params:
                block.params[name].set_value(value)
        if "device" in block.params:
            block.params["device"].set_value(str(gpufilter.device_cpu))
        for name, value in (values or {}).items():
            block.params[name].set_value(value)
        flow_graph.rewrite()
        flow_graph.validate()
        errors = [e for e in block.get_error_messages() if "Port is not connected" not in e]
        self.assertEqual(errors, [], f"GRC rejects {key} with {values}")
        return block

    def run_make(self, block):
        """What GRC's generated top block does: imports, then self.<id> = <make>."""
        namespace = {"self": types.SimpleNamespace()}
        exec(block.templates.render("imports"), namespace)
        exec("self.blk = " + block.templates.render("make"), namespace)
        made = namespace["self"].blk
        if "device" in block.params:
            device = int(block.params["device"].get_value())
            if device >= 0:
                self.assertEqual(made.device(), device)
            elif device == gpufilter.device_cpu:
                self.assertFalse(made.on_gpu())
        method = block.params["method"].get_value() if "method" in block.params else None
        if method in ("direct", "fft") and made.on_gpu():
            self.assertEqual(made.method(), method)


if __name__ == "__main__":
    gr_unittest.run(qa_grc_blocks)
