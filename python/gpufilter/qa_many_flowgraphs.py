#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Several flowgraphs at once on one GPU, and blocks on two GPUs.

Eight flowgraphs in eight threads share one GPU, each with another block (from
block_table), taps and input, each checked against gr-filter. With two or more CUDA
devices, blocks made with device=0 and device=1 must hold their buffers on, and run
their work on, that device (asked of the CUDA runtime through gpufilter_test_hooks),
and give the same output; with fewer the test skips (also under
GPUFILTER_REQUIRE_GPU=1: a one-GPU host cannot run it)."""

import threading

import numpy as np
from gnuradio import gpufilter, gr_unittest

import block_table
import gpufilter_test_hooks
from gpu_test_support import GPU_REQUIRED, gpu_count

NAMES = ["fir_filter_ccf", "fir_filter_fff", "fft_filter_ccc", "freq_xlating_fir_filter_ccf",
         "hilbert_fc", "pfb_channelizer_ccf", "pfb_decimator_ccf", "fir_filter_fcc"]


class qa_many_flowgraphs(gr_unittest.TestCase):
    def test_eight_flowgraphs_in_eight_threads(self):
        gpus = gpu_count()
        table = {e.name: e for e in block_table.available()}
        results = {}

        def one(i, e):
            try:
                rng = np.random.default_rng(100 + i)
                taps = e.taps(rng)
                inputs = e.inputs(rng, 20000 + 977 * i)
                ours, got, want = block_table.run(e, inputs, taps, batch_size=4096,
                                                  timeout=120)
                results[i] = (e.name, ours.on_gpu(), got, want, e.tolerance)
            except Exception as err:  # reported by the main thread
                results[i] = err

        threads = [threading.Thread(target=one, args=(i, table[name]))
                   for i, name in enumerate(NAMES)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        self.assertEqual(len(results), len(NAMES))
        for i in range(len(NAMES)):
            r = results[i]
            if isinstance(r, Exception):
                raise r
            name, on_gpu, got, want, tolerance = r
            if GPU_REQUIRED or gpus:
                self.assertTrue(on_gpu, name)
            for q, (g, w) in enumerate(zip(got, want)):
                self.assertEqual(len(g), len(w), f"{name} port {q}")
                self.assertLessEqual(block_table.relative_error(g, w), tolerance,
                                     f"{name} port {q}")

    def test_two_gpus(self):
        if gpu_count() < 2:
            self.skipTest(f"{gpufilter.cuda_device_count()} CUDA device(s): the two-GPU "
                          "test needs 2")
        rng = np.random.default_rng(7)
        for e in block_table.available():
            if e.name not in ("fir_filter_ccf", "freq_xlating_fir_filter_ccf",
                              "pfb_channelizer_ccf", "fft_filter_ccc"):
                continue
            taps = e.taps(rng)
            inputs = e.inputs(rng, 50000)
            outputs = []
            for device in (0, 1):
                ours, got, want = block_table.run(e, inputs, taps, device=device,
                                                  batch_size=8192)
                uid = ours.unique_id()
                self.assertEqual(ours.device(), device)
                self.assertEqual(gpufilter_test_hooks.block_memory_device(uid), device,
                                 f"{e.name}: buffers")
                self.assertEqual(gpufilter_test_hooks.block_work_device(uid), device,
                                 f"{e.name}: work thread")
                for g, w in zip(got, want):
                    self.assertLessEqual(block_table.relative_error(g, w), e.tolerance)
                outputs.append(got)
            for g0, g1 in zip(*outputs):
                self.assertLessEqual(block_table.relative_error(g1, g0), 1e-6,
                                     f"{e.name}: device 0 and 1 differ")

    def test_device_hooks_on_one_block(self):
        """The hooks report the block's device (device_cpu on the CPU fallback)."""
        e = {x.name: x for x in block_table.available()}["fir_filter_ccf"]
        rng = np.random.default_rng(3)
        ours, got, want = block_table.run(e, e.inputs(rng, 5000), e.taps(rng),
                                          batch_size=1024)
        expect = 0 if ours.on_gpu() else gpufilter.device_cpu
        self.assertEqual(gpufilter_test_hooks.block_memory_device(ours.unique_id()), expect)
        self.assertEqual(gpufilter_test_hooks.block_work_device(ours.unique_id()), expect)


if __name__ == "__main__":
    gr_unittest.run(qa_many_flowgraphs)
