#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The FM receiver's chains with device buffers: the same audio with them on and off
(emulated in host memory without a GPU; on a GPU, one upload and one download); the
receiver's device_buffers argument against the module's switch (on by default); and
the benchmark's three series (CPU chain, GPU chain with host and with device buffers)
with its blocks.copy reference, through the CSV and the plot."""

import importlib.util
import os
import shutil
import sys
import tempfile

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio.gpufilter import fm_band, fm_receiver

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpufilter_test_hooks as hooks  # noqa: E402
from gpu_test_support import gpu_count, relative_error  # noqa: E402
from qa_fm_receiver import (APPS, MIN_CORRELATION, RATE, SECONDS, STATIONS,  # noqa: E402
                            aligned_correlation)


class qa_fm_device_buffers(gr_unittest.TestCase):
    """Both chains with device buffers on and off: the same audio. Without a GPU our
    blocks run on their CPU fallback with device buffers emulated in host memory, so
    the scheduler's side (device-side edges between the GPU stages, host edges at
    both ends) runs here too; on a GPU the PCIe counters say one upload and one
    download."""

    @classmethod
    def setUpClass(cls):
        cls.gpus = gpu_count()
        hooks.emulate_device_buffers(cls.gpus == 0)
        cls.backend = "gpu" if cls.gpus else "fallback"
        cls.band, cls.refs = fm_band.band_samples(SECONDS, RATE, STATIONS, snr_db=30,
                                                  pilot=True, seed=5, period=1.0)

    @classmethod
    def tearDownClass(cls):
        hooks.emulate_device_buffers(False)

    def receive(self, chain, device_buffers):
        tb = gr.top_block()
        src = blocks.vector_source_c(self.band.tolist())
        rx = fm_receiver.fm_receiver(RATE, STATIONS[2], chain, 128, self.backend,
                                     device_buffers=device_buffers)
        sink = blocks.vector_sink_f()
        tb.connect(src, rx, sink)
        before = hooks.device_buffer_bytes()
        tb.start()
        tb.wait()
        held = hooks.device_buffer_bytes() - before   # the flowgraph is still alive
        return rx, np.array(sink.data()), held

    def test_001_same_audio(self):
        # The module's switch as a program finds it: on.
        self.assertTrue(fm_receiver.gpu.get_device_buffers())
        for chain in fm_receiver.CHAINS:
            with self.subTest(chain=chain):
                rx_on, on, held_on = self.receive(chain, True)
                rx_off, off, held_off = self.receive(chain, False)
                self.assertTrue(rx_on.device_buffers)
                self.assertFalse(rx_off.device_buffers)
                # The receiver's own switch leaves the module's as it was: on.
                self.assertTrue(fm_receiver.gpu.get_device_buffers())
                # Device-side edges exist only with them on, between the GPU stages.
                n = len(rx_on.gpu_blocks)
                self.assertGreaterEqual(held_on, (n - 1) * 1024 * 4, chain)
                self.assertLessEqual(held_off, 0, chain)
                self.assertEqual(len(on), int(SECONDS * fm_receiver.AUDIO_RATE))
                self.assertEqual(len(on), len(off))
                # No resampler at 2.4 MS/s: the audio decimator's output is the audio.
                self.assertEqual(rx_on.gpu_output_bytes(), len(on) * gr.sizeof_float)
                err = relative_error(on, off)
                corr = aligned_correlation(on, self.refs[2])
                print(f"{chain}, {self.backend}: device buffers on/off relative "
                      f"difference {err:.2e}, correlation {corr:.3f}")
                self.assertLess(err, 1e-5, chain)
                self.assertGreaterEqual(corr, MIN_CORRELATION, chain)
                up, down = rx_on.pcie_bytes()
                if self.gpus:
                    self.assertTrue(rx_on.on_gpu())
                    self.assertEqual(up, self.band.nbytes, chain)
                    self.assertEqual(down, rx_on.gpu_output_bytes(), chain)
                    up_off, down_off = rx_off.pcie_bytes()
                    self.assertGreater(up_off, up, chain)
                    self.assertGreater(down_off, down, chain)
                else:
                    self.assertEqual((up, down), (0, 0))

    def test_001b_module_switch(self):
        """device_buffers=None follows the module's switch; True or False overrides
        it for the receiver's blocks only, and the switch is put back either way."""
        gpu = fm_receiver.gpu
        previous = gpu.get_device_buffers()
        self.addCleanup(gpu.set_device_buffers, previous)
        for switch in (True, False):
            gpu.set_device_buffers(switch)
            with self.subTest(switch=switch):
                rx, audio, held = self.receive("wbfm", None)
                self.assertEqual(rx.device_buffers, switch)
                self.assertEqual(held > 0, switch)
                self.assertEqual(len(audio), int(SECONDS * fm_receiver.AUDIO_RATE))
                self.assertEqual(gpu.get_device_buffers(), switch)
                rx, _, held = self.receive("wbfm", not switch)
                self.assertEqual(rx.device_buffers, not switch)
                self.assertEqual(held > 0, not switch)
                self.assertEqual(gpu.get_device_buffers(), switch)
                # The CPU chain uses none, whatever the switch says.
                cpu = fm_receiver.fm_receiver(RATE, STATIONS[2], "wbfm", 128, "cpu")
                self.assertFalse(cpu.device_buffers)

    def test_002_benchmark_three_series(self):
        """fm_bench on small sizes: the CPU chain and the GPU chain with host and with
        device buffers per tap count, the blocks.copy reference, the CSV back and the
        plot; an older CSV (host-buffer series only) still plots."""
        sys.path.insert(0, APPS)
        try:
            import fm_bench
        finally:
            sys.path.remove(APPS)
        # Each GPU series names its buffers, whatever the module's switch says.
        with self.assertRaises(ValueError):
            fm_bench.time_chain("unused.cf32", RATE, 300e3, "classic", 16, self.backend,
                                0.1)
        lines = []
        rows = fm_bench.run("classic", [16, 48], 0.1, 5.0, gpu_backend=self.backend,
                            log=lines.append)
        self.assertEqual([r["taps"] for r in rows], [16, 48])
        self.assertIn("blocks.copy", lines[0])
        for r in rows:
            for key in ("gpu_s", "gpu_dev_s", "cpu_s", "copy_s"):
                self.assertGreater(r[key], 0, key)
            # The CSV's times are rounded to 0.1 ms; these runs take milliseconds.
            ratio = r["copy_s"] / r["gpu_dev_s"]
            self.assertAlmostEqual(r["dev_vs_copy"], ratio, delta=0.05 * ratio + 1e-3)
            self.assertEqual(r["on_gpu"], bool(self.gpus))
            if self.gpus:
                self.assertEqual(r["mb_to_device_dev"],
                                 round(0.1 * RATE * gr.sizeof_gr_complex / 1e6, 3))
                self.assertGreater(r["mb_to_device"], r["mb_to_device_dev"])
        tmp = tempfile.mkdtemp(prefix="qa_fm_device_buffers_")
        self.addCleanup(shutil.rmtree, tmp, True)
        csv_path = os.path.join(tmp, "fm.csv")
        fm_bench.write_csv(rows, csv_path)
        back = fm_bench.read_csv(csv_path)
        self.assertEqual(list(back[0]), list(fm_bench.FIELDS))
        self.assertEqual([fm_bench.format_row(r) for r in back],
                         [fm_bench.format_row(r) for r in rows])
        old_path = os.path.join(tmp, "old.csv")
        old_fields = fm_bench.FIELDS[:8]
        with open(old_path, "w") as f:
            f.write(",".join(old_fields) + "\n")
            for r in rows:
                f.write(",".join(str(r[k]) for k in old_fields) + "\n")
        old = fm_bench.read_csv(old_path)
        self.assertIsNone(fm_bench.series(old, "gpu_dev_s"))
        self.assertIn(" - ", fm_bench.format_row(old[0]))
        if importlib.util.find_spec("matplotlib") is None:
            self.skipTest("no matplotlib: the plots are not drawn")
        for name, data in (("new.png", back), ("old.png", old)):
            png = os.path.join(tmp, name)
            self.assertTrue(fm_bench.plot(data, png))
            self.assertGreater(os.path.getsize(png), 1000)


if __name__ == "__main__":
    gr_unittest.run(qa_fm_device_buffers)
